"""One LLM deadline per question (`RRAG_LLM_DEADLINE_S`), across retries and claims, against the
scripted loopback server with the default per-request timeout and retries."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from chat_server import ChatServer

from rrag.backends.llm import llm_deadline
from rrag.engine.pipeline import ReliableRAG
from rrag.errors import ConfigError, LLMTimeoutError
from rrag.settings import DEFAULT_LLM_DEADLINE_S, DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_S, Settings
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.cascade import CascadeVerifier
from rrag.verify.llm_judge import LLMJudge

SLOW_S = 30.0  # far beyond every deadline below; the server cuts its delays short at teardown
POLICY = "Passwords must be at least 14 characters long. Laptops are replaced every four years.\n"
CONTEXTS = [RetrievedChunk(Chunk("policy#0", "doc", "policy.txt", POLICY, 0, len(POLICY)), score=0.9)]
HELLO = [{"role": "user", "content": "Say hello"}]


def _default_llm(server: ChatServer, settings: Settings):  # type: ignore[no-untyped-def]
    """The real client with the shipped timeout and retries (the chat server's helper turns retries off)."""
    return server.llm(settings, llm_timeout_s=DEFAULT_LLM_TIMEOUT_S, llm_max_retries=DEFAULT_LLM_MAX_RETRIES)


def test_the_deadline_is_a_setting_with_a_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().llm_deadline_s == DEFAULT_LLM_DEADLINE_S == 90.0
    monkeypatch.setenv("RRAG_LLM_DEADLINE_S", "12.5")
    assert Settings.from_env().llm_deadline_s == 12.5
    for bad in (0.0, -1.0):
        with pytest.raises(ConfigError, match="llm_deadline_s"):
            Settings(llm_deadline_s=bad)


def test_a_slow_reply_is_cut_at_the_deadline_not_after_every_retry(
    server: ChatServer, settings: Settings
) -> None:
    for _ in range(3):
        server.reply("too late", delay_s=SLOW_S)
    llm = _default_llm(server, settings)
    began = time.monotonic()
    with llm_deadline(0.5), pytest.raises(LLMTimeoutError, match=r"ran out of time: .*deadline of 0.5 s"):
        llm.complete(HELLO, max_tokens=32)
    assert time.monotonic() - began < 3
    assert len(server.requests) == 1  # no retry once the deadline has passed


def test_at_the_deadline_the_request_is_cancelled_the_connection_closed(
    server: ChatServer, settings: Settings
) -> None:
    # A server that keeps generating for a client that gave up (llama.cpp does) must at least see
    # the connection go: the client closes it, it does not leave it open in its pool.
    server.reply("too late", delay_s=SLOW_S)
    llm = _default_llm(server, settings)
    with llm_deadline(0.5), pytest.raises(LLMTimeoutError):
        llm.complete(HELLO, max_tokens=32)
    waited = time.monotonic()
    while server.dropped == 0 and time.monotonic() - waited < 2:
        time.sleep(0.02)
    assert server.dropped == 1


def test_retries_and_back_off_stop_at_the_deadline(server: ChatServer, settings: Settings) -> None:
    server.fail(503)  # retried after the scripted 10 ms back-off ...
    server.fail(503, headers={"retry-after-ms": "5000"})  # ... but this wait would outlast the deadline
    llm = server.llm(settings, llm_max_retries=5)
    began = time.monotonic()
    with llm_deadline(1.0), pytest.raises(LLMTimeoutError, match="ran out of time"):
        llm.complete(HELLO, max_tokens=32)
    assert time.monotonic() - began < 1.0
    assert len(server.requests) == 2 and server.unexpected == 0


def test_retries_within_the_deadline_still_recover(server: ChatServer, settings: Settings) -> None:
    server.fail(500)
    server.reply("recovered")
    with llm_deadline(5.0):
        assert server.llm(settings, llm_max_retries=1).complete(HELLO, max_tokens=32).text == "recovered"


class _Unsure(Verifier):
    """An offline stage that made a verdict, though not a confident one, so the judge is asked."""

    name = "offline"

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return Verdict(
            ClaimStatus.SUPPORTED, 0.6, self.name, "the offline stage leans supported", support_score=0.6
        )


def test_claims_not_judged_in_time_keep_their_offline_verdict_and_say_why(
    server: ChatServer, settings: Settings
) -> None:
    server.reply_json({"status": "unsupported", "evidence_quote": "", "passage": 0, "reason": "not stated"})
    server.reply("too late", delay_s=SLOW_S)
    claims = [Claim(f"Claim {i} holds.", 0, 15) for i in range(4)]
    cascade = CascadeVerifier([_Unsure(), LLMJudge(_default_llm(server, settings))])
    began = time.monotonic()
    with llm_deadline(1.0):
        verdicts = cascade.verify_many(claims, CONTEXTS)
    assert time.monotonic() - began < 4
    assert (verdicts[0].verifier, verdicts[0].status) == ("llm", ClaimStatus.UNSUPPORTED)  # judged in time
    for late in verdicts[1:]:
        assert (late.verifier, late.status, late.confidence) == ("offline", ClaimStatus.SUPPORTED, 0.6)
        assert "could not check it" in late.reason and "ran out of time" in late.reason
        assert "RRAG_LLM_DEADLINE_S" in late.reason
    assert len(server.requests) == 2  # the claims after the deadline were never sent


@pytest.fixture
def rag(settings: Settings, server: ChatServer, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "policy.txt").write_text(POLICY, encoding="utf-8")
    engine = ReliableRAG(
        settings.replace(llm_base_url=server.base_url, llm_model="scripted-model", llm_deadline_s=1.0)
    )  # the shipped timeout (60 s) and retries (2)
    assert engine.ingest([tmp_path / "policy.txt"])[0].ok
    yield engine
    engine.close()


def test_verify_with_a_slow_judge_ends_at_the_deadline_and_supports_nothing(
    rag: ReliableRAG, server: ChatServer
) -> None:
    for _ in range(3):
        server.reply("too late", delay_s=SLOW_S)
    answer = "Passwords need 20 characters. Laptops are replaced every year. Tablets are free."
    began = time.monotonic()
    report = rag.verify("Policy?", answer, settings=rag.settings.replace(verifiers=("quote", "llm")))
    assert time.monotonic() - began < 6
    assert len(report.claims) == 3 and len(server.requests) == 1
    for result in report.claims:
        assert not result.verdict.verified and result.verdict.status is not ClaimStatus.SUPPORTED
        assert "ran out of time" in result.verdict.reason
    assert not report.verified and report.hallucination_rate is None  # never "no hallucination"
    saved = rag.report(report.session_id)
    assert [c.verdict for c in saved.claims] == [c.verdict for c in report.claims]


def test_an_llm_answer_that_misses_the_deadline_is_a_clear_error(
    rag: ReliableRAG, server: ChatServer
) -> None:
    server.reply("too late", delay_s=SLOW_S)
    rag.configure(rag.settings.replace(answerer="openai"))
    began = time.monotonic()
    with pytest.raises(LLMTimeoutError, match="deadline of 1 s"):
        rag.ask("How long must passwords be?")
    assert time.monotonic() - began < 4
    assert rag.sessions() == []
