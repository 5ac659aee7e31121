"""Fit the calibrated combiner of the NLI verifier on the dev data, with group cross-validation.

    python -m training.fit_calibrator            # 5-fold group CV, fit, write JSON
    python -m training.fit_calibrator --rescore  # the same, the dev rows scored again first

1. Every dev row's claim sentences come scored by the judge (training/cache/dev_features.json, keyed
   by the shipped model file's hash, written by training/adapt_dev.py: out-of-fold when the judge
   was adapted on dev data; or by --rescore, with the shipped judge, after the features or the rules
   change).
2. Sentence labels: all sentences of a supported claim are supported; a RAGTruth sentence is not
   supported when it overlaps an annotated span; otherwise only the weakest sentence of an
   unsupported claim is used (which of the others is wrong is unknown).
3. A second logistic model maps a claim's sentence probabilities (aggregate_features) to P(supported).
   Group K-fold (RAGTruth source_id, WiCE group_id, else the context) gives the out-of-fold table;
   both models and both thresholds are fitted inside each fold, on its training rows only.
4. Refit on everything and write rrag/verify/models/nli-calibrator.json with the CV table in it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from rrag.settings import Settings
from rrag.tools.verifier_eval import (
    Judgement,
    Row,
    context_chunks,
    dataset_metrics,
    f1,
    format_table,
    load_rows,
)
from rrag.verify.features import claim_sentences
from rrag.verify.nli import (
    CALIBRATOR_FILE,
    MODEL_DIR,
    MODEL_FILE,
    Calibrator,
    NLIVerifier,
    aggregate_features,
    with_records,
)
from training.data import EVAL_DIR

CACHE = Path(__file__).resolve().parent / "cache" / "dev_features.json"
FEATURES = (
    "entail_logit",
    "contra_logit",
    "neutral_at_best",
    "cover_context",
    "cover_window",
    "numbers",
    "missing_number",
    "evidence_missing_number",
    "has_numbers",
    "entities",
    "negation",
    "length",
    "lexical_support",
    "lexical_contradiction",
    "first_person",
    "record_context",
)
FOLDS = 5
SEED = 20261122


def group_key(raw: dict) -> str:
    key = raw.get("source_id") or raw.get("group_id") or hashlib.sha1(raw["context"].encode()).hexdigest()
    return f"{raw['dataset']}:{key}"


def extract(verifier: NLIVerifier, rows: list[Row]) -> list[list[dict]]:
    """Per row, its sentences: {"start", "end", "features"}; offsets are into the claim."""
    settings = Settings()
    out = []
    for n, row in enumerate(rows):
        sentences = claim_sentences(row.claim)
        contexts = context_chunks(row.context, settings.chunk_size)
        scored = verifier.score_sentences([s.text for s in sentences], contexts, row.question)
        out.append(
            [
                {
                    "start": s.start + sc.span.start,
                    "end": s.start + sc.span.end,
                    "features": sc.features,
                    "window": sc.support_window.span.text if sc.support_window else "",
                }
                for s, per in zip(sentences, scored)
                for sc in per
            ]
        )
        if n % 250 == 0:
            print(f"features {n}/{len(rows)}", flush=True)
    return out


def sentence_labels(row: Row, sentences: list[dict]) -> list[tuple[int, int]]:
    """(sentence index, label 1 supported / 0 not) for the sentences whose label is known."""
    if row.label == "supported":
        return [(i, 1) for i in range(len(sentences))]
    if row.has_spans:
        return [
            (i, 0 if any(s < sen["end"] and sen["start"] < e for s, e in row.spans) else 1)
            for i, sen in enumerate(sentences)
        ]
    weakest = min(range(len(sentences)), key=lambda i: sentences[i]["features"]["entail_logit"])
    return [(weakest, 0)]


def matrix(sentences: list[dict]) -> np.ndarray:
    return np.array([[s["features"][f] for f in FEATURES] for s in sentences])


def _balanced_weights(keys: list[tuple[str, int]]) -> np.ndarray:
    """Every dataset, and each class within it, weighs the same: the target is mean balanced accuracy."""
    counts: dict[tuple[str, int], int] = defaultdict(int)
    for key in keys:
        counts[key] += 1
    w = np.array([1.0 / counts[key] for key in keys])
    return w * len(w) / w.sum()


def fit_sentences(
    rows: list[Row], feats: list[list[dict]], index: list[int]
) -> tuple[LogisticRegression, np.ndarray, np.ndarray]:
    samples = [(i, j, label) for i in index for j, label in sentence_labels(rows[i], feats[i])]
    x = np.array([[feats[i][j]["features"][f] for f in FEATURES] for i, j, _ in samples])
    y = np.array([label for _, _, label in samples])
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    model = LogisticRegression(C=1.0, max_iter=2000)
    weights = _balanced_weights([(rows[i].dataset, label) for i, _, label in samples])
    model.fit((x - mean) / scale, y, sample_weight=weights)
    return model, mean, scale


def fit_claims(rows: list[Row], sentence_probs: list[np.ndarray], index: list[int]) -> LogisticRegression:
    x = np.array([aggregate_features(sentence_probs[i]) for i in index])
    y = [int(rows[i].label == "supported") for i in index]
    model = LogisticRegression(C=1.0, max_iter=2000)
    weights = _balanced_weights([(rows[i].dataset, label) for i, label in zip(index, y)])
    model.fit(x, np.array(y), sample_weight=weights)
    return model


@dataclass
class Scores:
    sentence: list[np.ndarray]  # per row, P(supported) of each sentence
    claim: np.ndarray  # per row, P(supported) of the claim
    alone: list[np.ndarray]  # per row, each sentence judged as a claim of its own (flagged spans)


def score(sentence: list[np.ndarray], claim_model: LogisticRegression) -> Scores:
    claim = claim_model.predict_proba(np.array([aggregate_features(p) for p in sentence]))[:, 1]
    alone = [
        claim_model.predict_proba(np.array([aggregate_features([q]) for q in p]))[:, 1] for p in sentence
    ]
    return Scores(sentence, claim, alone)


def judgements(
    rows: list[Row], feats: list[list[dict]], sc: Scores, index: list[int], threshold: float, contra: float
) -> list[Judgement]:
    out = []
    for i in index:
        k = int(sc.sentence[i].argmin())
        contra_p = 1 / (1 + np.exp(-feats[i][k]["features"]["contra_logit"]))
        p = float(sc.claim[i])
        status = "supported" if p >= threshold else ("contradicted" if contra_p >= contra else "unsupported")
        flagged = [(s["start"], s["end"]) for s, q in zip(feats[i], sc.alone[i]) if q < threshold]
        out.append(Judgement(status, p, flagged))
    return out


def mean_ba(rows: list[Row], js: list[Judgement], index: list[int]) -> float:
    by: dict[str, list[int]] = defaultdict(list)
    for n, i in enumerate(index):
        by[rows[i].dataset].append(n)
    scores = [
        dataset_metrics([rows[index[n]] for n in ns], [js[n] for n in ns], 1.0)["balanced_accuracy"]
        for ns in by.values()
    ]
    return float(np.mean([s for s in scores if s is not None]))


def choose_thresholds(
    rows: list[Row], feats: list[list[dict]], sc: Scores, index: list[int]
) -> tuple[float, float]:
    grid = np.arange(0.2, 0.81, 0.02)
    threshold = max(grid, key=lambda t: mean_ba(rows, judgements(rows, feats, sc, index, t, 1.0), index))
    candidates = [i for i in index if rows[i].label in ("unsupported", "contradicted")]
    truth = [rows[i].label == "contradicted" for i in candidates]

    def telling_apart(c: float) -> float:  # macro-F1 of contradicted vs unsupported among those rows
        pred = [j.status == "contradicted" for j in judgements(rows, feats, sc, candidates, threshold, c)]
        return (f1(truth, pred) + f1([not t for t in truth], [not p for p in pred])) / 2

    contra = max(np.arange(0.2, 0.96, 0.05), key=telling_apart)
    return float(threshold), float(contra)


def fit_all(rows: list[Row], feats: list[list[dict]], index: list[int]) -> tuple:
    """Both models and both thresholds from the rows in `index`; the scores cover every row."""
    sent_model, mean, scale = fit_sentences(rows, feats, index)
    sentence = [
        with_records(sent_model.predict_proba((matrix(f) - mean) / scale)[:, 1], [s["features"] for s in f])
        for f in feats
    ]
    claim_model = fit_claims(rows, sentence, index)
    sc = score(sentence, claim_model)
    threshold, contra = choose_thresholds(rows, feats, sc, index)
    return sent_model, mean, scale, claim_model, sc, threshold, contra


def load_dev() -> tuple[list[Row], list[int]]:
    """The dev rows, and each row's fold: whole groups are assigned to folds at random (seeded)."""
    files = sorted(EVAL_DIR.glob("*.jsonl"))
    rows = [row for path in files for row in load_rows(path)]
    raws = [json.loads(line) for path in files for line in path.read_text().splitlines() if line.strip()]
    groups = [group_key(r) for r in raws]
    unique = sorted(set(groups))
    fold_of = dict(zip(unique, np.random.default_rng(SEED).permutation(len(unique)) % FOLDS))
    return rows, [int(fold_of[g]) for g in groups]


