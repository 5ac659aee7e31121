"""Conflicting sources: retrieved documents that give different values for the same thing.

A claim can be quoted word for word from policy.pdf ("a warranty of 12 months") while faq.html says
"a 2-year warranty": both verdicts are honest, and the answer is still unreliable. For each value a
claim states, the retrieved sentences about the claim (they share most of its topic words) are read
for values of the same kind (money in one currency, a percentage, a duration, a count of the same
unit). The sources disagree when one states the claim's value and another, which never states it,
gives a different one with a word in common next to it ("warranty"): "sources disagree: 12 months
(policy.pdf) vs 2-year (faq.html)". One document listing several values (full-time 25 days,
part-time 15 days) is not a disagreement, nor are values of other things in the same sentences.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rrag.text import Quantity, content_words, quantities, split_sentences, stem, words
from rrag.types import ClaimResult, ClaimStatus, RetrievedChunk, Verdict

# Days per unit: "12 months" and "1 year" are the same warranty.
DAYS_PER = {
    stem(unit): days
    for unit, days in (
        ("second", 1 / 86400),
        ("minute", 1 / 1440),
        ("hour", 1 / 24),
        ("day", 1.0),
        ("week", 7.0),
        ("month", 365.25 / 12),
        ("year", 365.25),
    )
}
SAME_THING = 0.6  # share of the smaller topic the two sentences must have in common
MIN_SHARED_TERMS = 2
NEAR_WORDS = 3  # the words either side of a value that say what it is the value of
_UNIT_AS_WRITTEN = re.compile(r"[ \t]*(?:-[ \t]*)?[^\W\d_]+")
_PERCENT = re.compile(r"\s?%|\s(?:percent|per cent)\b", re.IGNORECASE)
_UNITLESS = frozenset({"", "date"})  # a bare number, the day of a date: no slot to compare


@dataclass(frozen=True)
class Stated:
    """A value one source gives: `amount` in the base unit of its `kind`, `text` as written."""

    source: str
    kind: str
    amount: float
    text: str
    near: frozenset[str]  # the content words next to the value


def kind_and_amount(q: Quantity) -> tuple[str, float] | None:
    """What a quantity measures and its amount in that measure's base unit; None for a bare number."""
    if q.unit in DAYS_PER:
        return "duration", q.value * DAYS_PER[q.unit]
    if q.unit in _UNITLESS:
        return None
    return q.unit, q.value  # a currency symbol, "%", or the thing counted ("14 characters")


def _topic(text: str) -> frozenset[str]:
    """What a sentence is about: its content words less values and time units ("X400" stays)."""
    return frozenset(t for t in content_words(text) if not re.fullmatch(r"[\d.,]+", t) and t not in DAYS_PER)


def _same_thing(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared >= min(MIN_SHARED_TERMS, len(a), len(b)) > 0 and shared / min(len(a), len(b)) >= SAME_THING


def _near(text: str, q: Quantity) -> frozenset[str]:
    before = words(text[: q.start])[-NEAR_WORDS:]
    after = words(text[q.end :])[: NEAR_WORDS + 1]  # the unit, then what follows
    return _topic(" ".join(before + after))


def _as_written(text: str, q: Quantity) -> str:
    """ "12 months", "2-year", "15%", "€48": the value with its unit, as the source wrote it."""
    unit = _UNIT_AS_WRITTEN.match(text, q.end) if q.unit[:1].isalpha() else _PERCENT.match(text, q.end)
    return " ".join(text[q.start : unit.end() if unit else q.end].split())


@dataclass(frozen=True)
class _Sentence:
    topic: frozenset[str]
    values: tuple[Stated, ...]


def _sentences(contexts: Sequence[RetrievedChunk]) -> list[_Sentence]:
    """The retrieved sentences that state a value, read once for all the claims of an answer."""
    out = []
    for rc in contexts:
        for sentence in split_sentences(rc.chunk.text):
            values = tuple(
                Stated(rc.chunk.source, *measured, _as_written(sentence.text, q), _near(sentence.text, q))
                for q in quantities(sentence.text)
                if (measured := kind_and_amount(q))
            )
            if values:
                out.append(_Sentence(_topic(sentence.text), values))
    return out


def disagreement(claim: str, contexts: Sequence[RetrievedChunk]) -> str:
    """ "sources disagree: ..." when the retrieved sources give different values for what `claim`
    states a value of; "" when they agree or the claim states no value."""
    return _disagreement(claim, _sentences(contexts))


def _disagreement(claim: str, sentences: list[_Sentence]) -> str:
    claimed = [m for m in map(kind_and_amount, quantities(claim)) if m]
    topic = _topic(claim)
    if not claimed or not topic:
        return ""
    about = [v for sentence in sentences if _same_thing(topic, sentence.topic) for v in sentence.values]
    for kind, amount in claimed:
        backing = [v for v in about if v.kind == kind and _close(v.amount, amount)]
        backed_by = {v.source for v in backing}
        other = [
            v for v in about if v.kind == kind and v.source not in backed_by and not _close(v.amount, amount)
        ]
        pair = next(((a, b) for a in backing for b in other if a.near & b.near), None)
        if pair:
            return f"sources disagree: {pair[0].text} ({pair[0].source}) vs {pair[1].text} ({pair[1].source})"
    return ""


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0.01)


def flag_conflicts(results: Sequence[ClaimResult], contexts: Sequence[RetrievedChunk]) -> list[ClaimResult]:
    """`results` with each disagreement recorded on its claim; a supported claim becomes partial."""
    sentences = _sentences(contexts)
    flagged = []
    for result in results:
        found = (
            _disagreement(result.claim.text, sentences)
            if result.claim.checkable and result.verdict.verified
            else ""
        )
        if found:
            result = replace(result, conflict=found, verdict=_at_most_partial(result.verdict, found))
        flagged.append(result)
    return flagged


def _at_most_partial(verdict: Verdict, found: str) -> Verdict:
    if verdict.status is not ClaimStatus.SUPPORTED:
        return verdict
    return replace(verdict, status=ClaimStatus.PARTIAL, reason=f"{found}; {verdict.reason}")
