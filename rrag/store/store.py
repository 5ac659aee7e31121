"""The Store: the document registry, saved reports, the review audit trail, analytics and app settings.

One engine per Store, shared by threads (Streamlit keeps one in `st.cache_resource`); every public
method runs in its own short transaction. On SQLite, transactions that read then write start with
`BEGIN IMMEDIATE`, so two writers queue on the busy timeout instead of failing on lock upgrade.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Select, delete, or_, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, defer, selectinload

from rrag.errors import NotFoundError, StoreError, StoreLockedError
from rrag.redact import looks_secret, redact_urls
from rrag.settings import TOKEN_COUNT_FIELDS, Settings
from rrag.store.bm25 import KeywordMatches
from rrag.store.engine import WRITE_OPTIONS, create_store_engine, is_locked
from rrag.store.health import (
    damaged_error,
    is_damage,
    named_os_failure,
    quick_check,
    read_only_error,
)
from rrag.store.keyword_index import documents_without_keywords, match_keywords, replace_keywords
from rrag.store.migrations import is_behind, migrate
from rrag.store.records import (
    REVIEW_OUTCOMES,
    DocumentState,
    PendingSession,
    ReviewRecord,
    SavedSummary,
    claim_records,
    document_info,
    document_state,
    latest_corrections,
    parse_overrides,
    pending_session,
    plain,
    review_record,
    review_status,
    saved_report,
    session_row,
    severity,
    summary,
)
from rrag.store.schema import (
    AppSettingRow,
    ClaimRow,
    DocumentRow,
    PendingRow,
    QuestionSetRunRow,
    ReviewChangeRow,
    ReviewRow,
    SessionRow,
    from_db_time,
    to_db_time,
    utcnow,
)
from rrag.types import Chunk, ClaimStatus, Correction, DocumentInfo, Report

DEFAULT_BUSY_TIMEOUT_S = 5.0
# Escalated answers wait for someone else, so they stay in the default review queue.
_PENDING_REVIEW = ("open", "escalated")
# Loads what `latest_corrections` reads in two queries, however many reviews a session has.
_WITH_CORRECTIONS = selectinload(SessionRow.reviews).selectinload(ReviewRow.changes)


class Store:
    def __init__(self, settings: Settings, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> None:
        self._busy_timeout_s = busy_timeout_s
        # _read_only: the folder, when writes are refused because it is read-only.
        self._engine, in_memory, self._read_only = create_store_engine(
            settings.sqlalchemy_url, busy_timeout_s
        )
        self._path = make_url(settings.sqlalchemy_url).database or ""
        self._writer = self._engine.execution_options(**WRITE_OPTIONS)
        self._damage: str | None = None  # what quick_check found: writes are refused
        # An in-memory database is one shared connection: transactions from two threads would interleave.
        self._one_at_a_time: AbstractContextManager[Any] = threading.RLock() if in_memory else nullcontext()
        try:
            with self._one_at_a_time, self._db_errors("open the database"):
                if self._engine.dialect.name == "sqlite" and not in_memory:
                    self._damage = quick_check(self._engine)
                if self._damage is None and is_behind(self._engine):
                    if self._read_only is not None:
                        raise read_only_error("bring the database up to date", self._read_only)
                    migrate(self._writer)
        except BaseException:
            self._engine.dispose()
            raise

    def close(self) -> None:
        self._engine.dispose()

    def truncate_log(self) -> None:
        """Empty SQLite's write-ahead log, whose old frames still hold deleted rows (a no-op elsewhere)."""
        if self._engine.dialect.name != "sqlite":
            return
        raw = self._engine.raw_connection()  # autocommit: a checkpoint inside a transaction cannot truncate
        try:
            raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
        except Exception as exc:  # sqlite3.Error; the delete itself is done
            raise StoreError(f"the deleted text could not be cleared from the database's log: {exc}") from exc
        finally:
            raw.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- documents ---------------------------------------------------------------------------------

    def save_document(self, info: DocumentInfo, chunks: Sequence[Chunk] = ()) -> None:
        """Register a committed document in one step, replacing any other doc_id of the same identity;
        `chunks` (its indexed chunks) replace its keyword rows in the same transaction. Ingest goes
        through begin_document / commit_document instead, which guard its chunk writes."""
        identity = info.identity or info.source
        with self._write("save the document") as s:
            replaced = list(
                s.scalars(
                    select(DocumentRow.doc_id).where(
                        DocumentRow.identity == identity, DocumentRow.doc_id != info.doc_id
                    )
                )
            )
            s.execute(delete(DocumentRow).where(DocumentRow.doc_id.in_(replaced)))
            s.merge(DocumentRow(**(asdict(info) | {"identity": identity}), state="ready"))
            replace_keywords(s, [info.doc_id, *replaced], chunks)

    def get_document(self, doc_id: str) -> DocumentInfo:
        """A listed (committed) document; NotFoundError for an unknown id or one not committed yet."""
        with self._read("read the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or not _listed(row):
                raise NotFoundError(f"No document with id {doc_id!r}")
            return document_info(row)

    def get_document_by_identity(self, identity: str) -> DocumentInfo | None:
        with self._read("read the document") as s:
            row = s.scalar(select(DocumentRow).where(DocumentRow.identity == identity))
            return document_info(row) if row is not None and _listed(row) else None

    def list_documents(self) -> list[DocumentInfo]:
        query = select(DocumentRow).where(DocumentRow.version > 0, DocumentRow.state != "deleting")
        with self._read("list the documents") as s:
            return [
                document_info(r) for r in s.scalars(query.order_by(DocumentRow.source, DocumentRow.identity))
            ]

    def delete_document(self, doc_id: str) -> None:
        with self._write("delete the document") as s:
            s.delete(_get(s, DocumentRow, doc_id, "document"))
            replace_keywords(s, [doc_id], ())

    def keyword_matches(
        self, terms: Sequence[str], *, limit: int, also: Sequence[str] = ()
    ) -> KeywordMatches:
        """What scaled BM25 needs for one query (rrag.store.bm25), read in one transaction: up to `limit`
        chunks the database's full-text index ranks best, and the chunks named in `also`."""
        with self._read("search the keyword index") as s:
            return match_keywords(s, terms, limit, also)

    def documents_without_keywords(self) -> list[str]:
        with self._read("list the documents to index for keywords") as s:
            return documents_without_keywords(s)

    # -- the write-ahead record of ingest (rrag/ingest/journal.py) -----------------------------------

    def document_state(self, doc_id: str) -> DocumentState | None:
        with self._read("read the document state") as s:
            row = s.get(DocumentRow, doc_id)
            return None if row is None else document_state(row)

    def busy_documents(self) -> list[DocumentState]:
        """Rows an ingest or a delete has not finished with: what the repair pass looks at."""
        with self._read("list unfinished documents") as s:
            return [
                document_state(r) for r in s.scalars(select(DocumentRow).where(DocumentRow.state != "ready"))
            ]

    def begin_document(self, identity: str, source: str, doc_id: str, writer: str) -> int:
        """Record that `writer` is about to write a new version of a document; returns its number.
        Committed before any chunk is written, so a crash leaves a record the repair pass finds."""
        with self._write("record the new document version") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None:
                row = DocumentRow(
                    doc_id=doc_id,
                    identity=identity,
                    source=source,
                    sha256="",
                    size_bytes=0,
                    chunks=0,
                    duplicates_dropped=0,
                    created_at="",
                    version=0,
                )
                s.add(row)
            elif row.state in ("pending", "deleting"):
                raise StoreError(
                    f"{source} is being {'indexed' if row.state == 'pending' else 'deleted'} "
                    f"by another process ({row.writer}); try again when it is done"
                )
            row.pending_version = max(row.version, row.pending_version or 0) + 1
            _set_state(row, "pending", writer)
            return row.pending_version

    def commit_document(self, info: DocumentInfo, version: int, chunks: Sequence[Chunk]) -> None:
        """Make `version` (all its `chunks` written) the listed one and its chunks the keyword index's,
        in one transaction. Its older chunks may still be in the vector index until finish_document."""
        with self._write("commit the document") as s:
            row = _get(s, DocumentRow, info.doc_id, "document")
            if row.state != "pending" or row.pending_version != version:
                raise StoreError(f"{info.source}: version {version} is no longer the one being written")
            for name, value in asdict(info).items():
                if name not in ("identity", "version"):
                    setattr(row, name, value)
            row.version, row.pending_version = version, None
            _set_state(row, "cleanup", row.writer)
            replace_keywords(s, [info.doc_id], chunks)

    def abandon_document(self, doc_id: str, version: int) -> None:
        """Forget pending `version` (its chunks are gone); a document never committed is removed."""
        with self._write("abandon the document version") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or row.pending_version != version:
                return
            if row.version == 0:
                s.delete(row)
            else:
                row.pending_version = None
                _set_state(row, "cleanup", row.writer)  # chunks of an older cleanup may remain

    def finish_document(self, doc_id: str, version: int) -> None:
        """Only committed `version` is left in the index: the row is consistent again."""
        with self._write("finish the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is not None and row.state == "cleanup" and row.version == version:
                _set_state(row, "ready", None)

    def begin_delete(self, doc_id: str, writer: str) -> DocumentState:
        """Unlist a document before its chunks are deleted (NotFoundError if it is not listed)."""
        with self._write("start deleting the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or not _listed(row):
                raise NotFoundError(f"No document with id {doc_id!r}")
            if row.state == "pending":
                raise StoreError(
                    f"{row.source} is being indexed by another process ({row.writer}); "
                    "try again when it is done"
                )
            _set_state(row, "deleting", writer)
            replace_keywords(s, [doc_id], ())  # unlisted: keyword search stops finding it at once
            return document_state(row)

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
            s.execute(delete(PendingRow).where(PendingRow.session_id == report.session_id))

    def save_pending(self, session_id: str, question: str, mode: str) -> None:
        """Record a question before it is answered; `save_report` of the same session removes it."""
        with self._write("save the question") as s:
            s.add(PendingRow(session_id=session_id, created_at=utcnow(), question=question, mode=mode))

    def drop_pending(self, session_id: str) -> None:
        """Forget a pending question whose answer failed with an error (the user saw the error)."""
        with self._write("forget the question") as s:
            s.execute(delete(PendingRow).where(PendingRow.session_id == session_id))

    def fail_pending(self, session_id: str, reason: str) -> None:
        """Keep a pending question as failed, with the reason the user was shown (already redacted)."""
        with self._write("record the failed question") as s:
            s.execute(
                update(PendingRow).where(PendingRow.session_id == session_id).values(failure=reason[:2000])
            )

    def pending_sessions(self) -> list[PendingSession]:
        """Questions without a saved report, newest first."""
        query = select(PendingRow).order_by(PendingRow.created_at.desc(), PendingRow.session_id)
        with self._read("read the unanswered questions") as s:
            return [pending_session(r) for r in s.scalars(query)]

    def get_report(self, session_id: str) -> Report:
        """The report exactly as the verifier wrote it (reviews are kept beside it: `corrections`)."""
        with self._read("read the report") as s:
            return saved_report(_get(s, SessionRow, session_id, "session"))

    def find_session(self, question: str, mode: str, answer: str | None = None) -> str | None:
        """The newest saved session of exactly this question in this mode (and, given, this audited
        answer), or None."""
        query = select(SessionRow.session_id).where(SessionRow.question == question, SessionRow.mode == mode)
        if answer is not None:
            query = query.where(SessionRow.answer == answer)
        with self._read("find the session") as s:
            return s.scalar(query.order_by(SessionRow.created_at.desc()).limit(1))

    def list_sessions(
        self,
        *,
        search: str | None = None,
        level: str | None = None,
        decision: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        flagged_only: bool = False,
        limit: int | None = 1000,
    ) -> list[SavedSummary]:
        """Newest first. `search` matches question or answer text (case-insensitive, taken literally).
        `level` and `decision` select the sessions saved with them and every session a review corrected,
        whose scores as corrected are the engine's to compute (`rrag.audit.corrections`)."""
        query = select(SessionRow).order_by(SessionRow.created_at.desc(), SessionRow.session_id)
        if search:
            pattern = f"%{_escape_like(search)}%"
            query = query.where(
                or_(
                    SessionRow.question.ilike(pattern, escape="\\"),
                    SessionRow.answer.ilike(pattern, escape="\\"),
                )
            )
        corrected = SessionRow.reviews.any(ReviewRow.changes.any())
        if level:
            query = query.where(or_(SessionRow.level == plain(level).upper(), corrected))
        if decision:
            query = query.where(or_(SessionRow.decision == plain(decision).lower(), corrected))
        if since is not None:
            query = query.where(SessionRow.created_at >= to_db_time(since))
        if until is not None:
            query = query.where(SessionRow.created_at <= to_db_time(until))
        if flagged_only:
            query = query.where(SessionRow.flagged)
        if limit is not None:
            query = query.limit(max(limit, 0))
        with self._read("list the sessions") as s:
            return [summary(row) for row in s.scalars(_for_summaries(query))]

    def review_queue(self, *, include_reviewed: bool = False) -> list[SavedSummary]:
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
            session = _get(s, SessionRow, session_id, "session", _WITH_CORRECTIONS)
            current = {c.claim_index: c.verdict.status for c in session.claims}
            current |= {index: c.status.value for index, c in latest_corrections(session).items()}
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

    def corrections(self, session_id: str) -> dict[int, Correction]:
        """The latest reviewer status of each claim a review changed, by claim index."""
        with self._read("read the corrections") as s:
            return latest_corrections(_get(s, SessionRow, session_id, "session", _WITH_CORRECTIONS))

    # -- analytics ---------------------------------------------------------------------------------

    def session_records(self) -> list[SavedSummary]:
        """Every session as the lists show it, oldest first."""
        query = select(SessionRow).order_by(SessionRow.created_at, SessionRow.session_id)
        with self._read("read the sessions") as s:
            return [summary(r) for r in s.scalars(_for_summaries(query))]

    def claim_records(self) -> list[dict[str, Any]]:
        """One record per claim (CLAIM_COLUMNS), with the verifier's status and the status after reviewer
        overrides, oldest session first."""
        query = select(SessionRow).options(
            defer(SessionRow.report_json),
            selectinload(SessionRow.claims).selectinload(ClaimRow.verdict),
            _WITH_CORRECTIONS,
        )
        with self._read("read the claims") as s:
            rows = [record for session in s.scalars(query) for record in claim_records(session)]
        return sorted(rows, key=lambda r: (r["created_at"], r["session_id"], r["claim_index"]))

    # -- question-set runs (rrag.tools.question_sets) ------------------------------------------------

    def save_question_set_run(
        self, run_id: str, name: str, created_at: datetime, summary: Mapping[str, Any], outcomes: list[Any]
    ) -> None:
        """Save a run once: its summary and its per-question outcomes (plain JSON data)."""
        with self._write("save the question-set run") as s:
            s.add(
                QuestionSetRunRow(
                    run_id=run_id,
                    name=name,
                    created_at=to_db_time(created_at),
                    summary=dict(summary),
                    outcomes=outcomes,
                )
            )

    def list_question_set_runs(self) -> list[dict[str, Any]]:
        """Saved runs, newest first: run_id, name, created_at (ISO, UTC) and summary; no outcomes."""
        query = (
            select(QuestionSetRunRow)
            .options(defer(QuestionSetRunRow.outcomes))
            .order_by(QuestionSetRunRow.created_at.desc(), QuestionSetRunRow.run_id)
        )
        with self._read("list the question-set runs") as s:
            return [
                {
                    "run_id": r.run_id,
                    "name": r.name,
                    "created_at": from_db_time(r.created_at),
                    "summary": r.summary,
                }
                for r in s.scalars(query)
            ]

    def get_question_set_run(self, run_id: str) -> dict[str, Any]:
        with self._read("read the question-set run") as s:
            row = _get(s, QuestionSetRunRow, run_id, "question-set run")
            return {
                "run_id": row.run_id,
                "name": row.name,
                "created_at": from_db_time(row.created_at),
                "summary": row.summary,
                "outcomes": row.outcomes,
            }

    # -- app settings (never secrets) --------------------------------------------------------------

    def get_app_settings(self) -> dict[str, Any]:
        with self._read("read the app settings") as s:
            return {row.key: row.value for row in s.scalars(select(AppSettingRow))}

    def save_app_settings(self, values: Mapping[str, Any]) -> None:
        """Merge `values` into the saved settings. Secret-looking names are refused (keys stay in the env),
        but for the token counts, which must be whole numbers; URLs are saved without their credentials."""
        refused = sorted(
            str(k) for k, v in values.items() if not (isinstance(k, str) and k.strip()) or _secret(k, v)
        )
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

    @property
    def damage(self) -> str | None:
        """What the integrity check on open found wrong with the database, or None."""
        return self._damage

    @property
    def read_only(self) -> str | None:
        """The data folder, when it is read-only: the data can be read, every write is refused."""
        return self._read_only

    def require_sound(self) -> None:
        """Raise StoreDamagedError, with the recovery hint, if the integrity check on open failed."""
        if self._damage is not None:
            raise damaged_error(self._path, self._damage)

    def require_writable(self, action: str) -> None:
        """Raise, saying why, if writes are refused: a read-only folder or a damaged database."""
        if self._read_only is not None:
            raise read_only_error(action, self._read_only)
        self.require_sound()

    @contextmanager
    def _write(self, action: str) -> Iterator[Session]:
        self.require_writable(action)
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
            if is_damage(exc):
                raise damaged_error(self._path, str(getattr(exc, "orig", exc))) from exc
            named = named_os_failure(action, self._path, getattr(exc, "orig", None) or exc)
            if named is not None:
                raise named from exc
            detail = getattr(exc, "orig", None) or type(exc).__name__
            raise StoreError(f"Could not {action}: {detail}") from exc


def _listed(row: DocumentRow) -> bool:
    return row.version > 0 and row.state != "deleting"


def _set_state(row: DocumentRow, state: str, writer: str | None) -> None:
    row.state, row.writer, row.state_since = state, writer, utcnow()


def _get(session: Session, model: type[Any], key: object, what: str, *options: Any) -> Any:
    row = session.get(model, key, options=options)
    if row is None:
        raise NotFoundError(f"No {what} with id {key!r}")
    return row


def _for_summaries(query: Select[SessionRow]) -> Select[SessionRow]:
    # Summaries need the reviews (review status, corrections); the report JSON only once corrected.
    return query.options(defer(SessionRow.report_json), _WITH_CORRECTIONS)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _secret(name: str, value: Any) -> bool:
    """Whether a setting may hold a credential: a secret-looking name, unless it is a token count
    holding a number (a string there could be a key)."""
    if name in TOKEN_COUNT_FIELDS:
        return not (isinstance(value, int) and not isinstance(value, bool))
    return looks_secret(name)
