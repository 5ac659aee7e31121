"""Conversions between the engine's value types and the store's rows, and the values the store returns.

Also the store's rules about sessions: which are flagged for review, and how severe they are. Sessions
come back as saved, with the reviews beside them: applying reviewers' corrections is the engine's
(`rrag.audit.corrections`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from enum import Enum
from typing import Any

from rrag.errors import StoreError
from rrag.store.schema import (
    ClaimRow,
    DocumentRow,
    PendingRow,
    ReviewChangeRow,
    ReviewRow,
    SessionRow,
    VerdictRow,
    from_db_time,
    to_db_time,
)
from rrag.types import ClaimResult, ClaimStatus, Correction, DocumentInfo, Evidence, Level, Report

REVIEW_OUTCOMES = ("approved", "corrected", "escalated")
LEVEL_SEVERITY = {Level.LOW.value: 0, Level.MEDIUM.value: 1}  # levels that flag a session, worst first
CLAIM_COLUMNS = [
    "session_id",
    "created_at",
    "question",
    "claim_index",
    "text",
    "status",
    "effective_status",
    "verifier",
    "confidence",
    "source",
    "chunk_id",
]


@dataclass(frozen=True)
class SessionSummary:
    """One saved report as lists and queues show it."""

    session_id: str
    created_at: str
    question: str
    mode: str
    decision: str
    level: str | None
    reliability: float | None
    hallucination_rate: float | None
    needs_review: bool
    review_reasons: list[str]
    claims_total: int
    status_counts: dict[str, int]
    citation_mismatches: int
    review_status: str  # "open" (flagged, not reviewed), an outcome of the latest review, or "" (not flagged)
    last_reviewer: str | None
    source_conflicts: int  # claims whose retrieved sources disagree on a value


@dataclass(frozen=True)
class SavedSummary:
    """A session as the store keeps it: its summary with the scores first saved, and the reviewers'
    corrections with the saved report they apply to (`report` is None when no claim was corrected)."""

    as_saved: SessionSummary
    corrections: dict[int, Correction]
    report: Report | None
    flag_reasons: list[str]  # why the row is flagged, for scores that give no reasons of their own


@dataclass(frozen=True)
class ReviewRecord:
    """One entry of a session's audit trail; `changes` are the claim statuses it overrode."""

    review_id: int
    session_id: str
    reviewer: str
    outcome: str
    note: str
    created_at: str
    changes: list[dict[str, Any]]  # [{"claim_index", "old_status", "new_status", and "evidence" if replaced}]


@dataclass(frozen=True)
class DocumentState:
    """Where a document's ingest or deletion stands (see DOCUMENT_STATES in schema.py)."""

    doc_id: str
    identity: str
    source: str
    version: int  # committed; 0 = none yet
    state: str
    pending_version: int | None
    writer: str | None  # "host:pid" of the process that set a busy state
    state_since: datetime | None


@dataclass(frozen=True)
class PendingSession:
    """A question whose report was not saved: being answered, interrupted, or failed."""

    session_id: str
    created_at: str
    question: str
    mode: str
    failure: str = ""  # why it failed, when the LLM server did; "" while running or interrupted


def pending_session(row: PendingRow) -> PendingSession:
    return PendingSession(
        row.session_id, from_db_time(row.created_at), row.question, row.mode, row.failure or ""
    )


def document_info(row: DocumentRow) -> DocumentInfo:
    return DocumentInfo(**{f.name: getattr(row, f.name) for f in fields(DocumentInfo)})


def document_state(row: DocumentRow) -> DocumentState:
    return DocumentState(**{f.name: getattr(row, f.name) for f in fields(DocumentState)})


def session_row(report: Report) -> SessionRow:
    try:
        created_at = to_db_time(datetime.fromisoformat(report.created_at))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"Report created_at {report.created_at!r} is not an ISO 8601 time") from exc
    level = plain(report.level) if report.level is not None else None
    contradicted = sum(plain(c.verdict.status) == ClaimStatus.CONTRADICTED.value for c in report.claims)
    return SessionRow(
        session_id=report.session_id,
        created_at=created_at,
        question=report.question,
        answer=report.answer,
        final_answer=report.final_answer,
        mode=report.mode,
        decision=plain(report.decision),
        level=level,
        reliability=report.reliability,
        hallucination_rate=report.hallucination_rate,
        needs_review=report.needs_review,
        verified=report.verified,
        review_reasons=list(report.review_reasons),
        status_counts=dict(report.status_counts),
        claims_total=len(report.claims),
        contradicted=contradicted,
        citation_mismatches=report.citation_mismatches,
        flagged=bool(
            report.needs_review or level in LEVEL_SEVERITY or contradicted or report.citation_mismatches
        ),
        report_json=json.dumps(report.to_dict(), ensure_ascii=False),
        source_conflicts=report.source_conflicts,
        claims=[claim_row(index, result) for index, result in enumerate(report.claims)],
    )


