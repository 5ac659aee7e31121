"""A question is on record before it is answered: one whose answer never came is kept as interrupted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rrag.engine.pipeline import MAX_QUESTION_CHARS, ReliableRAG
from rrag.errors import ConfigError, InputError, LLMError
from rrag.settings import Settings
from rrag.store import Store

LEAVE = "Full-time employees receive 25 days of paid annual leave per calendar year.\n"
QUESTION = "How many days of annual leave do full-time employees get?"


class Reload(Exception):
    """What a page's script raises when the browser reloads mid-answer (Streamlit's StopException)."""


@pytest.fixture(scope="module")
def rag(tmp_path_factory: pytest.TempPathFactory) -> ReliableRAG:
    data = tmp_path_factory.mktemp("pending")
    (data / "leave.md").write_text(LEAVE, encoding="utf-8")
    engine = ReliableRAG(Settings(data_dir=data / "data"))
    engine.ingest([data / "leave.md"])
    yield engine
    engine.close()


def test_the_question_is_pending_while_answered_and_gone_once_saved(rag: ReliableRAG) -> None:
    seen: list[tuple[str, ...]] = []

    def progress(stage: str) -> None:
        seen.append(tuple(p.question for p in rag.store.pending_sessions()))

    report = rag.ask(QUESTION, progress=progress, session_id="chosen-by-the-page")
    assert report.session_id == "chosen-by-the-page"
    assert seen and all(QUESTION in pending for pending in seen)  # on record from the first stage
    assert rag.interrupted_sessions() == []  # it was running, never interrupted
    assert all(p.session_id != report.session_id for p in rag.store.pending_sessions())
    assert rag.report(report.session_id).question == QUESTION


def test_an_answer_stopped_midway_is_kept_as_interrupted(rag: ReliableRAG) -> None:
    def reload(stage: str) -> None:
        if stage == "verify":
            raise Reload

    with pytest.raises(Reload):
        rag.verify("Is leave paid?", "Leave is paid.", progress=reload, session_id="stopped")
    (interrupted,) = [p for p in rag.interrupted_sessions() if p.session_id == "stopped"]
    assert (interrupted.question, interrupted.mode) == ("Is leave paid?", "verify")
    assert all(s.session_id != "stopped" for s in rag.sessions())


def test_a_question_the_llm_server_failed_is_kept_as_failed_with_its_reason(rag: ReliableRAG) -> None:
    def failing(stage: str) -> None:
        raise LLMError("cannot reach the LLM server at http://127.0.0.1:9/v1: is it running?")

    with pytest.raises(LLMError):
        rag.ask(QUESTION, progress=failing, session_id="failed")
    (failed,) = [p for p in rag.failed_sessions() if p.session_id == "failed"]
    assert (failed.question, failed.mode) == (QUESTION, "ask")
    assert failed.failure == "cannot reach the LLM server at http://127.0.0.1:9/v1: is it running?"
    assert all(p.session_id != "failed" for p in rag.interrupted_sessions())  # failed, not interrupted
    assert all(s.session_id != "failed" for s in rag.sessions())


def test_an_error_in_the_request_itself_is_not_kept(rag: ReliableRAG) -> None:
    def misconfigured(stage: str) -> None:
        raise ConfigError("The 'openai' answerer needs an LLM")

    with pytest.raises(ConfigError):
        rag.ask(QUESTION, progress=misconfigured, session_id="misconfigured")
    assert all(p.session_id != "misconfigured" for p in rag.store.pending_sessions())


def test_a_question_over_the_limit_is_refused_and_nothing_is_saved(rag: ReliableRAG) -> None:
    before = (len(rag.sessions()), len(rag.store.pending_sessions()))
    with pytest.raises(InputError, match="2,000"):
        rag.ask("x" * (MAX_QUESTION_CHARS + 1))
    with pytest.raises(InputError):
        rag.verify("y" * (MAX_QUESTION_CHARS + 1), "An answer.")
    assert (len(rag.sessions()), len(rag.store.pending_sessions())) == before
    assert rag.ask("How much leave? " + "x" * (MAX_QUESTION_CHARS - 20)).question  # at the limit: fine


def test_an_older_database_gets_the_pending_table(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    Store(settings).close()
    with sqlite3.connect(tmp_path / "rrag.db") as raw:  # as a release before this table left it
        raw.execute("DROP TABLE pending_sessions")
        raw.execute("DELETE FROM schema_version WHERE name = 'm007_pending_sessions'")
    with Store(settings) as store:
        store.save_pending("s1", "Why?", "ask")
        assert [p.question for p in store.pending_sessions()] == ["Why?"]


def test_an_older_pending_table_gets_the_failure_column(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    Store(settings).close()
    with sqlite3.connect(tmp_path / "rrag.db") as raw:  # as a release before failed sessions left it
        raw.execute("ALTER TABLE pending_sessions DROP COLUMN failure")
        raw.execute("DELETE FROM schema_version WHERE name = 'm010_pending_sessions_keep_failures'")
    with Store(settings) as store:
        store.save_pending("s1", "Why?", "ask")
        store.fail_pending("s1", "the LLM server failed (HTTP 500)")
        assert [p.failure for p in store.pending_sessions()] == ["the LLM server failed (HTTP 500)"]
