"""Hybrid retrieval on a realistic HR handbook: related questions find their document, unrelated
questions find nothing (this is where the default relevance floor is calibrated)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures_docs import RELATED_QUESTIONS, UNRELATED_QUESTIONS, write_handbook
from sqlalchemy import Connection, event

from rrag.backends.embedding import get_embedder
from rrag.ingest.service import Ingestor
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import DEFAULT_RELEVANCE_FLOOR, Settings
from rrag.store import Store

# Paraphrases that share few words with the handbook; they must still clear the floor.
MORE_RELATED = {
    "Do we get private health cover?": "benefits.md",
    "What is the daily meal allowance on business trips?": "expenses.md",
    "Is multi-factor authentication required?": "security.txt",
    "Who approves promotions?": "performance.txt",
    "Can I fly business class?": "expenses.md",
    "How much is the training budget?": "benefits.md",
    "What hours must I be available when working remotely?": "remote_work.html",
    "deadline for expense receipts": "expenses.md",
}


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Settings, ChunkIndex, Store]]:
    root = tmp_path_factory.mktemp("handbook")
    settings = Settings(data_dir=root / "data")
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        ingestor = Ingestor(settings, index, store)
        assert all(ingestor.ingest_file(p).ok for p in write_handbook(root / "docs"))
        yield settings, index, store


@pytest.fixture
def retriever(handbook: tuple[Settings, ChunkIndex, Store]) -> HybridRetriever:
    settings, index, store = handbook
    return HybridRetriever(index, store, settings)


@pytest.mark.parametrize("question", {**RELATED_QUESTIONS, **MORE_RELATED})
def test_related_questions_find_their_document_first(retriever: HybridRetriever, question: str) -> None:
    expected = {**RELATED_QUESTIONS, **MORE_RELATED}[question]
    results = retriever.retrieve(question)
    assert results, f"nothing cleared the floor for {question!r}"
    assert results[0].chunk.source == expected
    assert results[0].score >= DEFAULT_RELEVANCE_FLOOR + 0.03  # a margin, not a coin toss


@pytest.mark.parametrize("question", UNRELATED_QUESTIONS)
def test_unrelated_questions_retrieve_nothing(retriever: HybridRetriever, question: str) -> None:
    assert retriever.retrieve(question) == []
    # ... and with a margin below the floor.
    unfloored = HybridRetriever(
        retriever.index, retriever.store, retriever.settings.replace(relevance_floor=0.0)
    )
    assert unfloored.retrieve(question)[0].score <= DEFAULT_RELEVANCE_FLOOR - 0.05


def test_scores_are_fused_sorted_and_bounded(retriever: HybridRetriever) -> None:
    unfloored = HybridRetriever(
        retriever.index, retriever.store, retriever.settings.replace(relevance_floor=0.0)
    )
    results = unfloored.retrieve("How long must a password be?", top_k=8)
    assert len(results) == 8
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    for r in results:
        assert 0.0 <= r.score <= 1.0 and 0.0 <= r.vector_score <= 1.0 and 0.0 <= r.keyword_score <= 1.0
        assert r.score == pytest.approx(0.7 * r.vector_score + 0.3 * r.keyword_score)
    assert len(unfloored.retrieve("How long must a password be?", top_k=2)) == 2


def test_blank_query_and_empty_index_retrieve_nothing(retriever: HybridRetriever, settings: Settings) -> None:
    assert retriever.retrieve("   ") == []
    with Store(settings) as store:
        empty = HybridRetriever(ChunkIndex(settings, get_embedder()), store, settings)
        assert empty.retrieve("How many vacation days do I get?") == []


def test_keyword_ranking_finds_exact_codes_and_follows_index_changes(
    handbook: tuple[Settings, ChunkIndex, Store], tmp_path: Path
) -> None:
    settings, index, store = handbook
    retriever = HybridRetriever(index, store, settings)
    ingestor = Ingestor(settings, index, store)
    path = tmp_path / "forms.txt"
    path.write_text("Form QX-7731 is used to claim relocation costs. Send it to payroll with your receipts.")
    result = ingestor.ingest_file(path)
    try:
        hits = retriever.retrieve("Which form is QX-7731?")
        assert hits and hits[0].chunk.source == "forms.txt"
        assert hits[0].keyword_score > 0.3  # the keyword index knows the new code at once
    finally:
        ingestor.delete(result.doc_id)
    assert all(r.chunk.source != "forms.txt" for r in retriever.retrieve("Which form is QX-7731?"))


@pytest.mark.parametrize("sentences_kept", [True, False])
def test_a_code_among_a_thousand_alike_rules_finds_its_rule(tmp_path: Path, sentences_kept: bool) -> None:
    # 1,000 rules alike but for their subject, numbers and code: the vector search cannot tell them
    # apart (the asked rule is not among its 100 best), the keyword index can. Scored with its own
    # similarity, not 0, the rule the code names comes first: its sentence's, or, indexed before
    # sentence vectors were kept, its chunk's read from the vector index.
    subjects, sides = (
        ["Contractors", "Interns", "Managers", "Auditors", "Visitors"],
        ["north", "south", "east"],
    )
    rules = [
        f"{subjects[n % 5]} in the expenses programme must submit the quarterly report for the "
        f"{sides[n % 3]} project within {2 + n % 80} days under rule EXP-{21000 + n}."
        for n in range(1000)
    ]
    path = tmp_path / "rules.txt"
    path.write_text("\n\n".join(rules))
    settings = Settings(data_dir=tmp_path / "data", chunk_size=200, chunk_overlap=0)
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        assert Ingestor(settings, index, store).ingest_file(path).ok
        if not sentences_kept:
            with sqlite3.connect(settings.data_dir / "rrag.db") as raw:
                raw.execute("UPDATE keyword_chunks SET sentences = NULL")
        retriever = HybridRetriever(index, store, settings)
        question = "Which report must be submitted under rule EXP-21555?"
        nearest = [chunk_id for chunk_id, _ in index.nearest_many([question], 100)[0]]
        found = retriever.retrieve(question)
        asked = [r for r in found if "EXP-21555." in r.chunk.text]
        assert asked and found[0] is asked[0], [r.chunk.text[-12:] for r in found]
        # Not among the vector search's 100 best: found by its code.
        assert asked[0].chunk.chunk_id not in nearest


def test_many_queries_at_once_retrieve_what_each_alone_does(retriever: HybridRetriever) -> None:
    queries = [*list(RELATED_QUESTIONS)[:4], "   ", UNRELATED_QUESTIONS[0], "Which form is QX-7731?"]
    together = retriever.retrieve_many(queries)
    for query, found in zip(queries, together):
        alone = retriever.retrieve(query)
        assert [r.chunk for r in found] == [r.chunk for r in alone], query
        assert [r.score for r in found] == pytest.approx([r.score for r in alone], abs=1e-6)


def test_an_answers_queries_read_the_keyword_index_in_one_transaction(
    handbook: tuple[Settings, ChunkIndex, Store],
) -> None:
    settings, index, store = handbook
    retriever = HybridRetriever(index, store, settings)
    queries = list(RELATED_QUESTIONS)[:5]
    transactions: list[Connection] = []
    began = transactions.append
    event.listen(store._engine, "begin", began)
    try:
        found = retriever.retrieve_many(queries)
    finally:
        event.remove(store._engine, "begin", began)
    assert all(found) and len(transactions) == 1


def test_a_chunk_of_several_topics_is_found_by_the_sentence_that_answers(tmp_path: Path) -> None:
    # A driving school's course page, one chunk: its vector sits among hours, prices and deposits, and
    # scored 0.07 against the question (fused 0.11, under the floor): nothing was retrieved, the
    # question refused.
    path = tmp_path / "intensive.md"
    path.write_text(
        "# Intensive courses\n\nAn intensive course packs your lessons into one or two weeks. Courses "
        "of 20, 30 and 40 hours are available.\n\n| Course | Hours | Price |\n|---|---|---|\n"
        "| Refresher | 20 | £760 |\n| Standard | 30 | £1,120 |\n| Beginner | 40 | £1,460 |\n\n"
        "A deposit of £200 is needed to book a course. The deposit is refundable if you cancel at least "
        "14 days before the start date. The course price does not include the test fee.\n\n"
        "You must have passed your theory test before an intensive course starts.\n"
    )
    settings = Settings(data_dir=tmp_path / "data")
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        assert Ingestor(settings, index, store).ingest_file(path).chunks_added == 1
        hits = HybridRetriever(index, store, settings).retrieve("Do I get my deposit back if I cancel?")
        assert hits and hits[0].score >= DEFAULT_RELEVANCE_FLOOR + 0.1
        chunk_alone = index.nearest_many(["Do I get my deposit back if I cancel?"], 1)[0][0][1]
        assert hits[0].vector_score > chunk_alone + 0.2  # its sentence on the deposit, not the chunk
