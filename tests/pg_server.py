"""A throw-away PostgreSQL cluster on loopback for tests: initdb + pg_ctl in a tmp folder.

`make test` installs PostgreSQL (Debian's `postgresql`); where its programs are missing the tests
that need it are skipped with that reason. As root, the cluster runs as the `postgres` user
(PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Iterator

import pytest

BIN_DIRS = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)


def _program(name: str) -> str | None:
    return shutil.which(name) or next((f"{d}/{name}" for d in BIN_DIRS if os.path.exists(f"{d}/{name}")), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        if initdb is None or pg_ctl is None:
            pytest.skip("PostgreSQL is not installed (apt-get install -y postgresql; `make test` does it)")
        self.port = _free_port()
        self._pg_ctl = pg_ctl
        # Not under pytest's tmp_path: its parents are private to the user running the tests.
        self._folder = folder = Path(tempfile.mkdtemp(prefix="rrag-pg-"))
        self._data = folder / "pgdata"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._run(initdb, "-D", str(self._data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={folder}"
        self._run(pg_ctl, "-D", str(self._data), "-o", options, "-l", str(folder / "pg.log"), "-w", "start")

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as_user, *command], check=True, capture_output=True)

    def new_database(self) -> str:
        """The SQLAlchemy URL of a new, empty database on this server."""
        import psycopg

        name = f"rrag_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run(self._pg_ctl, "-D", str(self._data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.stop()
