"""Keyword search in the store's database: scaled BM25, written with the registry, the same on
SQLite (FTS5) and PostgreSQL (tsvector + GIN, on a real throw-away server)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures_docs import RELATED_QUESTIONS, UNRELATED_QUESTIONS, write_handbook
from pg_server import PostgresServer
from sqlalchemy import create_engine, insert, select

from rrag.backends.embedding import get_embedder
from rrag.engine.pipeline import ReliableRAG
from rrag.errors import StoreError
from rrag.ingest.service import Ingestor
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store, keyword_index, migrations
from rrag.store.bm25 import keyword_terms
from rrag.store.keyword_index import keyword_chunks, keyword_stats, keyword_terms_table
from rrag.store.migrations import MIGRATIONS
from rrag.store.schema import DocumentRow, SchemaVersion, utcnow
from rrag.types import Chunk, DocumentInfo


def _chunk(doc_id: str, n: int, text: str) -> Chunk:
    return Chunk(f"{doc_id}:{n}", doc_id, f"{doc_id}.txt", text, 0, len(text), None, n)


def _info(doc_id: str, chunks: int) -> DocumentInfo:
    return DocumentInfo(doc_id, f"{doc_id}.txt", "0" * 64, 100, chunks, 0, "2026-11-24T00:00:00+00:00")


def _save(store: Store, doc_id: str, texts: list[str]) -> list[Chunk]:
    chunks = [_chunk(doc_id, n, t) for n, t in enumerate(texts)]
    store.save_document(_info(doc_id, len(chunks)), chunks)
    return chunks


def _scores(store: Store, query: str) -> dict[str, float]:
    terms = keyword_terms(query)
    return store.keyword_matches([(terms, [])], limit=10)[0].scores(terms)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Store]:
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        settings = settings.replace(database_url=server.url(server.create_schema()))
    with Store(settings) as store:
        yield store


def test_bm25_scores_are_scaled_to_the_query(store: Store) -> None:
    _save(
        store,
        "d",
        ["Hotels cost 150 euros per night.", "Meals cost 45 euros per day.", "Passwords need 14 characters."],
    )
    hotels = _scores(store, "hotel night")
    assert max(hotels, key=hotels.__getitem__) == "d:0" and 0.3 < hotels["d:0"] <= 1.0 and "d:2" not in hotels
    # Rare terms weigh more than common ones ("euros" is in two chunks, "passwords" in one).
    assert _scores(store, "passwords")["d:2"] > _scores(store, "euros")["d:0"]
    # Words the corpus lacks pull the score down: the query is mostly about something else.
    assert _scores(store, "hotel night Mongolia Ulaanbaatar")["d:0"] < hotels["d:0"] / 1.5
    assert _scores(store, "capital of Mongolia") == {}
    [matches] = store.keyword_matches([(keyword_terms("cost euros night"), ["d:2"])], limit=1)
    assert matches.candidates == ["d:0"]  # the database's best, up to the limit
    assert matches.scores(keyword_terms("cost euros night"))["d:2"] == 0.0  # asked for, scored, no match


def test_several_queries_read_at_once_match_each_read_alone(store: Store) -> None:
    _save(
        store,
        "d",
        ["Hotels cost 150 euros per night.", "Meals cost 45 euros per day.", "Passwords need 14 characters."],
    )
    queries = [
        (keyword_terms("cost euros night"), ["d:2"]),
        (keyword_terms("passwords"), ["d:0", "d:1"]),
        (keyword_terms("capital of Mongolia"), ["d:1"]),  # no term the corpus has: the asked-for only
        ([], []),
    ]
    together = store.keyword_matches(queries, limit=2)
    for query, matches in zip(queries, together):
        [alone] = store.keyword_matches([query], limit=2)
        assert matches == alone and matches.scores(query[0]) == alone.scores(query[0])
    assert store.keyword_matches([], limit=2) == []


def _recount(store: Store) -> int:
    """The number of keyword rows, after checking the statistics kept as rows come and go against a
    count from scratch."""
    with store._engine.connect() as conn:
        bodies = [body.split() for body in conn.scalars(select(keyword_chunks.c.body))]
        stats = conn.execute(select(keyword_stats.c.chunks, keyword_stats.c.length)).one()
        df = {
            t: n for t, n in conn.execute(select(keyword_terms_table.c.term, keyword_terms_table.c.df)) if n
        }
    expected_df = Counter(t for terms in bodies for t in set(terms))
    assert (tuple(stats), df) == ((len(bodies), sum(map(len, bodies))), dict(expected_df))
    return len(bodies)


def test_the_keyword_index_follows_the_registry(store: Store) -> None:
    _save(store, "a", ["Annual leave is 25 days.", "Carry over 5 days."])
    _save(store, "b", ["Hotels cost 150 euros."])
    assert _recount(store) == 3
    _save(store, "a", ["Annual leave is 30 days."])  # replaced: fewer chunks
    assert set(_scores(store, "annual leave carry")) == {"a:0"}
    assert _recount(store) == 2
    store.delete_document("b")
    assert _scores(store, "hotels") == {} and _recount(store) == 1
    # A new doc_id for a known source replaces the old one, keyword rows included.
    chunks = [Chunk("a2:0", "a2", "a.txt", "Parental leave is 16 weeks.", 0, 27, None, 0)]
    store.save_document(DocumentInfo("a2", "a.txt", "1" * 64, 50, 1, 0, "2026-11-24T00:00:00+00:00"), chunks)
    assert set(_scores(store, "leave")) == {"a2:0"} and _recount(store) == 1


def test_registry_and_keywords_commit_or_fail_together(store: Store) -> None:
    twice = [_chunk("a", 0, "Annual leave is 25 days."), _chunk("a", 0, "Annual leave is 25 days.")]
    with pytest.raises(StoreError):
        store.save_document(_info("a", 2), twice)  # the second keyword row breaks a unique key
    assert store.get_document_by_identity("a.txt") is None
    assert _scores(store, "annual leave") == {} and _recount(store) == 0


def test_postgresql_retrieves_what_sqlite_retrieves(postgres: PostgresServer, tmp_path: Path) -> None:
    paths = write_handbook(tmp_path / "docs")
    results = {}
    for name, url in (("sqlite", None), ("postgresql", postgres.url(postgres.create_schema()))):
        settings = Settings(data_dir=tmp_path / name, database_url=url, relevance_floor=0.0)
        with Store(settings) as store:
            index = ChunkIndex(settings, get_embedder())
            ingestor = Ingestor(settings, index, store)
            assert all(ingestor.ingest_file(p).ok for p in paths)
            retriever = HybridRetriever(index, store, settings)
            results[name] = [
                [
                    (r.chunk.chunk_id, round(r.score, 6), round(r.keyword_score, 6))
                    for r in retriever.retrieve(q, 8)
                ]
                for q in [*RELATED_QUESTIONS, *UNRELATED_QUESTIONS]
            ]
    assert results["postgresql"] == results["sqlite"]
    assert any(kw > 0.3 for ranking in results["sqlite"] for _, _, kw in ranking)


def test_documents_registered_before_keyword_search_are_indexed_on_open(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    settings.data_dir.mkdir(parents=True)
    # A database written by the release before migration 5, and its chunks in the vector index.
    engine = create_engine(settings.sqlalchemy_url)
    with engine.begin() as conn:
        SchemaVersion.__table__.create(conn)
        for version, migration in enumerate(MIGRATIONS[:2], start=1):
            migration(conn)
            conn.execute(
                insert(SchemaVersion).values(version=version, name=migration.__name__, applied_at=utcnow())
            )
        conn.execute(insert(DocumentRow).values(**_info("forms", 1).__dict__))
    engine.dispose()
    ChunkIndex(settings, get_embedder()).add([_chunk("forms", 0, "Form QX-7731 claims relocation costs.")])

    rag = ReliableRAG(settings)
    try:
        assert rag.store.documents_to_backfill() == []
        assert rag.store.sentence_vectors(["forms:0"])  # indexed as ingest would, sentences too
        hits = rag._backends.retriever.retrieve("Which form is QX-7731?")
        assert hits and hits[0].chunk.chunk_id == "forms:0" and hits[0].keyword_score > 0.3
    finally:
        rag.close()


def test_terms_indexed_by_an_older_stemmer_are_indexed_anew_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    settings.data_dir.mkdir(parents=True)
    text = "The single fare is 3 euros."
    # A database of the release before migration 11, whose stemmer kept "fare" apart from "fares".
    with monkeypatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", MIGRATIONS[:10])
        patch.setattr(keyword_index, "keyword_terms", lambda _: ["singl", "fare", "3", "euro"])
        with Store(settings) as old:
            _save(old, "fares", [text])
    ChunkIndex(settings, get_embedder()).add([_chunk("fares", 0, text)])

    rag = ReliableRAG(settings)
    try:
        with rag.store._engine.connect() as conn:
            assert list(conn.scalars(select(keyword_chunks.c.body))) == [" ".join(keyword_terms(text))]
        assert _recount(rag.store) == 1
        hits = rag._backends.retriever.retrieve("How much are single fares?")
        assert hits and hits[0].chunk.chunk_id == "fares:0" and hits[0].keyword_score > 0.3
    finally:
        rag.close()


def test_sentence_vectors_are_kept_with_their_rows_and_go_with_them(store: Store) -> None:
    rows = {"a:0": bytes(range(8)), "a:1": b""}
    chunks = [_chunk("a", 0, "Annual leave is 25 days."), _chunk("a", 1, "Hotels cost 150 euros.")]
    store.save_document(_info("a", 2), chunks, {"a:0": rows["a:0"]})
    [matches] = store.keyword_matches([(keyword_terms("annual leave"), ["a:1"])], limit=5)
    assert matches.sentence_vectors == rows  # "a:1" has none: b""
    assert store.sentence_vectors(["a:0", "a:1", "a:9"]) == {"a:0": rows["a:0"]}
    store.delete_document("a")  # deleted means deleted: the vectors of its text too
    assert store.sentence_vectors(["a:0"]) == {}


def test_chunks_indexed_before_sentence_vectors_keep_their_rows(settings: Settings) -> None:
    with Store(settings) as store:
        _save(store, "a", ["Annual leave is 25 days."])
    with sqlite3.connect(settings.data_dir / "rrag.db") as raw:  # keyword_chunks as release 14 left it
        raw.execute("ALTER TABLE keyword_chunks DROP COLUMN sentences")
        raw.execute("DELETE FROM schema_version WHERE name = 'm015_chunks_keep_their_sentence_vectors'")
    with Store(settings) as store:
        [matches] = store.keyword_matches([(keyword_terms("annual leave"), [])], limit=5)
        assert matches.candidates == ["a:0"] and matches.sentence_vectors == {"a:0": b""}
        store.save_document(_info("a", 1), [_chunk("a", 0, "Annual leave is 30 days.")], {"a:0": b"\x01\x02"})
        assert store.sentence_vectors(["a:0"]) == {"a:0": b"\x01\x02"}


def test_chunks_indexed_before_sentence_vectors_get_them_on_open(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "course.txt").write_text(
        "The course has ten lessons of two hours. Lessons cost 45 euros each. "
        "A deposit of 100 euros holds a place and is refunded after the test.\n",
        encoding="utf-8",
    )
    rag = ReliableRAG(settings)
    try:
        assert rag.ingest([tmp_path / "course.txt"])[0].ok
        ids = [c.chunk_id for d in rag.documents() for c in rag.document_chunks(d.doc_id)]
        kept = rag.store.sentence_vectors(ids)
    finally:
        rag.close()
    assert ids and set(kept) == set(ids)
    with sqlite3.connect(settings.data_dir / "rrag.db") as raw:  # the rows as migration 15 left them
        raw.execute("UPDATE keyword_chunks SET sentences = NULL")
    rag = ReliableRAG(settings)
    try:
        assert rag.store.documents_to_backfill() == []
        assert rag.store.sentence_vectors(ids) == kept  # the same vectors ingest keeps
        assert any("1 document(s) indexed by an earlier release" in n for n in rag.storage_notes())
    finally:
        rag.close()
