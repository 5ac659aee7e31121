"""How far the shipped model's probabilities move between CPUs.

    python -m training.cpu_drift dump native.npy
    qemu-x86_64 -cpu Haswell .venv/bin/python -m training.cpu_drift dump haswell.npy   # AVX2, no VNNI
    python -m training.cpu_drift compare native.npy haswell.npy

`dump` scores fixed dev pairs (the first rows of three dev sets) with the shipped cross-encoder on
one thread; `compare` prints the largest and mean absolute difference and the rows whose most
likely label differs. qemu-user (Debian's `qemu-user`) emulates a CPU without AVX-512 or VNNI on any
x86-64 host; it is about 100x slower, so the pairs are few.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np

from rrag.verify.nli import MODEL_FILE, PORTABLE_MODEL_FILE, CrossEncoder

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
SETS = ("factcheckgpt_stance", "begin", "wice_oracle")
PAIRS_PER_SET = 20


def dev_pairs() -> list[tuple[str, str]]:
    pairs = []
    for name in SETS:
        with (DEV / f"{name}.jsonl").open(encoding="utf-8") as rows:
            for line in itertools.islice(rows, PAIRS_PER_SET):
                row = json.loads(line)
                pairs.append((row["context"][:600], row["claim"][:300]))
    return pairs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    dump = sub.add_parser("dump")
    dump.add_argument("out", type=Path)
    dump.add_argument(
        "--model-file",
        choices=(MODEL_FILE, PORTABLE_MODEL_FILE),
        help="this model rather than the one chosen for this CPU",
    )
    compare = sub.add_parser("compare")
    compare.add_argument("a", type=Path)
    compare.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.command == "dump":
        np.save(args.out, CrossEncoder(threads=1, model_file=args.model_file).predict(dev_pairs()))
        return
    a, b = np.load(args.a), np.load(args.b)
    diff = np.abs(a - b)
    print(
        f"{len(a)} pairs: max |dP| {diff.max():.4f}, mean {diff.mean():.5f}, "
        f"most likely label differs on {int((a.argmax(1) != b.argmax(1)).sum())}"
    )


if __name__ == "__main__":
    main()
