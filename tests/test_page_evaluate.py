"""The Evaluate page driven by AppTest over a real temp-dir engine holding the demo corpus: run the
sample question set, open a question's report, upload a second set, compare the two runs."""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from rrag import ReliableRAG
from rrag.tools.demo import demo_files
from rrag.tools.question_sets import load_run, saved_runs
from ui.engine import get_engine
from ui.run_tables import run_csv, run_json

APP = Path(__file__).resolve().parents[1] / "app.py"
TIMEOUT_S = 300  # the first run loads the models; a run asks ten questions


@pytest.fixture
def rag() -> Iterator[ReliableRAG]:
    engine = get_engine()  # the same cached handle the page uses
    assert all(r.ok for r in engine.ingest(demo_files()))
    yield engine
    st.cache_data.clear()
    st.cache_resource.clear()
    engine.close()


def _evaluate_page() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.run()
    at.switch_page("pages/evaluate.py")
    at.run()
    assert not at.exception, at.exception
    return at


def _click(at: AppTest, label: str) -> AppTest:
    next(b for b in at.button if b.label.startswith(label)).click()
    at.run()
    assert not at.exception, at.exception
    return at


def _finish_run(at: AppTest) -> AppTest:
    """The run goes on its own thread: follow it as the page does, then let the page show it."""
    job = at.session_state["evaluate.job"]
    assert job is not None
    job.wait(TIMEOUT_S)
    assert not job.running
    at.run()
    assert not at.exception, at.exception
    return at


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric[:4]}  # the run's; the report below has its own


def test_a_run_shows_the_aggregates_each_report_and_a_comparison(rag: ReliableRAG) -> None:
    at = _evaluate_page()
    assert at.title[0].value == "Evaluate"
    assert "No run yet" in at.info[0].value

    _click(at, "Run the demo's sample set")
    _finish_run(at)
    metrics = _metrics(at)
    assert set(metrics) == {"Faithfulness", "Answer relevance", "Refusal rate", "Hallucination rate"}
    assert metrics["Refusal rate"] == "10%"  # the capital of France is in no document
    assert metrics["Hallucination rate"] == "0%"
    # What a stakeholder asks about sits beside them: misses of the question set, conflicts, and
    # whether retrieval finds the expected sources (9 of the 10 name one).
    shown = {m.label: m.value for m in at.metric}
    assert {"Unanswerable answered", "Answerable refused", "Conflicts found", "False conflicts"} <= set(shown)
    assert shown["Recall@50"] == "100%" and shown["Recall gate"] in ("passed", "not passed")
    table = at.dataframe[0].value
    assert len(table) == 10 and table["Question"].iloc[-1] == "What is the capital of France?"
    assert table["Answer"].iloc[1].startswith("For Berlin, the per-diem per day is €48.")
    assert at.get("progress")  # the bar stays, at "Done"
    # the first question's report is shown with its reference answer
    assert any("Reference answer:" in m.value for m in at.markdown)
    assert "Run a question set twice" in at.info[0].value
    # the whole run can be downloaded, as JSON and as CSV
    run = load_run(rag, saved_runs(rag)[0]["run_id"])
    assert [b.proto.label for b in at.get("download_button")][:2] == [
        "Download the run (JSON)",
        "Download the run (CSV)",
    ]
    exported = json.loads(run_json(run))
    assert exported["summary"]["questions"] == 10 and len(exported["outcomes"]) == 10
    rows = list(csv.DictReader(io.StringIO(run_csv(run))))
    assert len(rows) == 10 and rows[-1]["Question"] == "What is the capital of France?"
    assert rows[0]["Run"] == "handbook" and rows[0]["Session"] == run.outcomes[0].session_id

    at.file_uploader(key="evaluate.file").set_value(
        (
            "two.csv",
            b"question,reference\nHow long must passwords be?,At least 14 characters.\n"
            b"What is the capital of France?,\n",
            "text/csv",
        )
    )
    at.text_input(key="evaluate.name").input("two questions")
    _click(at, "Run the question set")
    _finish_run(at)
    assert [r["name"] for r in saved_runs(rag)] == ["two questions", "handbook"]
    assert len(at.dataframe[0].value) == 2  # the new run is the one shown
    metrics_table, questions_table = at.dataframe[1].value, at.dataframe[2].value
    assert list(metrics_table["Metric"]) == [
        "Faithfulness",
        "Answer relevance",
        "Refusal rate",
        "Hallucination rate",
        "Expected source retrieved",
        "Expected source cited",
        "Answerable questions refused",
        "Unanswerable questions answered",
        "Of those, not flagged for review",
        "Answers flagged off-target",
        "Real conflicts found",
        "False conflicts",
        "Recall@5, first stage",
        "Recall@20, first stage",
        "Recall@50, first stage",
        "MRR, first stage",
        "MRR, reranked",
    ]
    assert list(metrics_table.columns[1:3]) == ["A: handbook", "B: two questions"]
    refusal = metrics_table.set_index("Metric").loc["Refusal rate"]
    # Ten questions against two: the rates are shown, but neither run is called better.
    assert refusal["B is"] == "not comparable" and refusal["B: two questions"] == "50%"
    assert set(metrics_table["B is"]) == {"not comparable"} and metrics_table["Change"].isna().all()
    assert any("asked different questions (2 in common" in w.value for w in at.warning)
    passwords = questions_table.set_index("Question").loc["How long must passwords be?"]
    assert (passwords["Decision A"], passwords["Decision B"]) == ("pass", "pass")
    assert (
        questions_table.set_index("Question").loc["Who approves an expense of 3,000 euros?"]["Decision B"]
        == "not asked"
    )


def test_a_run_goes_on_while_another_file_is_chosen(
    rag: ReliableRAG, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first question waits until the test has chosen a file: a slow server, on cue.
    go_on = threading.Event()
    ask = rag.ask

    def slow_ask(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert go_on.wait(TIMEOUT_S)
        return ask(*args, **kwargs)

    monkeypatch.setattr(rag, "ask", slow_ask)
    at = _evaluate_page()
    _click(at, "Run the demo's sample set")
    job = at.session_state["evaluate.job"]
    assert job.running and at.get("progress")
    # Choosing a file reruns the page, which stopped the run when it was asked inside the script.
    at.file_uploader(key="evaluate.file").set_value(
        ("one.csv", b"question\nHow long must passwords be?\n", "text/csv")
    )
    _click(at, "Run the question set")  # a rerun: and a second run is not started over the first
    assert any("is still going" in w.value for w in at.warning)
    go_on.set()
    _finish_run(at)
    assert [r["name"] for r in saved_runs(rag)] == ["handbook"]
    assert saved_runs(rag)[0]["summary"]["questions"] == 10  # every question asked, the run saved
    assert len(at.dataframe[0].value) == 10


def test_a_bad_question_set_is_refused_with_its_line_and_nothing_runs(rag: ReliableRAG) -> None:
    at = _evaluate_page()
    at.file_uploader(key="evaluate.file").set_value(
        ("broken.jsonl", b'{"question": "How long must passwords be?"}\n{"question": \n', "application/json")
    )
    _click(at, "Run the question set")
    assert "broken.jsonl: line 2 is not JSON" in at.error[0].value.replace("\\", "")  # Markdown escapes
    assert saved_runs(rag) == [] and rag.sessions() == []


def test_running_without_a_file_asks_for_one(rag: ReliableRAG) -> None:
    at = _click(_evaluate_page(), "Run the question set")
    assert at.warning[0].value == "Choose a question set file first."
