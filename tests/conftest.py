"""Shared fixtures: every test gets its own data directory (real SQLite, real Chroma) under tmp, the
store tests a fresh database on SQLite and on a real PostgreSQL server on loopback, and the LLM tests
a scriptable OpenAI-compatible chat server on loopback (`server`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.backends import structured
from rrag.settings import Settings
from tests.chat_server import ChatServer
from tests.pg_server import PostgresServer, unavailable_reason


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # No test may read the developer's RRAG_* variables or key, or write into ./data.
    import os

    for name in list(os.environ):
        if name.startswith("RRAG_") or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RRAG_DATA_DIR", str(tmp_path / "data"))
    # AppTest runs a page as `__main__` and leaves it there; a spawned worker process (rrag eval
    # --workers) would then re-run that page's temporary script and die.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    # The output modes learned of an earlier test's server are forgotten: a new server may be given
    # the port of one that is gone, and would start from the mode that one accepted.
    monkeypatch.setattr(structured, "_working_mode", {})
    with ChatServer() as s:
        yield s


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole session, started only if a test asks for it."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"PostgreSQL store tests skipped: {reason}")
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Settings]:
    """`settings` with a fresh database on each backend the store supports."""
    if request.param == "sqlite":
        yield settings
        return
    server: PostgresServer = request.getfixturevalue("postgres")
    schema = server.create_schema()
    yield settings.replace(database_url=server.url(schema))
    server.drop_schema(schema)
