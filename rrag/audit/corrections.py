"""Reviewer corrections are the truth of record: a saved report as of its latest review.

A report is saved once, as the verifier wrote it, and reviews are an append-only trail beside it.
Reading a session puts the latest reviewer status of each claim over the verifier's verdict (kept in
`ClaimResult.correction.original`) and scores the answer again with `rrag.audit.scoring.score`, so the final
answer, level, rates, decision and review reasons are what the corrected statuses give.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime

from rrag.audit.scoring import score
from rrag.retrieval.injection import defuse, review_reason
from rrag.types import Answer, Citation, ClaimResult, ClaimStatus, Correction, Decision, Report, Verdict

REVIEWER = "reviewer"  # the `verifier` named by a corrected verdict
REVIEWED_NOTE = (
    "Corrected in review: {n} claim(s), the latest by {who}; the scores are recomputed from the corrected "
    "statuses. As first audited: {decision}, level {level}, reliability {reliability}, "
    "hallucination rate {rate}."
)


def as_reviewed(report: Report, corrections: Mapping[int, Correction]) -> Report:
    """`report` (as the verifier wrote it) with `corrections` (claim index -> the latest reviewer
    status) applied and the answer scored again; `report` itself when no correction changes a verdict."""
    results = [_corrected(result, corrections.get(index)) for index, result in enumerate(report.claims)]
    applied = [r.correction for r in results if r.correction is not None]
    if not applied:
        return report
    # The answer-level checks stand as audited: relevance is the answer's, planted instructions the
    # retrieved passages'; only the claims' statuses changed.
    _, planted = defuse(report.contexts)
    scored = score(
        results,
        _answer_as_audited(report),
        threshold=report.threshold,
        strict=report.strict,
        off_topic=report.relevance_reason if report.addresses_question is False else "",
        concerns=[review_reason(planted)] if planted else [],
    )
    latest = max(applied, key=lambda c: (c.review_id, c.corrected_at))
    return replace(
        report,
        claims=results,
        **scored.report_fields(),
        notes=[*report.notes, _reviewed_note(report, len(applied), latest)],
    )


def corrected_by(correction: Correction) -> str:
    """'corrected by Ann at 2026-11-24 09:30 UTC'"""
    return f"corrected by {_who(correction)}"


def _corrected(result: ClaimResult, correction: Correction | None) -> ClaimResult:
    original = result.verdict
    if correction is None or (correction.status is original.status and original.verified):
        return result  # the verifier's verdict stands
    reason = f"Corrected by {_who(correction)}" + (f": {correction.note}" if correction.note else "")
    verdict = Verdict(
        status=correction.status,
        confidence=1.0,  # a person decided; the verifier's confidence stays with `original`
        verifier=REVIEWER,
        reason=reason,
        evidence=original.evidence,
    )
    claim = replace(result.claim, checkable=correction.status is not ClaimStatus.NOT_CHECKABLE)
    return ClaimResult(claim, verdict, replace(correction, original=original))


def _answer_as_audited(report: Report) -> Answer:
    # A report keeps how many citations were not found, not the citations: stand-ins carry the count.
    # The answerer's own refusal is the only refusal whose final answer is the answer itself.
    return Answer(
        text=report.answer,
        backend=report.answer_backend,
        citations=tuple(Citation("", "", found=False) for _ in range(report.citation_mismatches)),
        refused=report.decision is Decision.REFUSE and report.final_answer == report.answer,
    )


def _reviewed_note(report: Report, corrected: int, latest: Correction) -> str:
    return REVIEWED_NOTE.format(
        n=corrected,
        who=_who(latest),
        decision=report.decision.value,
        level=report.level.value if report.level else "n/a",
        reliability=_score(report.reliability),
        rate=_score(report.hallucination_rate),
    )


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _who(correction: Correction) -> str:
    return f"{correction.reviewer} at {_when(correction.corrected_at)}"


def _when(iso_time: str) -> str:
    try:
        moment = datetime.fromisoformat(iso_time)
    except ValueError:
        return iso_time
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")
