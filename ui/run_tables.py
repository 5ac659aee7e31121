"""Tables and labels of question-set runs (`rrag.tools.question_sets`) for the Evaluate page.

Rates stay numbers (0..1) so that `st.dataframe` sorts them; the page formats them as percentages.
A figure nothing measured is None and shows as an empty cell, never as 0 %.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd

from rrag.tools.question_sets import QuestionSetRun, compare_runs
from ui.status import badge_text, decision_style
from ui.tables import when

FOUND = {True: "✔ retrieved", False: "✖ missed", None: "–"}


def run_label(saved: dict[str, Any]) -> str:
    """'baseline · 10 questions · 2026-11-24 05:23 UTC' for a saved run (as `saved_runs` lists it)."""
    return f"{saved['name']} · {saved['summary']['questions']} questions · {when(saved['created_at'])}"


def outcomes_table(run: QuestionSetRun) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "#": number,
                "Question": o.question,
                "Decision": "✖ error" if o.error else badge_text(decision_style(o.decision or "")),
                "Hallucination rate": o.hallucination_rate,
                "Faithfulness": o.faithfulness,
                "Answer relevance": o.answer_relevance,
                "Expected source": FOUND[o.source_found] if o.expected_source else "–",
                "Answer": o.error or o.final_answer,
            }
            for number, o in enumerate(run.outcomes, start=1)
        ]
    )


def run_json(run: QuestionSetRun) -> str:
    """The whole run, summary and every question's outcome, as the CLI's `evaluate --json` prints it."""
    return json.dumps(run.to_dict(), indent=2, ensure_ascii=False)


def run_csv(run: QuestionSetRun) -> str:
    """One row per question, with the run's name and time, for a spreadsheet."""
    table = outcomes_table(run)
    table.insert(0, "Run", run.name)
    table.insert(1, "Run at", run.created_at)
    table["Session"] = [o.session_id for o in run.outcomes]
    return table.to_csv(index=False)


def figure(value: float | None, kind: str, *, change: bool = False) -> str | None:
    """A metric as text for its kind: "40%" (a rate), "3" (a count), "0.83" (a score); a change with
    its sign, a rate's in points. None (nothing measured) stays None: the table's placeholder."""
    if value is None:
        return None
    sign = "+" if change else ""
    if kind == "rate":
        return f"{value * 100:{sign}.0f} pts" if change else f"{value:.0%}"
    if kind == "count":
        return f"{value:{sign}g}"
    return f"{value:{sign}.2f}"


def comparison_tables(a: QuestionSetRun, b: QuestionSetRun) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(metrics, questions) of two runs side by side; columns name the runs. A column of metrics holds
    rates, counts and scores, so each is shown as text in its own kind (`figure`)."""
    metrics, questions = compare_runs(a, b)
    metric_rows = [
        {
            "Metric": m["metric"],
            f"A: {a.name}": figure(m["A"], m["kind"]),
            f"B: {b.name}": figure(m["B"], m["kind"]),
            "Change": figure(m["change"], m["kind"], change=True),
            "B is": m["verdict"] or ("the same" if m["change"] == 0 else "–"),
        }
        for m in metrics
    ]
    return pd.DataFrame(metric_rows), pd.DataFrame(_question_rows(questions))


def _question_rows(questions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "Question": q["question"],
            "Decision A": q["decision A"],
            "Decision B": q["decision B"],
            "Hallucination A": q["hallucination A"],
            "Hallucination B": q["hallucination B"],
            "Relevance A": q["relevance A"],
            "Relevance B": q["relevance B"],
        }
        for q in questions
    ]
