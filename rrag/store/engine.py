"""The SQLAlchemy engine for any database URL; SQLite and PostgreSQL are set up for one writer at a time.

SQLite gets WAL (readers never wait for the writer), a busy timeout (writers queue instead of failing)
and foreign keys, on every new connection. The driver's own implicit BEGIN is switched off because it
cannot take the write lock up front and does not cover DDL; the `begin` hook issues BEGIN itself, as
`BEGIN IMMEDIATE` on connections carrying `WRITE_OPTIONS`.

PostgreSQL has no BEGIN IMMEDIATE: transactions carrying `WRITE_OPTIONS` take one transaction-scoped
advisory lock first, so writers queue there too, waiting at most the busy timeout (`lock_timeout`).
This keeps read-then-write transactions from losing updates, and makes processes opening a fresh
database migrate it one after the other instead of racing on CREATE TABLE.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from rrag.errors import ConfigError, StoreError
from rrag.redact import redact_urls
from rrag.store.health import read_only_folder, read_only_url

BEGIN_MODE = "rrag_sqlite_begin"  # execution option read by the `begin` hook
WRITE_OPTIONS = {BEGIN_MODE: "IMMEDIATE"}
WRITE_LOCK_KEY = 0x72726167  # "rrag": the advisory lock every PostgreSQL writer takes
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout runs out
WAL_RETRY_S = 0.01


def create_store_engine(url_text: str, busy_timeout_s: float) -> tuple[Engine, bool, str | None]:
    """The engine; whether it is an in-memory SQLite database (one connection shared by all threads);
    and the folder of a SQLite file this process may not write, opened read-only (rrag.store.health)."""
    read_only: str | None = None
    try:
        url = make_url(url_text)
        if url.get_backend_name() == "postgresql":
            return _postgresql_engine(url, busy_timeout_s), False, None
        if url.get_backend_name() != "sqlite":
            return create_engine(url, pool_pre_ping=True), False, None
        in_memory = url.database in (None, "", ":memory:")
        if in_memory:
            engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        elif read_only_folder(Path(url.database or "").parent):
            read_only = str(Path(url.database or "").parent)
            engine = create_engine(read_only_url(Path(url.database or "")))
        else:
            Path(url.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise ConfigError(f"database_url is not a usable SQLAlchemy URL: {redact_urls(str(exc))}") from None
    except OSError as exc:
        raise StoreError(f"Could not create the database folder: {exc}") from exc

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA secure_delete = ON")  # deleted text is overwritten, not left in free pages
        if not in_memory:
            _switch_to_wal(cursor, busy_timeout_s)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(f"BEGIN {conn.get_execution_options().get(BEGIN_MODE, 'DEFERRED')}")

    return engine, in_memory, read_only


def _switch_to_wal(cursor: sqlite3.Cursor, busy_timeout_s: float) -> None:
    """Put the file in WAL mode (kept in the file). The switch needs the file to itself and SQLite
    answers "database is locked" at once, without waiting the busy timeout, while another process
    opens the same new file: so it is retried here until that timeout."""
    deadline = time.monotonic() + busy_timeout_s
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(WAL_RETRY_S)


def _postgresql_engine(url: URL, busy_timeout_s: float) -> Engine:
    engine = create_engine(url, pool_pre_ping=True)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        if conn.get_execution_options().get(BEGIN_MODE) == "IMMEDIATE":
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(busy_timeout_s * 1000)}")
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")

    return engine


def is_locked(exc: SQLAlchemyError | sqlite3.Error) -> bool:
    """Whether the database gave up waiting for another connection's lock (SQLAlchemy's error, or the
    driver's own from the connect hook, which SQLAlchemy does not wrap)."""
    orig = getattr(exc, "orig", None) or exc
    if getattr(orig, "sqlstate", None) == LOCK_NOT_AVAILABLE:
        return True
    if not isinstance(orig, sqlite3.OperationalError):
        return False
    # Extended result codes (SQLITE_BUSY_SNAPSHOT...) keep the primary code in the low byte.
    primary_code = getattr(orig, "sqlite_errorcode", 0) & 0xFF
    return primary_code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(orig)
