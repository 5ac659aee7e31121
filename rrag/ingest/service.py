"""The Ingestor: files in, chunks in the index, one registry row per document in the store.

A bad file never stops the others: every failure becomes an `IngestResult` with status "failed" and
a readable message. A document is known by its identity (rrag/ingest/sources.py); the SHA-256 of the
file decides what happens to a known one: the same bytes add nothing, new bytes replace its chunks.
Every write follows the journal (rrag/ingest/journal.py), so a crash at any point leaves either the
old version or the new one listed and indexed, never a mix, once the repair pass has run.
"""

from __future__ import annotations

import ctypes
import hashlib
import shutil
import tempfile
import threading
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rrag.errors import IngestError, NotFoundError, RRAGError
from rrag.ingest.chunking import chunk_spans
from rrag.ingest.dedup import NearDuplicateFilter
from rrag.ingest.extract import check_file, check_size, extract
from rrag.ingest.journal import Journal, Repair, chunk_id, crash_point
from rrag.ingest.sources import doc_id_for, safe_filename, upload_identity
from rrag.lang.detect import detect_language
from rrag.retrieval.index import ChunkIndex
from rrag.retrieval.sentence_vectors import by_sentence, pack
from rrag.settings import Settings
from rrag.types import Chunk, DocumentInfo, IngestResult

if TYPE_CHECKING:
    from rrag.store import Store

DOCUMENTS_DIR = "documents"  # under data_dir: the kept original of each document, for re-indexing
UPLOADS_DIR = "uploads"  # under data_dir: uploaded bytes while they are being ingested
EMBED_BATCH = 256  # chunks embedded and written at a time: bounds memory on a 2,000-page PDF
HASH_BLOCK = 1 << 20

_malloc_trim: Callable[[int], int] | None
try:  # glibc's; elsewhere freed memory is left to the allocator
    _malloc_trim = ctypes.CDLL(None).malloc_trim
except (AttributeError, OSError, TypeError):
    _malloc_trim = None


