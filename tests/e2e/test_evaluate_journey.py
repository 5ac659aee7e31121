"""The Evaluate page in a real headless Chromium: load the demo, run the sample question set with a
progress bar, then a second uploaded set, and compare the two runs (the failure counts, recall@k and
MRR among the rows). Screenshot: evaluate.png."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect
from test_journey import STEP_TIMEOUT_MS, _idle, _open, _shot, page, pytestmark, server  # noqa: F401 - fixtures and marks

SAMPLE_SET = Path(__file__).resolve().parents[2] / "data" / "demo" / "questions" / "handbook.jsonl"
SECOND_SET = (
    "question,reference,expected_source\n"
    "How long must passwords be?,Passwords must be at least 14 characters long.,it-security-policy.txt\n"
    "How much does the Team plan cost?,The Team plan costs €19 per user per month.,"
    "ledgerline-product-faq.html\n"
)


def _run(page: Page, path: Path, name: str) -> None:
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    page.get_by_label("Run name").fill(name)
    page.get_by_role("button", name="Run the question set").click()
    expect(page.get_by_test_id("stProgress")).to_be_visible()  # the bar shows while the questions run
    # a set is several questions, each one a step's work: on a loaded machine more than one step's time
    expect(page.get_by_text("Done: ", exact=False)).to_be_visible(timeout=3 * STEP_TIMEOUT_MS)
    _idle(page)


def test_run_a_question_set_and_compare_two_runs(page: Page, tmp_path: Path) -> None:
    page.goto("/")
    _open(page, "Documents", "Documents")
    page.get_by_role("button", name="Load the demo handbook").click()
    expect(page.get_by_text("Inspect a document")).to_be_visible()

    _open(page, "Evaluate", "Evaluate")
    expect(page.get_by_text("No run yet", exact=False)).to_be_visible()
    _run(page, SAMPLE_SET, "baseline")
    metrics = page.get_by_test_id("stMetric")  # the run's four first; the open report has its own after
    for number, label in enumerate(
        ("Faithfulness", "Answer relevance", "Refusal rate", "Hallucination rate")
    ):
        expect(metrics.nth(number)).to_contain_text(label)
    expect(metrics.nth(2)).to_contain_text("10%")
    # the failures a stakeholder asks about, and the retrieval's recall and its gate, beside them
    for label in (
        "Unanswerable answered",
        "Answerable refused",
        "Conflicts found",
        "Recall@20",
        "Recall gate",
    ):
        expect(page.get_by_test_id("stMetric").filter(has_text=label).first).to_be_visible()
    expect(page.get_by_text("Reference answer:", exact=False)).to_be_visible()
    expect(page.get_by_text("Run a question set twice", exact=False)).to_be_visible()

    second = tmp_path / "second.csv"
    second.write_text(SECOND_SET, encoding="utf-8")
    _run(page, second, "two questions")
    expect(page.get_by_role("heading", name="Compare two runs")).to_be_visible()
    expect(page.get_by_role("combobox", name="Run A")).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(3)  # this run, the metrics, the questions
    _shot(page, "evaluate")
