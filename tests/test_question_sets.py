"""Question-set runs (`rrag.tools.question_sets`): reading CSV/JSONL sets, the aggregates, saving and
comparing runs, and the demo's sample set through the real pipeline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.errors import QuestionSetError
from rrag.settings import Settings
from rrag.tools.demo import DEMO_DIR, demo_files
from rrag.tools.question_sets import (
    QuestionItem,
    QuestionOutcome,
    QuestionSetRun,
    RunSummary,
    compare_runs,
    different_questions,
    gate_failures,
    load_run,
    read_question_set,
    run_question_set,
    saved_runs,
    summarise,
)

SAMPLE_SET = DEMO_DIR / "questions" / "handbook.jsonl"


# -- reading -----------------------------------------------------------------------------------------


def test_csv_with_optional_columns_under_other_names() -> None:
    data = (
        "Question,Reference_Answer,Source\n"
        "How long must passwords be?,At least 14 characters.,it-security-policy.txt\n"
        '"What is the capital of France?",,\n'
        ",,\n"
    ).encode("utf-8-sig")
    assert read_question_set("set.csv", data) == [
        QuestionItem("How long must passwords be?", "At least 14 characters.", "it-security-policy.txt"),
        QuestionItem("What is the capital of France?"),
    ]


def test_the_sample_set_reads_as_jsonl() -> None:
    items = read_question_set(SAMPLE_SET.name, SAMPLE_SET.read_bytes())
    assert len(items) == 10
    assert sum(bool(i.reference) for i in items) == 9 and items[-1].reference == ""
    assert {i.expected_source for i in items if i.expected_source} <= {p.name for p in demo_files()}


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("set.txt", b"question\nq", "a .csv or .jsonl file"),
        ("set.csv", b"prompt,answer\nq,a\n", "one of them 'question'"),
        ("set.csv", b"question,reference\n,only a reference\n", "row 2 has no question"),
        ("set.jsonl", b'{"question": "ok?"}\n{"question": "broken"\n', "line 2 is not JSON"),
        ("set.jsonl", b'["a list"]\n', "line 1 must be a JSON object"),
        ("set.jsonl", b'{"question": 42}\n', "line 1: 'question' must be text"),
        ("set.jsonl", b"\n\n", "no questions found"),
        ("set.csv", "question\ncaf\u00e9\n".encode("latin-1"), "not UTF-8"),
    ],
)
def test_a_bad_question_set_is_a_clear_error(name: str, data: bytes, message: str) -> None:
    with pytest.raises(QuestionSetError, match=message) as raised:
        read_question_set(name, data)
    assert name in str(raised.value)


# -- aggregates --------------------------------------------------------------------------------------


def outcome(**values: object) -> QuestionOutcome:
    return QuestionOutcome(**{"question": "q", "decision": "pass"} | values)  # type: ignore[arg-type]


def test_the_hallucination_rate_is_pooled_over_checked_claims() -> None:
    summary = summarise(
        [
            outcome(
                checked_claims=8,
                hallucinated_claims=0,
                faithfulness=1.0,
                answer_relevance=1.0,
                source_found=True,
            ),
            outcome(
                checked_claims=2,
                hallucinated_claims=2,
                faithfulness=0.0,
                answer_relevance=0.5,
                source_found=False,
            ),
            outcome(decision="refuse", answer_relevance=0.0),
            outcome(decision="refuse"),
        ]
    )
    assert summary.hallucination_rate == pytest.approx(0.2)  # 2 of 10 claims, not the mean of 0 and 1
    assert summary.faithfulness == pytest.approx(0.5)
    assert summary.answer_relevance == pytest.approx(0.5) and summary.relevance_measured == 3
    assert summary.refusal_rate == pytest.approx(0.5) and summary.refused == 2
    assert summary.source_hit_rate == pytest.approx(0.5) and summary.sources_expected == 2


def test_expectations_are_read_as_flags() -> None:
    data = (
        b'{"question": "a?", "answerable": true, "expected_conflict": "no"}\n'
        b'{"question": "b?", "answerable": "false"}\n{"question": "c?"}\n'
    )
    assert [(i.answerable, i.expected_conflict) for i in read_question_set("set.jsonl", data)] == [
        (True, False),
        (False, None),
        (None, None),
    ]
    with pytest.raises(QuestionSetError, match="line 1: 'answerable' must be true or false"):
        read_question_set("set.jsonl", b'{"question": "a?", "answerable": "maybe"}')


def test_refusals_of_answerable_questions_and_conflicts_are_counted_against_expectations() -> None:
    summary = summarise(
        [
            outcome(answerable=True, expected_conflict=False),
            outcome(answerable=True, expected_conflict=False, decision="refuse"),
            outcome(answerable=True, expected_conflict=False, conflicts=1),  # a false conflict
            outcome(answerable=True, expected_conflict=True, conflicts=2, source_cited=True),  # found
            outcome(answerable=True, expected_conflict=True, source_cited=False),  # missed
            outcome(answerable=False, decision="refuse"),
            outcome(answerable=False),  # an unanswerable question answered, never flagged
            outcome(answerable=False, needs_review=True),  # answered, flagged for a reviewer
            outcome(),  # no expectations: counted in none of these
        ]
    )
    assert (summary.answerable, summary.answerable_refused) == (5, 1)
    assert summary.answerable_refusal_rate == pytest.approx(0.2)
    assert (summary.unanswerable, summary.unanswerable_answered, summary.unanswerable_unflagged) == (3, 2, 1)
    assert summary.false_conflicts == 1
    assert (summary.conflicts_expected, summary.conflicts_found) == (2, 1)
    assert summary.source_cited_rate == pytest.approx(0.5)


def test_unverified_answers_and_errors_are_never_counted_as_free_of_hallucination() -> None:
    summary = summarise(
        [
            outcome(decision="refuse", verified=False, checked_claims=0),
            outcome(error="the LLM server timed out", decision=None),
        ]
    )
    assert summary.hallucination_rate is None and summary.faithfulness is None
    assert summary.not_verified == 1 and summary.errors == 1
    assert gate_failures(summary, 0.10) == [
        "no claim was checked, so the hallucination rate is unknown",
        "1 answer(s) could not be verified",
        "1 question(s) failed with an error",
    ]


def test_the_gate_holds_the_bound() -> None:
    assert gate_failures(summarise([outcome(checked_claims=10, hallucinated_claims=1)]), 0.10) == []
    failures = gate_failures(summarise([outcome(checked_claims=10, hallucinated_claims=2)]), 0.10)
    assert failures == ["the hallucination rate 20.0% is above the bound 10.0%"]


def _run(name: str, *outcomes: QuestionOutcome) -> QuestionSetRun:
    return QuestionSetRun(name, name, "2026-11-24T05:00:00+00:00", summarise(outcomes), list(outcomes))


def test_two_runs_of_the_same_questions_side_by_side() -> None:
    a = _run(
        "a",
        outcome(question="q1", checked_claims=4, hallucinated_claims=2, hallucination_rate=0.5),
        outcome(question="q2"),
    )
    b = _run(
        "b",
        outcome(question="q2"),
        outcome(question="q1", checked_claims=4, hallucinated_claims=0, hallucination_rate=0.0),
    )
    assert different_questions(a, b) == ""
    metrics, questions = compare_runs(a, b)
    rate = next(m for m in metrics if m["metric"] == "Hallucination rate")
    assert (rate["A"], rate["B"], rate["change"], rate["verdict"]) == (0.5, 0.0, -0.5, "better")
    assert [(q["question"], q["decision A"], q["decision B"]) for q in questions] == [
        ("q1", "pass", "pass"),
        ("q2", "pass", "pass"),
    ]
    assert questions[0]["hallucination A"] == 0.5 and questions[0]["hallucination B"] == 0.0


def test_runs_of_different_questions_get_no_verdict() -> None:
    a = _run(
        "a",
        outcome(question="q1", checked_claims=4, hallucinated_claims=2, hallucination_rate=0.5),
        outcome(question="q2"),
    )
    b = _run(
        "b",
        outcome(question="q1", checked_claims=4, hallucinated_claims=0, hallucination_rate=0.0),
        outcome(question="q3"),
    )
    assert "1 in common, 1 only in A, 1 only in B" in different_questions(a, b)
    metrics, questions = compare_runs(a, b)
    assert {(m["change"], m["verdict"]) for m in metrics} == {(None, "not comparable")}
    assert [(q["question"], q["decision A"], q["decision B"]) for q in questions] == [
        ("q1", "pass", "pass"),
        ("q2", "pass", "not asked"),
        ("q3", "not asked", "pass"),
    ]


# -- the sample set through the real pipeline --------------------------------------------------------


@pytest.fixture(scope="module")
def demo_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReliableRAG]:
    rag = ReliableRAG(Settings(data_dir=tmp_path_factory.mktemp("runs") / "data"))
    assert all(r.ok for r in rag.ingest(demo_files()))
    yield rag
    rag.close()


def test_the_sample_set_runs_through_the_pipeline_and_is_saved(demo_rag: ReliableRAG) -> None:
    items = read_question_set(SAMPLE_SET.name, SAMPLE_SET.read_bytes())
    seen: list[tuple[int, int]] = []
    run = run_question_set(
        demo_rag, items, name="baseline", progress=lambda done, total, _: seen.append((done, total))
    )
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    s = run.summary
    assert s.questions == 10 and s.errors == 0 and s.not_verified == 0
    assert s.refused >= 1  # the capital of France is in no document
    assert next(o for o in run.outcomes if "France" in o.question).refused
    assert s.checked_claims > 0 and s.hallucination_rate is not None and s.hallucination_rate <= 0.10
    assert (
        s.answer_relevance is not None and s.answer_relevance > 0.6
    )  # the answers give the references' facts
    assert s.source_hit_rate is not None and s.source_hit_rate > 0.8
    assert gate_failures(s, 0.10) == []
    # every outcome names its saved report, and the run itself is saved whole
    for o in run.outcomes:
        assert demo_rag.report(o.session_id).final_answer == o.final_answer  # type: ignore[arg-type]
    assert saved_runs(demo_rag)[0]["run_id"] == run.run_id
    assert load_run(demo_rag, run.run_id) == run
    assert json.loads(json.dumps(run.to_dict()))["summary"]["questions"] == 10


def test_a_refusal_of_a_question_with_a_reference_scores_no_relevance(demo_rag: ReliableRAG) -> None:
    run = run_question_set(demo_rag, [QuestionItem("What is the capital of France?", "Paris.", "atlas.pdf")])
    (only,) = run.outcomes
    assert only.refused and only.answer_relevance == 0.0 and only.source_found is False
    assert run.summary.hallucination_rate is None  # nothing was checked: unknown, not 0 %


def test_saved_runs_are_listed_newest_first(demo_rag: ReliableRAG) -> None:
    first = run_question_set(demo_rag, [QuestionItem("How long must passwords be?")], name="first")
    second = run_question_set(demo_rag, [QuestionItem("How long must passwords be?")], name="second")
    names = [r["name"] for r in saved_runs(demo_rag)]
    assert names.index("second") < names.index("first")
    metrics, _ = compare_runs(load_run(demo_rag, first.run_id), load_run(demo_rag, second.run_id))
    assert {m["metric"] for m in metrics} >= {
        "Faithfulness",
        "Answer relevance",
        "Refusal rate",
        "Hallucination rate",
    }


TRUST_DIR = Path(__file__).resolve().parent.parent / "data" / "trust"


def _run_set(folder: Path, tmp_path: Path) -> RunSummary:
    questions = folder / "questions.jsonl"
    rag = ReliableRAG(Settings(data_dir=tmp_path / "data"))
    try:
        documents = sorted(p for p in folder.iterdir() if p.name not in ("make_corpus.py", questions.name))
        assert len(documents) == 5 and all(r.ok for r in rag.ingest(documents))
        return run_question_set(rag, read_question_set(questions.name, questions.read_bytes())).summary
    finally:
        rag.close()


# The target of issue 45 not met on the leisure set (5 of 10 unanswerable questions answered:
# docs/log/2026-11-29-answers-that-answer-the-question.md). Strict: a model that meets it makes it
# pass, and then the mark goes.
BELOW_TARGET = pytest.mark.xfail(strict=True, reason="issue 45: the question-passage model is too weak yet")


def test_the_trust_set_answers_every_answerable_question_and_no_other(tmp_path: Path) -> None:
    # The harder corpus of data/trust: a DOCX price table, a PDF policy, an HTML FAQ that contradicts
    # it once, a .txt copy of a section, a Markdown manual with numbered steps; 4 questions no
    # document answers (one about parking, beside the office's opening hours).
    s = _run_set(TRUST_DIR, tmp_path)
    assert s.false_conflicts == 0 and s.conflicts_found == s.conflicts_expected == 1
    assert s.source_hit_rate == 1.0 and s.recall_at_5 == 1.0 and s.answerable_off_target == 0
    assert (s.answerable, s.answerable_refused) == (10, 0)
    assert (s.unanswerable, s.unanswerable_answered) == (4, 0)


@pytest.fixture(scope="module")
def leisure(tmp_path_factory: pytest.TempPathFactory) -> RunSummary:
    # data/leisure: answers that are fragments, places, times, amounts and table cells; 10 questions
    # no document answers that share the documents' words (the pools', studios' and memberships' names);
    # the terms and the FAQ disagree once, in other words ("can be frozen", "freeze your membership").
    return _run_set(TRUST_DIR.parent / "leisure", tmp_path_factory.mktemp("leisure"))


def test_the_leisure_set_answers_every_answerable_question_and_finds_its_one_disagreement(
    leisure: RunSummary,
) -> None:
    assert (leisure.answerable, leisure.answerable_refused) == (13, 0)  # a timetable cell says where
    assert leisure.false_conflicts == 0 and leisure.conflicts_found == leisure.conflicts_expected == 1
    assert leisure.source_hit_rate == 1.0 and leisure.answerable_off_target == 0


@BELOW_TARGET
def test_the_leisure_set_answers_no_question_its_documents_cannot(leisure: RunSummary) -> None:
    assert (leisure.unanswerable, leisure.unanswerable_answered) == (10, 0)


def test_the_sample_set_ships_with_the_demo_but_is_not_indexed_as_a_document() -> None:
    assert SAMPLE_SET.is_file()
    assert all(p.parent == DEMO_DIR for p in demo_files()) and Path(SAMPLE_SET) not in demo_files()
