"""The offline verifier until a trained model lands: evidence first, then the cheap signals that work.

For each claim the chunks' sentences (and pairs of adjacent sentences) are ranked by how much of the
claim they cover; the best one is the evidence. On it: content-word coverage, numbers and months
(another value in the same slot contradicts, a missing one leaves the claim unsupported), negation
and a few antonyms (contradiction).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rrag.text import (
    MONTH_NAMES,
    Quantity,
    content_words,
    month_mentions,
    months,
    negation_count,
    quantities,
    same_amount,
    split_sentences,
    stem,
    value_clashes,
    words,
)
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify.base import Verifier
from rrag.verify.evidence import evidence_at, not_verified, nothing_retrieved

SUPPORTED_COVERAGE = 0.8  # share of the claim's (weighted) content words the evidence must hold
PARTIAL_COVERAGE = 0.6  # below this the evidence is about something else
CONTRADICTION_COVERAGE = 0.7  # negation and antonyms only contradict evidence about the same thing
SAME_TOPIC = 0.7  # share of the claim's non-number words the evidence must hold for a value clash
NUMBER_WEIGHT = 2.0  # a number carries more of a claim's meaning than a word
TABLE_CELL_SEPARATOR = " | "  # how extracted tables separate cells
NAME = "lexical"
# The hard evidence against a claim that the rules can hold (see LexicalVerifier.assess).
VALUE, NEGATION, OPPOSITE, UNSTATED = "value", "negation", "opposite", "unstated"
NEGATED_EVIDENCE = "negated evidence"  # weak: a "not" anywhere in the evidence window
_ANTONYMS = [
    ("mandatory", "optional"),
    ("required", "optional"),
    ("allowed", "prohibited"),
    ("allowed", "forbidden"),
    ("permitted", "prohibited"),
    ("permitted", "forbidden"),
    ("increase", "decrease"),
    ("minimum", "maximum"),
    ("included", "excluded"),
    ("paid", "unpaid"),
    ("before", "after"),
    ("accepted", "rejected"),
    ("approved", "rejected"),
    ("internal", "external"),
    ("public", "private"),
    ("always", "never"),
    ("encrypted", "unencrypted"),
    ("eligible", "ineligible"),
    ("full", "part"),
]
ANTONYMS = frozenset((stem(a), stem(b)) for a, b in _ANTONYMS) | frozenset(
    (stem(b), stem(a)) for a, b in _ANTONYMS
)


# What states nothing a source could hold: an answer's preamble ("Based on the given passages, ..."),
# a leading hedge ("I'm not sure, but ...", "No, but ...", "Not really, ...": it negates nothing after
# it) and words of conversation ("Yes, like good riddance"). A claim is judged on the rest.
_PREAMBLE = re.compile(
    r"\W*(?:based on|according to|from|in)\s+(?:the\s+)?(?:given|provided|above|available|retrieved)?\s*"
    r"(?:passages?|context|documents?|information|texts?|sources?)\s*,",
    re.IGNORECASE,
)
_LEADING_CLAUSE = re.compile(r"\s*([^,.;:!?]{0,80}?)\s*(?:,|\bbut\b)", re.IGNORECASE)  # a hedge is short
_HEDGE_WORDS = frozenset(
    stem(w) for w in "im m know sure really think certain remember recall believe idea".split()
)
_HEDGE_MAX_WORDS = 6
_DISCOURSE_WORDS = frozenset(
    stem(w)
    for w in """yes yeah yep hi hello hey oh ok okay actually basically
    however moreover furthermore additionally indeed overall""".split()
)


def _asserted(text: str) -> str:
    """`text` less a leading preamble or hedge."""
    preamble = _PREAMBLE.match(text)
    if preamble:
        return text[preamble.end() :]
    lead = _LEADING_CLAUSE.match(text)
    return text[lead.end() :] if lead and _is_hedge(lead.group(1)) else text


def _is_hedge(clause: str) -> bool:
    return (
        len(words(clause)) <= _HEDGE_MAX_WORDS
        and set(content_words(clause)) <= _HEDGE_WORDS
        and negation_count(clause) > 0
    )


@dataclass(frozen=True)
class _Text:
    """What the verifier compares, computed once per claim and per evidence candidate."""

    text: str
    terms: frozenset[str]  # stemmed content words
    topic: frozenset[str]  # the terms less numbers, their units and months: what the claim is about
    weight: float  # the terms' total weight, the denominator of coverage
    stems: frozenset[str]  # every word stemmed (antonyms include stopwords such as "before")
    numbers: tuple[Quantity, ...]
    months: frozenset[int]
    negated: bool

    @classmethod
    def of(cls, text: str) -> _Text:
        asserted = _asserted(text)
        terms = frozenset(content_words(asserted)) - _DISCOURSE_WORDS
        numbers = tuple(quantities(text))
        # The topic is what the values are of: "12 months" and "2 years" of a warranty are one topic.
        slots = {stem(w) for q in numbers for w in _PLAIN_WORD.findall(q.written(text).lower())}
        return cls(
            text=text,
            terms=terms,
            topic=frozenset(t for t in terms if not _is_slot(t) and t not in slots),
            weight=sum(_weight(t) for t in terms),
            stems=frozenset(stem(w) for w in words(text)),
            numbers=numbers,
            months=frozenset(months(text)),
            negated=negation_count(asserted) > 0,
        )


@dataclass(frozen=True)
class _Candidate:
    chunk: Chunk
    start: int
    end: int
    features: _Text


class LexicalVerifier(Verifier):
    name = NAME

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        return [verdict for verdict, _ in self.assess(claims, contexts)]

    def assess(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk]
    ) -> list[tuple[Verdict, str | None]]:
        """Each claim's verdict, and the hard evidence against the claim it rests on, if any: VALUE (a
        value clash), NEGATION (the claim negates the evidence), NEGATED_EVIDENCE (only the evidence
        is negated), OPPOSITE (an opposite word) or UNSTATED (a number the evidence never states).
        Other verifiers use these as a veto (rrag/verify/guarded.py)."""
        chunks = tuple(rc.chunk for rc in contexts)
        return [_assessed(claim.text, chunks) for claim in claims]


# The model reads the rules' verdict on each claim sentence as a feature and the guard as a veto: the
# same sentence against the same chunks, judged once (a verdict depends on the claim's text only).
@lru_cache(maxsize=1024)
def _assessed(text: str, chunks: tuple[Chunk, ...]) -> tuple[Verdict, str | None]:
    candidates = [candidate for chunk in chunks for candidate in _chunk_candidates(chunk)]
    if not candidates:
        return nothing_retrieved(NAME), None
    c = _Text.of(text)
    if not c.terms:
        return not_verified(NAME, "the claim has no content words to compare"), None
    best = _best(c, candidates)
    return _conflict(text, c, best) or (_by_coverage(text, c, best), None)


def _by_coverage(text: str, c: _Text, best: _Candidate) -> Verdict:
    e = best.features
    coverage = _coverage(c, e)
    evidence = evidence_at(best.chunk, best.start, best.end)
    absent = _absent_words(text, c, e)
    if coverage >= SUPPORTED_COVERAGE:
        confidence = 0.6 + 0.35 * (coverage - SUPPORTED_COVERAGE) / (1 - SUPPORTED_COVERAGE)
        extra = f"; not in it: {absent}" if absent else ""
        return Verdict(
            ClaimStatus.SUPPORTED,
            confidence,
            NAME,
            f"the evidence states the claim's facts{extra}",
            evidence,
            support_score=coverage,
        )
    if coverage >= PARTIAL_COVERAGE:
        return Verdict(
            ClaimStatus.PARTIAL,
            0.5,
            NAME,
            f"the evidence states part of the claim; not in it: {absent}",
            evidence,
            support_score=coverage,
        )
    confidence = 0.6 + 0.35 * (PARTIAL_COVERAGE - coverage) / PARTIAL_COVERAGE
    return Verdict(
        ClaimStatus.UNSUPPORTED,
        confidence,
        NAME,
        f"no retrieved text states it; not found: {absent}",
        evidence,
        support_score=coverage / 2,
    )


def _conflict(text: str, c: _Text, best: _Candidate) -> tuple[Verdict, str] | None:
    e = best.features
    coverage = _coverage(c, e)

    def verdict(
        status: ClaimStatus, confidence: float, support: float, reason: str, clash: ValueClash | None = None
    ) -> Verdict:
        evidence = evidence_at(best.chunk, best.start, best.end)
        return Verdict(status, confidence, NAME, reason, evidence, support_score=support, clash=clash)

    def clashing(clash: ValueClash, confidence: float) -> tuple[Verdict, str]:
        reason = f"the evidence says {clash.evidence_value!r} where the claim says {clash.claim_value!r}"
        return verdict(ClaimStatus.CONTRADICTED, confidence, 0.05, reason, clash), VALUE

    # Another amount of the same measure contradicts when the rest of the claim is what the evidence is about.
    about_the_same = _share(c.topic, e.topic) >= SAME_TOPIC
    missing = [q for q in c.numbers if not _has_value(e.numbers, q)]
    clashes = value_clashes(c.numbers, e.numbers)
    if about_the_same and clashes:
        said, found = clashes[0]
        end = max(said.end, said.unit_end)
        return clashing(ValueClash(said.written(text), found.written(e.text), said.start, end), 0.8)
    if about_the_same and c.months - e.months and e.months - c.months:
        said_month = next(m for m in month_mentions(text) if m[0] not in e.months)
        found_month = next(m for m in month_mentions(e.text) if m[0] not in c.months)
        _, start, end = said_month
        return clashing(
            ValueClash(text[start:end], e.text[found_month[1] : found_month[2]], start, end), 0.75
        )
    if coverage >= CONTRADICTION_COVERAGE and c.negated != e.negated:
        which = "claim" if c.negated else "evidence"
        # A claim that negates what the evidence states is strong evidence; a "not" somewhere in the
        # evidence window is weak: of 40 such one-sentence dev claims the model accepted, 30 were
        # supported (of 24 negated claims, 6).
        return (
            verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, f"the {which} is negated and the other is not"),
            NEGATION if c.negated else NEGATED_EVIDENCE,
        )
    opposite = next(
        (
            (a, b)
            for a, b in ANTONYMS
            if a in c.stems and b in e.stems and b not in c.stems and a not in e.stems
        ),
        None,
    )
    if coverage >= CONTRADICTION_COVERAGE and opposite:
        said, found = _word_with_stem(text, opposite[0]), _word_with_stem(e.text, opposite[1])
        return verdict(
            ClaimStatus.CONTRADICTED, 0.7, 0.1, f"the evidence says {found!r} where the claim says {said!r}"
        ), OPPOSITE
    if missing or c.months - e.months:
        what = ", ".join(repr(text[q.start : q.end]) for q in missing) or "the month"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, f"the evidence does not state {what}"), UNSTATED
    return None


def _best(c: _Text, candidates: list[_Candidate]) -> _Candidate:
    return max(candidates, key=lambda cand: _rank(c, cand.features))


@lru_cache(maxsize=1024)  # the same chunks come back for question after question
def _chunk_candidates(chunk: Chunk) -> tuple[_Candidate, ...]:
    """Each sentence of the chunk, and each pair of adjacent sentences (a claim may join two). A
    table row ("Berlin | €48") is read with its table's header row, though the evidence is the row."""
    out = []
    text = chunk.text
    spans = split_sentences(text)
    header: str | None = None
    for i, span in enumerate(spans):
        is_row = TABLE_CELL_SEPARATOR in span.text
        header = (header or span.text) if is_row else None
        read_as = span.text if header in (None, span.text) else f"{header}\n{span.text}"
        out.append(_Candidate(chunk, span.start, span.end, _Text.of(read_as)))
        if i + 1 < len(spans):
            end = spans[i + 1].end
            out.append(_Candidate(chunk, span.start, end, _Text.of(text[span.start : end])))
    return tuple(out)


