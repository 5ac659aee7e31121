"""The Store's foundation: one SQLAlchemy engine shared by threads, the integrity check on open, and
short transactions whose database errors become the engine's own (locked, damaged, full, read-only).

Every public method of the Store runs in its own transaction. On SQLite, transactions that read then
write start with `BEGIN IMMEDIATE`, so two writers queue on the busy timeout instead of failing on lock
upgrade.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Self

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from rrag.errors import NotFoundError, StoreError, StoreLockedError
from rrag.settings import Settings
from rrag.store.engine import WRITE_OPTIONS, create_store_engine, is_locked
from rrag.store.health import damaged_error, is_damage, named_os_failure, quick_check, read_only_error
from rrag.store.migrations import is_behind, migrate

DEFAULT_BUSY_TIMEOUT_S = 5.0


class StoreBase:
    """The engine, the checks on open (integrity, migrations, read-only) and the transactions."""

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        """Turn SQLAlchemy's errors (and the driver's, raised unwrapped by the connect hook) into the
        engine's; the raw error stays as `__cause__` only."""
        try:
            yield
        except (SQLAlchemyError, sqlite3.Error) as exc:
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


def get_row(session: Session, model: type[Any], key: object, what: str, *options: Any) -> Any:
    row = session.get(model, key, options=options)
    if row is None:
        raise NotFoundError(f"No {what} with id {key!r}")
    return row
