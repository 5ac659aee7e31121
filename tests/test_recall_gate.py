"""The recall gate (rrag/retrieval/gate.py): ranks of expected sources, recall@k, MRR, and the gate kept
per collection; and the run summary's retrieval figures."""

from __future__ import annotations

import pytest

from rrag.retrieval.gate import (
    RecallGate,
    gate_of,
    mean_reciprocal_rank,
    recall_at,
    source_rank,
    with_gate,
)
from rrag.tools.question_sets import QuestionOutcome, summarise
from rrag.types import Chunk, RetrievedChunk
from ui.run_tables import figure


def _chunk(source: str) -> RetrievedChunk:
    return RetrievedChunk(Chunk(f"{source}#0", source, source, "text", 0, 4), 0.5)


def test_the_rank_of_the_expected_source_is_its_first_chunk_matched_by_file_name() -> None:
    chunks = [_chunk("docs/faq.html"), _chunk("policy.pdf"), _chunk("docs/policy.pdf")]
    assert source_rank(chunks, "POLICY.pdf") == 2
    assert source_rank(chunks, "price-list.docx") is None


def test_recall_and_mrr_count_a_missed_source_as_rank_infinity() -> None:
    ranks = [1, 3, None, 30]
    assert recall_at(ranks, 5) == 0.5 and recall_at(ranks, 50) == 0.75
    assert mean_reciprocal_rank(ranks) == pytest.approx((1 + 1 / 3 + 1 / 30) / 4)
    assert recall_at([], 5) is None and mean_reciprocal_rank([]) is None


def test_the_gate_passes_at_080_and_is_kept_per_collection() -> None:
    passed = RecallGate(0.8, 10, "leisure", "2026-11-29T10:00:00+00:00", 0.7, 0.72)
    failed = RecallGate(0.7, 10, "trust", "2026-11-29T11:00:00+00:00", 0.5, 0.9)
    worse = RecallGate(0.9, 10, "demo", "2026-11-29T12:00:00+00:00", 1.0, 0.94)
    no_better = RecallGate(0.9, 10, "demo", "2026-11-29T12:00:00+00:00", 1.0, 1.0)
    assert passed.passed and not failed.passed and not worse.passed and not no_better.passed
    assert "recall@10 0.80, MRR 0.70 -> 0.72 reranked, on 10 question(s)" in passed.describe()
    assert "not passed (recall below 0.80)" in failed.describe()
    assert "not passed (reranking did not raise the MRR)" in worse.describe()
    assert "not passed (reranking did not raise the MRR)" in no_better.describe()
    saved = with_gate("a", {}, passed)
    saved = with_gate("b", saved, failed)
    assert gate_of("a", saved) == passed and gate_of("b", saved) == failed and gate_of("c", saved) is None


def test_a_run_reports_recall_at_k_and_mrr_before_and_after_reranking() -> None:
    def outcome(first: int | None, reranked: int | None) -> QuestionOutcome:
        return QuestionOutcome(
            "q", expected_source="a.md", source_found=True, first_stage_rank=first, reranked_rank=reranked
        )

    s = summarise([outcome(1, 1), outcome(8, 2), outcome(30, 30), outcome(None, None), QuestionOutcome("x")])
    assert (s.recall_at_5, s.recall_at_20, s.recall_at_50) == (0.25, 0.5, 0.75)
    assert s.mrr_first_stage == pytest.approx((1 + 1 / 8 + 1 / 30) / 4)
    assert s.mrr_reranked == pytest.approx((1 + 1 / 2 + 1 / 30) / 4)
    assert s.gate_passed is False and s.gate_recall == 0.5  # recall@10 0.5 < 0.80
    assert summarise([QuestionOutcome("x")]).recall_at_5 is None


def test_a_comparison_shows_each_metric_in_its_kind() -> None:
    assert figure(0.25, "rate") == "25%" and figure(-0.1, "rate", change=True) == "-10 pts"
    assert figure(2, "count") == "2" and figure(1, "count", change=True) == "+1"
    assert figure(0.8333, "score") == "0.83" and figure(None, "score") is None
