"""The Store: the document registry, saved reports, the review audit trail, analytics and app settings.

One engine per Store, shared by threads (Streamlit keeps one in `st.cache_resource`); every public
method runs in its own short transaction. On SQLite, transactions that read then write start with
`BEGIN IMMEDIATE`, so two writers queue on the busy timeout instead of failing on lock upgrade.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import asdict, fields
from datetime import datetime
from typing import Any

import pandas as pd
from sqlalchemy import Engine, Select, delete, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, defer, selectinload

from rrag.errors import NotFoundError, StoreError, StoreLockedError
from rrag.redact import looks_secret, redact_urls
from rrag.settings import Settings
from rrag.store.engine import WRITE_OPTIONS, create_store_engine, is_locked
from rrag.store.migrations import is_behind, migrate
from rrag.store.records import (
    CLAIM_COLUMNS,
    REVIEW_OUTCOMES,
    ReviewRecord,
    SessionSummary,
    claim_records,
    document_info,
    parse_overrides,
    plain,
    review_record,
    review_status,
    session_row,
    severity,
    summary,
)
from rrag.store.schema import (
    AppSettingRow,
    ClaimRow,
    DocumentRow,
    ReviewChangeRow,
    ReviewRow,
    SessionRow,
    to_db_time,
    utcnow,
)
from rrag.types import ClaimStatus, DocumentInfo, Report

DEFAULT_BUSY_TIMEOUT_S = 5.0
# Escalated answers wait for someone else, so they stay in the default review queue.
_PENDING_REVIEW = ("open", "escalated")


class Store:
    def __init__(self, settings: Settings, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> None:
        self._busy_timeout_s = busy_timeout_s
        self._engine, in_memory = create_store_engine(settings.sqlalchemy_url, busy_timeout_s)
        self._writer = self._engine.execution_options(**WRITE_OPTIONS)
        # An in-memory database is one shared connection: transactions from two threads would interleave.
        self._one_at_a_time: AbstractContextManager[Any] = threading.RLock() if in_memory else nullcontext()
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
            s.execute(
                delete(DocumentRow).where(
                    DocumentRow.source == info.source, DocumentRow.doc_id != info.doc_id
                )
            )
            s.merge(DocumentRow(**asdict(info)))

    def get_document(self, doc_id: str) -> DocumentInfo:
        with self._read("read the document") as s:
            return document_info(_get(s, DocumentRow, doc_id, "document"))

    def get_document_by_source(self, source: str) -> DocumentInfo | None:
        with self._read("read the document") as s:
            row = s.scalar(select(DocumentRow).where(DocumentRow.source == source))
            return None if row is None else document_info(row)

    def list_documents(self) -> list[DocumentInfo]:
        with self._read("list the documents") as s:
            return [document_info(r) for r in s.scalars(select(DocumentRow).order_by(DocumentRow.source))]

    def delete_document(self, doc_id: str) -> None:
        with self._write("delete the document") as s:
            s.delete(_get(s, DocumentRow, doc_id, "document"))

    # -- sessions (saved reports) ------------------------------------------------------------------

    def save_report(self, report: Report) -> None:
        """Save the report, its claims and their verdicts in one transaction; a session is saved once."""
        row = session_row(report)
        with self._write("save the report") as s:
            if s.get(SessionRow, report.session_id) is not None:
                raise StoreError(
                    f"Session {report.session_id!r} is already saved; reports are never rewritten"
                )
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
                or_(
                    SessionRow.question.ilike(pattern, escape="\\"),
                    SessionRow.answer.ilike(pattern, escape="\\"),
                )
            )
        if level:
            query = query.where(SessionRow.level == plain(level).upper())
        if decision:
            query = query.where(SessionRow.decision == plain(decision).lower())
        if since is not None:
            query = query.where(SessionRow.created_at >= to_db_time(since))
        if until is not None:
            query = query.where(SessionRow.created_at <= to_db_time(until))
        if flagged_only:
            query = query.where(SessionRow.flagged)
        with self._read("list the sessions") as s:
            return [summary(r) for r in s.scalars(_for_summaries(query.limit(max(limit, 0))))]

    def review_queue(self, *, include_reviewed: bool = False) -> list[SessionSummary]:
        """Flagged sessions, most severe first: contradictions, then LOW, then MEDIUM, then by hallucination
        rate. By default only those still waiting: not reviewed yet, or escalated."""
        query = select(SessionRow).where(SessionRow.flagged).order_by(SessionRow.created_at.desc())
        with self._read("read the review queue") as s:
            rows = [
                r
                for r in s.scalars(_for_summaries(query))
                if include_reviewed or review_status(r) in _PENDING_REVIEW
            ]
            return [summary(r) for r in sorted(rows, key=severity)]

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
        overrides = parse_overrides(claim_overrides or {})
        with self._write("save the review") as s:
            session = _get(s, SessionRow, session_id, "session")
            current = {c.claim_index: c.verdict.status for c in session.claims}
            current |= _latest_overrides(s, session_id)[session_id]
            missing = sorted(set(overrides) - set(current))
            if missing:
                raise NotFoundError(f"Session {session_id!r} has no claim with index {missing}")
            review = ReviewRow(
                session_id=session_id, reviewer=reviewer, outcome=outcome, note=note, created_at=utcnow()
            )
            review.changes = [
                ReviewChangeRow(claim_index=index, old_status=current[index], new_status=status)
                for index, status in sorted(overrides.items())
                if current[index] != status
            ]
            s.add(review)
            s.flush()
            return review_record(review)

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
            return [review_record(r) for r in s.scalars(query)]

    def claim_overrides(self, session_id: str) -> dict[int, ClaimStatus]:
        """The latest reviewer status of each claim a reviewer changed."""
        with self._read("read the claim overrides") as s:
            _get(s, SessionRow, session_id, "session")
            return {i: ClaimStatus(v) for i, v in _latest_overrides(s, session_id)[session_id].items()}

    # -- analytics ---------------------------------------------------------------------------------

    def sessions_frame(self) -> pd.DataFrame:
        """One row per session with the columns of SessionSummary, oldest first; `created_at` as UTC times."""
        with self._read("read the sessions") as s:
            rows = [asdict(summary(r)) for r in s.scalars(_for_summaries(select(SessionRow)))]
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
                for record in claim_records(session, overrides[session.session_id])
            ]
        frame = _with_utc_times(pd.DataFrame(rows, columns=CLAIM_COLUMNS))
        return frame.sort_values(["created_at", "session_id", "claim_index"], ignore_index=True)

    # -- app settings (never secrets) --------------------------------------------------------------

    def get_app_settings(self) -> dict[str, Any]:
        with self._read("read the app settings") as s:
            return {row.key: row.value for row in s.scalars(select(AppSettingRow))}

    def save_app_settings(self, values: Mapping[str, Any]) -> None:
        """Merge `values` into the saved settings. Secret-looking names are refused (keys stay in the env),
        and URLs are saved without their credentials."""
        refused = sorted(str(k) for k in values if not (isinstance(k, str) and k.strip()) or looks_secret(k))
        if refused:
            raise StoreError(
                f"Refused to save settings {refused}: names must be non-empty and secrets (keys, tokens, "
                "passwords) are never stored; set them in the environment"
            )
        try:
            json.dumps(dict(values), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"Settings values must be plain JSON data: {exc}") from exc
        with self._write("save the app settings") as s:
            for key, value in values.items():
                s.merge(AppSettingRow(key=key, value=redact_urls(value) if isinstance(value, str) else value))

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
            if is_locked(exc):
                raise StoreLockedError(
                    f"Could not {action}: the database is locked by another writer (busy timeout "
                    f"{self._busy_timeout_s:g} s). Nothing was written; try again."
                ) from exc
            detail = getattr(exc, "orig", None) or type(exc).__name__
            raise StoreError(f"Could not {action}: {detail}") from exc


def _get(session: Session, model: type[Any], key: object, what: str) -> Any:
    row = session.get(model, key)
    if row is None:
        raise NotFoundError(f"No {what} with id {key!r}")
    return row


def _for_summaries(query: Select[tuple[SessionRow]]) -> Select[tuple[SessionRow]]:
    # Summaries need the reviews (for review_status) but never the full report JSON.
    return query.options(defer(SessionRow.report_json), selectinload(SessionRow.reviews))


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


def _with_utc_times(frame: pd.DataFrame) -> pd.DataFrame:
    frame["created_at"] = pd.to_datetime(frame["created_at"], utc=True)
    return frame


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
