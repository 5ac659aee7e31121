"""The store on a real SQLite file in tmp: documents, reports, reviews, analytics, settings, migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from rrag.errors import ConfigError, NotFoundError
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import DocumentInfo


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    with Store(settings) as opened:
        yield opened


def _doc(doc_id: str = "doc-1", source: str = "handbook/leave.md", chunks: int = 12) -> DocumentInfo:
    return DocumentInfo(
        doc_id=doc_id,
        source=source,
        sha256="ab" * 32,
        size_bytes=4096,
        chunks=chunks,
        duplicates_dropped=1,
        created_at="2026-11-20T09:00:00+00:00",
    )


# -- documents -------------------------------------------------------------------------------------


def test_document_round_trip_and_upsert(store: Store) -> None:
    store.save_document(_doc())
    assert store.get_document("doc-1") == _doc()
    store.save_document(_doc(chunks=30))
    assert store.get_document("doc-1").chunks == 30
    assert store.list_documents() == [_doc(chunks=30)]


def test_document_by_source_and_replacement_of_a_changed_file(store: Store) -> None:
    assert store.get_document_by_source("handbook/leave.md") is None
    store.save_document(_doc("old"))
    store.save_document(_doc("other", source="handbook/it.md"))
    store.save_document(_doc("new"))  # same source, new content hash -> new doc_id
    assert store.get_document_by_source("handbook/leave.md") == _doc("new")
    assert [d.doc_id for d in store.list_documents()] == ["other", "new"]  # ordered by source
    with pytest.raises(NotFoundError):
        store.get_document("old")


def test_delete_document(store: Store) -> None:
    store.save_document(_doc())
    store.delete_document("doc-1")
    assert store.list_documents() == []
    with pytest.raises(NotFoundError, match="doc-1"):
        store.delete_document("doc-1")
    with pytest.raises(NotFoundError):
        store.get_document("doc-1")


def test_documents_persist_across_reopen(settings: Settings) -> None:
    with Store(settings) as first:
        first.save_document(_doc())
    with Store(settings) as second:
        assert second.list_documents() == [_doc()]


def test_default_database_is_sqlite_in_wal_mode_under_data_dir(settings: Settings) -> None:
    with Store(settings):
        pass
    db = settings.data_dir / "rrag.db"
    assert db.is_file()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_in_memory_url_works(settings: Settings) -> None:
    with Store(settings.replace(database_url="sqlite://")) as memory:
        memory.save_document(_doc())
        assert memory.list_documents() == [_doc()]


def test_unusable_url_is_a_config_error(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="database_url"):
        Store(settings.replace(database_url="not a url"))
    with pytest.raises(ConfigError, match="database_url"):
        Store(settings.replace(database_url="nosuchdialect://host/db"))
