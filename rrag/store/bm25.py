"""Keyword relevance: the terms of a text and Okapi BM25 scaled to 0..1, over statistics the store keeps.

The inverted index lives in the database that holds the document registry (SQLite FTS5, PostgreSQL
tsvector + GIN; rrag/store/keyword_index.py), written in the same transaction as a document's row. This
module is the arithmetic on what the store returns for one query, so the score means the same on
every backend.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from rrag.text import STOPWORDS, stem

BM25_K1 = 1.2
BM25_B = 0.75

_WORD = re.compile(r"[^\W_]+")


def keyword_terms(text: str) -> list[str]:
    """BM25 terms: lower-case stemmed words without stopwords. Cheaper than `rrag.text.content_words`
    (no per-character normalisation), which matters when tens of thousands of chunks are tokenised."""
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


@dataclass(frozen=True)
class KeywordMatches:
    """What the store read for one query, in one transaction: corpus size, mean chunk length, the
    document frequency of each query term, and the terms (and sentence vectors) of the chunks worth
    scoring."""

    chunks: int
    mean_length: float
    document_frequency: dict[str, int]
    candidates: list[str]  # chunk ids the database ranked best for the query, best first
    chunk_terms: dict[str, list[str]] = field(repr=False)  # candidates' and asked-for chunks' terms
    # their sentences' vectors as stored (rrag/retrieval/sentence_vectors.py), b"" where none were
    sentence_vectors: dict[str, bytes] = field(repr=False)

    def scores(self, query_terms: list[str]) -> dict[str, float]:
        """Scaled BM25 of every chunk in `chunk_terms`, in 0..1.

        A chunk's score is divided by the most any chunk could score for the whole query, counting
        query terms the corpus lacks at the highest idf: a query about things absent from the corpus
        ("capital of Mongolia") therefore scores near 0 even where one common word matches.
        """
        if not query_terms or not self.chunks:
            return {chunk_id: 0.0 for chunk_id in self.chunk_terms}
        idf = {t: self._idf(self.document_frequency.get(t, 0)) for t in set(query_terms)}
        ceiling = sum(idf[t] * (BM25_K1 + 1) for t in query_terms)
        out = {}
        for chunk_id, terms in self.chunk_terms.items():
            tf = Counter(terms)
            norm = BM25_K1 * (1 - BM25_B + BM25_B * len(terms) / max(self.mean_length, 1e-9))
            total = sum(idf[t] * tf[t] * (BM25_K1 + 1) / (tf[t] + norm) for t in query_terms if tf[t])
            out[chunk_id] = total / ceiling
        return out

    def _idf(self, df: int) -> float:
        return math.log(1.0 + (self.chunks - df + 0.5) / (df + 0.5))
