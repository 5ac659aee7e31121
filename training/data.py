"""Training data: the licence-cleared NLI pairs of shared/train, sampled reproducibly.

A fixed slice of MNLI and FEVER-NLI (the pairs of one premise in 20, chosen by a hash of the premise,
so it depends on no seed or mix) is held out of every training set, with every other pair of any
file that shares one of those premises (MNLI-binary reuses MNLI's): `heldout_rows()` measures the
judge's 3-way accuracy on premises it never saw (training/heldout_nli.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

# A GPU machine has no ../shared: there `training.gpu` points this variable at the copy that travelled
# with the working tree.
SHARED_DIR = Path(os.environ.get("RRAG_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
TRAIN_DIR = SHARED_DIR / "train"
EVAL_DIR = SHARED_DIR / "eval" / "dev"


# Which of (entailment, neutral, contradiction) a label allows; two-label rows allow both "not" classes.
LABEL_MASKS = {
    "entailment": [True, False, False],
    "neutral": [False, True, False],
    "contradiction": [False, False, True],
    "not_entailment": [False, True, True],
}

HELDOUT_FILES = ("mnli.jsonl", "fever_nli.jsonl")
HELDOUT_ONE_IN = 20


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _is_heldout(premise: str) -> bool:
    return int(hashlib.sha1(premise.encode()).hexdigest(), 16) % HELDOUT_ONE_IN == 0


def heldout_rows() -> list[dict]:
    """The held-out MNLI and FEVER-NLI pairs (3-way labels), in file order."""
    return [
        r
        for name in HELDOUT_FILES
        for r in read_jsonl(TRAIN_DIR / name)
        if _is_heldout(r["premise"]) and r["label"] in LABEL_MASKS
    ]


def load_mix(mix: dict[str, int], seed: int, extra: list[Path] = ()) -> list[dict]:
    """Sample `rows` pairs from each file (all of them when it has fewer), plus every extra pair;
    never a pair whose premise is held out."""
    held = {r["premise"] for r in heldout_rows()}
    rng = random.Random(seed)
    rows: list[dict] = []
    for name, count in sorted(mix.items()):
        pairs = [
            r for r in read_jsonl(TRAIN_DIR / name) if r["label"] in LABEL_MASKS and r["premise"] not in held
        ]
        rng.shuffle(pairs)
        rows.extend(pairs[:count])
    for path in extra:
        rows.extend(read_jsonl(path))
    return rows
