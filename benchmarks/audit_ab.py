"""Two checkouts' cold 5-claim audits, run after one another in turns: the paired difference of their
p50s, with its standard error.

    PYTHONPATH=. .venv/bin/python benchmarks/audit_ab.py BEFORE_DIR AFTER_DIR [--runs 8]
        [--chunks 5000] [--answers 40]

`make bench` times one checkout, and the shared cores' speed moves by a tenth from one run to the
next: a change of a few milliseconds hides in that. Here each run is a fresh process in one checkout
(a `git worktree` of the commit to compare with), building the same seeded corpus as `make bench`
(smaller) and auditing its answers on cold caches; the two checkouts take turns, and each pair of
neighbouring runs gives one difference. Besides the whole call's p50, the p50 of the CPU time of the
calling thread: the Python work of an audit, which the judge's and the embedder's threads do not
count in, and which the machine's load moves less.

Prints figures, asserts nothing. A difference within two standard errors of zero is no difference.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTION = "What does the policy require?"


def one_run(chunks: int, answers: int) -> dict[str, float]:
    """In the checkout this process runs in: the p50 of each measure over `answers` cold audits."""
    from benchmarks.bench_engine import audit_answers, build_cheap_corpus
    from rrag.engine.pipeline import ReliableRAG
    from rrag.settings import Settings
    from rrag.text import clear_caches

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        rag = ReliableRAG(Settings(data_dir=Path(tmp) / "ab"))
        corpus = build_cheap_corpus(rag, chunks, rng)
        texts = audit_answers(corpus, answers + 1, rng)
        rag.verify(QUESTION, texts[-1])  # models loaded
        whole, python = [], []
        for text in texts[:answers]:
            clear_caches()
            started, cpu = time.perf_counter(), time.thread_time()
            rag.verify(QUESTION, text)
            whole.append((time.perf_counter() - started) * 1000)
            python.append((time.thread_time() - cpu) * 1000)
        rag.close()
    return {"whole": statistics.median(whole), "calling thread CPU": statistics.median(python)}


def in_checkout(checkout: Path, chunks: int, answers: int) -> dict[str, float]:
    """`one_run` in a fresh process whose engine, and whose benchmark corpus, are `checkout`'s."""
    done = subprocess.run(
        [sys.executable, __file__, "--one-run", str(chunks), str(answers)],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1:2] == ["--one-run"]:  # the child process of `in_checkout`
        print(json.dumps(one_run(int(sys.argv[2]), int(sys.argv[3]))))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--runs", type=int, default=8, help="runs of each checkout")
    parser.add_argument("--chunks", type=int, default=5000)
    parser.add_argument("--answers", type=int, default=40, help="cold audits a run")
    args = parser.parse_args()
    runs: dict[Path, list[dict[str, float]]] = {args.before: [], args.after: []}
    for n in range(args.runs):
        for checkout in (args.before, args.after) if n % 2 == 0 else (args.after, args.before):
            runs[checkout].append(in_checkout(checkout.resolve(), args.chunks, args.answers))
        print(
            f"run {n + 1}: before {runs[args.before][-1]['whole']:.1f} ms, "
            f"after {runs[args.after][-1]['whole']:.1f} ms",
            flush=True,
        )
    for measure in runs[args.before][0]:
        before = [r[measure] for r in runs[args.before]]
        after = [r[measure] for r in runs[args.after]]
        diffs = [b - a for a, b in zip(before, after)]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
        print(
            f"{measure}, p50 of {args.answers} cold audits, {args.chunks} chunks: "
            f"before {statistics.mean(before):.1f} ms, after {statistics.mean(after):.1f} ms, "
            f"after - before {statistics.mean(diffs):+.1f} ms (s.e. {error:.1f}; {len(diffs)} pairs)"
        )


if __name__ == "__main__":
    main()
