"""The demo corpus: a fictional company's handbook plus saved example answers with planted hallucinations."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rrag.types import Decision, IngestResult, Report

if TYPE_CHECKING:
    from rrag.engine.user import Engine

DEMO_DIR = Path(__file__).resolve().parents[2] / "data" / "demo"
EXAMPLES_FILE = "examples.json"


@dataclass(frozen=True)
class Sample:
    """A one-click question for the demo corpus, and what the engine decides on its defaults."""

    label: str
    question: str
    answer: str  # an answer written elsewhere, to audit; empty: the question is asked
    decision: Decision  # tests/test_demo_samples.py runs every sample and checks it


@dataclass(frozen=True)
class DemoSetup:
    ingested: list[IngestResult]
    examples: list[Report]  # empty when the store already held sessions


def demo_files(demo_dir: Path = DEMO_DIR) -> list[Path]:
    return sorted(p for p in demo_dir.iterdir() if p.is_file() and p.name != EXAMPLES_FILE)


def set_up_demo(rag: Engine, demo_dir: Path = DEMO_DIR) -> DemoSetup:
    """Index the demo corpus (re-runs add nothing) and, on an empty store, audit the example answers."""
    ingested = rag.ingest(demo_files(demo_dir))
    examples: list[Report] = []
    if not rag.has_sessions():
        for example in json.loads((demo_dir / EXAMPLES_FILE).read_text(encoding="utf-8")):
            examples.append(rag.verify(example["question"], example["answer"]))
    return DemoSetup(ingested, examples)


def _example_answer(question: str, demo_dir: Path) -> str:
    examples = json.loads((demo_dir / EXAMPLES_FILE).read_text(encoding="utf-8"))
    return next(e["answer"] for e in examples if e["question"] == question)


def samples(demo_dir: Path = DEMO_DIR) -> list[Sample]:
    """An answered question, a pasted answer that gets trimmed (a changed number), a refused question.

    The extractive answerer only quotes the documents, so the trimmed sample audits an answer written
    elsewhere: one of the examples with a planted hallucination.
    """
    leave = "How many days of annual leave do full-time employees get?"
    per_diem = "What is the daily per-diem allowance for a business trip to Berlin?"
    return [
        Sample("Annual leave", leave, "", Decision.PASS),
        Sample("Audit a per-diem answer", per_diem, _example_answer(per_diem, demo_dir), Decision.TRIM),
        Sample("The company's share price", "What is the company's share price today?", "", Decision.REFUSE),
    ]


def is_demo_indexed(sources: list[str], demo_dir: Path = DEMO_DIR) -> bool:
    """Whether every demo document is among the indexed `sources` (file names or relative paths)."""
    names = {Path(source).name for source in sources}
    return {p.name for p in demo_files(demo_dir)} <= names