def clear_caches() -> None:
    """Forget the rules' work on chunks and claims (see rrag.verify.nli.clear_caches)."""
    _assessed.cache_clear()
    _chunk_candidates.cache_clear()


_MONTH_STEMS = frozenset(stem(m) for m in MONTH_NAMES)
_PLAIN_WORD = re.compile(r"[^\W_]+")


def _is_slot(term: str) -> bool:
    return term in _MONTH_STEMS or any(ch.isdigit() for ch in term)


def _share(terms: frozenset[str], evidence: frozenset[str]) -> float:
    return len(terms & evidence) / len(terms) if terms else 0.0


def _weight(term: str) -> float:
    return NUMBER_WEIGHT if any(ch.isdigit() for ch in term) else 1.0


def _coverage(claim: _Text, evidence: _Text) -> float:
    return sum(_weight(t) for t in claim.terms & evidence.terms) / claim.weight if claim.weight else 0.0


def _rank(claim: _Text, evidence: _Text) -> tuple[float, float]:
    # Matching numbers, then a value in the claim's slot (same unit), break near-ties; then the
    # shorter span wins (a sentence over a pair).
    slots = max(len(claim.numbers), 1)
    agreeing = sum(_has_value(evidence.numbers, q) for q in claim.numbers) / slots
    same_slot = (
        sum(any(q.unit and q.measure[0] == n.measure[0] for n in evidence.numbers) for q in claim.numbers)
        / slots
    )
    return round(_coverage(claim, evidence) + 0.1 * agreeing + 0.05 * same_slot, 6), -len(evidence.text)


def _has_value(numbers: Sequence[Quantity], q: Quantity) -> bool:
    return any(same_amount(q, n) for n in numbers)


def _absent_words(text: str, claim: _Text, evidence: _Text) -> str:
    """The claim's own words (not stems) that the evidence lacks, for the reason a user reads."""
    absent = claim.terms - evidence.terms
    shown = list(dict.fromkeys(w for w in words(text) if stem(w) in absent))
    return ", ".join(repr(w) for w in shown[:5])


def _word_with_stem(text: str, stemmed: str) -> str:
    return next((w for w in words(text) if stem(w) == stemmed), stemmed)
