"""Hybrid retrieval: vector top-k fused with BM25 keyword ranking, behind a relevance floor.

Both signals are put on an absolute 0..1 scale before they are mixed, so the fused score says how
relevant a chunk is, not only how it ranks: that is what lets a floor turn an unrelated question
into no context at all instead of the five least irrelevant chunks. The keyword index lives in the
store's database (rrag/store/keyword_index.py), so every process sees the same one and nothing is rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence

from rrag.retrieval.index import ChunkIndex
from rrag.retrieval.sentence_vectors import nearest_sentence, pack
from rrag.settings import Settings
from rrag.store import Store
from rrag.store.bm25 import KeywordMatches, keyword_terms
from rrag.types import RetrievedChunk

# Fusion weights. The embedding carries meaning across paraphrases ("vacation" ~ "annual leave");
# BM25 rewards the exact terms (names, codes, numbers) the embedding blurs.
VECTOR_WEIGHT = 0.7
KEYWORD_WEIGHT = 1.0 - VECTOR_WEIGHT
# Candidates taken from each ranking before fusion, as a multiple of top_k (and at least MIN_CANDIDATES).
CANDIDATE_FACTOR = 4
MIN_CANDIDATES = 20
# The relevance floor (settings.relevance_floor, default 0.33) sits in the middle of the gap between
# related and unrelated questions, with MiniLM, these weights and a chunk as near as its nearest
# sentence: the top fused score of the 26 related questions of the HR handbook (tests/fixtures_docs.py),
# phrased unlike the text, and of the answerable questions of data/demo, data/trust and data/leisure
# was at least 0.46; of 8 plainly unrelated ones on the handbook ("What is the capital of Mongolia?")
# at most 0.13, and of "What is the capital of France?" on the demo 0.20. Questions that share the
# corpus's words but not its topic ("What is the CEO's salary?" 0.32, "How many days are in a leap
# year?" 0.41 on the demo) may still retrieve context: the question-passage model and the verifier,
# not the floor, must catch answers built on it.


class HybridRetriever:
    """`retrieve(query)` returns up to top_k chunks whose fused relevance clears the floor."""

    def __init__(self, index: ChunkIndex, store: Store, settings: Settings) -> None:
        self.index = index
        self.store = store
        self.settings = settings

    def retrieve(self, query: str, top_k: int | None = None) -> list[RetrievedChunk]:
        return self.retrieve_many([query], top_k)[0]

    def retrieve_many(self, queries: Sequence[str], top_k: int | None = None) -> list[list[RetrievedChunk]]:
        """`retrieve` for each query, with one vector search, one read of the keyword index, at most one
        read of vectors (of keyword candidates the search did not rank) and one read of chunks for them
        all."""
        k = top_k or self.settings.top_k
        n_candidates = max(k * CANDIDATE_FACTOR, MIN_CANDIDATES)
        vectors = self.index.query_vectors(queries)
        hits = self.index.nearest(vectors, n_candidates)
        searched = [i for i, vector_hits in enumerate(hits) if vector_hits]  # none: blank, or an empty index
        terms = {i: keyword_terms(queries[i]) for i in searched}
        matches = dict(
            zip(
                searched,
                self.store.keyword_matches(
                    [(terms[i], [chunk_id for chunk_id, _ in hits[i]]) for i in searched], limit=n_candidates
                ),
            )
        )
        scores = {i: matches[i].scores(terms[i]) for i in matches}
        # A chunk is as near to a question as its nearest sentence (rrag/retrieval/sentence_vectors.py):
        # the vector of a chunk of several topics is near none of them. Every candidate, of the search
        # or of the keyword index, whose row keeps its sentences' vectors is scored so.
        near = {
            i: _nearer(hits[i], nearest_sentence(vector, matches[i].sentence_vectors))
            for i, vector in enumerate(vectors)
            if i in matches and vector is not None  # a searched query has a vector
        }
        ranked = [
            self._fuse(near[i], matches[i], scores[i], k) if i in matches else [] for i in range(len(hits))
        ]
        # A keyword candidate neither the vector search ranked nor its sentences scored (indexed before
        # sentence vectors were kept, in a folder not written since: read-only or damaged) is fused
        # above as if dissimilar. Where its own similarity could lift it into the best k, that
        # similarity is read and the query fused again: a chunk found by its code ("EXP-21555") among
        # thousands alike, which the search cannot tell apart, would otherwise lose to chunks that share
        # only the topic.
        rising = [
            self._could_rise(hits[i], near[i], matches[i], scores[i], ranked[i], k) if i in matches else []
            for i in range(len(hits))
        ]
        for i, similar in enumerate(self.index.similarities(vectors, rising)):  # reads nothing if none rise
            if similar:
                near[i] = near[i] + list(similar.items())
                ranked[i] = self._fuse(near[i], matches[i], scores[i], k)
        # Only the chunks that made a query's best are read (a row the index lacks is left out).
        chunks = {
            c.chunk_id: c for c in self.index.get(sorted({i for best in ranked for _, i, _, _ in best}))
        }
        return [
            [RetrievedChunk(chunks[i], score, v, kw) for score, i, v, kw in best if i in chunks]
            for best in ranked
        ]

    def _could_rise(
        self,
        vector_hits: list[tuple[str, float]],
        scored: list[tuple[str, float]],
        matches: KeywordMatches,
        keyword_scores: dict[str, float],
        best: list[tuple[float, str, float, float]],
        k: int,
    ) -> list[str]:
        """The keyword candidates without a similarity (`scored`: the search's hits and the chunks their
        sentences scored) that their own could lift into the best k (`best`, fused as if they had none):
        no chunk the search passed over is nearer than its last hit, so one whose keyword score cannot
        make up the rest is not read."""
        searched = dict(scored)
        bar = best[-1][0] if len(best) == k else self.settings.relevance_floor
        ceiling = VECTOR_WEIGHT * max(vector_hits[-1][1], 0.0)
        return [
            c
            for c in matches.candidates
            if c not in searched and ceiling + KEYWORD_WEIGHT * keyword_scores.get(c, 0.0) >= bar
        ]

    def _fuse(
        self,
        vector_hits: list[tuple[str, float]],
        matches: KeywordMatches,
        keyword_scores: dict[str, float],
        k: int,
    ) -> list[tuple[float, str, float, float]]:
        """(fused score, chunk id, vector score, keyword score) of the best `k` above the floor. Only
        chunks the registry holds count: the keyword index has a row for every chunk of a listed
        version, written with it, so a chunk it lacks (of a failed ingest, an unsettled version, a
        document being deleted) is never retrieved, whatever the vector index still holds."""
        vector_scores = {
            chunk_id: max(similarity, 0.0)
            for chunk_id, similarity in vector_hits
            if chunk_id in matches.chunk_terms
        }
        fused = []
        for i in {*vector_scores, *matches.candidates}:
            v, kw = vector_scores.get(i, 0.0), keyword_scores.get(i, 0.0)
            fused.append((VECTOR_WEIGHT * v + KEYWORD_WEIGHT * kw, i, v, kw))
        fused.sort(key=lambda row: (-row[0], row[1]))
        return [row for row in fused if row[0] >= self.settings.relevance_floor][:k]


def _nearer(vector_hits: list[tuple[str, float]], sentences: dict[str, float]) -> list[tuple[str, float]]:
    """Each candidate's similarity: its chunk's or its nearest sentence's, whichever is higher."""
    similar = dict(vector_hits)
    return [(c, max(similar.get(c, s), s)) for c, s in sentences.items()] + [
        (c, v) for c, v in vector_hits if c not in sentences
    ]


def backfill_keywords(store: Store, index: ChunkIndex) -> int:
    """Copy into the keyword index, with their sentence vectors, the chunks of documents registered
    without them (before migration 5 added it, or after a migration emptied it) or without their
    sentence vectors (before migration 15: each sentence is embedded once, on the first open after the
    upgrade); returns how many documents were copied."""
    missing = store.documents_to_backfill()
    for doc_id in missing:
        chunks = index.get_chunks(doc_id)
        _, of_chunks = index.embed_chunks([c.text for c in chunks])
        store.save_document(
            store.get_document(doc_id),
            chunks,
            {c.chunk_id: pack(rows) for c, rows in zip(chunks, of_chunks)},
        )
    return len(missing)
