"""Reviewer corrections are the truth of record: a saved report as of its latest review.

A report is saved once, as the verifier wrote it, and reviews are an append-only trail beside it.
Reading a session puts the latest reviewer status of each claim over the verifier's verdict (kept in
`ClaimResult.correction.original`) and scores the answer again with `rrag.audit.scoring.score`, so the final
answer, level, rates, decision and review reasons are what the corrected statuses give.

Where the corrected scores live: nowhere. The store keeps what was saved and the reviews, and the
engine computes the corrected report, summaries and filters here, on every read. Rescoring a 20-claim
report took 0.27 ms here (reading it from its JSON 0.7 ms), only corrected sessions are rescored, and
scores kept beside the reviews would go stale whenever the scoring rules change.
The cost: a level or decision filter cannot be applied by SQL alone to corrected sessions, so the
store returns them all as candidates and `reviewed_sessions` keeps those that match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from rrag.audit.scoring import score
from rrag.errors import InputError
from rrag.retrieval.injection import defuse, review_reason
from rrag.store import SessionSummary, Store
from rrag.store.records import SavedSummary, plain
from rrag.types import (
    Answer,
    Citation,
    ClaimResult,
    ClaimStatus,
    Correction,
    Decision,
    Evidence,
    Level,
    Report,
    Verdict,
)

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


def retrieved_evidence(report: Report, chunk_id: str) -> Evidence:
    """The whole of a passage `report` retrieved, as evidence a reviewer may put in place of a claim's:
    nothing but a retrieved passage is evidence (an InputError otherwise)."""
    chunk = next((rc.chunk for rc in report.contexts if rc.chunk.chunk_id == chunk_id), None)
    if chunk is None:
        raise InputError(
            f"Passage {chunk_id!r} is not one this answer retrieved: evidence must be one of them"
        )
    return Evidence(chunk.chunk_id, chunk.source, chunk.text, 0, len(chunk.text), chunk.page)


def reviewed_report(store: Store, session_id: str) -> Report:
    """The saved report as of its latest review."""
    return as_reviewed(store.get_report(session_id), store.corrections(session_id))


def reviewed_summary(saved: SavedSummary) -> SessionSummary:
    """A session as lists show it, scored as of its latest review (the store keeps the first scores)."""
    if saved.report is None:
        return saved.as_saved
    report = as_reviewed(saved.report, saved.corrections)
    return replace(
        saved.as_saved,
        decision=report.decision.value,
        level=None if report.level is None else report.level.value,
        reliability=report.reliability,
        hallucination_rate=report.hallucination_rate,
        needs_review=report.needs_review,
        review_reasons=list(report.review_reasons) or saved.flag_reasons,
        status_counts=dict(report.status_counts),
    )


def reviewed_sessions(
    store: Store,
    *,
    level: Level | str | None = None,
    decision: Decision | str | None = None,
    limit: int = 1000,
    **filters: Any,
) -> list[SessionSummary]:
    """Saved sessions, newest first, as of their latest review; `level` and `decision` select by the
    scores as corrected; the other filters as `Store.list_sessions` takes them."""
    if not (level or decision):
        return [reviewed_summary(s) for s in store.list_sessions(limit=limit, **filters)]
    level, decision = level and plain(level).upper(), decision and plain(decision).lower()
    found: list[SessionSummary] = []
    for saved in store.list_sessions(level=level, decision=decision, limit=None, **filters):
        if len(found) >= limit:
            break
        item = reviewed_summary(saved)
        if level in (None, "", item.level) and decision in (None, "", item.decision):
            found.append(item)
    return found


def reviewed_queue(store: Store, *, include_reviewed: bool = False) -> list[SessionSummary]:
    """The review queue (`Store.review_queue`), each session scored as of its latest review."""
    return [reviewed_summary(s) for s in store.review_queue(include_reviewed=include_reviewed)]


def reviewed_records(store: Store) -> list[SessionSummary]:
    """Every session as the lists show it, oldest first, for analytics."""
    return [reviewed_summary(s) for s in store.session_records()]


def corrected_by(correction: Correction) -> str:
    """'corrected by Ann at 2026-11-24 09:30 UTC'"""
    return f"corrected by {_who(correction)}"


def _corrected(result: ClaimResult, correction: Correction | None) -> ClaimResult:
    original = result.verdict
    if correction is None or (
        correction.status is original.status and original.verified and correction.evidence is None
    ):
        return result  # the verifier's verdict stands
    reason = f"Corrected by {_who(correction)}" + (f": {correction.note}" if correction.note else "")
    verdict = Verdict(
        status=correction.status,
        confidence=1.0,  # a person decided; the verifier's confidence stays with `original`
        verifier=REVIEWER,
        reason=reason,
        evidence=correction.evidence or original.evidence,
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
