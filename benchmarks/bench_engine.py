"""Engine speed on this machine: the figures of issue 13, each with the command that reproduces it.

    make bench    # = PYTHONPATH=. .venv/bin/python benchmarks/bench_engine.py
                  #   [--chunks 100000] [--queries 200] [--answers 30] [--ingest-chunks 300]
                  #   [--memory-mb 0.1,0.4]

1. retrieval p50/p95 at --chunks chunks. The corpus is synthetic (seeded) and embedded cheaply: each
   chunk's vector is the mean of MiniLM vectors of its sentences' templates, so building 100k chunks
   takes minutes, not hours; queries are embedded by the real model, as in the app. The previous
   implementation (in-process BM25, benchmarks/legacy_retrieval.py) is measured on the same corpus.
2. auditing a 5-claim answer (claims + retrieval + verification, offline cascade quote,nli) on that
   corpus: p50 per answer, alternating with the previous retrieval and cold verifier caches on other
   answers; then the same answers again (warm caches).
3. ingest throughput (real files, real embedding) in chunks/s.
4. peak memory of one ingest, for files of each size in --memory-mb (a fresh process each).

Prints figures, asserts nothing. Figures taken while the machine is shared vary; compare ratios,
which are measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import accumulate
from pathlib import Path

import numpy as np

from benchmarks.legacy_retrieval import LegacyHybridRetriever
from rrag.backends.embedding import get_embedder
from rrag.backends.question_passage import shared_model
from rrag.engine.pipeline import ReliableRAG
from rrag.retrieval.gate import RERANK_CANDIDATES, RecallGate
from rrag.retrieval.judged import judge
from rrag.retrieval.sentence_vectors import pack
from rrag.settings import Settings
from rrag.text import clear_caches
from rrag.types import Chunk, DocumentInfo

TOPICS = [
    "leave",
    "expenses",
    "security",
    "travel",
    "payroll",
    "benefits",
    "training",
    "equipment",
    "privacy",
    "procurement",
    "facilities",
    "onboarding",
    "compliance",
    "safety",
    "pension",
]
SUBJECTS = ["Employees", "Contractors", "Managers", "Interns", "Team leads", "New hires", "Auditors"]
VERBS = ["must submit", "may request", "are entitled to", "should review", "cannot exceed", "must approve"]
OBJECTS = [
    "a written request",
    "the quarterly report",
    "a reimbursement form",
    "the access log",
    "an exception",
    "the annual budget",
    "a travel plan",
    "the incident summary",
]
# Project names: 4,096 made-up words used with Zipf frequencies, so keyword search meets rare and
# common terms as in real text.
SYLLABLES = ["ka", "ro", "mi", "ta", "lu", "ne", "so", "vi", "de", "pa", "ri", "go", "fe", "zu", "bo", "la"]
NAMES = [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES]
NAME_WEIGHTS = list(accumulate(1.0 / (rank + 1) for rank in range(len(NAMES))))
CHUNKS_PER_DOC = 20
CHUNK_CHARS = 1000
COMMAND = "PYTHONPATH=. .venv/bin/python benchmarks/bench_engine.py"


def sentence(rng: random.Random, topic: str, serial: int) -> str:
    name = rng.choices(NAMES, cum_weights=NAME_WEIGHTS)[0]
    return (
        f"{rng.choice(SUBJECTS)} in the {topic} programme {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
        f"for the {name} project within {rng.randint(2, 90)} days under rule {topic[:3].upper()}-{serial}."
    )


def write_corpus(folder: Path, chunks: int, rng: random.Random) -> list[Path]:
    """Files of about CHUNKS_PER_DOC chunks; every sentence carries a unique rule number, so nothing is a
    near-copy."""
    folder.mkdir(parents=True, exist_ok=True)
    paths, serial = [], 0
    for i in range(max(1, chunks // CHUNKS_PER_DOC)):
        topic = TOPICS[i % len(TOPICS)]
        size, lines = 0, []
        while (
            size < CHUNKS_PER_DOC * CHUNK_CHARS * 0.8
        ):  # chunk overlap makes ~20% more chunks than size alone
            serial += 1
            lines.append(sentence(rng, topic, serial))
            size += len(lines[-1]) + 1
        path = folder / f"{topic}-{i:05d}.txt"
        path.write_text(" ".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}x the previous" if old else "n/a"


# -- 1. retrieval at scale ----------------------------------------------------------------------------


def build_cheap_corpus(rag: ReliableRAG, n_chunks: int, rng: random.Random) -> list[Chunk]:
    """n_chunks synthetic chunks in the index and the keyword index, embedded as the mean of their
    sentences' template vectors (one MiniLM call per template, not per chunk), which the keyword index
    keeps as their sentence vectors, as ingest does."""
    templates = {
        (s, t, o): i
        for i, (s, t, o) in enumerate((s, t, o) for s in SUBJECTS for t in TOPICS for o in OBJECTS)
    }
    template_vectors = get_embedder().embed(
        [f"{s} in the {t} programme must handle {o}." for s, t, o in templates]
    )
    everything: list[Chunk] = []
    serial = 0
    for d in range(max(1, n_chunks // CHUNKS_PER_DOC)):
        topic, doc_id = TOPICS[d % len(TOPICS)], f"doc-{d:06d}"
        chunks, vectors, sentence_vectors = [], [], {}
        for n in range(CHUNKS_PER_DOC):
            text, rows = "", []
            while len(text) < CHUNK_CHARS - 150:
                serial += 1
                subject, obj = rng.choice(SUBJECTS), rng.choice(OBJECTS)
                name = rng.choices(NAMES, cum_weights=NAME_WEIGHTS)[0]
                text += (
                    f"{subject} in the {topic} programme {rng.choice(VERBS)} {obj} for the {name} project "
                    f"within {rng.randint(2, 90)} days under rule {topic[:3].upper()}-{serial}. "
                )
                rows.append(template_vectors[templates[(subject, topic, obj)]])
            text, source = text.strip(), f"{doc_id}.txt"  # in English, as ingest would detect and keep
            chunks.append(Chunk(f"{doc_id}:{n}", doc_id, source, text, 0, len(text), None, n, language="en"))
            vector = np.sum(rows, axis=0)
            vectors.append(vector / np.linalg.norm(vector))
            sentence_vectors[chunks[-1].chunk_id] = pack(np.stack(rows))
        rag.index.add(chunks, np.array(vectors))
        rag.store.save_document(
            DocumentInfo(
                doc_id,
                f"{doc_id}.txt",
                "0" * 64,
                CHUNKS_PER_DOC * CHUNK_CHARS,
                len(chunks),
                0,
                "2026-11-24T00:00:00+00:00",
            ),
            chunks,
            sentence_vectors,
        )
        everything.extend(chunks)
    return everything


def bench_retrieval(rag: ReliableRAG, queries: list[str], legacy: bool) -> LegacyHybridRetriever | None:
    new = rag._backends.retriever
    new.retrieve(queries[0])  # opens the database connection and the model, as the app's first query does
    latencies = [timed(lambda q=q: new.retrieve(q)) for q in queries]
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    count = rag.index.count()
    print(
        f"retrieval, {count} chunks, {len(queries)} queries: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
        f"(target <= 50 / <= 150 ms)\n    {COMMAND} --chunks {count} --queries {len(queries)}"
    )
    bench_reranking(rag, queries, p50)
    if not legacy:
        return None
    old = LegacyHybridRetriever(rag.index, rag.settings)
    build_s = timed(lambda: old.retrieve(queries[0])) / 1000
    old_latencies = [timed(lambda q=q: old.retrieve(q)) for q in queries]
    old50, old95 = percentile(old_latencies, 50), percentile(old_latencies, 95)
    print(
        f"    previous (in-process BM25): first query {build_s:.1f} s (reads and indexes every chunk; again "
        f"after any change), then p50 {old50:.1f} ms, p95 {old95:.1f} ms\n"
        f"    now: p50 {ratio(p50, old50)}, p95 {ratio(p95, old95)}, "
        f"first query {ratio(latencies[0] / 1000, build_s)}"
    )
    return old


def bench_reranking(rag: ReliableRAG, queries: list[str], plain_p50: float) -> None:
    """Retrieval as a question of a corpus whose recall gate passed runs it: the first stage's
    RERANK_CANDIDATES reordered by the question-passage model (rrag/retrieval/judged.py)."""
    gate = RecallGate(1.0, 1, "bench", "2026-11-29T00:00:00+00:00", 1.0, 1.0)
    model, retriever, top_k = shared_model(), rag._backends.retriever, rag.settings.top_k
    judge(model, retriever, queries[0], top_k, gate)  # loads the model
    latencies = [timed(lambda q=q: judge(model, retriever, q, top_k, gate)) for q in queries]
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    print(
        f"    reranked ({RERANK_CANDIDATES} candidates, the question-passage model): p50 {p50:.1f} ms, "
        f"p95 {p95:.1f} ms; p50 {p50 / plain_p50:.2f}x retrieval alone (target within 2x)"
    )


# -- 2. auditing answers ------------------------------------------------------------------------------

WHOLE = "whole call"


def audit_answers(chunks: Sequence[Chunk], n: int, rng: random.Random) -> list[str]:
    """Five claims from one chunk: three as written, one with a changed number, one with another subject."""
    answers = []
    for _ in range(n):
        sentences = [s.strip() + "." for s in rng.choice(chunks).text.split(". ") if s.strip()][:5]
        sentences[3] = _change_number(sentences[3])
        sentences[4] = sentences[4].replace(sentences[4].split(" in the ")[0], "Visitors", 1)
        answers.append(" ".join(sentences))
    return answers


def bench_audit(rag: ReliableRAG, answers: list[str], old: LegacyHybridRetriever | None) -> None:
    """Each answer is audited on cold caches (its chunks are new to the verifier), alternating with the
    previous implementation on other answers, so both meet the same machine load; then the same
    answers again, as when chunks come back question after question."""
    question = "What does the policy require?"
    current = rag._backends
    previous = replace(current, retriever=old) if old is not None else None  # the previous retrieval
    rag.verify(question, answers[-1])  # warm: model loaded, connections open
    half = len(answers) // 2 if previous else len(answers)
    runs: dict[str, list[dict[str, float]]] = {"now": [], "previous": [], "now, the same answers again": []}
    for i in range(half):
        rag._backends = current
        runs["now"].append(_audited(rag, question, answers[i]))
        if previous:
            clear_caches()
            rag._backends = previous
            runs["previous"].append(_audited(rag, question, answers[half + i]))
    rag._backends = current
    for answer in answers[:half]:  # the runs above cleared the caches before each previous one
        rag.verify(question, answer)
    runs["now, the same answers again"] = [_audited(rag, question, a) for a in answers[:half]]
    print(
        f"audit of a 5-claim answer, offline cascade {','.join(rag.settings.verifiers)}, {half} answers each "
        f"(target p50 <= 150 ms)\n    {COMMAND} --chunks {rag.index.count()} --answers {len(answers)}"
    )
    medians = {}
    for label, stages in runs.items():
        if not stages:
            continue
        medians[label] = statistics.median(s["claims"] + s["retrieve"] + s["verify"] for s in stages)
        parts = ", ".join(
            f"{k} {statistics.median(s[k] for s in stages):.0f}" for k in stages[0] if k != WHOLE
        )
        whole = statistics.median(s[WHOLE] for s in stages)
        print(
            f"    {label}: p50 {medians[label]:.0f} ms claims + retrieval + verification ({parts} ms); "
            f"the whole call, with scoring, saving and the index check, {whole:.0f} ms"
        )
    if "previous" in medians:
        print(
            f"    now: p50 {ratio(medians['now'], medians['previous'])} (cold), "
            f"{ratio(medians['now, the same answers again'], medians['previous'])} (warm)"
        )


def _audited(rag: ReliableRAG, question: str, answer: str) -> dict[str, float]:
    """The stages' timings of one audit, and the whole call's (what the user waits for)."""
    start = time.perf_counter()
    timings = dict(rag.verify(question, answer).timings_ms)
    timings[WHOLE] = (time.perf_counter() - start) * 1000
    return timings


def _change_number(text: str) -> str:
    words = text.split()
    for i, word in enumerate(words):
        if word.isdigit():
            words[i] = str(int(word) + 7)
            break
    return " ".join(words)


# -- 3. ingest throughput -----------------------------------------------------------------------------


def bench_ingest(folder: Path, n_chunks: int, rng: random.Random) -> None:
    paths = write_corpus(folder / "corpus", n_chunks, rng)
    rag = ReliableRAG(Settings(data_dir=folder / "data"))
    rag.ingest(write_corpus(folder / "warm", 1, rng)[:1])  # loads the model
    start = time.perf_counter()
    results = rag.ingest(paths)
    seconds = time.perf_counter() - start
    rag.close()
    chunks = sum(r.chunks_added for r in results)
    print(
        f"ingest: {chunks} chunks from {len(paths)} files in {seconds:.1f} s = "
        f"{chunks / seconds:.1f} chunks/s (target >= 40; {sum(not r.ok for r in results)} failed)\n"
        f"    {COMMAND} --ingest-chunks {n_chunks}"
    )


# -- 4. peak memory of an ingest ----------------------------------------------------------------------


def memory_child(size_mb: float, folder: Path) -> None:
    """In a fresh process: open the engine, ingest a small file (model loaded), then one of size_mb;
    prints the chunks added, how far the resident memory rose above its level before that ingest
    (sampled every 10 ms), and the process's peak, in MB."""
    rng = random.Random(11)
    rag = ReliableRAG(Settings(data_dir=folder / "data"))
    rag.ingest(write_corpus(folder / "warm", 1, rng)[:1])
    path = folder / "big.txt"
    with path.open("w", encoding="utf-8") as out:
        serial = 0
        while out.tell() < size_mb * 1_000_000:
            serial += 1
            out.write(sentence(rng, TOPICS[serial % len(TOPICS)], serial) + " ")
    before, highest, done = _rss_mb(), [0.0], threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            highest[0] = max(highest[0], _rss_mb())

    sampler = threading.Thread(target=sample)
    sampler.start()
    (result,) = rag.ingest([path])
    done.set()
    sampler.join()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{result.chunks_added} {max(highest[0] - before, 0.0):.1f} {peak:.0f}")


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def bench_memory(folder: Path, sizes: list[float]) -> None:
    growth = []
    print(
        "peak memory of one ingest (fresh process each)\n"
        f"    {COMMAND} --memory-mb {','.join(map(str, sizes))}"
    )
    for size in sizes:
        child = folder / f"memory-{size}"
        child.mkdir()
        out = subprocess.run(
            [sys.executable, __file__, "--memory-child", str(size), str(child)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": "."},
        )
        chunks, grew, peak = out.stdout.split()[-3:]
        growth.append(float(grew))
        print(
            f"    {size} MB file, {chunks} chunks: resident memory rose {float(grew):.0f} MB "
            f"during the ingest (process peak {peak} MB)"
        )
    if len(growth) > 1 and growth[0] > 0:
        print(
            f"    growth, largest file / smallest: {growth[-1] / growth[0]:.2f} "
            f"for {sizes[-1] / sizes[0]:.0f}x the size (1.0 = independent of the file's size)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--answers", type=int, default=30)
    parser.add_argument("--ingest-chunks", type=int, default=300)
    parser.add_argument("--memory-mb", default="0.1,0.4")
    parser.add_argument("--no-previous", action="store_true", help="skip the previous implementation")
    parser.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(float(args.memory_child[0]), Path(args.memory_child[1]))
        return
    rng = random.Random(7)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        rag = ReliableRAG(Settings(data_dir=Path(tmp) / "scale"))
        start = time.perf_counter()
        chunks = build_cheap_corpus(rag, args.chunks, rng)
        build_s = time.perf_counter() - start
        print(f"corpus: {len(chunks)} chunks built with cheap embeddings in {build_s:.0f} s")
        queries = [
            f"What must {rng.choice(SUBJECTS).lower()} in the {rng.choice(TOPICS)} programme do about "
            f"{rng.choice(OBJECTS)} for the {rng.choices(NAMES, cum_weights=NAME_WEIGHTS)[0]} project?"
            for _ in range(args.queries)
        ]
        old = bench_retrieval(rag, queries, legacy=not args.no_previous)
        bench_audit(rag, audit_answers(chunks, args.answers, rng), old)
        rag.close()
        bench_ingest(Path(tmp) / "ingest", args.ingest_chunks, rng)
        bench_memory(Path(tmp), [float(s) for s in args.memory_mb.split(",")])


if __name__ == "__main__":
    main()
