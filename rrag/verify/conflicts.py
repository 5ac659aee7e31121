"""Conflicting sources: retrieved documents that give different values for the same thing.

A claim can be quoted word for word from policy.pdf ("a warranty of 12 months") while faq.html says
"a 2-year warranty": both verdicts are honest, and the answer is still unreliable. For each claim with
a value, the retrieved sentences about the same thing (they share most of the claim's topic words)
that give a value of the same kind (money in one currency, a percentage, a duration, a count of the
same unit) are collected by source. Two sources disagree when each states a value the other does not:
"sources disagree: 12 months (policy.pdf) vs 2 years (faq.html)". One document listing several values
(full-time 25 days, part-time 15 days) is not a disagreement.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Sequence

from rrag.text import Quantity, content_words, quantities, split_sentences, stem
from rrag.types import ClaimResult, ClaimStatus, RetrievedChunk, Verdict

# Days per unit: "12 months" and "1 year" are the same warranty.
DAYS_PER = {stem(unit): days for unit, days in (
    ("second", 1 / 86400), ("minute", 1 / 1440), ("hour", 1 / 24), ("day", 1.0), ("week", 7.0),
    ("month", 365.25 / 12), ("year", 365.25),
)}
SAME_THING = 0.6  # share of the smaller topic the two sentences must have in common
MIN_SHARED_TERMS = 2
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


def _as_written(text: str, q: Quantity) -> str:
    """ "12 months", "2-year", "15%", "€48": the value with its unit, as the source wrote it."""
    unit = _UNIT_AS_WRITTEN.match(text, q.end) if q.unit[:1].isalpha() else _PERCENT.match(text, q.end)
    return " ".join(text[q.start:unit.end() if unit else q.end].split())


def disagreement(claim: str, contexts: Sequence[RetrievedChunk]) -> str:
    """ "sources disagree: ..." when the retrieved sources give different values for what `claim`
    states a value of; "" when they agree or the claim states no value."""
    kinds = {k[0] for k in map(kind_and_amount, quantities(claim)) if k}
    topic = _topic(claim)
    if not kinds or not topic:
        return ""
    stated: dict[str, list[Stated]] = {}
    for rc in contexts:
        for sentence in split_sentences(rc.chunk.text):
            if not _same_thing(topic, _topic(sentence.text)):
                continue
            for q in quantities(sentence.text):
                measured = kind_and_amount(q)
                if measured and measured[0] in kinds:
                    value = Stated(rc.chunk.source, measured[0], measured[1], _as_written(sentence.text, q))
                    stated.setdefault(rc.chunk.source, []).append(value)
    pair = _disagreeing(stated)
    return "" if pair is None else f"sources disagree: {pair[0].text} ({pair[0].source}) vs {pair[1].text} ({pair[1].source})"


def _disagreeing(stated: dict[str, list[Stated]]) -> tuple[Stated, Stated] | None:
    """A value of one source and one of another, each unstated by the other source."""
    sources = list(stated)
    for i, first in enumerate(sources):
        for second in sources[i + 1:]:
            only_first = [v for v in stated[first] if not _states(stated[second], v)]
            only_second = [v for v in stated[second] if not _states(stated[first], v)]
            for a in only_first:
                b = next((b for b in only_second if b.kind == a.kind), None)
                if b is not None:
                    return a, b
    return None


def _states(values: list[Stated], value: Stated) -> bool:
    return any(v.kind == value.kind and math.isclose(v.amount, value.amount, rel_tol=0.01) for v in values)


def flag_conflicts(results: Sequence[ClaimResult], contexts: Sequence[RetrievedChunk]) -> list[ClaimResult]:
    """`results` with each disagreement recorded on its claim; a supported claim becomes partial."""
    flagged = []
    for result in results:
        found = disagreement(result.claim.text, contexts) if result.claim.checkable and result.verdict.verified else ""
        if found:
            result = replace(result, conflict=found, verdict=_at_most_partial(result.verdict, found))
        flagged.append(result)
    return flagged


def _at_most_partial(verdict: Verdict, found: str) -> Verdict:
    if verdict.status is not ClaimStatus.SUPPORTED:
        return verdict
    return replace(verdict, status=ClaimStatus.PARTIAL, reason=f"{found}; {verdict.reason}")
