"""`python -m rrag evaluate FILE --fail-above RATE` as a CI job runs it: a real subprocess, with an
LLM answerer scripted on loopback to answer faithfully or to invent a number."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chat_server import MODEL, ChatServer

POLICY = (
    "Full-time employees receive 25 days of paid annual leave per calendar year. "
    "Passwords must be at least 14 characters long.\n"
)
QUESTIONS = (
    '{"question": "How long must passwords be?", "reference": "At least 14 characters.", '
    '"expected_source": "policy.txt"}\n'
    '{"question": "How many days of annual leave do employees get?", "reference": "25 days."}\n'
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed data dir for the module: each run adds its own sessions and nothing else."""
    root = tmp_path_factory.mktemp("evaluate")
    (root / "policy.txt").write_text(POLICY, encoding="utf-8")
    (root / "questions.jsonl").write_text(QUESTIONS, encoding="utf-8")
    assert run_cli(root, None, "ingest", str(root / "policy.txt")).returncode == 0
    return root


def run_cli(workdir: Path, server: ChatServer | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    env["RRAG_DATA_DIR"] = str(workdir / "data")
    if server is not None:
        env |= {
            "RRAG_ANSWERER": "openai",
            "RRAG_LLM_BASE_URL": server.base_url,
            "RRAG_LLM_MODEL": MODEL,
            "RRAG_LLM_MAX_RETRIES": "0",
            "RRAG_LLM_TIMEOUT_S": "10",
        }
    return subprocess.run(
        [sys.executable, "-m", "rrag", *args], capture_output=True, text=True, env=env, timeout=300
    )


def answer(server: ChatServer, text: str) -> None:
    server.reply_json({"answer": text, "refused": False, "citations": []})


def test_a_faithful_run_passes_the_gate(workdir: Path, server: ChatServer) -> None:
    answer(server, "Passwords must be at least 14 characters long.")
    answer(server, "Full-time employees receive 25 days of paid annual leave per calendar year.")
    out = run_cli(workdir, server, "evaluate", str(workdir / "questions.jsonl"), "--fail-above", "0.10")
    assert out.returncode == 0, out.stderr
    assert "hallucination rate  0% (0 of 2 checked claims)" in out.stdout
    assert "answer relevance    100% (2 with a reference)" in out.stdout
    assert "1/2 questions" in out.stderr and "How many days" in out.stderr and "FAIL" not in out.stderr
    assert "2/2 questions" in out.stderr and "took" in out.stderr


def test_an_invented_number_fails_the_gate(workdir: Path, server: ChatServer) -> None:
    answer(server, "Passwords must be at least 14 characters long.")
    answer(server, "Full-time employees receive 30 days of paid annual leave per calendar year.")
    out = run_cli(
        workdir, server, "evaluate", str(workdir / "questions.jsonl"), "--fail-above", "0.10", "--json"
    )
    assert out.returncode == 1, out.stderr
    assert "FAIL: the hallucination rate 50.0% is above the bound 10.0%" in out.stderr
    run = json.loads(out.stdout)
    assert run["summary"]["hallucinated_claims"] == 1 and run["summary"]["checked_claims"] == 2
    # without a bound the same run only reports
    answer(server, "Passwords must be at least 14 characters long.")
    answer(server, "Full-time employees receive 30 days of paid annual leave per calendar year.")
    assert run_cli(workdir, server, "evaluate", str(workdir / "questions.jsonl")).returncode == 0


def test_an_llm_outage_fails_the_gate_and_the_run_goes_on(workdir: Path, server: ChatServer) -> None:
    server.fail(500)
    answer(server, "Full-time employees receive 25 days of paid annual leave per calendar year.")
    out = run_cli(workdir, server, "evaluate", str(workdir / "questions.jsonl"), "--fail-above", "0.10")
    assert out.returncode == 1
    assert out.stdout.startswith("error   How long must passwords be?")
    assert "FAIL: 1 question(s) failed with an error" in out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.jsonl",), "cannot read the question set"),
        (("questions.jsonl", "--fail-above", "10"), "--fail-above must be a rate between 0 and 1"),
    ],
)
def test_bad_input_is_a_clear_error(workdir: Path, args: tuple[str, ...], message: str) -> None:
    out = run_cli(workdir, None, "evaluate", *(str(workdir / args[0]), *args[1:]))
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
