"""Group cross-validation of the cascade's offline stage: the model guarded by the rules.

    python -m training.guard_cv            # scores the dev rows once (cached), then the CV tables

1. Every dev row is judged once by the shipped model (`NLIVerifier` as the app's stage builds it: the
   claim's P(supported), its status, each sentence's P and features, and whether the judge confirms a
   value or name the evidence gives otherwise, counterfactual.py) and by the rules sentence by
   sentence (`LexicalVerifier.assess`: the verdict and the evidence it rests on); cached in
   training/cache/guard_dev.jsonl.
2. Group 5-fold CV with the folds of training/fit_calibrator.py: in each fold the model's combiner and
   thresholds are refitted on the other four folds (`fit_calibrator.fit_all`, as its own CV does), and
   the fold is judged by the model alone, by the shipped guard (`DEFAULT_GUARD`, through the product's
   own `guarded.overrule`) and by the candidate guard with the best mean balanced accuracy on the other
   folds. Repeated over `--seeds` fold assignments: one assignment moves the mean by a few tenths.
   A guard's candidates differ only in its unsure-yes veto: a kind of rule overrules the model only as
   its measured precision allows (`RULES.bound`), never by a bound chosen on the dev CV.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from rrag.settings import Settings
from rrag.tools.verifier_eval import Judgement, Row, context_chunks, dataset_metrics, format_table, load_rows
from rrag.types import Claim, ClaimStatus, Verdict
from rrag.verify.features import claim_sentences
from rrag.verify.guarded import DEFAULT_GUARD, Guard, overrule
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.nli import NLIVerifier
from rrag.verify.rules import RULES
from training.data import EVAL_DIR

CACHE = Path(__file__).resolve().parent / "cache" / "guard_dev.jsonl"
FOLDS, SEED = 5, 20261122  # as training/fit_calibrator.py


def score_rows(out: Path) -> None:
    settings = Settings()
    model, rules = NLIVerifier(settings, counterfactual=True), LexicalVerifier()
    with out.open("w", encoding="utf-8") as fh:
        for path in sorted(EVAL_DIR.glob("*.jsonl")):
            raws = [
                json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
            ]
            for raw, row in zip(raws, load_rows(path)):
                contexts = context_chunks(row.context, settings.chunk_size)
                sentences = model.score_sentences([row.claim], contexts, row.question)[0]
                verdict = model.verdict_of(sentences)
                spans = claim_sentences(row.claim)
                assessed = rules.assess([Claim(s.text, s.start, s.end) for s in spans], contexts)
                key = (
                    raw.get("source_id")
                    or raw.get("group_id")
                    or hashlib.sha1(raw["context"].encode()).hexdigest()
                )
                fh.write(
                    json.dumps(
                        {
                            "id": row.id,
                            "dataset": row.dataset,
                            "label": row.label,
                            "group": f"{row.dataset}:{key}",
                            "group_id": row.group_id,
                            "status": verdict.status.value,
                            "p": verdict.support_score,
                            "sentence_p": [s.probability for s in sentences],
                            "sentence_features": [s.features for s in sentences],
                            "counterfactual": any(s.counterfactual for s in sentences),
                            "rules": [[r.status.value, kind, r.support_score] for r, kind in assessed],
                        }
                    )
                    + "\n"
                )


def decide(row: dict, guard: Guard | None) -> Judgement:
    """The guarded stage's judgement of a scored row; the model's alone where `guard` is None."""
    model = Verdict(ClaimStatus(row["status"]), row["p"], "nli", "", support_score=row["p"])
    if guard is None:
        return Judgement(model.status.value, row["p"], [])
    if row["counterfactual"]:  # the judge confirmed a value or name the evidence gives otherwise
        model = Verdict(ClaimStatus.CONTRADICTED, 1 - row["p"], "nli", "", support_score=row["p"])
    rules = [
        (Verdict(ClaimStatus(status), 0.7, "lexical", "", support_score=score), kind)
        for status, kind, score in row["rules"]
    ]
    verdict = overrule(model, rules, guard)
    return Judgement(verdict.status.value, verdict.support_score or 0.0, [])


def candidates() -> list[tuple[str, Guard | None]]:
    out: list[tuple[str, Guard | None]] = [("model alone", None)]
    for sure, doubt in itertools.product((0.0, 0.6, 0.7, 0.8), (0.25, 0.3, 1.0)):
        guard = Guard(RULES.overrules_below(), frozenset(), sure, doubt)
        out.append((f"sure={sure} doubt<{doubt}", guard))
    return out


def cached_rows(rescore: bool) -> list[dict]:
    if rescore or not CACHE.exists():
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        score_rows(CACHE)
    return [json.loads(line) for line in CACHE.read_text(encoding="utf-8").splitlines()]


def sentence_features(rows: list[dict], dev: list[Row]) -> list[list[dict]]:
    """The cached features of each row's claim sentences, in the form training/fit_calibrator.py fits."""
    out = []
    for r, row in zip(rows, dev):
        spans = claim_sentences(row.claim)
        if r["id"] != row.id or len(spans) != len(r["sentence_features"]):
            raise SystemExit(f"{CACHE} is stale at {row.id}: run with --rescore")
        out.append(
            [{"start": s.start, "end": s.end, "features": f} for s, f in zip(spans, r["sentence_features"])]
        )
    return out


