"""The retrieval that rrag/retrieval/hybrid.py did before issue 13, kept only to measure against: an
in-process BM25 over every chunk read back from the vector index, rebuilt whenever the index changed.

Same fusion weights and floor as rrag.retrieval.hybrid; `benchmarks/bench_engine.py` prints the ratio.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Sequence

import numpy as np

from rrag.retrieval.hybrid import CANDIDATE_FACTOR, KEYWORD_WEIGHT, MIN_CANDIDATES, VECTOR_WEIGHT
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store.bm25 import BM25_B, BM25_K1, keyword_terms
from rrag.types import Chunk, RetrievedChunk


class KeywordIndex:
    """Okapi BM25 over chunk texts, with scores scaled to 0..1.

    A chunk's score is divided by the most any chunk could score for the whole query, counting
    query terms the corpus lacks at the highest idf: a query about things absent from the corpus
    ("capital of Mongolia") therefore scores near 0 even where one common word matches.
    """

    def __init__(self, chunks: Sequence[Chunk], tokens: Sequence[list[str]]) -> None:
        self.chunks = list(chunks)
        self.positions = {chunk.chunk_id: i for i, chunk in enumerate(self.chunks)}
        self._n = n = len(self.chunks)
        lengths = np.array([len(t) for t in tokens], dtype=np.int64)
        self._vocabulary: dict[str, int] = {}
        term_ids = np.fromiter(
            (self._vocabulary.setdefault(term, len(self._vocabulary)) for terms in tokens for term in terms),
            np.int64,
            int(lengths.sum()),
        )
        # Postings in CSR form: (term, chunk) pairs sorted by term, counted once per chunk.
        pairs, tf = np.unique(term_ids * max(n, 1) + np.repeat(np.arange(n), lengths), return_counts=True)
        self._docs = pairs % max(n, 1)
        self._tf = tf.astype(np.float64)
        self._starts = np.searchsorted(pairs // max(n, 1), np.arange(len(self._vocabulary) + 1))
        average = float(lengths.mean()) if n else 1.0
        self._norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / max(average, 1e-9))
        self._max_idf = self._idf(0)

    def _idf(self, df: int) -> float:
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    def scores(self, query: str) -> np.ndarray:
        """Scaled BM25 score of every chunk for `query`, in 0..1."""
        terms = keyword_terms(query)
        out = np.zeros(self._n, dtype=np.float64)
        if not terms or not self._n:
            return out
        ceiling = 0.0
        for term in terms:
            term_id = self._vocabulary.get(term)
            if term_id is None:
                ceiling += self._max_idf * (BM25_K1 + 1)
                continue
            begin, end = self._starts[term_id], self._starts[term_id + 1]
            docs, tf = self._docs[begin:end], self._tf[begin:end]
            idf = self._idf(end - begin)
            ceiling += idf * (BM25_K1 + 1)
            out[docs] += idf * tf * (BM25_K1 + 1) / (tf + self._norm[docs])
        return out / ceiling

    @staticmethod
    def top(scores: np.ndarray, n: int) -> list[int]:
        """Positions of the `n` best positive scores, best first."""
        if n < len(scores):
            best = np.argpartition(-scores, n)[:n]
        else:
            best = np.arange(len(scores))
        return [int(i) for i in best[np.argsort(-scores[best])] if scores[i] > 0]


class LegacyHybridRetriever:
    """`retrieve(query)` returns up to top_k chunks whose fused relevance clears the floor."""

    def __init__(self, index: ChunkIndex, settings: Settings) -> None:
        self.index = index
        self.settings = settings

    def retrieve_many(self, queries: Sequence[str], top_k: int | None = None) -> list[list[RetrievedChunk]]:
        return [self.retrieve(q, top_k) for q in queries if q.strip()]  # as the pipeline did

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
        keyword = _keyword_index(self.index)
        keyword_all = keyword.scores(query)
        for position in keyword.top(keyword_all, n_candidates):
            chunk = keyword.chunks[position]
            candidates.setdefault(chunk.chunk_id, chunk)
        fused = []
        for chunk_id, chunk in candidates.items():
            v = vector_scores.get(chunk_id, 0.0)
            position = keyword.positions.get(chunk_id)
            kw = 0.0 if position is None else float(keyword_all[position])
            fused.append(RetrievedChunk(chunk, VECTOR_WEIGHT * v + KEYWORD_WEIGHT * kw, v, kw))
        fused.sort(key=lambda rc: (-rc.score, rc.chunk.chunk_id))
        return [rc for rc in fused if rc.score >= self.settings.relevance_floor][:k]


class _KeywordCache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version: str | None = None
        self.keyword = KeywordIndex([], [])
        self.tokens: dict[tuple[str, str], list[str]] = {}


# One BM25 index per ChunkIndex, shared by every retriever over it: the app builds a new retriever
# whenever a setting changes, and rebuilding BM25 over 10k chunks takes seconds.
_keyword_caches: weakref.WeakKeyDictionary[ChunkIndex, _KeywordCache] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def _keyword_index(index: ChunkIndex) -> KeywordIndex:
    """BM25 over all indexed chunks, rebuilt when the index version changes; chunks already seen
    are not tokenised again."""
    with _caches_lock:
        cache = _keyword_caches.setdefault(index, _KeywordCache())
    with cache.lock:
        version = index.version
        if cache.version != version:
            chunks = index.all_chunks()
            keys = [(c.chunk_id, c.text) for c in chunks]
            cache.tokens = {key: cache.tokens.get(key) or keyword_terms(key[1]) for key in keys}
            cache.keyword = KeywordIndex(chunks, [cache.tokens[key] for key in keys])
            cache.version = version
        return cache.keyword
