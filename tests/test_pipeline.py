"""The engine end to end: real Chroma and SQLite in tmp, the embedded offline backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.errors import ConfigError
from rrag.settings import Settings
from rrag.types import ClaimStatus, Decision, Level

LEAVE = """# Annual leave

Full-time employees receive 25 days of paid annual leave per calendar year.
Up to 5 unused days may be carried over into the next year.
Carried-over days expire on 31 March of the following year.

# Parental leave

Parents are entitled to 16 weeks of fully paid parental leave.
Parental leave must be requested at least 8 weeks before it starts.
"""

SECURITY = """Passwords must be at least 14 characters long.
Multi-factor authentication is mandatory for all remote access.
Security incidents must be reported to the IT service desk within 24 hours.
Laptops are encrypted with full-disk encryption before they are issued.
"""


@pytest.fixture
def corpus(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "leave.md").write_text(LEAVE, encoding="utf-8")
    (folder / "security.txt").write_text(SECURITY, encoding="utf-8")
    return sorted(folder.iterdir())


@pytest.fixture
def rag(settings: Settings, corpus: list[Path]) -> ReliableRAG:
    engine = ReliableRAG(settings)
    results = engine.ingest(corpus)
    assert all(r.ok and r.chunks_added > 0 for r in results), results
    yield engine
    engine.close()


def test_ask_answers_from_the_documents_and_saves_the_report(rag: ReliableRAG) -> None:
    stages: list[str] = []
    report = rag.ask("How many days of annual leave do full-time employees get?", progress=stages.append)

    assert stages == ["retrieve", "answer", "claims", "verify", "score", "save"]
    assert "25 days" in report.answer
    assert report.contexts and report.contexts[0].chunk.source == "leave.md"
    supported = [c for c in report.claims if c.verdict.status is ClaimStatus.SUPPORTED]
    assert supported, report.to_dict()
    evidence = supported[0].verdict.evidence
    assert evidence is not None
    chunk = next(c.chunk for c in report.contexts if c.chunk.chunk_id == evidence.chunk_id)
    assert chunk.text[evidence.start : evidence.end] == evidence.quote
    assert report.decision is Decision.PASS and report.level is Level.HIGH
    assert report.hallucination_rate == 0.0

    saved = rag.report(report.session_id).to_dict()
    returned = report.to_dict()
    # the saved copy cannot hold the duration of its own save
    assert returned["timings_ms"].pop("save") >= 0 and "save" not in saved.pop("timings_ms")
    returned.pop("timings_ms")
    assert saved == returned


def test_unrelated_question_is_refused_not_guessed(rag: ReliableRAG) -> None:
    report = rag.ask("What is the boiling point of liquid nitrogen on Titan?")
    assert report.contexts == []
    assert report.decision is Decision.REFUSE
    assert report.hallucination_rate is None  # nothing checkable is not "0% hallucination"
    assert all(c.verdict.status is ClaimStatus.NOT_CHECKABLE for c in report.claims)


def test_verify_flags_a_changed_number_and_passes_the_faithful_claim(rag: ReliableRAG) -> None:
    answer = (
        "Full-time employees receive 25 days of paid annual leave per calendar year. "
        "Security incidents must be reported within 72 hours."
    )
    report = rag.verify("What do the policies say?", answer)

    by_text = {c.claim.text: c.verdict for c in report.claims}
    faithful = next(v for t, v in by_text.items() if "25 days" in t)
    wrong = next(v for t, v in by_text.items() if "72 hours" in t)
    assert faithful.status is ClaimStatus.SUPPORTED
    assert wrong.status in {ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED}
    assert wrong.evidence is not None and "24 hours" in wrong.evidence.quote
    assert report.hallucination_rate == 0.5
    assert report.needs_review
    assert report.mode == "verify" and report.answer_backend == "external"


def test_reingesting_an_unchanged_file_adds_nothing(rag: ReliableRAG, corpus: list[Path]) -> None:
    before = rag.index.count()
    again = rag.ingest(corpus)
    assert [r.status for r in again] == ["unchanged", "unchanged"]
    assert rag.index.count() == before


def test_configure_changes_decision_parameters_without_reopening_storage(rag: ReliableRAG) -> None:
    store = rag.store
    rag.configure(rag.settings.replace(strict=True, risk_threshold=0.05, top_k=2))
    assert rag.store is store
    report = rag.verify(
        "Leave?", "Full-time employees receive 40 days of paid annual leave per calendar year."
    )
    assert report.strict and report.threshold == 0.05
    assert report.decision is Decision.REFUSE


def test_a_failed_configure_leaves_the_engine_as_it_was(rag: ReliableRAG) -> None:
    before = rag.settings
    with pytest.raises(ConfigError, match="RRAG_LLM_BASE_URL"):
        rag.configure(rag.settings.replace(answerer="openai", top_k=1))
    assert rag.settings is before
    assert rag.ask("How many weeks of parental leave?").answer_backend == "extractive"


def test_configure_to_another_data_dir_switches_storage(rag: ReliableRAG, tmp_path: Path) -> None:
    rag.configure(rag.settings.replace(data_dir=tmp_path / "other"))
    assert rag.documents() == [] and rag.index.count() == 0
    assert rag.ask("How many weeks of parental leave?").decision is Decision.REFUSE


def test_a_questions_own_settings_leave_the_engine_as_it_was(rag: ReliableRAG) -> None:
    """The UI shares one engine between browser tabs: one user's options must not become another's."""
    before = rag.settings
    own = rag.settings.replace(strict=True, risk_threshold=0.05, top_k=2)
    report = rag.verify(
        "Leave?", "Full-time employees receive 40 days of paid annual leave per calendar year.", settings=own
    )
    assert report.strict and report.threshold == 0.05 and report.decision is Decision.REFUSE
    assert rag.settings is before
    default = rag.verify(
        "Leave?", "Full-time employees receive 40 days of paid annual leave per calendar year."
    )
    assert not default.strict and default.threshold == before.risk_threshold


def test_a_questions_settings_cannot_switch_storage(rag: ReliableRAG, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="database or index"):
        rag.ask("Leave?", settings=rag.settings.replace(data_dir=tmp_path / "other"))


def test_hidden_characters_in_documents_and_answers_do_not_flip_verdicts(
    settings: Settings, tmp_path: Path
) -> None:
    """The issue's case: a document writes "2\u200b5 days" (a zero-width space inside the number)."""
    hidden = "# Leave\n\nFull-time employees receive 2\u200b5 days of paid annual leave per calendar year.\n"
    (tmp_path / "leave.md").write_text(hidden + SECURITY, encoding="utf-8")
    question = "How many days of annual leave do full\u00a0time employees get?"
    engine = ReliableRAG(settings)
    try:
        assert engine.ingest([tmp_path / "leave.md"])[0].ok
        wrong = engine.verify(
            question, "Full-time employees receive 5 days of paid annual leave per calendar year."
        )
        assert wrong.claims[0].verdict.status is ClaimStatus.CONTRADICTED  # 25 days, not 5
        assert wrong.decision is not Decision.PASS
        for answer in (
            "Full-time employees receive 25 days of paid annual leave per calendar year.",
            "Full-time employees receive \uff12\uff15 days of paid annual leave per calendar year.",
            "Full-time employees receive \u0662\u0665 days of paid annual leave per calendar year.",
            "Full-time employees receive 2\u200b5\u202fdays of paid annual leave per calendar\u200b year.",
        ):
            right = engine.verify(question, answer)
            assert [c.verdict.status for c in right.claims] == [ClaimStatus.SUPPORTED], answer
            assert right.decision is Decision.PASS and right.answer == answer
            claim = right.claims[0].claim  # its span is in the answer as written
            assert (claim.start, claim.end) == (0, len(answer))
            assert claim.text == "Full-time employees receive 25 days of paid annual leave per calendar year."
    finally:
        engine.close()
