"""3-way accuracy of a judge on the held-out MNLI and FEVER-NLI slice (training.data).

    python -m training.heldout_nli --checkpoint CHECKPOINT/state.pt   # a torch checkpoint
    python -m training.heldout_nli --onnx rrag/verify/models         # the int8 judge the app runs

No training set of this folder ever holds a pair whose premise is in that slice, so the figure is
the judge's accuracy on NLI it never saw.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import torch
from transformers import AutoTokenizer

from training.data import heldout_rows
from training.model import BASE_MODEL_DIR, load_model
from training.trainer import DEVICE, predict_logits

LABELS = ("entailment", "neutral", "contradiction")


def predict(model, tokenizer, rows: list[dict], max_len: int = 128) -> list[str]:
    return [LABELS[j] for j in predict_logits(model, tokenizer, rows, max_len).argmax(dim=-1).tolist()]


def predict_onnx(model_dir: Path, rows: list[dict], batch: int = 32) -> list[str]:
    """The labels the app's own judge gives (int8 ONNX, pairs up to nli.MAX_PAIR_TOKENS)."""
    # Imported here: a GPU machine, which runs the checkpoint path, lacks rrag's dependencies.
    from rrag.verify.nli import CrossEncoder

    judge = CrossEncoder(model_dir)
    out: list[str] = []
    for i in range(0, len(rows), batch):
        probabilities = judge.predict([(r["premise"], r["hypothesis"]) for r in rows[i : i + batch]])
        out.extend(LABELS[j] for j in probabilities.argmax(axis=1).tolist())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    judge = ap.add_mutually_exclusive_group(required=True)
    judge.add_argument("--checkpoint", type=Path, help="a state.pt")
    judge.add_argument("--onnx", type=Path, help="a folder the app loads its judge from")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--max-len", type=int, default=128, help="pair tokens; the app reads up to 512 (nli.MAX_PAIR_TOKENS)"
    )
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    rows = heldout_rows()
    if args.onnx:
        predicted = predict_onnx(args.onnx, rows)
    else:
        model = load_model(args.checkpoint).to(DEVICE)
        predicted = predict(model, AutoTokenizer.from_pretrained(BASE_MODEL_DIR), rows, max_len=args.max_len)
    right, total = Counter(), Counter()
    for row, label in zip(rows, predicted):
        total[row["dataset"]] += 1
        right[row["dataset"]] += label == row["label"]
    for name in sorted(total):
        print(f"{name:12s} {right[name] / total[name]:6.1%}  ({right[name]} of {total[name]})")
    print(f"{'all':12s} {sum(right.values()) / len(rows):6.1%}  ({sum(right.values())} of {len(rows)})")


if __name__ == "__main__":
    main()
