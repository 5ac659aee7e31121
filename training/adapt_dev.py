"""Adapt the NLI-trained judge to RAG-style claims on the dev data, keeping its features out-of-fold.

    python -m training.adapt_dev --checkpoint training/checkpoints/nli/state.pt

1. The NLI-trained judge scores every dev claim sentence (fit_calibrator.extract). Each sentence whose
   label is known (fit_calibrator.sentence_labels) gives one pair: its most entailing evidence window
   and the sentence, labelled entailment, or not_entailment (neutral or contradiction); half of the
   supported sentences also give a synthetic error (a changed number or name, a negation).
2. For each group fold of fit_calibrator, a copy of the judge is fine-tuned on the other folds' pairs,
   exported to int8 ONNX, and scores its own fold's rows: out-of-fold features.
3. A copy fine-tuned on all pairs ships in rrag/verify/models/, and training/cache/dev_features.json
   gets the out-of-fold features under that model's hash: fit_calibrator then fits the combiner on
   judge outputs for claims the judge never trained on, as it meets them at run time.

`--epochs 0` ships the NLI-trained judge as it is (its dev features are then out-of-sample already).
`--replay R` mixes R pairs of the NLI training mix into the training set per dev pair, so that the
judge keeps what NLI taught it. `--measure` stops after the folds: it prints their group-CV table and
ships nothing.
Finished folds are kept in training/cache/adapt/ (keyed by the checkpoint and the feature code), so an
interrupted run resumes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import tempfile
from pathlib import Path

import torch
from transformers import AutoTokenizer

import rrag.text
import rrag.verify.features
import rrag.verify.lexical
import rrag.verify.nli
from rrag.tools.verifier_eval import Row, format_table
from rrag.verify.nli import MODEL_DIR
from training.data import load_mix
from training.export_onnx import export
from training.fit_calibrator import (
    CACHE,
    FOLDS,
    cross_validate,
    extract,
    feature_verifier,
    load_dev,
    save_features,
    sentence_labels,
)
from training.model import BASE_MODEL_DIR, CrossEncoderModel, load_model
from training.synthetic import perturbations
from training.train_nli import DEFAULT_MIX, partial_label_loss
from training.trainer import Trainer, plan_batches

FOLD_CACHE = CACHE.parent / "adapt"
SYNTHETIC_SHARE = 0.5


def training_pairs(row: Row, sentences: list[dict], rng: random.Random) -> list[dict]:
    """The labelled (window, sentence) pairs of a row, plus, for half of its supported sentences, one
    synthetic error made from it (training/synthetic.py)."""
    pairs = []
    labelled = sentence_labels(row, sentences)
    if len(sentences) > 1 and not row.has_spans and row.label != "supported":
        # sentence_labels guesses which sentence is wrong with the judge being trained: with a weak
        # judge the guess is near random on SummEdits, and the adapted judge learned to reject copies.
        labelled = []
    for j, supported in labelled:
        window, sentence = sentences[j]["window"], row.claim[sentences[j]["start"] : sentences[j]["end"]]
        if not window:
            continue
        pairs.append(
            {
                "premise": window,
                "hypothesis": sentence,
                "label": "entailment" if supported else "not_entailment",
            }
        )
        made = perturbations(sentence, window, rng) if supported and rng.random() < SYNTHETIC_SHARE else []
        if made:
            changed, label = rng.choice(made)
            pairs.append({"premise": window, "hypothesis": changed, "label": label})
    return pairs


def with_replay(pairs: list[dict], replay: float, seed: int) -> list[dict]:
    """The dev pairs plus `replay` NLI pairs per dev pair, drawn from the judge's training mix."""
    if not replay:
        return pairs
    nli = load_mix(DEFAULT_MIX, seed)
    return pairs + random.Random(seed).sample(nli, min(len(nli), round(replay * len(pairs))))


