"""Score the verified claims and decide what the user receives.

1. Count: checkable claims with a verdict; unverified claims are counted apart, outside the rates.
2. Rates: hallucination = (unsupported + contradicted) / checkable;
   reliability = (supported + 0.5 x partial) / checkable.
3. Level: HIGH >= 0.85, MEDIUM >= 0.65, else LOW.
4. Decide: HIGH passes when its hallucination rate is within the user's threshold (what it keeps
   unsupported is named in a caveat) and every checkable claim was verified (else the unverified
   ones are trimmed); MEDIUM, and HIGH above the threshold, trim the unsupported,
   contradicted and unverified claims and add a caveat; LOW keeps only the supported claims, or
   refuses when there are none. Strict mode refuses whenever the rate is above the threshold. So the
   threshold only ever makes the decision stricter: no answer is given as written above it.
5. Review: any contradicted claim, LOW, a citation mismatch, an unverified claim, a rate above the
   threshold, sources that disagree, an answer off the question or a concern found upstream (an
   instruction planted in a document) needs a reviewer, with the reasons listed.
6. An answer that does not address the question is one level lower and says so; an extractive one
   (sentences picked from the documents) is a refusal: none of its sentences answers the question.

No checkable claim and nothing verified are explicit results (level and rates None), never "0%".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from functools import partial
from typing import Any

from rrag.audit.grounding import is_placeholder
from rrag.text import list_lead_ins, list_marker, on_list_item, split_sentences
from rrag.types import HALLUCINATED, Answer, ClaimResult, ClaimStatus, Decision, Level

HIGH_RELIABILITY = 0.85
MEDIUM_RELIABILITY = 0.65
NOT_VERIFIED_KEY = ClaimStatus.NOT_VERIFIED.value  # status_counts key: checkable claims no verifier decided

NO_CLAIMS_CAVEAT = "The answer makes no factual claim that could be checked."
TRIM_CAVEAT = "Statements the documents do not support were removed from this answer ({n} removed)."
PARTIAL_CAVEAT = "Some statements are only partly supported by the documents."
LOW_CAVEAT = "Only the statements the documents support are shown; the rest of the answer was unreliable."
KEPT_WITHIN = (
    "Kept, though the documents do not support it ({rate:.0%} is within the {threshold:.0%} "
    "allowed): {claims}."
)
QUOTED_CLAIMS = 3  # a caveat names this many kept claims, then counts the rest
UNVERIFIED_LEFT_OUT = " {n} of them could not be verified."
NOTHING_SUPPORTED = (
    "I cannot give a reliable answer: none of the answer's statements is supported by the documents."
)
NO_ANSWER_REFUSAL = "I cannot give an answer: the answer given was empty or a placeholder."
NOT_VERIFIED_ANSWER = (
    "This answer was withheld because it could not be verified against the documents ({reason})."
)
CONFLICT_CAVEAT = "The documents disagree ({conflicts}): check which applies."
OFF_TOPIC_CAVEAT = "This answer may not address the question: {reason}."
OFF_TOPIC_REFUSAL = (
    "I cannot answer this from the indexed documents: "
    "the passages found do not address the question ({reason})."
)
EXTRACTIVE_BACKEND = "extractive"  # the answerer that only picks document sentences (rrag.answer.answerers)
STRICT_REFUSAL = (
    "This answer was withheld: {rate:.0%} of its checkable statements are not supported by the documents, "
    "above the {threshold:.0%} allowed (strict mode)."
)


@dataclass(frozen=True)
class Scored:
    decision: Decision
    level: Level | None
    reliability: float | None
    hallucination_rate: float | None
    needs_review: bool
    review_reasons: tuple[str, ...]
    final_answer: str
    caveat: str
    status_counts: dict[str, int]
    verified: bool  # False when any checkable claim could not be verified
    not_verified_reason: str

    def report_fields(self) -> dict[str, Any]:
        """The fields of a `Report` this scoring decides."""
        fields = {f.name: getattr(self, f.name) for f in dataclass_fields(self)}
        return fields | {
            "review_reasons": list(self.review_reasons),
            "status_counts": dict(self.status_counts),
        }


def score(
    results: Sequence[ClaimResult],
    answer: Answer,
    *,
    threshold: float,
    strict: bool,
    off_topic: str = "",
    concerns: Sequence[str] = (),
) -> Scored:
    """`off_topic`: why the answer does not address the question ("" when it does, see rrag.audit.relevance);
    `concerns`: review reasons found before scoring."""
    checked = [
        r
        for r in results
        if r.claim.checkable and r.verdict.verified and r.verdict.status is not ClaimStatus.NOT_CHECKABLE
    ]
    unverified = [r for r in results if r.claim.checkable and not r.verdict.verified]
    counts = {s.value: 0 for s in ClaimStatus}
    for r in results:
        if r.verdict.verified:
            counts[r.verdict.status.value] += 1
    counts[NOT_VERIFIED_KEY] = len(unverified)
    not_verified_reason = _not_verified_reason(unverified)
    conflicts = _conflicts(results)
    reasons = _review_reasons(results, answer, unverified, not_verified_reason, conflicts) + list(concerns)
    if off_topic:
        reasons.append(f"the answer does not address the question ({off_topic})")
    # Every review reason is known before any result is built: the rates add theirs here.
    n = len(checked)
    tally = {s: sum(r.verdict.status is s for r in checked) for s in ClaimStatus}
    rate = (tally[ClaimStatus.UNSUPPORTED] + tally[ClaimStatus.CONTRADICTED]) / n if n else 0.0
    reliability = (tally[ClaimStatus.SUPPORTED] + 0.5 * tally[ClaimStatus.PARTIAL]) / n if n else 0.0
    level = (
        Level.HIGH
        if reliability >= HIGH_RELIABILITY
        else Level.MEDIUM
        if reliability >= MEDIUM_RELIABILITY
        else Level.LOW
    )
    if checked and not answer.refused:
        if rate > threshold:
            reasons.append(f"hallucination rate {rate:.0%} is above the {threshold:.0%} threshold")
        if level is Level.LOW:
            reasons.append(f"reliability is LOW ({reliability:.0%})")

    def result(
        decision: Decision,
        final: str,
        caveat: str = "",
        *,
        level: Level | None = None,
        reliability: float | None = None,
        rate: float | None = None,
    ) -> Scored:
        if decision is not Decision.REFUSE:
            caveat = " ".join(
                filter(
                    None,
                    [
                        OFF_TOPIC_CAVEAT.format(reason=off_topic) if off_topic else "",
                        CONFLICT_CAVEAT.format(conflicts="; ".join(conflicts)) if conflicts else "",
                        caveat,
                    ],
                )
            )
        return Scored(
            decision=decision,
            level=level,
            reliability=reliability,
            hallucination_rate=rate,
            needs_review=bool(reasons),
            review_reasons=tuple(reasons),
            final_answer=final,
            caveat=caveat,
            status_counts=counts,
            verified=not unverified,
            not_verified_reason=not_verified_reason,
        )

    if answer.refused:
        return result(Decision.REFUSE, answer.text)
    if is_placeholder(answer.text):  # "", "...", "N/A": nothing was answered, so nothing is verified
        return result(Decision.REFUSE, NO_ANSWER_REFUSAL)
    if not checked:
        if unverified:
            return result(Decision.REFUSE, NOT_VERIFIED_ANSWER.format(reason=not_verified_reason))
        return result(Decision.PASS, answer.text, NO_CLAIMS_CAVEAT)

    if off_topic:  # its claims may all be true; it is still not the answer that was asked for
        level = Level.MEDIUM if level is Level.HIGH else Level.LOW
    rated = partial(result, level=level, reliability=round(reliability, 4), rate=round(rate, 4))

    def trimmed(final: str, caveat: str) -> Scored:  # a trim that leaves nothing is a refusal
        return rated(Decision.TRIM, final, caveat) if final else rated(Decision.REFUSE, NOTHING_SUPPORTED)

    if strict and rate > threshold:
        return rated(Decision.REFUSE, STRICT_REFUSAL.format(rate=rate, threshold=threshold))
    if off_topic and answer.backend == EXTRACTIVE_BACKEND:  # no answer given: nothing to rate
        return result(Decision.REFUSE, OFF_TOPIC_REFUSAL.format(reason=off_topic))
    if level is Level.HIGH and rate <= threshold:
        hallucinated = [r for r in checked if r.verdict.status in HALLUCINATED]
        kept = (
            KEPT_WITHIN.format(rate=rate, threshold=threshold, claims=_quoted(hallucinated))
            if hallucinated
            else ""
        )
        if not unverified:
            return rated(Decision.PASS, answer.text, kept)
        # What no verifier checked is never given as written, however well the rest scored.
        left_out = TRIM_CAVEAT.format(n=len(unverified)) + UNVERIFIED_LEFT_OUT.format(n=len(unverified))
        return trimmed(_without(answer.text, results, unverified), f"{left_out} {kept}".strip())
    if level is not Level.LOW:
        drop = [r for r in results if r in unverified or r.verdict.status in HALLUCINATED]
        if not drop:  # only partial claims pulled the level down: nothing to cut
            return rated(Decision.PASS, answer.text, PARTIAL_CAVEAT)
        caveat = TRIM_CAVEAT.format(n=len(drop)) + (
            UNVERIFIED_LEFT_OUT.format(n=len(unverified)) if unverified else ""
        )
        return trimmed(_without(answer.text, results, drop), caveat)
    # A claim partial only because the sources disagree is kept: the caveat names both values.
    supported = [
        r
        for r in results
        if r.verdict.status is ClaimStatus.SUPPORTED
        or (r.conflict and r.verdict.status is ClaimStatus.PARTIAL)
    ]
    flagged = [r for r in results if r.claim.checkable and r not in supported]
    return trimmed(_only(answer.text, supported, flagged), LOW_CAVEAT)


def _quoted(results: Sequence[ClaimResult]) -> str:
    shown = "; ".join(f"“{_shortened(r.claim.text)}”" for r in results[:QUOTED_CLAIMS])
    rest = len(results) - QUOTED_CLAIMS
    return shown + (f" and {rest} more" if rest > 0 else "")


def _shortened(text: str, limit: int = 90) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _not_verified_reason(unverified: list[ClaimResult]) -> str:
    reasons = list(dict.fromkeys(r.verdict.reason for r in unverified))
    return "; ".join(reasons[:3])


def _review_reasons(
    results: Sequence[ClaimResult],
    answer: Answer,
    unverified: list[ClaimResult],
    not_verified_reason: str,
    conflicts: list[str],
) -> list[str]:
    reasons = []
    contradicted = sum(r.verdict.status is ClaimStatus.CONTRADICTED for r in results)
    if contradicted:
        reasons.append(f"{contradicted} claim(s) contradicted by the documents")
    if answer.citation_mismatches:
        reasons.append(f"{answer.citation_mismatches} citation(s) not found in the cited chunk")
    if unverified:
        reasons.append(f"{len(unverified)} claim(s) could not be verified ({not_verified_reason})")
    if conflicts:
        reasons.append("; ".join(conflicts))
    return reasons


def _conflicts(results: Sequence[ClaimResult]) -> list[str]:
    return list(dict.fromkeys(r.conflict for r in results if r.conflict))


def _without(text: str, results: Sequence[ClaimResult], drop: Sequence[ClaimResult]) -> str:
    """`text` with the spans of `drop` removed, and of any claim sharing one (an LLM claim placed on a
    flagged claim's sentence); what stays between kept claims stays verbatim."""
    dropped = {id(r) for r in results if id(r) in {id(d) for d in drop} or _overlaps(r, drop)}
    sentences = split_sentences(text)
    items: dict[tuple[int, int], list[ClaimResult]] = {}  # each lead-in's items' claims
    for item, lead_in in zip(sentences, list_lead_ins(text, sentences)):
        if lead_in:
            items.setdefault((lead_in.start, lead_in.end), []).extend(_within(results, item.start, item.end))
    for (start, end), claims in items.items():
        if all(id(r) in dropped for r in claims):  # a lead-in whose every item goes goes too
            dropped |= {id(r) for r in _within(results, start, end)}
    ordered = sorted(results, key=lambda r: r.claim.start)
    runs: list[tuple[int, int]] = []
    run_start: int | None = None
    last_end = 0
    for r in ordered:
        if id(r) in dropped:
            if run_start is not None:
                runs.append((run_start, last_end))
            run_start = None
        elif run_start is None:
            run_start = r.claim.start
        last_end = max(last_end, r.claim.end)
    if run_start is not None:
        runs.append((run_start, last_end))
    return _join(text, runs)


def _only(text: str, kept: Sequence[ClaimResult], flagged: Sequence[ClaimResult]) -> str:
    """The spans of `kept`, but none that holds a `flagged` claim too; a kept item of a list keeps the
    lead-in its list is said under ("The plan covers:")."""
    clear = [r for r in kept if not _overlaps(r, flagged)]
    sentences = split_sentences(text)
    lead_ins = {
        (lead_in.start, lead_in.end)
        for sentence, lead_in in zip(sentences, list_lead_ins(text, sentences))
        if lead_in and _within(clear, sentence.start, sentence.end)
    }
    return _join(text, sorted({(r.claim.start, r.claim.end) for r in clear} | lead_ins))


def _within(results: Sequence[ClaimResult], start: int, end: int) -> list[ClaimResult]:
    return [r for r in results if start <= r.claim.start < end]


def _overlaps(result: ClaimResult, others: Sequence[ClaimResult]) -> bool:
    a = result.claim
    return any(o is not result and o.claim.start < a.end and a.start < o.claim.end for o in others)


_LEADING_CONJUNCTION = re.compile(r"^(?:and|but|or|so|yet|while|whereas)\s+", re.IGNORECASE)


def _join(text: str, pieces: Sequence[tuple[int, int]]) -> str:
    """The pieces of `text` between these offsets as sentences: a clause cut from its sentence loses a
    leading "and", gets a full stop and a capital; an item of a list stays an item on its own line."""
    out, previous_end = "", 0
    for start, end in pieces:
        piece = text[start:end].strip()
        marker = list_marker(text, start)
        next_line = text.find("\n", end) + 1
        heads_a_list = piece.endswith(":") and next_line > 0 and on_list_item(text, next_line)
        if not (marker or heads_a_list):
            piece = _LEADING_CONJUNCTION.sub("", piece.rstrip(",;:").rstrip())
            if not piece:
                continue
            if piece[-1] not in ".!?" and not on_list_item(text, end):
                piece += "."
            piece = piece[0].upper() + piece[1:]
        if out:
            out += "\n" if marker or on_list_item(text, previous_end) else " "
        out += marker + piece
        previous_end = end
    return out
