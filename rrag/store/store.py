"""The Store: the document registry, saved reports, the review audit trail, analytics and app settings.

One engine per Store, shared by threads (Streamlit keeps one in `st.cache_resource`); every public
method runs in its own short transaction. On SQLite, transactions that read then write start with
`BEGIN IMMEDIATE`, so two writers queue on the busy timeout instead of failing on lock upgrade.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, ContextManager

import pandas as pd
from sqlalchemy import Engine, create_engine, delete, event, or_, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session, defer, selectinload
from sqlalchemy.pool import StaticPool

from rrag.errors import ConfigError, NotFoundError, StoreError, StoreLockedError
from rrag.settings import Settings
from rrag.store.migrations import is_behind, migrate
from rrag.store.schema import (
    AppSettingRow,
    ClaimRow,
    DocumentRow,
    ReviewChangeRow,
    ReviewRow,
    SessionRow,
    VerdictRow,
    from_db_time,
    to_db_time,
    utcnow,
)
from rrag.types import ClaimResult, ClaimStatus, DocumentInfo, Level, Report

DEFAULT_BUSY_TIMEOUT_S = 5.0
REVIEW_OUTCOMES = ("approved", "corrected", "escalated")
# Escalated answers wait for someone else, so they stay in the default review queue.
_PENDING_REVIEW = ("open", "escalated")
_SECRET_WORDS = ("key", "secret", "token", "password")
_LEVEL_SEVERITY = {Level.LOW.value: 0, Level.MEDIUM.value: 1}
_BEGIN_MODE = "rrag_sqlite_begin"  # execution option read by the `begin` hook below
_CLAIM_COLUMNS = [
    "session_id", "created_at", "question", "claim_index", "text", "status", "effective_status",
    "verifier", "confidence", "source", "chunk_id",
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


@dataclass(frozen=True)
class ReviewRecord:
    """One entry of a session's audit trail; `changes` are the claim statuses it overrode."""

    review_id: int
    session_id: str
    reviewer: str
    outcome: str
    note: str
    created_at: str
    changes: list[dict[str, Any]]  # [{"claim_index", "old_status", "new_status"}]


