"""The question-passage model measured on the question sets (training/measure_qa.py): what the ship rule
of a new model reads."""

from __future__ import annotations

import pytest

from rrag.backends.question_passage import MODEL_DIR, QuestionPassageModel
from training.measure_qa import asked, report
from training.qa_data import roc_auc
from training.qa_pairs import REPO


def test_roc_auc_counts_pairs_ordered_right_and_ties_as_half() -> None:
    assert roc_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert roc_auc([0.1], [0.9]) == 0.0
    assert roc_auc([0.5, 0.9], [0.5]) == 0.75
    assert roc_auc([0.5], []) is None


def test_each_question_of_a_set_is_read_by_each_model(capsys: pytest.CaptureFixture[str]) -> None:
    model = QuestionPassageModel(MODEL_DIR)
    rows = asked(REPO / "data/trust", REPO / "data/trust/questions.jsonl", [model, model])
    assert len(rows) == 14 and sum(r.answerable is False for r in rows) == 4
    assert all(r.best[0] == r.best[1] and 0.0 <= r.best[0] <= 1.0 for r in rows)
    report("data/trust", rows, ["shipped", "again"])
    out = capsys.readouterr().out
    assert "10 answerable, 4 unanswerable questions" in out
    assert out.count("unanswerable ") >= 4  # each question listed with its P(answers) per model
