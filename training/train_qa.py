"""Fine-tune all-MiniLM-L6-v2 as the question-passage model (one logit: P(the passage answers the
question)), then measure it on the held-out SQuAD article and export it.

Seeded and resumable as train_nli is (training/trainer.py: the same batching and loop, a checkpoint
every --save-every steps), on the CPU or a GPU (trainer.DEVICE):

    nice -n 15 python -m training.train_qa --squad /tmp/squad/train-v2.0.json \
        --out training/checkpoints/qa --epochs 1
    python -m training.train_qa --squad ... --out training/checkpoints/qa --export

--export writes rrag/backends/models/qa-minilm-l6-int8.onnx, its uint8 copy, the probe and qa-tokenizer.json.
The pairs are made of rrag's own windows (training/qa_pairs.py); a GPU machine, which has none of
rrag's dependencies, reads them ready-made (--write-pairs here, --pairs there; training/gpu.py).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch
from transformers import AutoTokenizer

from training.model import BASE_MODEL_DIR, CrossEncoderModel
from training.qa_data import MAX_PAIR_TOKENS, TRUNCATION, read_pairs, roc_auc, write_pairs
from training.trainer import Trainer, encode_pairs, plan_batches, predict_logits

if TYPE_CHECKING:
    from rrag.backends.question_passage import QuestionPassageModel


def answers_loss(logits: torch.Tensor, batch: list[dict]) -> torch.Tensor:
    """Binary cross-entropy of the one logit against whether the passage answers the question."""
    answers = torch.tensor([float(r["answers"]) for r in batch], device=logits.device)
    return torch.nn.functional.binary_cross_entropy_with_logits(logits[:, 0], answers)


def measure(scores: np.ndarray, labels: np.ndarray) -> dict[str, float | None]:
    """ROC AUC and accuracy at 0.5."""
    auc = roc_auc(scores[labels == 1], scores[labels == 0])
    return {"auc": auc, "accuracy": float(((scores >= 0.5) == labels).mean()), "pairs": len(labels)}


def question_level(shipped: QuestionPassageModel, squad: list[Path]) -> None:
    """The held-out article as the pipeline reads it: each question against its own paragraph (it
    answers) and against the three other paragraphs sharing most of its words (they do not), each
    scored as a chunk is (its best window); the balanced accuracy of refusing below each threshold."""
    from rrag.text import content_words
    from training.qa_pairs import HELDOUT_TITLE

    articles = (a for path in squad for a in json.loads(path.read_text())["data"])
    article = next(a for a in articles if a["title"] == HELDOUT_TITLE)
    paragraphs = [p["context"] for p in article["paragraphs"]]
    own, other = [], []
    for i, paragraph in enumerate(article["paragraphs"]):
        for qa in paragraph["qas"]:
            if qa.get("is_impossible"):
                continue
            asked = set(content_words(qa["question"]))
            rest = sorted(
                (p for j, p in enumerate(paragraphs) if j != i),
                key=lambda p: -len(asked & set(content_words(p))),
            )[:3]
            own.append(max(s for s, _ in shipped.best_windows(qa["question"], [paragraphs[i]])))
            other.append(max(s for s, _ in shipped.best_windows(qa["question"], rest)))
    table = []
    for threshold in [0.01, 0.02, 0.03, 0.04, *np.arange(0.05, 0.85, 0.05).round(2)]:
        answered = float(np.mean([s >= threshold for s in own]))
        refused = float(np.mean([s < threshold for s in other]))
        table.append((threshold, answered, refused, (answered + refused) / 2))
        print(
            f"  threshold {threshold:.2f}: answerable kept {answered:.1%}, without its paragraph refused "
            f"{refused:.1%}, balanced {(answered + refused) / 2:.1%} ({len(own)} questions)",
            flush=True,
        )
    # The thresholds of rrag/retrieval/judged.py, by their rules.
    answers = max((t for t in table if t[1] >= 0.8), key=lambda t: t[3], default=table[0])[0]
    refuse_below = max((t[0] for t in table if t[1] >= 0.996), default=table[0][0])
    surely = min((t[0] for t in table if t[2] >= 0.9), default=table[-1][0])
    balanced = max(table, key=lambda t: t[3])[0]
    print(
        f"  ANSWERS_THRESHOLD {answers:.2f}, NOT_ANSWERING {refuse_below:.2f}, "
        f"SURELY_ANSWERS {surely:.2f}, BALANCED {balanced:.2f}",
        flush=True,
    )


def made_pairs(args: argparse.Namespace) -> tuple[list[dict], list[dict]]:
    """(training pairs, held-out pairs) from the SQuAD files and our own questions of `args`."""
    from training.qa_pairs import OWN_QUESTIONS, own_pairs, squad_pairs

    train, heldout = squad_pairs(args.squad, args.seed)
    if args.edits:
        from training.qa_edits import edited_pairs

        train += edited_pairs(args.squad, args.seed)
    return train + own_pairs(args.own or [OWN_QUESTIONS]) * args.own_repeat, heldout


def predict(model: CrossEncoderModel, tokenizer, rows: list[dict]) -> np.ndarray:
    return torch.sigmoid(predict_logits(model, tokenizer, rows, MAX_PAIR_TOKENS, TRUNCATION)[:, 0]).numpy()


def export(model: CrossEncoderModel, tokenizer, out: Path) -> None:
    """int8 weights, and the same weights as uint8 with the probe that picks one (training/portable_int8.py):
    the probabilities are exact on every x86-64 CPU, so a refusal never depends on the CPU it ran on."""
    from rrag.backends.question_passage import MODEL_FILE, PORTABLE_MODEL_FILE, TOKENIZER_FILE
    from training.export_onnx import export_int8
    from training.portable_int8 import write_portable

    sample = encode_pairs(
        tokenizer, [{"premise": "a question?", "hypothesis": "a passage."}], MAX_PAIR_TOKENS, TRUNCATION
    )
    out.mkdir(parents=True, exist_ok=True)
    model_file = out / MODEL_FILE
    export_int8(model, sample, model_file)
    write_portable(out, MODEL_FILE, PORTABLE_MODEL_FILE)
    shutil.copy(BASE_MODEL_DIR / "tokenizer.json", out / TOKENIZER_FILE)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--squad", type=Path, action="append", help="a SQuAD 2.0 file (repeat for more)")
    ap.add_argument(
        "--pairs", type=Path, help="read the pairs from this file (made by --write-pairs) instead of --squad"
    )
    ap.add_argument("--write-pairs", type=Path, help="write the pairs --squad and --own make, and stop")
    ap.add_argument("--out", type=Path, default=Path("training/checkpoints/qa"))
    ap.add_argument("--init", type=Path, help="a state.pt to start from (a fresh optimiser and schedule)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--save-every", type=int, default=50)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--layers", type=int, default=3, help="keep the first LAYERS of MiniLM's 6 (half the time to run)"
    )
    ap.add_argument(
        "--own",
        type=Path,
        action="append",
        help="questions about our own documents; the flag repeats (default training/qa_own.jsonl)",
    )
    ap.add_argument(
        "--own-repeat",
        type=int,
        default=1,
        help="read our own documents' pairs this many times an epoch (hundreds beside SQuAD's thousands)",
    )
    ap.add_argument(
        "--edits",
        action="store_true",
        help="add an unanswerable question edited from each answerable one (training/qa_edits.py)",
    )
    ap.add_argument("--export", action="store_true", help="measure the checkpoint and ship it")
    args = ap.parse_args()
    if not args.squad and (args.pairs is None or args.export):
        ap.error("--squad is needed to make pairs, and to measure an export question by question")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rows, heldout = read_pairs(args.pairs) if args.pairs else made_pairs(args)
    if args.write_pairs:
        write_pairs(args.write_pairs, rows, heldout)
        print(f"{len(rows)} training and {len(heldout)} held-out pairs -> {args.write_pairs}")
        return
    plan = plan_batches(rows, args.batch, args.epochs, args.seed)
    print(f"{len(rows)} pairs ({sum(r['answers'] for r in rows)} answering), {len(plan)} steps", flush=True)

    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    model = CrossEncoderModel(BASE_MODEL_DIR, num_labels=1)
    # It reads every retrieved candidate of every question: its lower half runs twice as fast, and
    # judging whether a passage answers a question takes less depth than judging entailment.
    model.encoder.encoder.layer = model.encoder.encoder.layer[: args.layers]
    model.encoder.config.num_hidden_layers = args.layers
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=False)["model"])
    state_file = args.out / "state.pt"
    if args.export:  # the model's weights only: a checkpoint joined from a GPU run has no optimiser
        model.load_state_dict(torch.load(state_file, map_location="cpu", weights_only=False)["model"])
    else:
        trainer = Trainer(model, tokenizer, args.lr, len(plan), MAX_PAIR_TOKENS, answers_loss, TRUNCATION)
        trainer.run(plan, state_file, args.save_every, args)

    labels = np.array([r["answers"] for r in heldout])
    print("held-out article, fp32:", measure(predict(model, tokenizer, heldout), labels), flush=True)
    if args.export:
        from rrag.backends.question_passage import MODEL_DIR, QuestionPassageModel

        export(model, tokenizer, MODEL_DIR)
        shipped = QuestionPassageModel(MODEL_DIR)
        scores = np.array([shipped.scores(r["premise"], [r["hypothesis"]])[0] for r in heldout])
        print("held-out article, shipped uint8 ONNX:", measure(scores, labels), flush=True)
        print("held-out article, question by question:", flush=True)
        question_level(shipped, args.squad)


if __name__ == "__main__":
    main()
