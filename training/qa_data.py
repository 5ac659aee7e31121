"""The question-passage model's pairs as a file: made here (training/qa_pairs.py reads rrag's windows),
trained on wherever torch runs, a GPU machine without rrag's dependencies included (training/gpu.py);
and the ROC AUC both sides measure it by. Neither rrag nor torch is imported here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from training.data import read_jsonl

# What the app cuts a pair to (rrag.backends.question_passage.MAX_PAIR_TOKENS, held equal by
# tests/test_qa_training_data.py): the question read whole, the passage cut to fit.
MAX_PAIR_TOKENS = 128
TRUNCATION = "only_second"
HELDOUT = "heldout"  # the key that marks the held-out article's pairs in a file


def write_pairs(path: Path, train: list[dict], heldout: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in [*train, *({**r, HELDOUT: True} for r in heldout)]:
            out.write(json.dumps(row) + "\n")


def read_pairs(path: Path) -> tuple[list[dict], list[dict]]:
    """(training pairs, held-out pairs) of a file `write_pairs` wrote, each in its order."""
    rows = read_jsonl(path)
    return [r for r in rows if not r.get(HELDOUT)], [
        {k: v for k, v in r.items() if k != HELDOUT} for r in rows if r.get(HELDOUT)
    ]


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """The share of (positive, negative) pairs ordered right, a tie counting half; None without both."""
    pos, neg = np.asarray(positives, dtype=float), np.asarray(negatives, dtype=float)
    if not len(pos) or not len(neg):
        return None
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())
