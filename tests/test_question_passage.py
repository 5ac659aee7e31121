"""The question-passage model (rrag/backends/question_passage.py), its windows, and the pipeline's use of
it: rerank where the recall gate passed, refuse and flag where nothing retrieved answers, judge whether
an answer addresses its question. Scores differ across CPUs only by rounding (the int8 copy runs where
its products are exact, the uint8 copy elsewhere): behaviour is asserted with margins, never a score
near the threshold."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rrag.backends.question_passage import (
    MODEL_DIR,
    MODEL_FILE,
    PORTABLE_MODEL_FILE,
    WINDOW_WORDS,
    QuestionPassageModel,
    shared_model,
    windows,
)
from rrag.engine.pipeline import ReliableRAG
from rrag.retrieval.gate import RecallGate
from rrag.retrieval.judged import ANSWERS_THRESHOLD, NOT_ANSWERING, SURELY_ANSWERS, Judged
from rrag.settings import Settings
from rrag.text import words
from rrag.types import Chunk, Decision, RetrievedChunk

POOLS = (
    "The Otter Pool is 25 metres long, with six lanes. The Minnow Pool is the learner pool. "
    "The passenger lift serves every floor of the building."
)


def test_windows_pack_whole_sentences_and_each_sentence_leads_one() -> None:
    text = " ".join(f"Sentence number {i} has exactly seven words." for i in range(20))
    ws = windows(text)
    assert all(len(words(w.text)) <= WINDOW_WORDS for w in ws)
    assert [w.text for w in ws][:2] == [text[ws[0].start : ws[0].end], text[ws[1].start : ws[1].end]]
    assert ws[0].text.startswith("Sentence number 0") and ws[1].text.startswith("Sentence number 1")
    assert ws[-1].end == len(text)  # the last window reaches the end: no sentence is left out
    assert windows("") == []


def test_a_passage_that_answers_scores_above_one_that_only_names_the_subject() -> None:
    model = shared_model()
    answering, naming = model.scores(
        "How long is the Otter Pool?",
        ["The Otter Pool is 25 metres long, with six lanes.", "The Otter Pool is open to members every day."],
    )
    assert answering > SURELY_ANSWERS and answering > naming + 0.1


def test_the_copy_this_cpu_runs_scores_as_the_exact_uint8_copy() -> None:
    for copy in (MODEL_FILE, PORTABLE_MODEL_FILE):
        assert (MODEL_DIR / copy).is_file(), copy  # both shipped: a CPU without VNNI needs the uint8 one
    question = "How long is the Otter Pool?"
    passages = ["The Otter Pool is 25 metres long, with six lanes.", "The passenger lift serves every floor."]
    exact = QuestionPassageModel(threads=1, model_file=PORTABLE_MODEL_FILE).scores(question, passages)
    ran = QuestionPassageModel(threads=1).scores(question, passages)
    assert abs(exact[0] - exact[1]) > 0.1  # two different scores: a mix-up of the copies' outputs would show
    assert abs(ran - exact).max() < 1e-5


def test_a_pair_scores_the_same_alone_or_beside_others() -> None:
    model = shared_model()
    question, passage = "Where is the first aid room?", "The first aid room is next to the changing rooms."
    alone = model.scores(question, [passage])[0]
    model._score.cache_clear()  # scored again, not read from the cache
    together = model.scores(question, ["Lockers take a coin.", passage, "The pool is 25 metres long."])[1]
    assert alone == together


@pytest.fixture
def rag(settings: Settings, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "pools.txt").write_text(POOLS + "\n", encoding="utf-8")
    engine = ReliableRAG(settings)
    assert engine.ingest([tmp_path / "pools.txt"])[0].ok
    yield engine
    engine.close()


@pytest.mark.parametrize(
    ("best", "reason", "refused"),
    [
        (NOT_ANSWERING / 2, "no retrieved passage answers the question", True),
        ((NOT_ANSWERING + ANSWERS_THRESHOLD) / 2, "no retrieved passage clearly answers the question", False),
        (ANSWERS_THRESHOLD + 0.1, "", False),
    ],
)
def test_below_the_refusal_threshold_the_question_is_refused_between_the_two_flagged(
    best: float, reason: str, refused: bool
) -> None:
    chunk = RetrievedChunk(Chunk("pools#0", "pools", "pools.txt", POOLS, 0, len(POOLS)), 1.0)
    judged = Judged([chunk], [best], "The Minnow Pool is the learner pool.", "top 1")
    assert judged.answered is not refused
    assert judged.review_reason().startswith(reason) and bool(judged.review_reason()) is bool(reason)
    closest = (
        'Closest passage, does not answer the question (pools.txt): "The Minnow Pool is the learner pool."'
    )
    assert judged.closest_note() == (closest if refused else "")


def test_an_answer_no_passage_clearly_answers_stands_flagged_for_review(rag: ReliableRAG) -> None:
    question = "Who is the head lifeguard at the Minnow Pool?"
    best = shared_model().best_windows(question, [POOLS])[0][0]
    assert NOT_ANSWERING + 0.05 < best < ANSWERS_THRESHOLD - 0.05  # unsure, with a margin either side
    report = rag.ask(question)
    assert any("no retrieved passage clearly answers the question" in r for r in report.review_reasons)
    assert not report.closest_passage  # not refused: the model is unsure
    answered = rag.ask("How long is the Otter Pool?")
    assert not any("clearly answers" in r for r in answered.review_reasons)


@pytest.mark.xfail(
    strict=True,
    reason="issue 45: the shipped model scores a passage naming the pool at 0.20 for a sauna next to "
    "it, above the refusal threshold of 0.03 "
    "(docs/log/2026-11-29-the-question-passage-model-reads-squads-train-split.md)",
)
def test_a_question_no_passage_answers_is_refused_flagged_and_shows_the_closest(rag: ReliableRAG) -> None:
    report = rag.ask("Is there a sauna next to the Otter Pool?")
    assert report.decision is Decision.REFUSE and report.reliability is None and report.level is None
    assert report.needs_review and any("no retrieved passage answers" in r for r in report.review_reasons)
    assert report.closest_passage.startswith("Closest passage, does not answer the question (pools.txt)")
    answered = rag.ask("How long is the Otter Pool?")
    assert answered.decision is Decision.PASS and "25 metres" in answered.final_answer
    assert answered.addresses_question and not answered.closest_passage


def test_answers_are_reranked_only_where_the_gate_passed(rag: ReliableRAG) -> None:
    ungated = rag.ask("How long is the Otter Pool?").retrieval
    # Plain words, as every surface shows the line as it is (the Ask page, the CLI, the exports).
    assert "not reranked: no recall gate measured" in ungated and "`" not in ungated
    rag.save_retrieval_gate(RecallGate(0.6, 10, "weak", "2026-11-29T10:00:00+00:00", 0.5, 0.6))
    assert "not reranked: recall gate recall@10 0.60" in rag.ask("How long is the Otter Pool?").retrieval
    rag.save_retrieval_gate(RecallGate(0.9, 10, "good", "2026-11-29T11:00:00+00:00", 0.5, 0.6))
    report = rag.ask("How long is the Otter Pool?")
    assert "reranked by the question-passage model" in report.retrieval and '"good"' in report.retrieval
    assert rag.retrieval_gate() == RecallGate(0.9, 10, "good", "2026-11-29T11:00:00+00:00", 0.5, 0.6)