class Store:
    def __init__(self, settings: Settings, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> None:
        self._busy_timeout_s = busy_timeout_s
        self._engine, in_memory = _create_engine(settings.sqlalchemy_url, busy_timeout_s)
        self._writer = self._engine.execution_options(**{_BEGIN_MODE: "IMMEDIATE"})
        # An in-memory database is one shared connection: transactions from two threads would interleave.
        self._one_at_a_time: ContextManager[Any] = threading.RLock() if in_memory else nullcontext()
        try:
            with self._one_at_a_time, self._db_errors("open the database"):
                if is_behind(self._engine):
                    migrate(self._writer)
        except BaseException:
            self._engine.dispose()
            raise

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- documents ---------------------------------------------------------------------------------

    def save_document(self, info: DocumentInfo) -> None:
        """Insert or update by `doc_id`; a different doc_id registered for the same source is replaced."""
        with self._write("save the document") as s:
            s.execute(delete(DocumentRow).where(DocumentRow.source == info.source, DocumentRow.doc_id != info.doc_id))
            s.merge(DocumentRow(**asdict(info)))

    def get_document(self, doc_id: str) -> DocumentInfo:
        with self._read("read the document") as s:
            return _document_info(_get(s, DocumentRow, doc_id, "document"))

    def get_document_by_source(self, source: str) -> DocumentInfo | None:
        with self._read("read the document") as s:
            row = s.scalar(select(DocumentRow).where(DocumentRow.source == source))
            return None if row is None else _document_info(row)

    def list_documents(self) -> list[DocumentInfo]:
        with self._read("list the documents") as s:
            return [_document_info(r) for r in s.scalars(select(DocumentRow).order_by(DocumentRow.source))]

    def delete_document(self, doc_id: str) -> None:
        with self._write("delete the document") as s:
            s.delete(_get(s, DocumentRow, doc_id, "document"))

    # -- sessions (saved reports) ------------------------------------------------------------------

    def save_report(self, report: Report) -> None:
        """Save the report, its claims and their verdicts in one transaction; a session is saved once."""
        row = _session_row(report)
        with self._write("save the report") as s:
            if s.get(SessionRow, report.session_id) is not None:
                raise StoreError(f"Session {report.session_id!r} is already saved; reports are never rewritten")
            s.add(row)

    def get_report(self, session_id: str) -> Report:
        """The report exactly as saved, with the verifier's original verdicts (see `claim_overrides`)."""
        with self._read("read the report") as s:
            row = _get(s, SessionRow, session_id, "session")
            return Report.from_dict(json.loads(row.report_json))

    def list_sessions(
        self,
        *,
        search: str | None = None,
        level: str | None = None,
        decision: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        flagged_only: bool = False,
        limit: int = 1000,
    ) -> list[SessionSummary]:
        """Newest first. `search` matches question or answer text (case-insensitive, taken literally)."""
        query = select(SessionRow).order_by(SessionRow.created_at.desc(), SessionRow.session_id)
        if search:
            pattern = f"%{_escape_like(search)}%"
            query = query.where(
                or_(SessionRow.question.ilike(pattern, escape="\\"), SessionRow.answer.ilike(pattern, escape="\\"))
            )
        if level:
            query = query.where(SessionRow.level == _plain(level).upper())
        if decision:
            query = query.where(SessionRow.decision == _plain(decision).lower())
        if since is not None:
            query = query.where(SessionRow.created_at >= to_db_time(since))
        if until is not None:
            query = query.where(SessionRow.created_at <= to_db_time(until))
        if flagged_only:
            query = query.where(SessionRow.flagged)
        with self._read("list the sessions") as s:
            return [_summary(r) for r in s.scalars(_for_summaries(query.limit(max(limit, 0))))]

    def review_queue(self, *, include_reviewed: bool = False) -> list[SessionSummary]:
        """Flagged sessions, most severe first: contradictions, then LOW, then MEDIUM, then by hallucination
        rate. By default only those still waiting: not reviewed yet, or escalated."""
        query = select(SessionRow).where(SessionRow.flagged).order_by(SessionRow.created_at.desc())
        with self._read("read the review queue") as s:
            rows = [
                r for r in s.scalars(_for_summaries(query)) if include_reviewed or _review_status(r) in _PENDING_REVIEW
            ]
            return [_summary(r) for r in sorted(rows, key=_severity)]

    # -- reviews (append-only audit trail) -----------------------------------------------------------

    def add_review(
        self,
        session_id: str,
        *,
        reviewer: str,
        outcome: str,
        note: str = "",
        claim_overrides: Mapping[int, ClaimStatus] | None = None,
    ) -> ReviewRecord:
        """Record a reviewer's decision; overrides that change nothing are not recorded as changes."""
        reviewer = reviewer.strip()
        if not reviewer:
            raise StoreError("A review needs the reviewer's name")
        if outcome not in REVIEW_OUTCOMES:
            raise StoreError(f"Review outcome must be one of {REVIEW_OUTCOMES}, not {outcome!r}")
        overrides = _parse_overrides(claim_overrides or {})
        with self._write("save the review") as s:
            session = _get(s, SessionRow, session_id, "session")
            current = {c.claim_index: c.verdict.status for c in session.claims}
            current |= _latest_overrides(s, session_id)[session_id]
            missing = sorted(set(overrides) - set(current))
            if missing:
                raise NotFoundError(f"Session {session_id!r} has no claim with index {missing}")
            review = ReviewRow(session_id=session_id, reviewer=reviewer, outcome=outcome, note=note, created_at=utcnow())
            review.changes = [
                ReviewChangeRow(claim_index=index, old_status=current[index], new_status=status)
                for index, status in sorted(overrides.items())
                if current[index] != status
            ]
            s.add(review)
            s.flush()
            return _review_record(review)

    def reviews(self, session_id: str) -> list[ReviewRecord]:
        """The audit trail of one session, oldest first."""
        with self._read("read the reviews") as s:
            _get(s, SessionRow, session_id, "session")
            query = (
                select(ReviewRow)
                .where(ReviewRow.session_id == session_id)
                .order_by(ReviewRow.review_id)
                .options(selectinload(ReviewRow.changes))
            )
            return [_review_record(r) for r in s.scalars(query)]

    def claim_overrides(self, session_id: str) -> dict[int, ClaimStatus]:
        """The latest reviewer status of each claim a reviewer changed."""
        with self._read("read the claim overrides") as s:
            _get(s, SessionRow, session_id, "session")
            return {i: ClaimStatus(v) for i, v in _latest_overrides(s, session_id)[session_id].items()}

    # -- analytics ---------------------------------------------------------------------------------

    def sessions_frame(self) -> pd.DataFrame:
        """One row per session with the columns of SessionSummary, oldest first; `created_at` as UTC times."""
        with self._read("read the sessions") as s:
            rows = [asdict(_summary(r)) for r in s.scalars(_for_summaries(select(SessionRow)))]
        frame = _with_utc_times(pd.DataFrame(rows, columns=[f.name for f in fields(SessionSummary)]))
        return frame.sort_values(["created_at", "session_id"], ignore_index=True)

    def claims_frame(self) -> pd.DataFrame:
        """One row per claim, with the verifier's status and the status after reviewer overrides."""
        query = select(SessionRow).options(
            defer(SessionRow.report_json), selectinload(SessionRow.claims).selectinload(ClaimRow.verdict)
        )
        with self._read("read the claims") as s:
            overrides = _latest_overrides(s)
            rows = [
                record
                for session in s.scalars(query)
                for record in _claim_records(session, overrides[session.session_id])
            ]
        frame = _with_utc_times(pd.DataFrame(rows, columns=_CLAIM_COLUMNS))
        return frame.sort_values(["created_at", "session_id", "claim_index"], ignore_index=True)

    # -- app settings (never secrets) --------------------------------------------------------------

    def get_app_settings(self) -> dict[str, Any]:
        with self._read("read the app settings") as s:
            return {row.key: row.value for row in s.scalars(select(AppSettingRow))}

    def save_app_settings(self, values: Mapping[str, Any]) -> None:
        """Merge `values` into the saved settings. Secret-looking keys are refused: keys stay in the env."""
        bad_keys = [k for k in values if not isinstance(k, str) or not k.strip()]
        secret_keys = [k for k in values if isinstance(k, str) and any(w in k.lower() for w in _SECRET_WORDS)]
        if bad_keys or secret_keys:
            raise StoreError(
                f"Refused to save settings {sorted(map(str, bad_keys + secret_keys))}: names must be non-empty "
                "and secrets (keys, tokens, passwords) are never stored; set them in the environment"
            )
        try:
            json.dumps(dict(values), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"Settings values must be plain JSON data: {exc}") from exc
        with self._write("save the app settings") as s:
            for key, value in values.items():
                s.merge(AppSettingRow(key=key, value=value))

    # -- transactions and errors -------------------------------------------------------------------

    @contextmanager
    def _read(self, action: str) -> Iterator[Session]:
        with self._transaction(self._engine, action) as session:
            yield session

    @contextmanager
    def _write(self, action: str) -> Iterator[Session]:
        with self._transaction(self._writer, action) as session:
            yield session

    @contextmanager
    def _transaction(self, engine: Engine, action: str) -> Iterator[Session]:
        with (
            self._one_at_a_time,
            self._db_errors(action),
            Session(engine, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield session

    @contextmanager
    def _db_errors(self, action: str) -> Iterator[None]:
        """Turn SQLAlchemy's errors into the engine's; the raw error stays as `__cause__` only."""
        try:
            yield
        except SQLAlchemyError as exc:
            if _is_locked(exc):
                raise StoreLockedError(
                    f"Could not {action}: the database is locked by another writer (busy timeout "
                    f"{self._busy_timeout_s:g} s). Nothing was written; try again."
                ) from exc
            detail = getattr(exc, "orig", None) or type(exc).__name__
            raise StoreError(f"Could not {action}: {detail}") from exc


def _create_engine(url_text: str, busy_timeout_s: float) -> tuple[Engine, bool]:
    """The engine for any SQLAlchemy URL; SQLite gets WAL, a busy timeout and foreign keys."""
    try:
        url = make_url(url_text)
        if url.get_backend_name() != "sqlite":
            return create_engine(url, pool_pre_ping=True), False
        in_memory = url.database in (None, "", ":memory:")
        if in_memory:
            engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        else:
            Path(url.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise ConfigError(f"database_url is not a usable SQLAlchemy URL: {exc}") from exc
    except OSError as exc:
        raise StoreError(f"Could not create the database folder: {exc}") from exc

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        # The driver's own implicit BEGIN cannot be IMMEDIATE and skips DDL; the `begin` hook does it.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if not in_memory:
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(f"BEGIN {conn.get_execution_options().get(_BEGIN_MODE, 'DEFERRED')}")

    return engine, in_memory


def _is_locked(exc: SQLAlchemyError) -> bool:
    orig = getattr(exc, "orig", None)
    if not isinstance(orig, sqlite3.OperationalError):
        return False
    primary_code = getattr(orig, "sqlite_errorcode", 0) & 0xFF  # extended codes keep the primary in the low byte
    return primary_code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(orig)


def _get(session: Session, model: type[Any], key: object, what: str) -> Any:
    row = session.get(model, key)
    if row is None:
        raise NotFoundError(f"No {what} with id {key!r}")
    return row


def _document_info(row: DocumentRow) -> DocumentInfo:
    return DocumentInfo(**{f.name: getattr(row, f.name) for f in fields(DocumentInfo)})


def _session_row(report: Report) -> SessionRow:
    try:
        created_at = to_db_time(datetime.fromisoformat(report.created_at))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"Report created_at {report.created_at!r} is not an ISO 8601 time") from exc
    level = _plain(report.level) if report.level is not None else None
    contradicted = sum(_plain(c.verdict.status) == ClaimStatus.CONTRADICTED.value for c in report.claims)
    return SessionRow(
        session_id=report.session_id,
        created_at=created_at,
        question=report.question,
        answer=report.answer,
        final_answer=report.final_answer,
        mode=report.mode,
        decision=_plain(report.decision),
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
            report.needs_review or level in _LEVEL_SEVERITY or contradicted or report.citation_mismatches
        ),
        report_json=json.dumps(report.to_dict(), ensure_ascii=False),
        claims=[_claim_row(index, result) for index, result in enumerate(report.claims)],
    )


def _claim_row(index: int, result: ClaimResult) -> ClaimRow:
    claim, verdict, evidence = result.claim, result.verdict, result.verdict.evidence
    return ClaimRow(
        claim_index=index,
        text=claim.text,
        start=claim.start,
        end=claim.end,
        checkable=claim.checkable,
        verdict=VerdictRow(
            status=_plain(verdict.status),
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


def _for_summaries(query: Any) -> Any:
    # Summaries need the reviews (for review_status) but never the full report JSON.
    return query.options(defer(SessionRow.report_json), selectinload(SessionRow.reviews))


def _summary(row: SessionRow) -> SessionSummary:
    last = row.reviews[-1] if row.reviews else None
    return SessionSummary(
        session_id=row.session_id,
        created_at=from_db_time(row.created_at),
        question=row.question,
        mode=row.mode,
        decision=row.decision,
        level=row.level,
        reliability=row.reliability,
        hallucination_rate=row.hallucination_rate,
        needs_review=row.needs_review,
        review_reasons=list(row.review_reasons) or _flag_reasons(row),
        claims_total=row.claims_total,
        status_counts=dict(row.status_counts),
        citation_mismatches=row.citation_mismatches,
        review_status=_review_status(row),
        last_reviewer=last.reviewer if last else None,
    )


def _flag_reasons(row: SessionRow) -> list[str]:
    """Why a session is flagged, for reports whose pipeline gave no reasons of its own."""
    reasons = []
    if row.contradicted:
        reasons.append(f"{row.contradicted} contradicted claim(s)")
    if row.level in _LEVEL_SEVERITY:
        reasons.append(f"reliability level {row.level}")
    if row.citation_mismatches:
        reasons.append(f"{row.citation_mismatches} citation(s) not found in the cited chunk")
    if row.needs_review and not reasons:
        reasons.append("marked for review")
    return reasons


def _review_status(row: SessionRow) -> str:
    if row.reviews:
        return row.reviews[-1].outcome
    return "open" if row.flagged else ""


def _severity(row: SessionRow) -> tuple[int, int, float, int]:
    return (
        0 if row.contradicted else 1,
        _LEVEL_SEVERITY.get(row.level or "", len(_LEVEL_SEVERITY)),
        -(row.hallucination_rate or 0.0),
        -row.contradicted,
    )


def _latest_overrides(session: Session, session_id: str | None = None) -> defaultdict[str, dict[int, str]]:
    """Per session, the latest reviewer status of each claim a review changed."""
    query = (
        select(ReviewRow.session_id, ReviewChangeRow.claim_index, ReviewChangeRow.new_status)
        .join(ReviewChangeRow.review)
        .order_by(ReviewChangeRow.id)
    )
    if session_id is not None:
        query = query.where(ReviewRow.session_id == session_id)
    latest: defaultdict[str, dict[int, str]] = defaultdict(dict)
    for owner, claim_index, status in session.execute(query):
        latest[owner][claim_index] = status
    return latest


def _parse_overrides(raw: Mapping[int, ClaimStatus | str]) -> dict[int, str]:
    parsed = {}
    for index, status in raw.items():
        try:
            parsed[int(index)] = ClaimStatus(_plain(status)).value
        except (TypeError, ValueError) as exc:
            raise StoreError(
                f"Claim override {index!r} -> {status!r} is not a claim index and one of "
                f"{[s.value for s in ClaimStatus]}"
            ) from exc
    return parsed


def _review_record(review: ReviewRow) -> ReviewRecord:
    return ReviewRecord(
        review_id=review.review_id,
        session_id=review.session_id,
        reviewer=review.reviewer,
        outcome=review.outcome,
        note=review.note,
        created_at=from_db_time(review.created_at),
        changes=[
            {"claim_index": c.claim_index, "old_status": c.old_status, "new_status": c.new_status}
            for c in review.changes
        ],
    )


def _claim_records(session: SessionRow, overrides: dict[int, str]) -> Iterator[dict[str, Any]]:
    for claim in session.claims:
        verdict = claim.verdict
        yield {
            "session_id": session.session_id,
            "created_at": from_db_time(session.created_at),
            "question": session.question,
            "claim_index": claim.claim_index,
            "text": claim.text,
            "status": verdict.status,
            "effective_status": overrides.get(claim.claim_index, verdict.status),
            "verifier": verdict.verifier,
            "confidence": verdict.confidence,
            "source": verdict.evidence_source,
            "chunk_id": verdict.evidence_chunk_id,
        }


def _with_utc_times(frame: pd.DataFrame) -> pd.DataFrame:
    frame["created_at"] = pd.to_datetime(frame["created_at"], utc=True)
    return frame


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _plain(value: Enum | str) -> str:
    return value.value if isinstance(value, Enum) else str(value)
