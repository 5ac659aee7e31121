"""The claims table of `benchmarks/llm_claims.py`: hand labels against the audit's verdicts."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from ui_reports import sample_report

from benchmarks.llm_claims import main, read_labels, tally
from rrag.settings import Settings
from rrag.store.store import Store
from rrag.types import Claim, ClaimResult, ClaimStatus, Decision, Verdict

LABELS = {
    "Hello!": "wrong",  # not checkable: a wrong claim the audit did not catch
    "Employees receive 30 days of annual leave.": "wrong",  # contradicted: caught
    "Staff also get a <b>free</b> car.": "wrong",  # unsupported: caught
    "Leave must be approved by a manager.": "right",  # supported
    "The office is closed on public holidays.": "right",  # partial: wrongly flagged
}


def test_the_table_counts_caught_missed_flagged_passed_and_placeholders() -> None:
    trimmed = sample_report()
    dots = ClaimResult(Claim("...", 0, 3), Verdict(ClaimStatus.UNSUPPORTED, 0.9, "quote", "nothing"))
    # A placeholder answer's one claim, not checkable: the answer is refused, nothing was checked.
    na = ClaimResult(
        Claim("N/A", 0, 3, checkable=False), Verdict(ClaimStatus.NOT_CHECKABLE, 1.0, "claims", "-")
    )
    new = ClaimResult(Claim("Pets are welcome.", 4, 21), Verdict(ClaimStatus.SUPPORTED, 0.9, "nli", "found"))
    passed = replace(
        trimmed,
        decision=Decision.PASS,
        claims=[trimmed.claims[0], dots, na, new],
        timings_ms={"answer": 3000.0},
    )
    t = tally([trimmed, passed], failed=1, labels=LABELS)
    assert (t.questions, t.failed) == (3, 1)
    assert (t.wrong, t.caught, t.missed) == (4, 2, ["not_checkable: Hello!", "not_checkable: Hello!"])
    assert (t.right, t.right_flagged) == (2, 1)
    assert t.flagged_right == ["partial: The office is closed on public holidays."]
    assert (t.answers_with_wrong, t.passed_as_written) == (2, 1)  # the trimmed one was not passed
    assert t.placeholders == 1 and t.unlabelled == ["Pets are welcome."]
    assert t.seconds == [0.0425, 3.0]
    rows = dict(t.rows())
    assert rows["Hallucinated claims caught"] == "2 of 4 (50%)"
    assert rows["Answers with a hallucinated claim passed as written"] == "1 of 2 (50%)"


def test_a_claim_two_documents_disagree_on_is_right_only_when_found_partial() -> None:
    report = sample_report()
    claim = Claim("The guarantee lasts 60 days.", 0, 28)
    found = {
        status: ClaimResult(claim, Verdict(status, 0.9, "conflicts", "sources disagree"))
        for status in (ClaimStatus.PARTIAL, ClaimStatus.SUPPORTED)
    }
    runs = [replace(report, claims=[result]) for result in found.values()]
    t = tally(runs, failed=0, labels={claim.text: "conflict"})
    assert (t.conflicts, t.conflicts_partial) == (2, 1)
    assert (t.right, t.wrong, t.right_flagged) == (0, 0, 0)  # neither right nor wrong
    assert dict(t.rows())["Claims two documents disagree on, found partial"] == "1 of 2 (50%)"


def test_labels_other_than_right_wrong_or_conflict_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"A claim.": "right", "Another.": "maybe"}), encoding="utf-8")
    with pytest.raises(SystemExit, match="Another"):
        read_labels(path)
    path.write_text(json.dumps({"A claim.": "wrong"}), encoding="utf-8")
    assert read_labels(path) == {"A claim.": "wrong"}


def test_the_table_is_printed_from_a_run_saved_in_a_real_store(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = sample_report()
    store = Store(settings)
    try:
        store.save_report(report)
        outcomes = [{"session_id": report.session_id}, {"error": "the LLM timed out"}]
        store.save_question_set_run("run1", "handbook", datetime.now(UTC), {}, outcomes)
    finally:
        store.close()
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps(LABELS), encoding="utf-8")
    monkeypatch.setattr(
        sys, "argv", ["llm_claims", "--data", str(settings.data_dir), "--labels", str(labels)]
    )
    main()
    out = capsys.readouterr().out
    assert 'Run run1 "handbook"' in out and "| Questions (failed) | 2 (1) |" in out
