"""The demo corpus: a fictional company's handbook plus saved example answers with planted hallucinations."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rrag.pipeline import ReliableRAG
from rrag.types import IngestResult, Report

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"
EXAMPLES_FILE = "examples.json"


@dataclass(frozen=True)
class DemoSetup:
    ingested: list[IngestResult]
    examples: list[Report]  # empty when the store already held sessions


def demo_files(demo_dir: Path = DEMO_DIR) -> list[Path]:
    return sorted(p for p in demo_dir.iterdir() if p.is_file() and p.name != EXAMPLES_FILE)


def set_up_demo(rag: ReliableRAG, demo_dir: Path = DEMO_DIR) -> DemoSetup:
    """Index the demo corpus (re-runs add nothing) and, on an empty store, audit the example answers."""
    ingested = rag.ingest(demo_files(demo_dir))
    examples: list[Report] = []
    if not rag.store.list_sessions(limit=1):
        for example in json.loads((demo_dir / EXAMPLES_FILE).read_text(encoding="utf-8")):
            examples.append(rag.verify(example["question"], example["answer"]))
    return DemoSetup(ingested, examples)
