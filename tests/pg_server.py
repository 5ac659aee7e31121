"""A throw-away PostgreSQL server on loopback for the store tests (Debian's `postgresql` package).

`initdb` and `pg_ctl` refuse to run as root, so as root they run as the `postgres` user. The cluster
lives in a temporary folder, listens on 127.0.0.1 on a free port with its socket in that folder, and
trades durability for speed (no fsync): it holds test data only. Each test gets a schema of its own.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from tests.chat_server import closed_port

SUPERUSER = "postgres"


def find_bindir() -> Path | None:
    """The newest installed server's bin folder (Debian keeps them in /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).resolve().parent if pg_ctl else None


def unavailable_reason() -> str | None:
    """Why no server can be started here, or None."""
    try:
        import psycopg  # noqa: F401 - only checks that the driver is installed
    except ImportError:
        return "psycopg is not installed (pip install -r requirements.txt)"
    if find_bindir() is None:
        return "PostgreSQL is not installed (`make test` installs Debian's postgresql package)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SUPERUSER)
        except KeyError:
            return f"running as root and there is no {SUPERUSER!r} user to run the server as"
    return None


class PostgresServer:
    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="rrag-pg-"))
        self.port = closed_port()
        self._as_postgres = os.geteuid() == 0

    def start(self) -> PostgresServer:
        if self._as_postgres:
            user = pwd.getpwnam(SUPERUSER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
        data = self.root / "data"
        self._run(
            "initdb",
            "-D",
            data,
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = self.root / "server.log"
        self._run("pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start")
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", self.root / "data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, schema: str | None = None) -> str:
        """The SQLAlchemy URL of the server's database; with `schema`, tables go into that schema."""
        url = f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{SUPERUSER}"
        return f"{url}?options=-csearch_path%3D{schema}" if schema else url

    def create_schema(self) -> str:
        """A new empty schema (much faster than a new database); returns its name."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        self._admin(f"CREATE SCHEMA {name}")
        return name

    def drop_schema(self, name: str) -> None:
        self._admin(f"DROP SCHEMA IF EXISTS {name} CASCADE")

    def _admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname=SUPERUSER, autocommit=True
        ) as conn:
            conn.execute(statement)  # type: ignore[arg-type] - names are made here, never user input

    def _run(self, tool: str, *args: object) -> None:
        command = [str(self.bindir / tool), *map(str, args)]
        if self._as_postgres:
            command = ["runuser", "-u", SUPERUSER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.root, timeout=60)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")
