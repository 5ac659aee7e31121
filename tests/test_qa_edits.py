"""Unanswerable questions edited from answerable ones (training/qa_edits.py): each changes the one thing
asked to a word its paragraph never says, keeps the rest, and is paired with the window that answered
the original. The article is the test's own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from training.qa_edits import edited_pairs
from training.qa_pairs import HELDOUT_TITLE

PARAGRAPH = (
    "The Otter Pool opened in 1998. It is 25 metres long and has six lanes. "
    "Members leave their bicycles in the shed behind reception. Aqua Fit starts at 18:30 on Tuesdays."
)
QUESTIONS = [
    ("What opened in 1998?", "The Otter Pool"),
    ("How long is the Otter Pool?", "25 metres"),
    ("Where do members leave their bicycles?", "in the shed"),
    ("When does Aqua Fit start on Tuesdays?", "18:30"),
]


def _article(title: str) -> dict[str, object]:
    qas = [
        {"question": q, "answers": [{"text": a, "answer_start": PARAGRAPH.index(a)}]} for q, a in QUESTIONS
    ]
    return {"title": title, "paragraphs": [{"context": PARAGRAPH, "qas": qas}]}


@pytest.fixture
def squad(tmp_path: Path) -> Path:
    path = tmp_path / "squad.json"
    path.write_text(json.dumps({"data": [_article("Pools"), _article(HELDOUT_TITLE)]}), encoding="utf-8")
    return path


def test_each_edit_asks_for_what_the_answering_window_does_not_say(squad: Path) -> None:
    pairs = edited_pairs([squad], seed=1)
    said = {w.lower() for w in re.findall(r"[A-Za-z]+|\d+", PARAGRAPH)}
    assert len(pairs) == len(QUESTIONS)  # one an answerable question; none of the held-out article
    originals = [q for q, _ in QUESTIONS]
    for pair, original in zip(pairs, originals):
        edited, window = pair["premise"].split(), original.split()
        changed = [(a, b) for a, b in zip(window, edited) if a != b]
        assert pair["answers"] == 0 and len(edited) == len(window) and len(changed) == 1, pair
        new = re.sub(r"\W", "", changed[0][1]).lower()
        assert new not in said and new.rstrip("s") not in said, pair
        assert pair["hypothesis"] in " ".join(PARAGRAPH.split())  # the window that answered the original


def test_the_same_seed_makes_the_same_edits(squad: Path) -> None:
    assert edited_pairs([squad], seed=3) == edited_pairs([squad], seed=3)
