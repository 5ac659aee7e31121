"""Group cross-validation of the cascade's offline stage: the model guarded by the rules.

    python -m training.guard_cv            # scores the dev rows once (cached), then the CV table

1. Every dev row is judged once by the shipped model (`NLIVerifier`: the claim's P(supported), its
   status, each sentence's P) and by the rules sentence by sentence (`LexicalVerifier.assess`: the
   verdict and the hard evidence it rests on); cached in training/cache/guard_dev.jsonl.
2. Each candidate guard (which hard evidence overrules the model's yes up to which P, on one-sentence
   or on all claims; below which P the rules' doubt about an unmatched claim wins) decides every row
   through the product's own function (`guarded.overrule`).
3. Group 5-fold CV, with the folds of training/fit_calibrator.py: the candidate with the best mean
   balanced accuracy on four folds judges the fifth. The model's combiner is the shipped one, fitted
   on all dev rows, so the model alone is in-sample here as in `python -m rrag eval`; what is cross-
   validated is the choice of the guard on top of it.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from rrag.evaluation import Judgement, Row, context_chunks, dataset_metrics, format_table, load_rows
from rrag.settings import Settings
from rrag.types import Claim, ClaimStatus, Verdict
from rrag.verify.features import claim_sentences
from rrag.verify.guarded import DEFAULT_GUARD, Guard, overrule
from rrag.verify.lexical import NEGATED_EVIDENCE, NEGATION, OPPOSITE, UNSTATED, VALUE, LexicalVerifier
from rrag.verify.nli import NLIVerifier

EVAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
CACHE = Path(__file__).resolve().parent / "cache" / "guard_dev.jsonl"
FOLDS, SEED = 5, 20261122  # as training/fit_calibrator.py
NEVER, ALWAYS = -1.0, 1.01  # bounds on P(supported): a veto that never / always applies
KINDS = (VALUE, NEGATION, OPPOSITE, UNSTATED, NEGATED_EVIDENCE)


def score_rows(out: Path) -> None:
    settings = Settings()
    model, rules = NLIVerifier(settings), LexicalVerifier()
    with out.open("w", encoding="utf-8") as fh:
        for path in sorted(EVAL_DIR.glob("*.jsonl")):
            raws = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            for raw, row in zip(raws, load_rows(path)):
                contexts = context_chunks(row.context, settings.chunk_size)
                sentences = model.score_sentences([row.claim], contexts, row.question)[0]
                verdict = model.verdict_of(sentences)
                spans = claim_sentences(row.claim)
                assessed = rules.assess([Claim(s.text, s.start, s.end) for s in spans], contexts)
                key = raw.get("source_id") or raw.get("group_id") or hashlib.sha1(raw["context"].encode()).hexdigest()
                fh.write(json.dumps({
                    "id": row.id, "dataset": row.dataset, "label": row.label, "group": f"{row.dataset}:{key}",
                    "group_id": row.group_id, "status": verdict.status.value, "p": verdict.support_score,
                    "sentence_p": [s.probability for s in sentences],
                    "rules": [[r.status.value, kind, r.support_score] for r, kind in assessed],
                }) + "\n")


def decide(row: dict, guard: Guard | None) -> Judgement:
    """The guarded stage's judgement of a scored row; the model's alone where `guard` is None."""
    model = Verdict(ClaimStatus(row["status"]), row["p"], "nli", "", support_score=row["p"])
    if guard is None:
        return Judgement(model.status.value, row["p"], [])
    rules = [(Verdict(ClaimStatus(status), 0.7, "lexical", "", support_score=score), kind)
             for status, kind, score in row["rules"]]
    verdict = overrule(model, rules, guard)
    return Judgement(verdict.status.value, verdict.support_score or 0.0, [])


def candidates() -> list[tuple[str, Guard | None]]:
    out: list[tuple[str, Guard | None]] = [("model alone", None)]
    for unstated, sure, doubt, long_kinds in itertools.product(
            (NEVER, 0.6, ALWAYS), (0.0, 0.6, 0.7, 0.8), (0.25, 0.3, 1.0), (frozenset(KINDS), frozenset({VALUE}))):
        guard = Guard({VALUE: ALWAYS, NEGATION: ALWAYS, OPPOSITE: ALWAYS, UNSTATED: unstated, NEGATED_EVIDENCE: NEVER},
                      long_kinds, sure, doubt)
        out.append((f"unstated<{unstated} sure={sure} doubt<{doubt} long={sorted(long_kinds)}", guard))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rescore", action="store_true", help="score the dev rows again (after a model or rule change)")
    args = ap.parse_args()
    if args.rescore or not CACHE.exists():
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        score_rows(CACHE)
    rows = [json.loads(line) for line in CACHE.read_text(encoding="utf-8").splitlines()]
    truth = [Row(r["id"], r["dataset"], "", "", r["label"], group_id=r["group_id"]) for r in rows]
    groups = sorted({r["group"] for r in rows})
    fold_of = dict(zip(groups, np.random.default_rng(SEED).permutation(len(groups)) % FOLDS))
    folds = [int(fold_of[r["group"]]) for r in rows]
    by_set: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_set[r["dataset"]].append(i)

    def table(judged: list[Judgement], keep: set[int] | None = None) -> dict[str, dict]:
        return {name: dataset_metrics([truth[i] for i in idx if keep is None or i in keep],
                                      [judged[i] for i in idx if keep is None or i in keep], 0.0)
                for name, idx in by_set.items()}

    def mean_ba(t: dict[str, dict]) -> float:
        return float(np.mean([m["balanced_accuracy"] for m in t.values()]))

    options = candidates()
    judged = [[decide(r, guard) for r in rows] for _, guard in options]
    trains = [{i for i, f in enumerate(folds) if f != k} for k in range(FOLDS)]
    train_ba = [[mean_ba(table(j, train)) for train in trains] for j in judged]
    out_of_fold: list[Judgement] = [None] * len(rows)  # type: ignore[list-item]
    for k in range(FOLDS):
        best = max(range(len(options)), key=lambda c: train_ba[c][k])
        print(f"fold {k}: {options[best][0]} ({100 * train_ba[best][k]:.1f} on the other folds)")
        for i, f in enumerate(folds):
            if f == k:
                out_of_fold[i] = judged[best][i]
    shipped = next(i for i, (_, guard) in enumerate(options) if guard == DEFAULT_GUARD)
    for name, j in (("model alone", judged[0]), ("guard chosen per fold (CV)", out_of_fold),
                    (f"shipped: {options[shipped][0]}", judged[shipped])):
        print(f"\n{name}\n{format_table(table(j)).split(chr(10) + chr(10))[0]}")  # without the confusion matrices


if __name__ == "__main__":
    main()
