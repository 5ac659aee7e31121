"""Noticing a damaged or unwritable SQLite database and naming the problem for people.

`PRAGMA quick_check` runs on every open of a SQLite file: it reads every page of the database once
(not the index cross-checks of `integrity_check`). Measured on this machine (2 busy cores, page cache
warm): median 0.20 s for a 100 MB file, 0.35 s for 188 MB; cheap next to loading the models (seconds),
so it runs on each open rather than on a schedule. A database that fails it stays
readable as far as it goes, but every write is refused with StoreDamagedError and a recovery hint:
writing into a malformed file spreads the damage. A full disk and a read-only file or folder, which
SQLite reports as "disk I/O error" or "unable to open database file", are named as such.

A database in a folder this process cannot write (a read-only mount, another user's folder) is opened
read-only: SQLite cannot open a WAL database for reading where it may not create the -shm file, so it
is opened `immutable` (nothing can change it while the folder is read-only), or `mode=ro` when a
non-empty -wal file holds changes not yet in the main file.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Engine

from rrag.errors import StoreDamagedError, StoreError, StoreFullError, StoreReadOnlyError

QUICK_CHECK_ROWS = 5  # problems listed in the message


DAMAGE_MESSAGES = ("malformed", "not a database")


def is_damage(exc: BaseException) -> bool:
    original = getattr(exc, "orig", None) or exc
    return isinstance(original, sqlite3.DatabaseError) and any(m in str(original) for m in DAMAGE_MESSAGES)


def quick_check(engine: Engine) -> str | None:
    """What `PRAGMA quick_check` finds wrong with a SQLite database, or None when it is sound."""
    try:
        raw = engine.raw_connection()  # the connect hook's PRAGMAs may already meet the damage
        try:
            rows = raw.driver_connection.execute(f"PRAGMA quick_check({QUICK_CHECK_ROWS})").fetchall()  # type: ignore[union-attr]
        finally:
            raw.close()
    except Exception as exc:
        if is_damage(exc):
            return str(getattr(exc, "orig", None) or exc)
        raise
    problems = [str(row[0]) for row in rows]
    return None if problems == ["ok"] else "; ".join(problems)


def read_only_folder(folder: Path) -> bool:
    """Whether `folder` exists and this process may not write in it. Root may write in any folder of a
    writable file system whatever its mode, so for root only a read-only mount counts."""
    return folder.is_dir() and not os.access(folder, os.W_OK)


def read_only_url(database: Path) -> str:
    """A SQLAlchemy URL opening the SQLite file `database` for reading only."""
    wal = database.with_name(database.name + "-wal")
    mode = "mode=ro" if wal.is_file() and wal.stat().st_size else "immutable=1"
    return f"sqlite:///file:{quote(str(database))}?{mode}&uri=true"


def read_only_error(action: str, folder: str) -> StoreReadOnlyError:
    return StoreReadOnlyError(
        f"Could not {action}: the data folder {folder} is read-only (a read-only mount, or a folder this "
        "user may not write). The data can be read but not changed; open it from a writable folder to "
        "change it."
    )


def damaged_error(path: str, problem: str) -> StoreDamagedError:
    return StoreDamagedError(
        f"The database {path} is damaged ({problem}). Nothing was written: writing into it would spread "
        "the damage. To recover: stop every process using it, keep a copy, then run "
        f"`sqlite3 {path} .recover | sqlite3 recovered.db` and point RRAG_DATABASE_URL at recovered.db (or "
        "restore a backup); the documents can be re-indexed from the kept originals with `python -m rrag "
        "repair`."
    )


def named_os_failure(action: str, path: str, exc: BaseException) -> StoreError | None:
    """A full disk or an unwritable file or folder, as its own error; None for anything else."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    folder = str(Path(path).parent)
    if primary == sqlite3.SQLITE_FULL or "database or disk is full" in text:
        return StoreFullError(
            f"Could not {action}: the disk holding {folder} is full. Free space and try again."
        )
    if primary == sqlite3.SQLITE_READONLY or "readonly database" in text:
        return StoreReadOnlyError(
            f"Could not {action}: {path} or its folder is read-only; the data can be read but not changed."
        )
    if primary == sqlite3.SQLITE_CANTOPEN or "unable to open database file" in text:
        return StoreReadOnlyError(
            f"Could not {action}: {path} cannot be opened. Check that the folder {folder} exists and can "
            "be written by this user (SQLite needs to create its -wal and -shm files there)."
        )
    if primary == sqlite3.SQLITE_IOERR or "disk i/o error" in text:
        return StoreFullError(
            f"Could not {action}: the disk holding {folder} failed to write (disk I/O error), usually "
            "because it is full or was removed. Free space and try again."
        )
    return None
