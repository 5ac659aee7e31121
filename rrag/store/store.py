"""The Store: the document registry, saved reports, the review audit trail, analytics and app settings.

One engine per Store, shared by threads (Streamlit keeps one in `st.cache_resource`); every public
method runs in its own short transaction. On SQLite, transactions that read then write start with
`BEGIN IMMEDIATE`, so two writers queue on the busy timeout instead of failing on lock upgrade.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, ContextManager

from sqlalchemy import Engine, create_engine, delete, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from rrag.errors import ConfigError, NotFoundError, StoreError, StoreLockedError
from rrag.settings import Settings
from rrag.store.migrations import migrate
from rrag.store.schema import DocumentRow
from rrag.types import DocumentInfo

DEFAULT_BUSY_TIMEOUT_S = 5.0
_BEGIN_MODE = "rrag_sqlite_begin"  # execution option read by the `begin` hook below


class Store:
    def __init__(self, settings: Settings, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> None:
        self._busy_timeout_s = busy_timeout_s
        self._engine, in_memory = _create_engine(settings.sqlalchemy_url, busy_timeout_s)
        self._writer = self._engine.execution_options(**{_BEGIN_MODE: "IMMEDIATE"})
        # An in-memory database is one shared connection: transactions from two threads would interleave.
        self._one_at_a_time: ContextManager[Any] = threading.RLock() if in_memory else nullcontext()
        try:
            with self._one_at_a_time, self._db_errors("open the database"):
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
                    f"Could not {action}: the database is locked by another writer and stayed locked "
                    f"for {self._busy_timeout_s:g} s. Nothing was written; try again."
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
