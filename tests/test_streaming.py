"""Streaming: the client reads a streamed reply over real HTTP (the loopback server), the answer's
words reach the caller as they are written, the audit runs on the whole answer, and a stream cut off
is a failed question, never a short answer."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.backends.llm import llm_deadline
from rrag.backends.structured import FieldText
from rrag.engine.access import LOCAL_USER
from rrag.engine.pipeline import ReliableRAG
from rrag.engine.user import UserEngine
from rrag.errors import LLMError, LLMTimeoutError
from rrag.redact import REDACTED, Redactor, StreamRedactor
from rrag.settings import Settings
from tests.chat_server import MODEL, ChatServer

HELLO = [{"role": "user", "content": "Say hello"}]
POLICY = (
    "Security incidents must be reported to the IT service desk within 24 hours. "
    "Passwords must be at least 14 characters long.\n"
)
QUESTION = "How fast must incidents be reported?"
ANSWER = {
    "answer": "Security incidents must be reported within 24 hours.",
    "refused": False,
    "citations": [{"passage": 1, "quote": "reported to the IT service desk within 24 hours"}],
}


def _pieces(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


# -- the client -------------------------------------------------------------------------------------


def test_a_streamed_reply_is_passed_on_piece_by_piece_and_returned_whole(
    server: ChatServer, settings: Settings
) -> None:
    server.stream(["Hel", "lo ", "there"])
    got: list[str] = []
    completion = server.llm(settings).complete(HELLO, max_tokens=32, on_text=got.append)
    assert got == ["Hel", "lo ", "there"]
    assert (completion.text, completion.model, completion.truncated) == ("Hello there", MODEL, False)
    assert completion.completion_tokens == 3  # no usage sent: one token per piece, as llama.cpp streams
    assert server.requests[0]["stream"] is True and server.requests[0]["max_tokens"] == 32


def test_a_plain_completion_sent_for_a_streaming_request_is_read_whole(
    server: ChatServer, settings: Settings
) -> None:
    # Issue 46, item 8: a server that ignores `stream` was reported as "the stream was cut".
    server.reply("It opens at 9:00.")
    got: list[str] = []
    completion = server.llm(settings).complete(HELLO, max_tokens=32, on_text=got.append)
    assert server.requests[0]["stream"] is True
    assert got == ["It opens at 9:00."] and completion.text == "It opens at 9:00."
    assert (completion.model, completion.truncated) == (MODEL, False)
    server.reply("")  # an empty one is still an error, as without streaming
    with pytest.raises(LLMError, match="empty reply"):
        server.llm(settings).complete(HELLO, max_tokens=32, on_text=got.append)


def test_a_stream_cut_mid_way_is_an_error_never_a_short_reply(server: ChatServer, settings: Settings) -> None:
    server.stream(["Security incidents must ", "be reported within"], cut=True)
    got: list[str] = []
    with pytest.raises(LLMError, match="broke off its reply after 2 pieces"):
        server.llm(settings).complete(HELLO, max_tokens=32, on_text=got.append)
    assert "".join(got) == "Security incidents must be reported within"


def test_a_stream_past_the_deadline_is_cancelled_and_the_connection_closed(
    server: ChatServer, settings: Settings
) -> None:
    server.stream(["one ", "two ", "three ", "four "], piece_delay_s=0.4)
    llm = server.llm(settings, llm_timeout_s=5.0)
    began = time.monotonic()
    with llm_deadline(0.6), pytest.raises(LLMTimeoutError, match="RRAG_LLM_DEADLINE_S"):
        llm.complete(HELLO, max_tokens=32, on_text=lambda _: None)
    assert time.monotonic() - began < 2.0
    deadline = time.monotonic() + 3
    while server.dropped == 0 and time.monotonic() < deadline:  # the server sees its client hang up
        time.sleep(0.05)
    assert server.dropped == 1


def test_a_secret_the_server_echoes_is_never_passed_on_even_split_across_pieces() -> None:
    secret = "sk-live-0123456789abcdef"
    text = f"The key is {secret} and {secret.upper()}, see you."
    for size in (1, 3, 5, 11):
        got: list[str] = []
        stream = StreamRedactor(Redactor([], keys=[secret]), got.append)
        for piece in _pieces(text, size):
            stream.feed(piece)
            assert "0123" not in "".join(got) and "sk-l" not in "".join(got).lower()
        assert stream.close() == "".join(got) == f"The key is {REDACTED} and {REDACTED}, see you."


def test_a_streamed_json_field_is_decoded_whatever_the_split() -> None:
    value = 'Leave: 25 "days" \\ per year, caf\u00e9 \U0001f600\nnext line'
    raw = json.dumps({"answer": value, "refused": False}, ensure_ascii=True)
    for size in range(1, 14):
        got: list[str] = []
        follower = FieldText("answer", got.append)
        for piece in _pieces('{"citations": [], ' + raw[1:], size):
            follower.feed(piece)
        assert "".join(got) == value


# -- the pipeline -----------------------------------------------------------------------------------


@pytest.fixture
def rag(settings: Settings, server: ChatServer, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "security.txt").write_text(POLICY, encoding="utf-8")
    engine = ReliableRAG(
        settings.replace(llm_base_url=server.base_url, llm_model=MODEL, llm_max_retries=0, llm_timeout_s=5.0)
    )
    assert engine.ingest([tmp_path / "security.txt"])[0].ok
    yield engine
    engine.close()


def test_the_llm_answer_streams_its_words_then_the_whole_answer_is_audited(
    rag: ReliableRAG, server: ChatServer
) -> None:
    server.stream(_pieces(json.dumps(ANSWER)))
    stages: list[str] = []
    claims: list[tuple[int, int]] = []
    stream = UserEngine(rag, LOCAL_USER).ask_stream(  # as the pages call it
        QUESTION,
        settings=rag.settings.replace(answerer="openai"),
        progress=stages.append,
        on_claim=lambda done, total: claims.append((done, total)),
    )
    written = "".join(stream)
    assert written == ANSWER["answer"]  # the answer's words, not the JSON around them
    report = stream.result()
    assert report is stream.report and report.answer == ANSWER["answer"] and report.answer_backend == "openai"
    assert rag.store.get_report(report.session_id).answer == report.answer
    checkable = sum(r.claim.checkable for r in report.claims)
    assert checkable and claims[0] == (0, checkable) and claims[-1] == (checkable, checkable)
    assert stages == ["retrieve", "answer", "claims", "verify", "score", "save"]


def test_a_stream_cut_mid_answer_is_a_failed_question_with_its_reason(
    rag: ReliableRAG, server: ChatServer
) -> None:
    server.stream(_pieces(json.dumps(ANSWER))[:5], cut=True)
    written: list[str] = []
    stream = rag.ask_stream(QUESTION, settings=rag.settings.replace(answerer="openai"), session_id="cut")
    with pytest.raises(LLMError, match="broke off its reply") as raised:
        for piece in stream:
            written.append(piece)
    assert written and ANSWER["answer"].startswith("".join(written))  # shown as it came, then the error
    (failed,) = rag.failed_sessions()
    assert failed.session_id == "cut" and failed.failure == str(raised.value)
    assert stream.report is None and not rag.sessions()  # nothing audited from half an answer
    with pytest.raises(RuntimeError, match="not read to its end"):
        stream.result()


def test_the_extractive_answer_comes_in_one_piece_and_callbacks_run_in_the_reading_thread(
    rag: ReliableRAG,
) -> None:
    threads: set[int] = set()
    claims: list[tuple[int, int]] = []

    def on_claim(done: int, total: int) -> None:
        threads.add(threading.get_ident())
        claims.append((done, total))

    stream = rag.ask_stream(
        QUESTION, progress=lambda _: threads.add(threading.get_ident()), on_claim=on_claim
    )
    pieces = list(stream)
    assert stream.report is not None and pieces == [stream.report.answer]
    assert "24 hours" in pieces[0]
    assert threads == {threading.get_ident()}
    total = sum(r.claim.checkable for r in stream.report.claims)
    assert claims == [(done, total) for done in range(total + 1)]


def test_a_reader_that_stops_early_leaves_the_question_interrupted(
    rag: ReliableRAG, server: ChatServer
) -> None:
    server.stream(_pieces(json.dumps(ANSWER)), piece_delay_s=0.1)
    stream = rag.ask_stream(QUESTION, settings=rag.settings.replace(answerer="openai"), session_id="left")
    for _ in stream:
        break  # a page rerun: the reader goes away
    del stream
    deadline = time.monotonic() + 10
    while not rag.interrupted_sessions() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p.session_id for p in rag.interrupted_sessions()] == ["left"]
    assert not rag.failed_sessions() and not rag.sessions()
    assert server.dropped == 1  # the connection was closed: the server stops writing
