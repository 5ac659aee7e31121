"""Engine speed on this machine: ingest throughput, retrieval latency at N chunks, verification throughput.

    make bench    # or: PYTHONPATH=. .venv/bin/python benchmarks/bench_engine.py [--chunks 10000] ...

Builds a synthetic corpus (seeded, so runs are comparable) in a temp data dir; prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from rrag.pipeline import ReliableRAG
from rrag.retrieve import HybridRetriever
from rrag.settings import Settings

TOPICS = ["leave", "expenses", "security", "travel", "payroll", "benefits", "training", "equipment",
          "privacy", "procurement", "facilities", "onboarding", "compliance", "safety", "pension"]
SUBJECTS = ["Employees", "Contractors", "Managers", "Interns", "Team leads", "New hires", "Auditors"]
VERBS = ["must submit", "may request", "are entitled to", "should review", "cannot exceed", "must approve"]
OBJECTS = ["a written request", "the quarterly report", "a reimbursement form", "the access log",
           "an exception", "the annual budget", "a travel plan", "the incident summary"]


def sentence(rng: random.Random, topic: str, serial: int) -> str:
    return (f"{rng.choice(SUBJECTS)} in the {topic} programme {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
            f"within {rng.randint(2, 90)} days under rule {topic[:3].upper()}-{serial}.")


def write_corpus(folder: Path, chunks: int, chunk_size: int, rng: random.Random) -> list[Path]:
    """One file per ~20 chunks; every sentence carries a unique rule number, so nothing is a near-copy."""
    paths, serial, per_file = [], 0, 20
    for i in range(max(1, chunks // per_file)):
        topic = TOPICS[i % len(TOPICS)]
        text, lines = 0, []
        while text < per_file * chunk_size * 0.8:  # chunk overlap makes ~20% more chunks than size alone
            serial += 1
            lines.append(sentence(rng, topic, serial))
            text += len(lines[-1]) + 1
        path = folder / f"{topic}-{i:05d}.txt"
        path.write_text(" ".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--answers", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(7)

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "data")
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        paths = write_corpus(corpus, args.chunks, settings.chunk_size, rng)
        rag = ReliableRAG(settings)

        start = time.perf_counter()
        results = rag.ingest(paths)
        ingest_s = time.perf_counter() - start
        chunks = sum(r.chunks_added for r in results)
        failed = [r for r in results if not r.ok]
        print(f"ingest:    {chunks} chunks from {len(paths)} files in {ingest_s:.1f} s "
              f"= {chunks / ingest_s:.1f} chunks/s ({len(failed)} failed, "
              f"{sum(r.duplicates_dropped for r in results)} near-duplicates dropped)")

        queries = [f"What must {rng.choice(SUBJECTS).lower()} in the {rng.choice(TOPICS)} programme "
                   f"do about {rng.choice(OBJECTS)}?" for _ in range(args.queries)]
        retriever = HybridRetriever(rag.index, settings)
        retriever.retrieve(queries[0])  # builds the keyword index once, as the first real query would
        latencies = []
        for q in queries:
            start = time.perf_counter()
            retriever.retrieve(q)
            latencies.append((time.perf_counter() - start) * 1000)
        print(f"retrieve:  {rag.index.count()} chunks, {len(queries)} queries: "
              f"p50 {percentile(latencies, 50):.1f} ms, p95 {percentile(latencies, 95):.1f} ms")

        claims = verify_ms = 0.0
        for _ in range(args.answers):
            doc = rng.choice(paths).read_text(encoding="utf-8").split(". ")
            picked = rng.sample(doc[:-1], 3)
            # one faithful sentence, one with a changed number, one with a changed subject
            altered = [picked[0] + ".", _change_number(picked[1]) + ".", picked[2].replace("within", "after") + "."]
            report = rag.verify("What does the policy require?", " ".join(altered))
            claims += sum(1 for c in report.claims if c.claim.checkable)
            verify_ms += report.timings_ms["verify"]
        print(f"verify:    {int(claims)} claims in {verify_ms / 1000:.1f} s = {claims / (verify_ms / 1000):.1f} claims/s "
              f"(verifiers: {','.join(settings.verifiers)})")
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"memory:    peak RSS {peak_mb:.0f} MB")
        rag.close()


def _change_number(text: str) -> str:
    words = text.split()
    for i, word in enumerate(words):
        if word.isdigit():
            words[i] = str(int(word) + 7)
            break
    return " ".join(words)


if __name__ == "__main__":
    main()
