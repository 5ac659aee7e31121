"""The demo a stakeholder sees after `make run`: planted hallucinations are caught, faithful claims pass."""

from __future__ import annotations

import json

import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.settings import Settings
from rrag.tools.demo import DEMO_DIR, EXAMPLES_FILE, set_up_demo
from rrag.types import ClaimStatus, Decision

HALLUCINATED = {ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> ReliableRAG:
    rag = ReliableRAG(Settings(data_dir=tmp_path_factory.mktemp("demo") / "data"))
    setup = set_up_demo(rag)
    assert all(r.ok for r in setup.ingested), [r.error for r in setup.ingested]
    assert len(setup.examples) == len(json.loads((DEMO_DIR / EXAMPLES_FILE).read_text(encoding="utf-8")))
    yield rag
    rag.close()


def _verdicts(rag: ReliableRAG, answer: str) -> dict[str, ClaimStatus]:
    report = rag.verify("What do the company policies say?", answer)
    for result in report.claims:
        ev = result.verdict.evidence
        if ev is not None:  # every quote is really in the chunk it names
            chunk = next(c.chunk for c in report.contexts if c.chunk.chunk_id == ev.chunk_id)
            assert chunk.text[ev.start : ev.end] == ev.quote
    return {r.claim.text: r.verdict.status for r in report.claims}


def test_second_run_adds_nothing_and_keeps_the_saved_examples(demo: ReliableRAG) -> None:
    sessions = len(demo.sessions())
    again = set_up_demo(demo)
    assert {r.status for r in again.ingested} == {"unchanged"}
    assert again.examples == [] and len(demo.sessions()) == sessions


def test_near_duplicate_passage_is_dropped(demo: ReliableRAG) -> None:
    assert sum(d.duplicates_dropped for d in demo.documents()) >= 1


PLANTED = (
    "Full-time employees receive 25 days of paid annual leave per calendar year. "
    "The per-diem allowance for Berlin is €65 per day. "
    "Primary carers also receive a one-off childcare bonus of €2,000 when they return to work."
)


def test_a_planted_wrong_number_is_flagged(demo: ReliableRAG) -> None:
    statuses = list(_verdicts(demo, PLANTED).values())
    assert statuses[0] is ClaimStatus.SUPPORTED
    assert statuses[1] in HALLUCINATED  # the table says €48


# The judge trained on the hard pairs gives these invented facts 0.56-0.71, and no rule may overrule its
# yes below 97 % measured precision: the unsure-yes veto that caught them was right for 75 of 105 dev
# claims (docs/log/2026-11-29-the-judge-learns-the-errors.md). Near the threshold, so not strict.
JUDGE_ACCEPTS_INVENTED = pytest.mark.xfail(
    strict=False, reason="issue 43 target: the judge accepts invented facts its context never states"
)


@JUDGE_ACCEPTS_INVENTED
def test_a_planted_extra_fact_is_flagged(demo: ReliableRAG) -> None:
    assert list(_verdicts(demo, PLANTED).values())[2] in HALLUCINATED  # no such bonus exists


def test_negated_policy_is_contradicted(demo: ReliableRAG) -> None:
    verdicts = _verdicts(demo, "Multi-factor authentication is not required for internal systems.")
    assert list(verdicts.values()) == [ClaimStatus.CONTRADICTED]


def test_examples_show_green_and_flagged_answers(demo: ReliableRAG) -> None:
    sessions = demo.sessions()
    assert any(s.decision == Decision.PASS.value for s in sessions)
    assert len(demo.review_queue()) >= 4  # one per planted hallucination


def test_a_value_from_a_table_answers_the_question(demo: ReliableRAG) -> None:
    # A table row was "Berlin | €48": too short to count as a statement, so the answer gave the
    # table's caption and passed HIGH without the figure. Rows now read as sentences, and the
    # caption, a heading, is no answer: the row comes first.
    report = demo.ask("What is the daily per-diem allowance for Berlin?")
    assert report.final_answer.startswith("For Berlin, the per-diem per day is €48.")
    assert "allowance by city" not in report.final_answer
    assert report.decision is Decision.PASS


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("How much does the Team plan cost?", "Team: €19 per user per month"),
        (
            "How much is the home office set-up allowance?",
            "For Home office set-up allowance, the amount is €600",
        ),
        ("Who approves an expense of 3,000 euros?", "For €500.01 to €5,000, the approver is Department head"),
    ],
)
def test_the_sentence_that_answers_comes_first(demo: ReliableRAG, question: str, first: str) -> None:
    assert demo.ask(question).final_answer.startswith(first)


def test_page_furniture_and_table_headers_are_not_in_the_chunks(demo: ReliableRAG) -> None:
    chunks = [c for d in demo.documents() for c in demo.document_chunks(d.doc_id)]
    text = "\n".join(c.text for c in chunks)
    assert "City | Per-diem per day" not in text and "Amount | Approver" not in text
    assert (
        "HomePricingSupport" not in text and "All rights reserved" not in text and "Help topics" not in text
    )
    assert "For Berlin, the per-diem per day is €48." in text


@JUDGE_ACCEPTS_INVENTED
def test_invented_benefits_the_judge_accepts_at_60_percent_are_unsupported(demo: ReliableRAG) -> None:
    # Most of their words are in no retrieved passage.
    verdicts = _verdicts(
        demo,
        (
            "Employees also get a free company car after their first year. "
            "Employees receive a Christmas bonus of one month's salary."
        ),
    )
    assert set(verdicts.values()) == {ClaimStatus.UNSUPPORTED}


def test_a_number_written_in_words_is_read_as_one_number(demo: ReliableRAG) -> None:
    verdicts = _verdicts(
        demo, "Full-time employees get twenty-five days of paid annual leave per calendar year."
    )
    assert list(verdicts.values()) == [ClaimStatus.SUPPORTED]
