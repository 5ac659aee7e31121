"""Cheap signals for claim verification: evidence windows, weighted coverage, the speaker's own words,
a record's share of the text, a negation on one side.

Plain Python over strings, built on the shared reading (rrag.text.read). The learned judge
(rrag/verify/nli.py) scores the windows picked here, and a small calibrated model combines its
output with these signals.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from rrag.lang.en.discourse import FIRST_PERSON
from rrag.text import Span, content_words, sentence_windows, split_sentences
from rrag.text.reading import read

MAX_WINDOW_WORDS = 56  # evidence windows of about 80 tokens: short pairs keep the judge fast


def claim_sentences(text: str) -> list[Span]:
    """Sentences of a claim worth checking: lead-ins ("Here is a summary:") and questions are
    skipped, unless nothing else is left, in which case the whole claim is judged."""
    spans = [s for s in split_sentences(text) if content_words(s.text) and not s.text.endswith((":", "?"))]
    if spans:
        return spans
    stripped = text.strip()
    start = text.find(stripped) if stripped else 0
    return [Span(stripped, start, start + len(stripped))]


def windows(text: str, max_words: int = MAX_WINDOW_WORDS) -> list[Span]:
    """The judge's evidence windows: `sentence_windows` of at most `max_words`, so that its pairs stay
    short (a long sentence becomes overlapping slices)."""
    return [span for span, _ in sentence_windows(text, max_words)]


class TermWeights:
    """Inverse document frequency over the windows of one context: rare words count more."""

    def __init__(self, documents: Iterable[Iterable[str]]) -> None:
        df: Counter[str] = Counter()
        n = 0
        for doc in documents:
            df.update(set(doc))
            n += 1
        self._df, self._n = df, max(n, 1)

    def __call__(self, term: str) -> float:
        return math.log(1.0 + (self._n + 1) / (self._df.get(term, 0) + 0.5))


def weighted_coverage(
    claim_terms: Sequence[str], evidence_terms: frozenset[str] | set[str], weight: TermWeights
) -> float:
    """Share of the claim's IDF-weighted content terms found in the evidence; 1.0 for no terms."""
    return coverage_of(claim_terms, weight)(evidence_terms)


def coverage_of(
    claim_terms: Sequence[str], weight: TermWeights
) -> Callable[[frozenset[str] | set[str]], float]:
    """`weighted_coverage` of the claim's terms in any evidence, their weights computed once (the
    model's candidate windows are ranked by it, every window of every chunk for each claim)."""
    weighted = [(t, weight(t)) for t in claim_terms]
    total = sum(w for _, w in weighted)
    if total == 0:
        return lambda evidence_terms: 1.0
    return lambda evidence_terms: sum(w for t, w in weighted if t in evidence_terms) / total


def coverage(items: AbstractSet[Any], pool: AbstractSet[Any]) -> float:
    """Share of `items` found in `pool`; 1.0 when there is nothing to find."""
    return 1.0 if not items else len(items & pool) / len(items)


# A key of a JSON record ('"OutdoorSeating":'): one per two to four words of an exported record.
_RECORD_KEY = re.compile(r'"[^"\n]{1,60}"\s*:')


def first_person(text: str) -> float:
    """1.0 where a sentence speaks of its speaker ("I love that show", "we went there in May"):
    documents rarely state that, and the dialogue and summary sets label it unsupported."""
    return float(FIRST_PERSON.search(text) is not None)


def record_share(texts: Iterable[str]) -> float:
    """How much of the retrieved text is a structured record: JSON keys per word, times 4, at most
    1.0 (a record exported as JSON is 1.0, prose 0.0)."""
    keys = n_words = 0
    for text in texts:
        keys += len(_RECORD_KEY.findall(text))
        n_words += len(text.split())
    return min(1.0, 4 * keys / max(n_words, 1))


def negation_mismatch(claim: str, evidence: str) -> float:
    """1.0 when exactly one of claim and evidence is negated: a frequent sign of contradiction."""
    return float((read(claim).negation_count > 0) != (read(evidence).negation_count > 0))