class Ingestor:
    def __init__(self, settings: Settings, index: ChunkIndex, store: Store) -> None:
        self.settings = settings
        self.index = index
        self.store = store
        self.max_bytes = int(settings.max_file_mb * 1_000_000)
        self._dedup = NearDuplicateFilter(settings.dedup_threshold)
        self._dedup_version: str | None = None  # index version the filter last mirrored
        self._lock = threading.Lock()  # one ingest at a time: the dedup state follows the index

    @property
    def documents_dir(self) -> Path:
        return self.settings.data_dir / DOCUMENTS_DIR

    @property
    def journal(self) -> Journal:
        return Journal(self.store, self.index, self.documents_dir)

    def repair(self) -> Repair:
        """Finish or undo what a crashed ingest or delete left (run on open)."""
        with self._lock:
            return self.journal.repair()

    def sweep(self) -> list[str]:
        """Remove chunks and files no document accounts for, and uploads a crash left half-read (run on
        open by a process alone with the data folder); the chunk ids deleted."""
        with self._lock:
            shutil.rmtree(self.settings.data_dir / UPLOADS_DIR, ignore_errors=True)
            return self.journal.sweep()

    def ingest_file(self, path: Path, source: str | None = None) -> IngestResult:
        """Index one file known as `source` (default: its name); never raises for a bad file."""
        source = source or path.name
        try:
            with self._lock:
                return self._ingest(path, source, source, force=False)
        except (RRAGError, OSError) as exc:
            return _failed(source, doc_id_for(source), exc)

    def ingest_bytes(self, name: str, data: bytes) -> IngestResult:
        """Index uploaded bytes, known by their content hash and shown under their file name; the
        bytes pass through a private temp folder."""
        try:
            filename = safe_filename(name)
            check_size(filename, len(data), self.max_bytes)
        except RRAGError as exc:
            return IngestResult(source=name, status="failed", error=str(exc))
        identity = upload_identity(hashlib.sha256(data).hexdigest())
        try:
            uploads = self.settings.data_dir / UPLOADS_DIR
            uploads.mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(dir=uploads))
        except OSError as exc:
            return _failed(filename, doc_id_for(identity), exc)
        try:
            path = folder / filename
            path.write_bytes(data)
            with self._lock:
                return self._ingest(path, identity, filename, force=False)
        except (RRAGError, OSError) as exc:
            return _failed(filename, doc_id_for(identity), exc)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def delete(self, doc_id: str) -> list[IngestResult]:
        """Remove a document's chunks, its kept original and its registry row; for an id no document
        lists, whatever the index and the folder still hold of it (NotFoundError if nothing).

        Other documents may have dropped chunks as near-copies of this one's: those come back, so that
        deleting a document never takes text of another one out of the index. Returns what was restored.
        """
        with self._lock:
            try:
                self.store.get_document(doc_id)
            except NotFoundError:
                self.journal.delete_unlisted(doc_id)
                self.index.purge_deleted()
                return []
            self._dedup.remove(self.journal.delete(doc_id))
            self._dedup_version = self.index.version
            candidates = [
                info
                for info in self.store.list_documents()
                if info.duplicates_dropped and self._original(info).is_file()
            ]
            results = [self._reingest(info, only_if_kept_changes=True) for info in candidates]
            # Its text must not survive in the stores' logs and free pages either.
            self.index.purge_deleted()
            self.store.truncate_log()
            return [result for result in results if result.status != "unchanged"]

    def reindex(self, doc_id: str) -> IngestResult:
        """Chunk and index the kept original again, with the current settings (NotFoundError if unknown)."""
        info = self.store.get_document(doc_id)
        with self._lock:
            return self._reingest(info)

    def _original(self, info: DocumentInfo) -> Path:
        return self.journal.original(info.doc_id, safe_filename(info.source))

    def _reingest(self, info: DocumentInfo, *, only_if_kept_changes: bool = False) -> IngestResult:
        try:
            original = self._original(info)
            if not original.is_file():
                raise IngestError(f"{info.source}: the original file is no longer kept; upload it again")
            return self._ingest(
                original, info.identity, info.source, force=True, only_if_kept_changes=only_if_kept_changes
            )
        except (RRAGError, OSError) as exc:
            return _failed(info.source, info.doc_id, exc)

    def _ingest(
        self, path: Path, identity: str, source: str, *, force: bool, only_if_kept_changes: bool = False
    ) -> IngestResult:
        doc_id = doc_id_for(identity)
        check_file(path, max_bytes=self.max_bytes)
        sha256, size = _digest(path)
        known = self.store.get_document_by_identity(identity)
        # "Unchanged" also needs the chunks to be there: an index rebuilt from scratch re-adds them.
        if not force and known is not None and known.sha256 == sha256 and self._intact(known):
            return IngestResult(source=source, doc_id=doc_id, status="unchanged")

        document = extract(path, max_bytes=self.max_bytes)
        s = self.settings
        spans = chunk_spans(document.text, size=s.chunk_size, overlap=s.chunk_overlap, pages=document.pages)
        texts = [document.text[span.start : span.end] for span in spans]
        self._sync_dedup()
        dedup = self._dedup.filter(texts, exclude_doc=doc_id)
        if only_if_kept_changes and known is not None and len(dedup.kept) == known.chunks:
            return IngestResult(source=source, doc_id=doc_id, status="unchanged")  # nothing to restore

        filename = safe_filename(source)
        journal = self.journal
        version = journal.begin(identity, source, doc_id)
        crash_point("ingest-begun")
        chunks = [
            Chunk(
                chunk_id(doc_id, version, n),
                doc_id,
                source,
                texts[i],
                spans[i].start,
                spans[i].end,
                spans[i].page,
                n,
                version,
                detect_language(texts[i]),
            )
            for n, i in enumerate(dedup.kept)
        ]
        try:
            journal.stage_original(doc_id, filename, version, path)
            had = self._sentences_had(doc_id) if known is not None else {}
            sentence_vectors: dict[str, bytes] = {}
            for begin in range(0, len(chunks), EMBED_BATCH):
                batch = chunks[begin : begin + EMBED_BATCH]
                vectors, of_chunks = self.index.embed_chunks([c.text for c in batch], had)
                self.index.add(batch, vectors)
                sentence_vectors.update((c.chunk_id, pack(rows)) for c, rows in zip(batch, of_chunks))
                _return_freed_memory()
                crash_point("chunk-batch-written")
            info = DocumentInfo(
                doc_id=doc_id,
                source=source,
                sha256=sha256,
                size_bytes=size,
                chunks=len(chunks),
                duplicates_dropped=dedup.dropped,
                created_at=datetime.now(UTC).isoformat(timespec="seconds"),
                identity=identity,
                version=version,
                language=detect_language(document.text),
            )
            journal.commit(info, version, chunks, sentence_vectors)
        except BaseException:
            self._dedup_version = None  # the index changed under the filter
            with suppress(RRAGError, OSError):  # if undoing fails too, the repair pass will
                journal.abandon(doc_id, filename, version)
            raise
        crash_point("committed")
        stale = journal.settle(doc_id, filename)
        self._dedup.remove(stale)
        self._dedup.add(chunks)
        self._dedup_version = self.index.version
        if not only_if_kept_changes:  # a document of its own, not one filtered anew because of another
            self._drop_copies_held_by(chunks)
        # A copy of indexed text is recorded (it comes back if its twin is deleted) but adds nothing.
        if dedup.dropped and not chunks:
            status = "duplicate"
        else:
            status = "replaced" if known is not None or stale else "added"
        return IngestResult(
            source=source,
            doc_id=doc_id,
            status=status,
            chunks_added=len(chunks),
            duplicates_dropped=dedup.dropped,
            pages=document.page_count,
            already_in=dedup.already_in,
        )

    def _drop_copies_held_by(self, chunks: list[Chunk]) -> None:
        """Filter anew the other documents that hold a copy of text these chunks now hold (restored
        when this document was deleted before, or indexed before it): their copies are dropped, as had
        this document come first, and come back if it is deleted (`delete`)."""
        for doc_id in sorted(self._dedup.held_by(chunks)):
            try:
                info = self.store.get_document(doc_id)
            except NotFoundError:
                continue
            if self._original(info).is_file():
                self._reingest(info, only_if_kept_changes=True)

    def _sentences_had(self, doc_id: str) -> dict[str, np.ndarray]:
        """Sentence -> vector, of the document's indexed version: a document indexed again embeds only
        the sentences it did not have (one filtered anew because another holds a copy of it, none)."""
        chunks = self.index.get_chunks(doc_id)
        stored = self.store.sentence_vectors([c.chunk_id for c in chunks])
        return by_sentence(
            ((c.text, stored[c.chunk_id]) for c in chunks if c.chunk_id in stored), self.index.dim
        )

    def _intact(self, known: DocumentInfo) -> bool:
        versions = self.index.chunk_versions(known.doc_id).values()
        return len(versions) == known.chunks and all(v == known.version for v in versions)

    def _sync_dedup(self) -> None:
        # Re-reading every indexed chunk is only needed when someone else changed the index.
        version = self.index.version
        if version != self._dedup_version:
            # Only chunks of listed versions: one a failed ingest left (never retrieved) holds no text.
            listed = {(d.doc_id, d.version) for d in self.store.list_documents()}
            self._dedup.reset(c for c in self.index.all_chunks() if (c.doc_id, c.version) in listed)
            self._dedup_version = version


def _return_freed_memory() -> None:
    # Embedding and storing a batch free what they allocate, but glibc kept the pages: a long
    # file's ingest grew the process batch by batch (about 30 MB more at 2,000 chunks).
    if _malloc_trim is not None:
        _malloc_trim(0)


def _failed(source: str, doc_id: str, exc: RRAGError | OSError) -> IngestResult:
    # OSError: the file became unreadable, or the data folder is full or read-only.
    message = str(exc) if isinstance(exc, RRAGError) else f"{source}: {exc.strerror or exc}"
    return IngestResult(source=source, doc_id=doc_id, status="failed", error=message)


def _digest(path: Path) -> tuple[str, int]:
    """SHA-256 and size of a file, read in blocks: a large file is never held in memory whole."""
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as stream:
        while block := stream.read(HASH_BLOCK):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size
