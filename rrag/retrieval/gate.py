"""The recall gate: reranking cannot find what the first stage missed, so a corpus is reranked only
once a question set with known sources has shown that its first stage finds them.

`rrag evaluate` (rrag/tools/question_sets.py) ranks each question's expected source among the first
stage's candidates and again after reranking them; recall@k is the share of questions whose source
is among the first k, MRR the mean of 1 / its rank (0 when it is missing). The gate passes where
recall@RERANK_CANDIDATES, the candidates the reranker reads, is at least GATE_RECALL, and reranking
them raised the MRR: a reranker that orders this corpus's sources no better than the first stage is not
used on it, as it costs time and may still drop the passage that answers (it reads one window of each
chunk; the first stage reads every sentence). The result is kept per collection in the store's app
settings, and the pipeline reads it for every question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import PurePath
from typing import Any

from rrag.types import RetrievedChunk

RECALL_DEPTHS = (5, 20, 50)
FIRST_STAGE_DEPTH = max(RECALL_DEPTHS)
# The reranker reads the first stage's 10 best: retrieval with reranking must stay within twice the
# time of retrieval alone (`make bench`), and the model's time grows with the passages it reads.
RERANK_CANDIDATES = 10
GATE_RECALL = 0.80
GATES_KEY = "retrieval_gates"  # app setting: collection -> RecallGate fields


@dataclass(frozen=True)
class RecallGate:
    """A corpus's gate, as the last question set with expected sources measured it."""

    recall: float  # recall@RERANK_CANDIDATES of the first stage
    questions: int  # questions with an expected source it was measured on
    run_name: str
    measured_at: str  # ISO 8601, UTC
    mrr_first_stage: float = 0.0
    mrr_reranked: float = 0.0
    candidates: int = RERANK_CANDIDATES
    threshold: float = GATE_RECALL

    @property
    def passed(self) -> bool:
        return self.recall >= self.threshold and self.mrr_reranked > self.mrr_first_stage

    def describe(self) -> str:
        if self.recall < self.threshold:
            outcome = f"not passed (recall below {self.threshold:.2f})"
        else:
            outcome = "passed" if self.passed else "not passed (reranking did not raise the MRR)"
        return (
            f"recall@{self.candidates} {self.recall:.2f}, MRR {self.mrr_first_stage:.2f} -> "
            f"{self.mrr_reranked:.2f} reranked, on {self.questions} question(s) of "
            f'"{self.run_name}", {self.measured_at[:10]}: {outcome}'
        )


def source_rank(chunks: Sequence[RetrievedChunk], expected_source: str) -> int | None:
    """The 1-based rank of the first chunk from the expected document (matched by file name)."""
    wanted = PurePath(expected_source.strip()).name.lower()
    return next(
        (i for i, rc in enumerate(chunks, start=1) if PurePath(rc.chunk.source).name.lower() == wanted),
        None,
    )


def recall_at(ranks: Sequence[int | None], k: int) -> float | None:
    return sum(r is not None and r <= k for r in ranks) / len(ranks) if ranks else None


def mean_reciprocal_rank(ranks: Sequence[int | None]) -> float | None:
    return sum(1 / r for r in ranks if r) / len(ranks) if ranks else None


def gate_from(
    ranks: Sequence[tuple[int | None, int | None]], run_name: str, measured_at: str
) -> RecallGate | None:
    """The gate of a run's (first stage, reranked) ranks of its expected sources; None without any."""
    if not ranks:
        return None
    first, reranked = [r[0] for r in ranks], [r[1] for r in ranks]
    return RecallGate(
        recall_at(first, RERANK_CANDIDATES) or 0.0,
        len(ranks),
        run_name,
        measured_at,
        mean_reciprocal_rank(first) or 0.0,
        mean_reciprocal_rank(reranked) or 0.0,
    )


def gate_of(collection: str, saved: Mapping[str, Any]) -> RecallGate | None:
    """The gate kept for `collection` in the app settings, or None when none was measured."""
    fields = (saved.get(GATES_KEY) or {}).get(collection)
    return RecallGate(**fields) if fields else None


def with_gate(collection: str, saved: Mapping[str, Any], gate: RecallGate) -> dict[str, Any]:
    """The app-settings value that keeps `gate` for `collection` beside the other collections' gates."""
    return {GATES_KEY: {**(saved.get(GATES_KEY) or {}), collection: asdict(gate)}}