def feature_verifier(model_dir: Path = MODEL_DIR) -> NLIVerifier:
    """The verifier with a do-nothing combiner: only its features are wanted."""
    n = len(FEATURES)
    neutral = Calibrator(FEATURES, np.zeros(n), np.ones(n), np.zeros(n), 0.0, 0.5, 0.5, np.zeros(5), 0.0)
    return NLIVerifier(model_dir=model_dir, calibrator=neutral)


def model_hash(model_dir: Path = MODEL_DIR) -> str:
    return hashlib.sha1((model_dir / MODEL_FILE).read_bytes()).hexdigest()


def save_features(features: list[list[dict]], judge: str) -> None:
    """The dev rows' features, keyed by the shipped judge's hash, where `main` reads them."""
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    CACHE.write_text(json.dumps({"model": model_hash(), "judge": judge, "rows": features}))


def cross_validate(rows: list[Row], folds: list[int], feats: list[list[dict]]) -> dict[str, dict]:
    """Per dataset, the metrics of out-of-fold judgements: each fold judged by a combiner and
    thresholds fitted on the other folds."""
    oof: list[Judgement | None] = [None] * len(rows)
    for fold in range(FOLDS):
        train = [i for i, f in enumerate(folds) if f != fold]
        test = [i for i, f in enumerate(folds) if f == fold]
        *_, sc, threshold, contra = fit_all(rows, feats, train)
        for i, j in zip(test, judgements(rows, feats, sc, test, threshold, contra)):
            oof[i] = j
        print(f"fold {fold}: threshold {threshold:.2f} contradiction {contra:.2f}", flush=True)
    by: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by[row.dataset].append(i)
    return {
        name: dataset_metrics([rows[i] for i in idx], [oof[i] for i in idx], 0.0) for name, idx in by.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=MODEL_DIR / CALIBRATOR_FILE)
    ap.add_argument(
        "--rescore",
        action="store_true",
        help="read the dev features again with the shipped judge (after a change to the features or rules)",
    )
    args = ap.parse_args()

    rows, folds = load_dev()
    if args.rescore:
        judge = json.loads((MODEL_DIR / CALIBRATOR_FILE).read_text())["judge"]
        save_features(extract(feature_verifier(), rows), judge)
    cached = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    if cached.get("model") != model_hash() or len(cached.get("rows", [])) != len(rows):
        raise SystemExit(f"{CACHE} does not hold features of the shipped model; run with --rescore")
    feats = cached["rows"]
    cv = cross_validate(rows, folds, feats)
    print(format_table(cv))

    sent_model, mean, scale, claim_model, _, threshold, contra = fit_all(rows, feats, list(range(len(rows))))
    args.out.write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                "mean": mean.tolist(),
                "scale": scale.tolist(),
                "weights": sent_model.coef_[0].tolist(),
                "bias": float(sent_model.intercept_[0]),
                "aggregate_weights": claim_model.coef_[0].tolist(),
                "aggregate_bias": float(claim_model.intercept_[0]),
                "threshold": threshold,
                "contradiction_threshold": contra,
                "model_sha1": cached["model"],
                "judge": cached["judge"],
                "cv": cv,
            },
            indent=1,
        )
    )
    print(f"wrote {args.out}: threshold {threshold:.2f}, contradiction {contra:.2f}")


if __name__ == "__main__":
    main()
