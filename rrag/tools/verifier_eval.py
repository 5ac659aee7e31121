"""`python -m rrag eval`: measure a verifier on labelled claim-verification data (shared/eval format).

Each row's `claim` is verified against the row's whole `context` (cut into chunks, never
truncated; the `question` goes along where a row has one); for RAGTruth span-level F1 its
sentences are also checked one by one. Output: one JSON line per row {"id", "label", "score"} and a
per-dataset table: balanced accuracy (supported vs not), macro-F1 and confusion for multi-label
sets, RAGTruth response- and span-level F1, calibration error, contradiction recall, claims/s; for
a stress test whose rows name a `heuristic` (HANS), non-entailment and entailment judged right per
heuristic (rrag/tools/heuristic_rates.py).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rrag.errors import ConfigError, RRAGError
from rrag.settings import Settings
from rrag.text import Span, split_sentences
from rrag.tools.heuristic_rates import HeuristicRates, by_heuristic, format_heuristics
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.features import claim_sentences
from rrag.verify.registry import VERIFIERS

STATUSES = ("supported", "partial", "unsupported", "contradicted")
WORKER_BATCH = 8  # rows per task handed to a worker: small enough to share long rows out evenly
ECE_BINS = 10


CASCADE = "cascade"  # the app's whole default cascade, beside the registry's single verifiers


def make_verifier(name: str, settings: Settings) -> Verifier:
    """A verifier of the registry (rrag/verify/registry.py) by name, or the app's cascade."""
    if name == CASCADE:
        from rrag.verify.cascade import build_verifier

        return build_verifier(settings)
    return VERIFIERS.create(name, settings)


# --------------------------------------------------------------------------------------------
# Rows to verifier calls


@dataclass
class Row:
    id: str
    dataset: str
    context: str
    claim: str
    label: str
    question: str = ""
    group_id: str | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)
    has_spans: bool = False
    heuristic: str = ""  # the heuristic a stress test's row probes (HANS: lexical_overlap, ...)


