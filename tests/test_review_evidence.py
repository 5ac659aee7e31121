"""A reviewer replaces a claim's wrong evidence with another passage the answer retrieved, and only with
one of those: the correction is kept in the audit trail and read back with the report."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.errors import InputError
from rrag.settings import Settings


@pytest.fixture
def rag(settings: Settings, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "pools.txt").write_text(
        "The Otter Pool is 25 metres long, with six lanes. The Minnow Pool is the learner pool.\n",
        encoding="utf-8",
    )
    engine = ReliableRAG(settings)
    assert engine.ingest([tmp_path / "pools.txt"])[0].ok
    yield engine
    engine.close()


def test_a_reviewer_replaces_a_claims_evidence_with_a_retrieved_passage_only(rag: ReliableRAG) -> None:
    report = rag.ask("How long is the Otter Pool?")
    passage = report.contexts[0].chunk
    record = rag.add_review(
        report.session_id, reviewer="Dana", outcome="corrected", evidence_passages={0: passage.chunk_id}
    )
    assert record.changes[0]["evidence"]["chunk_id"] == passage.chunk_id
    reviewed = rag.report(report.session_id).claims[0]
    assert reviewed.verdict.evidence is not None and reviewed.verdict.evidence.quote == passage.text
    assert reviewed.correction is not None and reviewed.verdict.status is reviewed.correction.status
    with pytest.raises(InputError, match="not one this answer retrieved"):
        rag.add_review(report.session_id, reviewer="Dana", outcome="corrected", evidence_passages={0: "x#9"})
