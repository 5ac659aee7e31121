"""Our own training questions for the question-passage model (training/qa_own.jsonl,
training/qa_corpus/questions.jsonl; training/qa_pairs.py):
each answer is where a window can teach it, an unanswerable question is really not answered by its
document's words, and nothing a question set measures is trained on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rrag.ingest.extract import extract
from training.qa_pairs import CORPUS_QUESTIONS, OWN_QUESTIONS, REPO, own_pairs

FILES = [OWN_QUESTIONS, CORPUS_QUESTIONS]
ROWS = [json.loads(line) for f in FILES for line in f.read_text(encoding="utf-8").splitlines() if line]
QUESTION_SETS = [*REPO.glob("data/*/questions.jsonl"), *REPO.glob("data/demo/questions/*.jsonl")]


def _text(document: str) -> str:
    return extract(REPO / document, max_bytes=10_000_000).text


def test_every_answer_is_quoted_from_its_document_and_every_question_is_taught() -> None:
    texts = {row["document"]: _text(row["document"]) for row in ROWS}
    for row in ROWS:
        if row["answer"] is not None:
            assert row["answer"] in texts[row["document"]], row
    pairs = own_pairs(FILES)
    asked = {row["question"] for row in ROWS}
    assert {pair["premise"] for pair in pairs} == asked  # no question lost (an answer split by windows)
    answered = {row["question"] for row in ROWS if row["answer"] is not None}
    positives = {pair["premise"] for pair in pairs if pair["answers"] == 1}
    assert positives == answered
    # Both kinds, in earnest numbers: a passage that names the subject without answering is the lesson.
    assert len(answered) >= 100 and len(asked - answered) >= 80


@pytest.mark.parametrize("question_set", QUESTION_SETS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_question_set_and_no_corpus_it_is_asked_of_is_trained_on(question_set: Path) -> None:
    rows = [json.loads(line) for line in question_set.read_text().splitlines() if line]
    assert not {r["question"].casefold() for r in rows} & {row["question"].casefold() for row in ROWS}
    corpus = question_set.parent if question_set.parent.name != "questions" else question_set.parent.parent
    trained_on = {(REPO / row["document"]).resolve().parent for row in ROWS}
    # The demo handbook is trained on, and its question file measures only retrieval and answers.
    if corpus.name != "demo":
        assert corpus.resolve() not in trained_on