def main() -> None:
    from training import fit_calibrator as fc  # scikit-learn: training/requirements.txt

    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--rescore", action="store_true", help="score the dev rows again (after a model or rule change)"
    )
    ap.add_argument(
        "--seeds", type=int, default=10, help="fold assignments to average over (the first is SEED)"
    )
    args = ap.parse_args()
    rows = cached_rows(args.rescore)
    dev, _ = fc.load_dev()
    feats = sentence_features(rows, dev)
    by_set: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_set[r["dataset"]].append(i)

    def table(judged: list[Judgement], keep: set[int] | None = None) -> dict[str, dict]:
        return {
            name: dataset_metrics(
                [dev[i] for i in idx if keep is None or i in keep],
                [judged[i] for i in idx if keep is None or i in keep],
                0.0,
            )
            for name, idx in by_set.items()
        }

    def mean_ba(t: dict[str, dict]) -> float:
        return float(np.mean([m["balanced_accuracy"] for m in t.values()]))

    options = candidates()
    shipped = next(i for i, (_, guard) in enumerate(options) if guard == DEFAULT_GUARD)
    groups = sorted({r["group"] for r in rows})
    stages = ("model alone", f"default stage: {options[shipped][0]}", "default stage, guard chosen per fold")
    means: dict[str, list[float]] = defaultdict(list)
    for seed in [SEED, *range(1, args.seeds)]:
        fold_of = dict(zip(groups, np.random.default_rng(seed).permutation(len(groups)) % FOLDS))
        folds = [int(fold_of[r["group"]]) for r in rows]
        out_of_fold: dict[str, list[Judgement]] = {name: [None] * len(rows) for name in stages}  # type: ignore[list-item]
        for k in range(FOLDS):
            # The combiner and its thresholds fitted on the other folds judge every row ...
            train = [i for i, f in enumerate(folds) if f != k]
            *_, scores, threshold, contra = fc.fit_all(dev, feats, train)
            model = fc.judgements(dev, feats, scores, list(range(len(rows))), threshold, contra)
            judged = [
                [decide(dict(r, status=m.status, p=m.score), guard) for r, m in zip(rows, model)]
                for _, guard in options
            ]
            # ... and the guard with the best mean BA on the other folds judges this one.
            best = max(range(len(options)), key=lambda c: mean_ba(table(judged[c], set(train))))
            for i, f in enumerate(folds):
                if f == k:
                    for name, c in zip(stages, (0, shipped, best)):
                        out_of_fold[name][i] = judged[c][i]
            if seed == SEED:
                print(f"fold {k}: threshold {threshold:.2f}; guard chosen: {options[best][0]}", flush=True)
        for name in stages:
            means[name].append(mean_ba(table(out_of_fold[name])))
            if seed == SEED:
                first_table = format_table(table(out_of_fold[name])).split("\n\n")[0]
                print(f"\n{name} (CV, seed {SEED})\n{first_table}")
    print(
        f"\nmean BA over {args.seeds} fold assignments (group 5-fold CV, the combiner refitted in each fold):"
    )
    for name in stages:
        values = 100 * np.array(means[name])
        print(f"  {name}: {values.mean():.2f} (sd {values.std():.2f})")
    gain = 100 * (np.array(means[stages[1]]) - np.array(means[stages[0]]))
    print(
        f"  default stage minus model alone, paired by assignment: {gain.mean():+.2f} (sd {gain.std():.2f}); "
        f"ahead in {int((gain > 0).sum())} of {len(gain)}"
    )


if __name__ == "__main__":
    main()
