"""The question-passage model's pairs as a file (training/qa_data.py): made here, read on a GPU machine
that has none of rrag's dependencies, cut to the length the app reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rrag.backends import question_passage
from training import qa_data
from training.qa_pairs import REPO, squad_pairs

ARTICLE = {
    "title": "Lighthouse",
    "paragraphs": [
        {
            "context": "The lamp was lit in 1820. The lamp and its lens were replaced in 1901.",
            "qas": [
                {
                    "question": "When was the lens replaced?",
                    "answers": [{"text": "1901", "answer_start": 65}],
                },
                {"question": "Who built it?", "answers": [], "is_impossible": True},
            ],
        },
        {"context": "The keeper lived in the cottage. He rowed to town on Sundays.", "qas": []},
    ],
}


def test_the_app_reads_pairs_at_the_length_they_were_trained_on() -> None:
    assert qa_data.MAX_PAIR_TOKENS == question_passage.MAX_PAIR_TOKENS


def test_pairs_written_here_read_back_in_order_with_the_held_out_ones_apart(tmp_path: Path) -> None:
    squad = tmp_path / "squad.json"
    held = {**ARTICLE, "title": "Solar_energy"}  # training.qa_pairs.HELDOUT_TITLE
    squad.write_text(json.dumps({"data": [ARTICLE, held]}), encoding="utf-8")
    train, heldout = squad_pairs([squad], seed=1)
    assert train and heldout and {r["answers"] for r in train} == {0, 1}
    path = tmp_path / "pairs.jsonl"
    qa_data.write_pairs(path, train, heldout)
    assert qa_data.read_pairs(path) == (train, heldout)


def test_the_pairs_file_is_read_without_rrag() -> None:
    blocked = "import sys; sys.modules['rrag'] = None; import training.qa_data"
    run = subprocess.run([sys.executable, "-c", blocked], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
