"""`python -m rrag` as a user runs it: a real subprocess, its own data dir, JSON on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_language import ENGLISH, GERMAN

from rrag.settings import Settings
from rrag.store import Store

HANDBOOK = (
    "Full-time employees receive 25 days of paid annual leave per calendar year. "
    "Up to 5 unused days may be carried over into the next year.\n"
)


def run_cli(*args: str, data_dir: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    env["RRAG_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-m", "rrag", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=300,
    )


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    (root / "handbook.txt").write_text(HANDBOOK, encoding="utf-8")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    out = run_cli(
        "ingest", str(root / "handbook.txt"), str(root / "broken.pdf"), "--json", data_dir=root / "data"
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr  # one file failed, not the CLI
    results = {Path(r["source"]).name: r for r in json.loads(out.stdout)}
    assert results["handbook.txt"]["ok"] and results["handbook.txt"]["chunks_added"] >= 1
    assert not results["broken.pdf"]["ok"] and results["broken.pdf"]["error"]
    return root


def test_ask_prints_the_report_json(indexed: Path) -> None:
    out = run_cli(
        "ask", "How many days of annual leave do employees get?", "--json", data_dir=indexed / "data"
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    for field in (
        "session_id",
        "question",
        "answer",
        "final_answer",
        "decision",
        "level",
        "reliability",
        "hallucination_rate",
        "needs_review",
        "status_counts",
        "claims",
        "contexts",
        "timings_ms",
    ):
        assert field in report
    assert "25 days" in report["answer"]
    claim = report["claims"][0]
    assert {"text", "start", "end", "status", "confidence", "verifier", "reason", "evidence"} <= claim.keys()
    assert report["answer"][claim["start"] : claim["end"]] == claim["text"]
    # Progress on stderr, the report alone on stdout: the answer as written, then each claim verified.
    assert f"answer: {report['answer']}\n" in out.stderr
    checkable = sum(c["status"] != "not_checkable" for c in report["claims"])
    assert f"claims verified {checkable}/{checkable}" in out.stderr


def test_verify_from_stdin_flags_the_planted_number_and_sessions_lists_it_first(indexed: Path) -> None:
    answer = "Full-time employees receive 30 days of paid annual leave per calendar year."
    out = run_cli(
        "verify",
        "--question",
        "Annual leave?",
        "--answer-file",
        "-",
        "--json",
        data_dir=indexed / "data",
        stdin=answer,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["claims"][0]["status"] in {"unsupported", "contradicted"}
    assert report["needs_review"]

    listed = run_cli("sessions", "--json", data_dir=indexed / "data")
    sessions = json.loads(listed.stdout)
    assert report["session_id"] in {s["session_id"] for s in sessions if s["needs_review"]}
    flags = [s["needs_review"] for s in sessions]
    assert flags == sorted(flags, reverse=True)  # flagged first


def test_errors_are_one_clear_line_and_exit_code_2(indexed: Path) -> None:
    out = run_cli(
        "verify", "--question", "q", "--answer-file", str(indexed / "missing.txt"), data_dir=indexed / "data"
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error: cannot read the answer file")
    assert "Traceback" not in out.stderr


def test_sessions_lists_questions_never_answered_and_failed(tmp_path: Path) -> None:
    # Issue 46, item 8: `rrag sessions` listed saved sessions only; History showed these too.
    with Store(Settings(data_dir=tmp_path / "data")) as store:  # as a killed process leaves them
        store.save_pending("s-interrupted", "Is leave paid?", "ask")
        store.save_pending("s-failed", "Who approves refunds?", "ask")
        store.fail_pending("s-failed", "the LLM server at http://127.0.0.1:9 did not answer")
    listed = run_cli("sessions", data_dir=tmp_path / "data")
    assert listed.returncode == 0, listed.stderr
    assert "INTERRUPTED" in listed.stdout and "Is leave paid?" in listed.stdout
    assert "FAILED" in listed.stdout and "did not answer" in listed.stdout
    as_json = json.loads(run_cli("sessions", "--json", data_dir=tmp_path / "data").stdout)
    assert {(s["session_id"], s["state"]) for s in as_json} == {
        ("s-interrupted", "interrupted"),
        ("s-failed", "failed"),
    }


def test_documents_list_their_language_and_a_report_says_what_did_not_run(tmp_path: Path) -> None:
    (tmp_path / "urlaub.md").write_text(GERMAN, encoding="utf-8")
    (tmp_path / "leave.md").write_text(ENGLISH, encoding="utf-8")
    data = tmp_path / "data"
    assert (
        run_cli("ingest", str(tmp_path / "urlaub.md"), str(tmp_path / "leave.md"), data_dir=data).returncode
        == 0
    )
    listed = run_cli("documents", data_dir=data)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[-1]: line for line in listed.stdout.splitlines()}
    assert "German" in lines["urlaub.md"] and "English" in lines["leave.md"]
    as_json = {
        d["source"]: d["language"] for d in json.loads(run_cli("documents", "--json", data_dir=data).stdout)
    }
    assert as_json == {"urlaub.md": "de", "leave.md": "en"}
    audited = run_cli(
        "verify",
        "--question",
        "Wer muss die Arbeit im Homeoffice genehmigen?",
        "--answer-file",
        "-",
        data_dir=data,
        stdin="Die Arbeit im Homeoffice muss vorher von der Teamleitung genehmigt werden.",
    )
    assert "Traceback" not in audited.stderr, audited.stderr
    assert "NOT_VERIFIED" in audited.stdout and "the offline verifier reads English only" in audited.stdout
    assert (
        "Did not run: Claim verification by the rules and the judge: the answer is in German"
        in audited.stdout
    )