def load_rows(path: Path) -> list[Row]:
    rows = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            label = raw["label"]
            if label not in STATUSES:
                raise ValueError(f"unknown label {label!r}")
            rows.append(
                Row(
                    id=str(raw["id"]),
                    dataset=raw.get("dataset") or path.stem,
                    context=raw["context"],
                    claim=raw["claim"],
                    label=label,
                    question=raw.get("question") or "",
                    group_id=raw.get("group_id"),
                    spans=[(s["start"], s["end"]) for s in raw.get("spans") or []],
                    has_spans="spans" in raw,
                    heuristic=raw.get("heuristic") or "",
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"{path}:{n}: not a valid evaluation row ({exc})") from exc
    return rows


def context_chunks(context: str, max_chars: int) -> list[RetrievedChunk]:
    """Cut a context into passages (blank lines), then into runs of whole sentences of at most
    `max_chars`, so that every part of a long document reaches the verifier."""
    chunks: list[RetrievedChunk] = []
    for passage in (p for p in context.split("\n\n") if p.strip()):
        pieces: list[str] = []
        for sentence in split_sentences(passage) or [Span(passage, 0, len(passage))]:
            if pieces and sum(len(p) + 1 for p in pieces) + len(sentence.text) > max_chars:
                chunks.append(_chunk(" ".join(pieces), len(chunks)))
                pieces = []
            pieces.append(sentence.text)
        chunks.append(_chunk(" ".join(pieces), len(chunks)))
    return chunks


def _chunk(text: str, ordinal: int) -> RetrievedChunk:
    chunk = Chunk(f"context-{ordinal}", "context", "context", text, 0, len(text), ordinal=ordinal)
    return RetrievedChunk(chunk, score=1.0)


@dataclass
class Judgement:
    status: str
    score: float
    flagged: list[tuple[int, int]]  # character spans of the claim judged not supported


def _support(v: Verdict) -> float:
    if v.support_score is not None:
        return v.support_score
    return 1.0 if v.status is ClaimStatus.SUPPORTED and v.verified else 0.0


def judge(verifier: Verifier, row: Row, contexts: Sequence[RetrievedChunk]) -> Judgement:
    """The verifier's verdict on the whole claim (a verifier that splits sentences does so itself)."""
    verdict = verifier.verify(Claim(row.claim, 0, len(row.claim)), contexts, row.question)
    status = verdict.status.value if verdict.verified else ClaimStatus.UNSUPPORTED.value
    if status not in STATUSES:  # not_checkable: nothing in it could be confirmed
        status = ClaimStatus.UNSUPPORTED.value
    return Judgement(status, _support(verdict), [])


def flagged_spans(verifier: Verifier, row: Row, contexts: Sequence[RetrievedChunk]) -> list[tuple[int, int]]:
    """The claim's sentences that, checked one by one, are not supported (RAGTruth span-level F1)."""
    claims = [Claim(s.text, s.start, s.end) for s in claim_sentences(row.claim)]
    verdicts = verifier.verify_many(claims, contexts, row.question)
    return [(c.start, c.end) for c, v in zip(claims, verdicts) if v.status is not ClaimStatus.SUPPORTED]


# --------------------------------------------------------------------------------------------
# Metrics


def balanced_accuracy(truth: Sequence[bool], pred: Sequence[bool]) -> float | None:
    recalls = []
    for cls in (True, False):
        idx = [i for i, t in enumerate(truth) if t is cls]
        if idx:
            recalls.append(sum(pred[i] is cls for i in idx) / len(idx))
    return None if len(recalls) < 2 else sum(recalls) / 2


def f1(truth: Sequence[bool], pred: Sequence[bool]) -> float:
    tp = sum(t and p for t, p in zip(truth, pred))
    fp = sum(p and not t for t, p in zip(truth, pred))
    fn = sum(t and not p for t, p in zip(truth, pred))
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def macro_f1(truth: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> float:
    return sum(f1([t == c for t in truth], [p == c for p in pred]) for c in labels) / len(labels)


def confusion(truth: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> list[list[int]]:
    return [[sum(t == a and p == b for t, p in zip(truth, pred)) for b in labels] for a in labels]


def calibration_error(truth: Sequence[bool], scores: Sequence[float], bins: int = ECE_BINS) -> float:
    """Expected calibration error of `scores` as P(supported), equal-width bins."""
    total = 0.0
    for b in range(bins):
        idx = [i for i, s in enumerate(scores) if b == min(int(s * bins), bins - 1)]
        if idx:
            gap = sum(scores[i] for i in idx) / len(idx) - sum(truth[i] for i in idx) / len(idx)
            total += len(idx) * abs(gap)
    return total / max(len(scores), 1)


def span_f1(rows: Sequence[Row], judgements: Sequence[Judgement]) -> float:
    """Character-level F1 of flagged spans against the annotated hallucination spans (micro)."""
    tp = fp = fn = 0
    for row, j in zip(rows, judgements):
        gold = {i for s, e in row.spans for i in range(s, e)}
        flagged = {i for s, e in j.flagged for i in range(s, e)}
        tp += len(gold & flagged)
        fp += len(flagged - gold)
        fn += len(gold - flagged)
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def _group_max(rows: Sequence[Row], judgements: Sequence[Judgement]) -> tuple[list[Row], list[Judgement]]:
    """One entry per group_id: the best-supported row's judgement, the group's best label."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        groups[row.group_id or row.id].append(i)
    out_rows, out_j = [], []
    for members in groups.values():
        best = max(members, key=lambda i: judgements[i].score)
        truth = min((rows[i].label for i in members), key=STATUSES.index)
        out_rows.append(Row(rows[best].id, rows[best].dataset, "", "", truth))
        out_j.append(judgements[best])
    return out_rows, out_j


def dataset_metrics(rows: Sequence[Row], judgements: Sequence[Judgement], seconds: float) -> dict[str, Any]:
    n_claims = len(rows)
    if any(r.group_id for r in rows):
        rows, judgements = _group_max(rows, judgements)
    truth = [r.label == "supported" for r in rows]
    pred = [j.status == "supported" for j in judgements]
    seen = {r.label for r in rows} | {j.status for j in judgements}
    labels = [c for c in STATUSES if c in seen]
    metrics: dict[str, Any] = {
        "n": len(rows),
        "balanced_accuracy": balanced_accuracy(truth, pred),
        "calibration_error": calibration_error(truth, [j.score for j in judgements]),
        "claims_per_s": n_claims / seconds if seconds > 0 else None,
    }
    contradicted = [j for r, j in zip(rows, judgements) if r.label == "contradicted"]
    if contradicted:
        hits = sum(j.status == "contradicted" for j in contradicted)
        metrics["contradicted_recall"] = hits / len(contradicted)
        called = sum(j.status == "contradicted" for j in judgements)
        metrics["contradicted_precision"] = hits / called if called else None
    if len({r.label for r in rows}) > 2:
        statuses = [j.status for j in judgements]
        metrics["macro_f1"] = macro_f1([r.label for r in rows], statuses, labels)
        metrics["labels"] = labels
        metrics["confusion"] = confusion([r.label for r in rows], statuses, labels)
    if any(r.has_spans for r in rows):
        metrics["response_f1"] = f1([not t for t in truth], [not p for p in pred])
        metrics["span_f1"] = span_f1(rows, judgements)
    if any(r.heuristic for r in rows):
        rates = by_heuristic(
            (r.heuristic, r.label, j.status) for r, j in zip(rows, judgements) if r.heuristic
        )
        metrics["by_heuristic"] = {name: asdict(r) for name, r in rates.items()}
    return metrics


# --------------------------------------------------------------------------------------------
# Command


def run(
    paths: Sequence[Path],
    out: Path,
    verifier_name: str,
    settings: Settings,
    limit: int | None = None,
    workers: int = 1,
    make: Callable[[str, Settings], Verifier] = make_verifier,
) -> dict[str, dict[str, Any]]:
    """Verify every row, write predictions to `out`, return metrics per dataset. With `workers` > 1
    the rows are shared out to that many processes, each with its own verifier (`make` must then be
    a module-level function); every row is judged alone, so the predictions are the same."""
    if workers < 1:
        raise ConfigError("workers must be at least 1")
    rows = [row for path in paths for row in load_rows(path)[:limit]]
    batches = [rows[begin : begin + WORKER_BATCH] for begin in range(0, len(rows), WORKER_BATCH)]
    if workers == 1:
        judged = judge_rows(make(verifier_name, settings), settings, rows)
    else:
        # spawn: a forked child would inherit onnxruntime's threads mid-state
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            done = pool.map(partial(_judge_in_worker, make, verifier_name, settings), batches)
            judged = [pair for batch in done for pair in batch]
    by_dataset: dict[str, list[int]] = defaultdict(list)
    seconds: dict[str, float] = defaultdict(float)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for i, (row, (j, elapsed)) in enumerate(zip(rows, judged)):
            seconds[row.dataset] += elapsed
            by_dataset[row.dataset].append(i)
            fh.write(json.dumps({"id": row.id, "label": j.status, "score": round(j.score, 6)}) + "\n")
    return {
        name: dataset_metrics([rows[i] for i in idx], [judged[i][0] for i in idx], seconds[name])
        for name, idx in by_dataset.items()
    }


_worker_verifiers: dict[tuple[str, Settings], Verifier] = {}  # in a worker: one verifier for all its batches


def _judge_in_worker(
    make: Callable[[str, Settings], Verifier], verifier_name: str, settings: Settings, rows: Sequence[Row]
) -> list[tuple[Judgement, float]]:
    key = (verifier_name, settings)
    if key not in _worker_verifiers:
        _worker_verifiers[key] = make(verifier_name, settings)
    return judge_rows(_worker_verifiers[key], settings, rows)


def judge_rows(verifier: Verifier, settings: Settings, rows: Sequence[Row]) -> list[tuple[Judgement, float]]:
    """Each row's judgement and the seconds its verdict took."""
    out = []
    for row in rows:
        started = time.perf_counter()
        contexts = context_chunks(row.context, settings.chunk_size)
        j = judge(verifier, row, contexts)
        elapsed = time.perf_counter() - started
        if row.has_spans:  # outside the timing: it checks the claim a second time, sentence by sentence
            j.flagged = flagged_spans(verifier, row, contexts)
        out.append((j, elapsed))
    return out


def format_table(results: dict[str, dict[str, Any]]) -> str:
    cols = [
        ("n", "n", "{:d}"),
        ("balanced_accuracy", "BA", "{:.1%}"),
        ("macro_f1", "macroF1", "{:.1%}"),
        ("response_f1", "respF1", "{:.1%}"),
        ("span_f1", "spanF1", "{:.1%}"),
        ("contradicted_recall", "contraR", "{:.1%}"),
        ("contradicted_precision", "contraP", "{:.1%}"),
        ("calibration_error", "ECE", "{:.3f}"),
        ("claims_per_s", "claims/s", "{:.1f}"),
    ]
    width = max([len(name) for name in results] + [7])
    lines = [f"{'dataset':<{width}} " + " ".join(f"{h:>9}" for _, h, _ in cols)]
    for name, m in sorted(results.items()):
        cells = [fmt.format(m[key]) if m.get(key) is not None else "-" for key, _, fmt in cols]
        lines.append(f"{name:<{width}} " + " ".join(f"{c:>9}" for c in cells))
    bas = [m["balanced_accuracy"] for m in results.values() if m.get("balanced_accuracy") is not None]
    if bas:
        lines.append(f"{'mean BA':<{width}} {'':>9} {sum(bas) / len(bas):>9.1%}")
    for name, m in sorted(results.items()):
        if "by_heuristic" in m:
            rates = {h: HeuristicRates(**counts) for h, counts in m["by_heuristic"].items()}
            lines.append(f"\n{name} per heuristic (non-entailment right: not labelled supported)")
            lines.append(format_heuristics(rates))
        if "confusion" in m:
            lines.append(f"\n{name} confusion (rows: truth, columns: predicted; {', '.join(m['labels'])})")
            lines.extend("  " + " ".join(f"{v:>5d}" for v in row) for row in m["confusion"])
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    """Add the `eval` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser("eval", help="measure a verifier on labelled JSONL data")
    p.add_argument("--data", type=Path, nargs="+", required=True, help="JSONL file(s), shared/eval format")
    p.add_argument("--out", type=Path, required=True, help="where to write one JSON prediction per row")
    choices = (*VERIFIERS.names(), CASCADE)
    p.add_argument(
        "--verifier", default="nli", choices=choices, help="nli (default) is the app's offline stage"
    )
    p.add_argument("--limit", type=int, help="only the first N rows of each file (quick checks)")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes verifying rows in parallel (same predictions; claims/s is per process)",
    )
    p.add_argument("--json", action="store_true", help="print the metrics as JSON instead of a table")
    p.set_defaults(handler=_cmd_eval)


def _cmd_eval(args: argparse.Namespace) -> int:
    results = run(args.data, args.out, args.verifier, Settings.from_env(), args.limit, args.workers)
    print(json.dumps(results, indent=2) if args.json else format_table(results))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rrag-eval")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["eval", *(argv if argv is not None else sys.argv[1:])])
    try:
        return int(args.handler(args))
    except RRAGError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
