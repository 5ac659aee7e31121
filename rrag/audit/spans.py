"""The exact words of a claim that failed verification: what a reader should look at first.

A claim the documents do not back is rarely wrong in every word. This marks the numbers and content
words of the claim that neither its evidence quote nor any retrieved passage contains (the invented
clause), and a number whose evidence gives another value for the same unit (the "10" of "within 10
working days" beside the "5" of the evidence). Offsets are into the claim's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rrag.text import NEGATORS, STOPWORDS, Quantity, content_words, negation_count, quantities, word_spans
from rrag.types import ClaimStatus, Report, ValueClash

_FAILED_STATUSES = (ClaimStatus.PARTIAL, ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED)
ABSENT = "no retrieved passage says this"
_GAP_WORDS = STOPWORDS  # words that may sit inside one failed clause ("gym membership of up to €40")


class FailedSpan(NamedTuple):
    """Characters [start, end) of a claim's text, and why they failed (plain text)."""

    start: int
    end: int
    why: str


def failed_spans(
    claim: str, evidence: str, passages: Sequence[str], clash: ValueClash | None = None
) -> list[FailedSpan]:
    """The failed pieces of `claim`, checked against its `evidence` quote and the retrieved `passages`.
    A `clash` the verifier found is taken as it is, in place of this module's own reading."""
    found = [FailedSpan(clash.start, clash.end, f"the evidence says {clash.evidence_value}")] if clash else []
    evidence_quantities = quantities(evidence)
    passage_quantities = [q for text in passages for q in quantities(text)]
    for q in quantities(claim):
        if _inside(q.start, found) or any(_same(q, e) for e in evidence_quantities):
            continue
        stated = next((e for e in evidence_quantities if q.unit and e.unit == q.unit), None)
        if stated is not None:
            found.append(FailedSpan(q.start, q.end, f"the evidence says {_shown(evidence, stated)}"))
        elif not any(_same(q, p) for p in passage_quantities):
            found.append(FailedSpan(q.start, q.end, ABSENT))
    if negation_count(claim) > negation_count(evidence):
        found += [
            FailedSpan(w.start, w.end, "the evidence says no such negation")
            for w in word_spans(claim)
            if w.text.lower().replace("'", "") in NEGATORS
        ]
    known_words = {w for text in (evidence, *passages) for w in content_words(text)}
    for word in word_spans(claim):
        stems = content_words(word.text)
        if stems and not word.text[0].isdigit() and not _inside(word.start, found):
            if not set(stems) & known_words:
                found.append(FailedSpan(word.start, word.end, ABSENT))
    return _merge(claim, sorted(found))


def report_spans(report: Report) -> list[list[FailedSpan]]:
    """For each claim of `report`, its failed spans (none for a claim that passed or was not checked,
    nor for one a reviewer corrected: a person's verdict carries its own note, and spans read from the
    verifier's evidence would contradict it)."""
    passages = [rc.chunk.text for rc in report.contexts]
    spans: list[list[FailedSpan]] = []
    for result in report.claims:
        verdict = result.verdict
        corrected = result.correction is not None
        if corrected or not (
            verdict.verified and result.claim.checkable and verdict.status in _FAILED_STATUSES
        ):
            spans.append([])
            continue
        evidence = verdict.evidence.quote if verdict.evidence else ""
        spans.append(failed_spans(result.claim.text, evidence, passages, verdict.clash))
    return spans


def _same(a: Quantity, b: Quantity) -> bool:
    return a.value == b.value and (a.unit == b.unit or not (a.unit and b.unit))


def _shown(text: str, q: Quantity) -> str:
    """The quantity as the text writes it, with its month when it is a date ("2 September")."""
    end = q.end
    if q.unit == "date":
        month = word_spans(text[q.end : q.end + 12])
        end = q.end + month[0].end if month else end
    return text[q.start : end]


def _inside(position: int, spans: Sequence[FailedSpan]) -> bool:
    return any(s.start <= position < s.end for s in spans)


def _merge(claim: str, spans: list[FailedSpan]) -> list[FailedSpan]:
    """One span per failed clause: neighbours joined across spaces, punctuation and stopwords."""
    merged: list[FailedSpan] = []
    for span in spans:
        if merged and _only_glue(claim[merged[-1].end : span.start]):
            last = merged[-1]
            whys = [w for w in dict.fromkeys((last.why, span.why)) if w != ABSENT] or [ABSENT]
            why = "; ".join(whys)  # a specific reason says more than "absent" about the whole clause
            merged[-1] = FailedSpan(last.start, max(last.end, span.end), why)
        else:
            merged.append(span)
    return merged


def _only_glue(gap: str) -> bool:
    return all(w.text.lower() in _GAP_WORDS for w in word_spans(gap)) and "." not in gap and ";" not in gap
