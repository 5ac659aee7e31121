"""Hybrid retrieval: vector top-k fused with BM25 keyword ranking, behind a relevance floor.

Both signals are put on an absolute 0..1 scale before they are mixed, so the fused score says how
relevant a chunk is, not only how it ranks: that is what lets a floor turn an unrelated question
into no context at all instead of the five least irrelevant chunks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from rrag.index import ChunkIndex
from rrag.settings import Settings
from rrag.text import content_words
from rrag.types import Chunk, RetrievedChunk

# Fusion weights. The embedding carries meaning across paraphrases ("vacation" ~ "annual leave");
# BM25 rewards the exact terms (names, codes, numbers) the embedding blurs.
VECTOR_WEIGHT = 0.7
KEYWORD_WEIGHT = 1.0 - VECTOR_WEIGHT
# Candidates taken from each ranking before fusion, as a multiple of top_k (and at least MIN_CANDIDATES).
CANDIDATE_FACTOR = 4
MIN_CANDIDATES = 20
BM25_K1 = 1.2
BM25_B = 0.75
# The relevance floor (settings.relevance_floor, default 0.18) was calibrated on the HR handbook of
# tests/fixtures_docs.py with MiniLM and these weights: the top fused score of 18 related questions,
# phrased unlike the text, ranged 0.22-0.62; for 8 plainly unrelated ones ("What is the capital of
# Mongolia?") it stayed at or below 0.11. Questions that share the corpus's words but not its topic
# ("annual rainfall in London?") land at 0.18-0.25 and may retrieve context: the verifier, not the
# floor, must catch answers built on it.


@dataclass(frozen=True)
class _Postings:
    docs: np.ndarray  # chunk positions holding the term
    tf: np.ndarray  # term frequency in each of those chunks


class KeywordIndex:
    """Okapi BM25 over chunk texts (stemmed content words), with scores scaled to 0..1.

    A chunk's score is divided by the most any chunk could score for the whole query, counting
    query terms the corpus lacks at the highest idf: a query about things absent from the corpus
    ("capital of Mongolia") therefore scores near 0 even where one common word matches.
    """

    def __init__(self, chunks: Sequence[Chunk], tokens: Sequence[list[str]]) -> None:
        self.chunks = list(chunks)
        n = len(chunks)
        self._lengths = np.array([len(t) for t in tokens], dtype=np.float64)
        self._avg_length = float(self._lengths.mean()) if n else 1.0
        counts: dict[str, dict[int, int]] = {}
        for position, terms in enumerate(tokens):
            for term in terms:
                per_doc = counts.setdefault(term, {})
                per_doc[position] = per_doc.get(position, 0) + 1
        self._postings = {
            term: _Postings(
                np.fromiter(per_doc.keys(), np.int64, len(per_doc)),
                np.fromiter(per_doc.values(), np.float64, len(per_doc)),
            )
            for term, per_doc in counts.items()
        }
        self._n = n
        self._max_idf = self._idf(0)

    def _idf(self, df: int) -> float:
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    def scores(self, query: str) -> np.ndarray:
        """Scaled BM25 score of every chunk for `query`, in 0..1."""
        terms = content_words(query)
        out = np.zeros(self._n, dtype=np.float64)
        if not terms or not self._n:
            return out
        norm = BM25_K1 * (1 - BM25_B + BM25_B * self._lengths / max(self._avg_length, 1e-9))
        ceiling = 0.0
        for term in terms:
            postings = self._postings.get(term)
            if postings is None:
                ceiling += self._max_idf * (BM25_K1 + 1)
                continue
            idf = self._idf(len(postings.docs))
            ceiling += idf * (BM25_K1 + 1)
            tf = postings.tf
            out[postings.docs] += idf * tf * (BM25_K1 + 1) / (tf + norm[postings.docs])
        return out / ceiling


class HybridRetriever:
    """`retrieve(query)` returns up to top_k chunks whose fused relevance clears the floor."""

    def __init__(self, index: ChunkIndex, settings: Settings) -> None:
        self.index = index
        self.settings = settings
        self._keyword: tuple[str, KeywordIndex] | None = None
        self._tokens: dict[tuple[str, str], list[str]] = {}

    def retrieve(self, query: str, top_k: int | None = None) -> list[RetrievedChunk]:
        k = top_k or self.settings.top_k
        if not query.strip():
            return []
        n_candidates = max(k * CANDIDATE_FACTOR, MIN_CANDIDATES)
        vector_hits = self.index.query(query, n_candidates)
        if not vector_hits:
            return []
        candidates: dict[str, Chunk] = {}
        vector_scores: dict[str, float] = {}
        for chunk, similarity in vector_hits:
            candidates[chunk.chunk_id] = chunk
            vector_scores[chunk.chunk_id] = max(similarity, 0.0)
        keyword = self._keyword_index()
        keyword_all = keyword.scores(query)
        keyword_scores = {c.chunk_id: float(s) for c, s in zip(keyword.chunks, keyword_all)}
        for position in np.argsort(-keyword_all)[:n_candidates]:
            if keyword_all[position] > 0:
                chunk = keyword.chunks[position]
                candidates.setdefault(chunk.chunk_id, chunk)
        fused = []
        for chunk_id, chunk in candidates.items():
            v = vector_scores.get(chunk_id, 0.0)
            kw = keyword_scores.get(chunk_id, 0.0)
            fused.append(RetrievedChunk(chunk, VECTOR_WEIGHT * v + KEYWORD_WEIGHT * kw, v, kw))
        fused.sort(key=lambda rc: (-rc.score, rc.chunk.chunk_id))
        return [rc for rc in fused if rc.score >= self.settings.relevance_floor][:k]

    def _keyword_index(self) -> KeywordIndex:
        """BM25 over all indexed chunks, rebuilt when the index version changes; texts already seen
        are not tokenised again."""
        version = self.index.version
        if self._keyword is None or self._keyword[0] != version:
            chunks = self.index.all_chunks()
            keys = [(c.chunk_id, c.text) for c in chunks]
            self._tokens = {key: self._tokens.get(key) or content_words(key[1]) for key in keys}
            self._keyword = (version, KeywordIndex(chunks, [self._tokens[key] for key in keys]))
        return self._keyword[1]
