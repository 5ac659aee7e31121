"""Hybrid retrieval: vector top-k fused with BM25 keyword ranking, behind a relevance floor.

Both signals are put on an absolute 0..1 scale before they are mixed, so the fused score says how
relevant a chunk is, not only how it ranks: that is what lets a floor turn an unrelated question
into no context at all instead of the five least irrelevant chunks. The keyword index lives in the
store's database (rrag/store/keywords.py), so every process sees the same one and nothing is rebuilt.
"""

from __future__ import annotations

from rrag.index import ChunkIndex
from rrag.keywords import keyword_terms
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import Chunk, RetrievedChunk

# Fusion weights. The embedding carries meaning across paraphrases ("vacation" ~ "annual leave");
# BM25 rewards the exact terms (names, codes, numbers) the embedding blurs.
VECTOR_WEIGHT = 0.7
KEYWORD_WEIGHT = 1.0 - VECTOR_WEIGHT
# Candidates taken from each ranking before fusion, as a multiple of top_k (and at least MIN_CANDIDATES).
CANDIDATE_FACTOR = 4
MIN_CANDIDATES = 20
# The relevance floor (settings.relevance_floor, default 0.18) was calibrated on the HR handbook of
# tests/fixtures_docs.py with MiniLM and these weights: the top fused score of 18 related questions,
# phrased unlike the text, ranged 0.22-0.62; for 8 plainly unrelated ones ("What is the capital of
# Mongolia?") it stayed at or below 0.11. Questions that share the corpus's words but not its topic
# ("annual rainfall in London?") land at 0.18-0.25 and may retrieve context: the verifier, not the
# floor, must catch answers built on it.


class HybridRetriever:
    """`retrieve(query)` returns up to top_k chunks whose fused relevance clears the floor."""

    def __init__(self, index: ChunkIndex, store: Store, settings: Settings) -> None:
        self.index = index
        self.store = store
        self.settings = settings

    def retrieve(self, query: str, top_k: int | None = None) -> list[RetrievedChunk]:
        k = top_k or self.settings.top_k
        if not query.strip():
            return []
        n_candidates = max(k * CANDIDATE_FACTOR, MIN_CANDIDATES)
        vector_hits = self.index.query(query, n_candidates)
        if not vector_hits:
            return []
        chunks: dict[str, Chunk] = {}
        vector_scores: dict[str, float] = {}
        for chunk, similarity in vector_hits:
            chunks[chunk.chunk_id] = chunk
            vector_scores[chunk.chunk_id] = max(similarity, 0.0)
        terms = keyword_terms(query)
        matches = self.store.keyword_matches(terms, limit=n_candidates, also=list(chunks))
        keyword_scores = matches.scores(terms)
        fused = sorted(
            (
                (VECTOR_WEIGHT * vector_scores.get(i, 0.0) + KEYWORD_WEIGHT * keyword_scores.get(i, 0.0), i)
                for i in {*vector_scores, *matches.candidates}
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        best = [(score, i) for score, i in fused if score >= self.settings.relevance_floor][:k]
        # Chunks found by keyword only are read from the index (a row the index lacks is left out).
        chunks.update((c.chunk_id, c) for c in self.index.get([i for _, i in best if i not in chunks]))
        return [
            RetrievedChunk(chunks[i], score, vector_scores.get(i, 0.0), keyword_scores.get(i, 0.0))
            for score, i in best
            if i in chunks
        ]


def backfill_keywords(store: Store, index: ChunkIndex) -> int:
    """Copy into the keyword index the chunks of documents registered without them (before migration
    3 added it); returns how many documents were copied."""
    missing = store.documents_without_keywords()
    for doc_id in missing:
        store.save_document(store.get_document(doc_id), index.get_chunks(doc_id))
    return len(missing)