def claim_row(index: int, result: ClaimResult) -> ClaimRow:
    claim, verdict, evidence = result.claim, result.verdict, result.verdict.evidence
    return ClaimRow(
        claim_index=index,
        text=claim.text,
        start=claim.start,
        end=claim.end,
        checkable=claim.checkable,
        verdict=VerdictRow(
            status=plain(verdict.status),
            confidence=verdict.confidence,
            verifier=verdict.verifier,
            reason=verdict.reason,
            verified=verdict.verified,
            support_score=verdict.support_score,
            evidence_chunk_id=evidence and evidence.chunk_id,
            evidence_source=evidence and evidence.source,
            evidence_quote=evidence and evidence.quote,
            evidence_start=evidence and evidence.start,
            evidence_end=evidence and evidence.end,
            evidence_page=evidence and evidence.page,
        ),
    )


def summary(row: SessionRow) -> SavedSummary:
    """The session as lists show it, with the scores as first saved, and its corrections."""
    last = row.reviews[-1] if row.reviews else None
    corrections = latest_corrections(row)
    reasons = flag_reasons(row)
    as_saved = SessionSummary(
        session_id=row.session_id,
        created_at=from_db_time(row.created_at),
        question=row.question,
        mode=row.mode,
        decision=row.decision,
        level=row.level,
        reliability=row.reliability,
        hallucination_rate=row.hallucination_rate,
        needs_review=row.needs_review,
        review_reasons=list(row.review_reasons) or reasons,
        claims_total=row.claims_total,
        status_counts=dict(row.status_counts),
        citation_mismatches=row.citation_mismatches,
        review_status=review_status(row),
        last_reviewer=last.reviewer if last else None,
        source_conflicts=row.source_conflicts,
    )
    return SavedSummary(as_saved, corrections, saved_report(row) if corrections else None, reasons)


def flag_reasons(row: SessionRow) -> list[str]:
    """Why a session is flagged, for reports whose pipeline gave no reasons of its own."""
    reasons = []
    if row.contradicted:
        reasons.append(f"{row.contradicted} contradicted claim(s)")
    if row.level in LEVEL_SEVERITY:
        reasons.append(f"reliability level {row.level}")
    if row.citation_mismatches:
        reasons.append(f"{row.citation_mismatches} citation(s) not found in the cited chunk")
    if row.needs_review and not reasons:
        reasons.append("marked for review")
    return reasons


def review_status(row: SessionRow) -> str:
    if row.reviews:
        return row.reviews[-1].outcome
    return "open" if row.flagged else ""


def severity(row: SessionRow) -> tuple[int, int, float, int]:
    return (
        0 if row.contradicted else 1,
        LEVEL_SEVERITY.get(row.level or "", len(LEVEL_SEVERITY)),
        -(row.hallucination_rate or 0.0),
        -row.contradicted,
    )


def parse_overrides(raw: Mapping[int, ClaimStatus | str]) -> dict[int, str]:
    parsed = {}
    for index, status in raw.items():
        try:
            parsed[int(index)] = ClaimStatus(plain(status)).value
        except (TypeError, ValueError) as exc:
            raise StoreError(
                f"Claim override {index!r} -> {status!r} is not a claim index and one of "
                f"{[s.value for s in ClaimStatus]}"
            ) from exc
    return parsed


def review_record(review: ReviewRow) -> ReviewRecord:
    return ReviewRecord(
        review_id=review.review_id,
        session_id=review.session_id,
        reviewer=review.reviewer,
        outcome=review.outcome,
        note=review.note,
        created_at=from_db_time(review.created_at),
        changes=[
            {"claim_index": c.claim_index, "old_status": c.old_status, "new_status": c.new_status}
            | ({"evidence": json.loads(c.evidence)} if c.evidence else {})
            for c in review.changes
        ],
    )


def saved_report(row: SessionRow) -> Report:
    """The report exactly as the verifier wrote it."""
    return Report.from_dict(json.loads(row.report_json))


def latest_corrections(row: SessionRow) -> dict[int, Correction]:
    """The latest reviewer status of each claim a review changed (reviews and changes come oldest first)."""
    return {c.claim_index: _correction(c, review) for review in row.reviews for c in review.changes}


def _correction(change: ReviewChangeRow, review: ReviewRow) -> Correction:
    return Correction(
        status=ClaimStatus(change.new_status),
        reviewer=review.reviewer,
        corrected_at=from_db_time(review.created_at),
        review_id=review.review_id,
        note=review.note,
        evidence=Evidence(**json.loads(change.evidence)) if change.evidence else None,
    )


def claim_records(session: SessionRow) -> Iterator[dict[str, Any]]:
    corrections = latest_corrections(session)
    for claim in session.claims:
        verdict = claim.verdict
        correction = corrections.get(claim.claim_index)
        yield {
            "session_id": session.session_id,
            "created_at": from_db_time(session.created_at),
            "question": session.question,
            "claim_index": claim.claim_index,
            "text": claim.text,
            "status": verdict.status,
            "effective_status": correction.status.value if correction else verdict.status,
            "verifier": verdict.verifier,
            "confidence": verdict.confidence,
            "source": verdict.evidence_source,
            "chunk_id": verdict.evidence_chunk_id,
        }


def plain(value: Enum | str) -> str:
    return value.value if isinstance(value, Enum) else str(value)