def adapt(checkpoint: Path, pairs: list[dict], args: argparse.Namespace) -> CrossEncoderModel:
    torch.manual_seed(args.seed)
    pairs = with_replay(pairs, args.replay, args.seed)
    model = load_model(checkpoint).train()
    plan = plan_batches(pairs, args.batch, args.epochs, args.seed)
    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    trainer = Trainer(model, tokenizer, args.lr, len(plan), args.max_len, partial_label_loss)
    for n, batch in enumerate(plan, 1):
        loss = trainer.step(batch)
        if n % 50 == 0:
            print(f"  step {n}/{len(plan)} loss {loss:.3f}", flush=True)
    return model.cpu().eval()  # ONNX export traces on the CPU


def features_of(model: CrossEncoderModel, rows: list[Row], where: Path) -> list[list[dict]]:
    export(model, where)
    return extract(feature_verifier(where), rows)


def _digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def _feature_code() -> bytes:
    """The source that turns judge outputs into features: cached features go stale when it changes."""
    engine = Path(rrag.text.__file__).parents[1]
    files = sorted((engine / "text").glob("*.py")) + sorted((engine / "lang").rglob("*.py"))
    files += sorted((engine / "verify" / "rules").rglob("*.py"))
    files += [Path(m.__file__) for m in (rrag.verify.features, rrag.verify.lexical, rrag.verify.nli)]
    return b"".join(f.read_bytes() for f in files)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", type=Path, required=True, help="the NLI-trained state.pt")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--replay", type=float, default=0.0, help="NLI pairs mixed in per dev pair")
    ap.add_argument("--measure", action="store_true", help="print the folds' group-CV table, ship nothing")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    rows, folds = load_dev()
    with tempfile.TemporaryDirectory() as tmp:
        base_file = FOLD_CACHE / f"base-{_digest(args.checkpoint.read_bytes() + _feature_code())}.json"
        if not base_file.exists():
            FOLD_CACHE.mkdir(parents=True, exist_ok=True)
            base_file.write_text(
                json.dumps(features_of(load_model(args.checkpoint), rows, Path(tmp) / "base"))
            )
        base = json.loads(base_file.read_text())
        rng = random.Random(args.seed)
        pairs = [training_pairs(row, sentences, rng) for row, sentences in zip(rows, base)]
        print(f"{sum(map(len, pairs))} dev pairs", flush=True)
        # Fold results are reused only for the same pairs and the same training arguments.
        run = [pairs, args.epochs, args.lr, args.batch, args.max_len, args.seed, base_file.name]
        if args.replay:  # appended only when set, so runs without replay keep their cached folds
            run.append(args.replay)
        cache = FOLD_CACHE / f"run-{_digest(json.dumps(run).encode())}"
        cache.mkdir(exist_ok=True)

        if args.epochs == 0:
            features, judge = base, "NLI-trained only"
        else:
            features = [[] for _ in rows]
            for fold in range(FOLDS):
                test = [i for i, f in enumerate(folds) if f == fold]
                fold_file = cache / f"fold-{fold}.json"
                if not fold_file.exists():
                    print(f"fold {fold}", flush=True)
                    train = [p for i, f in enumerate(folds) if f != fold for p in pairs[i]]
                    model = adapt(args.checkpoint, train, args)
                    fold_file.write_text(
                        json.dumps(features_of(model, [rows[i] for i in test], Path(tmp) / f"fold-{fold}"))
                    )
                for i, sentences in zip(test, json.loads(fold_file.read_text())):
                    features[i] = sentences
            print("all folds", flush=True)
            judge = f"NLI-trained, adapted on dev ({args.epochs} epoch, lr {args.lr}); features out-of-fold"
        if args.measure:
            print(format_table(cross_validate(rows, folds, features)))
            return
        if args.epochs == 0:
            shipped = load_model(args.checkpoint)
        else:
            shipped = adapt(args.checkpoint, [p for ps in pairs for p in ps], args)
        export(shipped, MODEL_DIR)
    save_features(features, judge)
    print(f"shipped the judge in {MODEL_DIR}; features in {CACHE}", flush=True)


if __name__ == "__main__":
    main()
