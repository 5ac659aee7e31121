"""The Ask page's one-click samples do what their buttons promise on the demo corpus."""

from __future__ import annotations

import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.settings import Settings
from rrag.tools.demo import demo_files, is_demo_indexed, samples, set_up_demo
from rrag.types import ClaimStatus, Decision


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> ReliableRAG:
    rag = ReliableRAG(Settings(data_dir=tmp_path_factory.mktemp("samples") / "data"))
    set_up_demo(rag)
    yield rag
    rag.close()


def test_one_sample_is_answered_one_trimmed_one_refused() -> None:
    assert [s.decision for s in samples()] == [Decision.PASS, Decision.TRIM, Decision.REFUSE]


@pytest.mark.parametrize("sample", samples(), ids=lambda s: s.label)
def test_each_sample_gets_the_decision_its_button_promises(demo: ReliableRAG, sample) -> None:  # type: ignore[no-untyped-def]
    report = demo.verify(sample.question, sample.answer) if sample.answer else demo.ask(sample.question)
    assert report.decision is sample.decision, report.to_dict()
    checked = [r.verdict.status for r in report.claims if r.claim.checkable]
    if sample.decision is Decision.PASS:
        assert checked and set(checked) == {ClaimStatus.SUPPORTED}
    elif sample.decision is Decision.TRIM:
        assert ClaimStatus.CONTRADICTED in checked and ClaimStatus.SUPPORTED in checked
        assert "€65" not in report.final_answer
    else:
        assert not checked and not report.contexts  # nothing relevant retrieved: refused, not guessed


def test_the_demo_counts_as_indexed_by_name_or_relative_path() -> None:
    names = [p.name for p in demo_files()]
    assert is_demo_indexed(names) and is_demo_indexed([f"data/demo/{n}" for n in names])
    assert not is_demo_indexed(names[1:])
