"""The pipeline with an OpenAI-compatible server configured: a scripted server on loopback, the real
client."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from rrag.backends import structured
from rrag.backends.prompts import PROMPT_VERSION, ClaimsReply
from rrag.engine.pipeline import ReliableRAG
from rrag.errors import LLMError
from rrag.redact import redact_url
from rrag.settings import Settings
from rrag.types import ClaimStatus, Decision
from tests.chat_server import MODEL, ChatServer

POLICY = (
    "Security incidents must be reported to the IT service desk within 24 hours. "
    "Passwords must be at least 14 characters long.\n"
)


@pytest.fixture
def rag(settings: Settings, server: ChatServer, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "security.txt").write_text(POLICY, encoding="utf-8")
    llm_settings = settings.replace(
        llm_base_url=server.base_url, llm_model=MODEL, llm_max_retries=0, llm_timeout_s=5.0
    )
    engine = ReliableRAG(llm_settings)
    assert engine.ingest([tmp_path / "security.txt"])[0].ok
    yield engine
    engine.close()


def test_llm_answer_with_a_quote_not_in_the_source_is_a_citation_mismatch(
    rag: ReliableRAG, server: ChatServer
) -> None:
    rag.configure(rag.settings.replace(answerer="openai"))
    server.reply_json(
        {
            "answer": "Security incidents must be reported within 24 hours.",
            "refused": False,
            "citations": [
                {"passage": 1, "quote": "reported to the IT service desk within 24 hours"},
                {"passage": 1, "quote": "within 48 hours"},
            ],
        }
    )
    report = rag.ask("How fast must incidents be reported?")
    assert report.answer_backend == "openai"
    assert report.citation_mismatches == 1
    assert report.needs_review
    assert report.claims[0].verdict.status is ClaimStatus.SUPPORTED
    # the question and the documents reached the server; the document sits inside the data fence
    prompt = " ".join(m["content"] for m in server.requests[0]["messages"])
    assert "How fast must incidents be reported?" in prompt and "14 characters" in prompt


def test_claim_extractor_outage_falls_back_to_rules_and_says_so(rag: ReliableRAG, server: ChatServer) -> None:
    rag.configure(rag.settings.replace(claim_extractor="llm"))
    server.fail(500)
    report = rag.verify("Passwords?", "Passwords must be at least 14 characters long.")
    assert report.claims[0].verdict.status is ClaimStatus.SUPPORTED  # checked offline after the fallback
    assert any("rule-based splitter" in note for note in report.notes)
    assert rag.report(report.session_id).notes == report.notes


def test_truncated_judge_output_is_not_verified_never_supported(rag: ReliableRAG, server: ChatServer) -> None:
    rag.configure(rag.settings.replace(verifiers=("llm",)))
    for _ in range(2):  # cut off by the token limit, twice
        server.reply(
            '{"status": "supported", "evidence_quote": "Passwords must be at le', finish_reason="length"
        )
    report = rag.verify("Passwords?", "Passwords must be at least 14 characters long.")
    verdict = report.claims[0].verdict
    assert not verdict.verified and verdict.status is not ClaimStatus.SUPPORTED
    assert "not verified" in verdict.reason
    assert not report.verified and report.not_verified_reason
    assert report.hallucination_rate is None and report.level is None  # never "no hallucination"
    assert report.decision is Decision.REFUSE and report.needs_review
    assert server.pending == 0 and server.unexpected == 0  # exactly one retry, then it gave up


def test_the_report_records_which_model_server_prompt_and_tokens_wrote_it(
    rag: ReliableRAG, server: ChatServer
) -> None:
    rag.configure(rag.settings.replace(answerer="openai", llm_max_tokens_answer=200))
    server.reply_json(
        {
            "answer": "Security incidents must be reported within 24 hours.",
            "refused": False,
            "citations": [{"passage": 1, "quote": "reported to the IT service desk within 24 hours"}],
        }
    )
    report = rag.ask("How fast must incidents be reported?")
    assert server.requests[0]["max_tokens"] == 200
    assert report.llm == {
        "server": server.base_url,
        "model_requested": MODEL,
        "models": [MODEL],  # as the server named it in its reply
        "output_modes": ["json_schema"],
        "prompt_version": PROMPT_VERSION,
        "calls": 1,
        "prompt_tokens": 1,  # the scripted server's usage
        "completion_tokens": 1,
    }
    assert rag.report(report.session_id).llm == report.llm
    assert rag.verify("Q?", "Passwords must be at least 14 characters long.").llm == {}  # no LLM call


def test_a_question_whose_llm_server_is_down_is_saved_as_failed_with_the_reason(
    rag: ReliableRAG, server: ChatServer
) -> None:
    rag.configure(rag.settings.replace(answerer="openai"))
    server.fail(503, "overloaded")
    with pytest.raises(LLMError, match="HTTP 503"):
        rag.ask("How fast must incidents be reported?", session_id="down")
    (failed,) = rag.failed_sessions()
    assert failed.session_id == "down" and "failed (HTTP 503): overloaded" in failed.failure


def test_the_output_mode_found_is_kept_across_a_restart(
    rag: ReliableRAG, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = "Security incidents must be reported within 24 hours."
    rag.configure(rag.settings.replace(claim_extractor="llm"))
    server.fail(500, "Input should be 'text' or 'json_object'")  # llama.cpp's refusal of json_schema
    server.reply_json({"claims": [answer]})
    rag.verify("How fast must incidents be reported?", answer)
    settings = rag.settings
    rag.close()
    monkeypatch.setattr(structured, "_working_mode", {})  # a new process has learned nothing itself
    again = ReliableRAG(settings)
    server.reply_json({"claims": [answer]})
    again.verify("How fast must incidents be reported?", answer)
    again.close()
    assert [r.get("response_format") for r in server.requests] == [
        {"type": "json_schema", "json_schema": server.requests[0]["response_format"]["json_schema"]},
        {"type": "json_object", "schema": ClaimsReply.model_json_schema()},
        # after the restart: straight to the mode that worked, read from the store
        {"type": "json_object", "schema": ClaimsReply.model_json_schema()},
    ]


def test_a_mode_kept_before_other_modes_were_offered_is_negotiated_again(
    rag: ReliableRAG, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Kept by a version that offered no json_object_schema: the server may take the better mode now.
    answer = "Security incidents must be reported within 24 hours."
    old_shape = {redact_url(server.base_url): {MODEL: "json_object"}}
    rag.save_settings({"llm_output_modes": old_shape})
    settings = rag.settings.replace(claim_extractor="llm")
    rag.close()
    monkeypatch.setattr(structured, "_working_mode", {})
    again = ReliableRAG(settings)
    server.fail(500, "Input should be 'text' or 'json_object'")
    server.reply_json({"claims": [answer]})
    again.verify("How fast must incidents be reported?", answer)
    kept = again.saved_settings()["llm_output_modes"]["servers"]
    assert kept == {redact_url(server.base_url): {MODEL: "json_object_schema"}}
    again.close()
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object"]


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_replaced_and_per_question_llm_clients_are_closed(settings: Settings, tmp_path: Path) -> None:
    """configure(), a question's own settings and a connection test each build an LLM client: each is
    closed when done with, not left to the garbage collector (a test session used to pass 1,024
    descriptors). The server keeps connections alive, as real ones do: an unclosed client holds one."""
    answer = {"answer": "Passwords must be at least 14 characters long.", "refused": False, "citations": []}
    (tmp_path / "security.txt").write_text(POLICY, encoding="utf-8")
    with ChatServer(keep_alive=True) as server, closing(ReliableRAG(settings)) as rag:
        assert rag.ingest([tmp_path / "security.txt"])[0].ok
        llm = {"llm_base_url": server.base_url, "llm_model": MODEL, "llm_max_retries": 0}

        def cycle(n: int) -> None:
            rag.configure(rag.settings.replace(**llm, answerer="openai", top_k=4 + n % 2))
            server.reply_json(answer)
            rag.ask("How long must passwords be?")
            server.reply_json(answer)
            rag.ask("How long must passwords be?", settings=rag.settings.replace(top_k=3))
            server.reply_json(answer)
            rag.test_llm_connection(rag.settings.replace(top_k=2))

        gc.collect()
        gc.disable()  # descriptors must be released by close(), not by a collection that may never come
        try:
            cycle(0)  # what the first question opens for good (the verifier model, the index)
            before = _open_fds()
            for n in range(1, 11):
                cycle(n)
            assert _open_fds() - before < 10  # 3 clients a cycle, 2 descriptors each, when left open
        finally:
            gc.enable()
