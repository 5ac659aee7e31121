"""The document registry and the write-ahead record of ingest (rrag/ingest/journal.py), with the
keyword index kept in the same transactions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict

from sqlalchemy import delete, func, select

from rrag.errors import NotFoundError, StoreError
from rrag.store.base import StoreBase, get_row
from rrag.store.bm25 import KeywordMatches
from rrag.store.keyword_index import (
    documents_to_backfill,
    match_keywords,
    replace_keywords,
    stored_sentence_vectors,
)
from rrag.store.records import DocumentState, document_info, document_state
from rrag.store.schema import DocumentRow, utcnow
from rrag.types import Chunk, DocumentInfo


class DocumentStore(StoreBase):
    """Documents as listed, and the states an ingest or a delete passes through."""

    def save_document(
        self,
        info: DocumentInfo,
        chunks: Sequence[Chunk] = (),
        sentence_vectors: Mapping[str, bytes] | None = None,
    ) -> None:
        """Register a committed document in one step, replacing any other doc_id of the same identity;
        `chunks` (its indexed chunks, with their `sentence_vectors` by chunk id) replace its keyword
        rows in the same transaction. Ingest goes through begin_document / commit_document instead,
        which guard its chunk writes."""
        identity = info.identity or info.source
        with self._write("save the document") as s:
            replaced = list(
                s.scalars(
                    select(DocumentRow.doc_id).where(
                        DocumentRow.identity == identity, DocumentRow.doc_id != info.doc_id
                    )
                )
            )
            s.execute(delete(DocumentRow).where(DocumentRow.doc_id.in_(replaced)))
            s.merge(DocumentRow(**(asdict(info) | {"identity": identity}), state="ready"))
            replace_keywords(s, [info.doc_id, *replaced], chunks, sentence_vectors)

    def get_document(self, doc_id: str) -> DocumentInfo:
        """A listed (committed) document; NotFoundError for an unknown id or one not committed yet."""
        with self._read("read the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or not _listed(row):
                raise NotFoundError(f"No document with id {doc_id!r}")
            return document_info(row)

    def get_document_by_identity(self, identity: str) -> DocumentInfo | None:
        with self._read("read the document") as s:
            row = s.scalar(select(DocumentRow).where(DocumentRow.identity == identity))
            return document_info(row) if row is not None and _listed(row) else None

    def list_documents(self) -> list[DocumentInfo]:
        query = select(DocumentRow).where(*_LISTED)
        with self._read("list the documents") as s:
            return [
                document_info(r) for r in s.scalars(query.order_by(DocumentRow.source, DocumentRow.identity))
            ]

    def listed_chunks(self) -> int:
        """How many chunks the listed documents have, in one query (every answer compares it with the
        index's count)."""
        with self._read("count the documents' chunks") as s:
            return s.scalar(select(func.coalesce(func.sum(DocumentRow.chunks), 0)).where(*_LISTED)) or 0

    def delete_document(self, doc_id: str) -> None:
        with self._write("delete the document") as s:
            s.delete(get_row(s, DocumentRow, doc_id, "document"))
            replace_keywords(s, [doc_id], ())

    def sentence_vectors(self, chunk_ids: Sequence[str]) -> dict[str, bytes]:
        """Chunk id -> its sentences' vectors as stored, for the chunks that have them."""
        with self._read("read the sentence vectors") as s:
            return stored_sentence_vectors(s, chunk_ids)

    def keyword_matches(
        self, queries: Sequence[tuple[Sequence[str], Sequence[str]]], *, limit: int
    ) -> list[KeywordMatches]:
        """What scaled BM25 needs (rrag.store.bm25) for each (terms, also) query, all read in one
        transaction: up to `limit` chunks the database's full-text index ranks best on the terms, and
        the chunks named in `also`."""
        if not queries:
            return []
        with self._read("search the keyword index") as s:
            return match_keywords(s, queries, limit)

    def documents_to_backfill(self) -> list[str]:
        with self._read("list the documents to index for keywords") as s:
            return documents_to_backfill(s)

    # -- the write-ahead record of ingest (rrag/ingest/journal.py) -----------------------------------

    def document_state(self, doc_id: str) -> DocumentState | None:
        with self._read("read the document state") as s:
            row = s.get(DocumentRow, doc_id)
            return None if row is None else document_state(row)

    def busy_documents(self) -> list[DocumentState]:
        """Rows an ingest or a delete has not finished with: what the repair pass looks at."""
        with self._read("list unfinished documents") as s:
            return [
                document_state(r) for r in s.scalars(select(DocumentRow).where(DocumentRow.state != "ready"))
            ]

    def document_states(self) -> list[DocumentState]:
        """Every row, listed or not: what the self-check on open compares the index with."""
        with self._read("list the documents' states") as s:
            return [document_state(r) for r in s.scalars(select(DocumentRow))]

    def begin_document(self, identity: str, source: str, doc_id: str, writer: str) -> int:
        """Record that `writer` is about to write a new version of a document; returns its number.
        Committed before any chunk is written, so a crash leaves a record the repair pass finds."""
        with self._write("record the new document version") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None:
                row = DocumentRow(
                    doc_id=doc_id,
                    identity=identity,
                    source=source,
                    sha256="",
                    size_bytes=0,
                    chunks=0,
                    duplicates_dropped=0,
                    created_at="",
                    version=0,
                )
                s.add(row)
            elif row.state in ("pending", "deleting"):
                raise StoreError(
                    f"{source} is being {'indexed' if row.state == 'pending' else 'deleted'} "
                    f"by another process ({row.writer}); try again when it is done"
                )
            row.pending_version = max(row.version, row.pending_version or 0) + 1
            _set_state(row, "pending", writer)
            return row.pending_version

    def commit_document(
        self,
        info: DocumentInfo,
        version: int,
        chunks: Sequence[Chunk],
        sentence_vectors: Mapping[str, bytes] | None = None,
    ) -> None:
        """Make `version` (all its `chunks` written) the listed one and its chunks (with their
        `sentence_vectors` by chunk id) the keyword index's, in one transaction. Its older chunks may
        still be in the vector index until finish_document."""
        with self._write("commit the document") as s:
            row = get_row(s, DocumentRow, info.doc_id, "document")
            if row.state != "pending" or row.pending_version != version:
                raise StoreError(f"{info.source}: version {version} is no longer the one being written")
            for name, value in asdict(info).items():
                if name not in ("identity", "version"):
                    setattr(row, name, value)
            row.version, row.pending_version = version, None
            _set_state(row, "cleanup", row.writer)
            replace_keywords(s, [info.doc_id], chunks, sentence_vectors)

    def abandon_document(self, doc_id: str, version: int) -> None:
        """Forget pending `version` (its chunks are gone); a document never committed is removed."""
        with self._write("abandon the document version") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or row.pending_version != version:
                return
            if row.version == 0:
                s.delete(row)
            else:
                row.pending_version = None
                _set_state(row, "cleanup", row.writer)  # chunks of an older cleanup may remain

    def finish_document(self, doc_id: str, version: int) -> None:
        """Only committed `version` is left in the index: the row is consistent again."""
        with self._write("finish the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is not None and row.state == "cleanup" and row.version == version:
                _set_state(row, "ready", None)

    def begin_delete(self, doc_id: str, writer: str) -> DocumentState:
        """Unlist a document before its chunks are deleted (NotFoundError if it is not listed)."""
        with self._write("start deleting the document") as s:
            row = s.get(DocumentRow, doc_id)
            if row is None or not _listed(row):
                raise NotFoundError(f"No document with id {doc_id!r}")
            if row.state == "pending":
                raise StoreError(
                    f"{row.source} is being indexed by another process ({row.writer}); "
                    "try again when it is done"
                )
            _set_state(row, "deleting", writer)
            replace_keywords(s, [doc_id], ())  # unlisted: keyword search stops finding it at once
            return document_state(row)


# A document is listed once its first version is written, until its deletion starts.
_LISTED = (DocumentRow.version > 0, DocumentRow.state != "deleting")


def _listed(row: DocumentRow) -> bool:
    return row.version > 0 and row.state != "deleting"


def _set_state(row: DocumentRow, state: str, writer: str | None) -> None:
    row.state, row.writer, row.state_since = state, writer, utcnow()
