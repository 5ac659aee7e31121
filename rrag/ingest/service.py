"""The Ingestor: files in, chunks in the index, one registry row per document in the store.

A bad file never stops the others: every failure becomes an `IngestResult` with status "failed" and
a readable message. The SHA-256 of the file decides what happens to a known source: the same bytes
add nothing, new bytes replace the old chunks. New chunks are written before stale ones are deleted,
so a failure part-way never leaves a document with no chunks at all.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from rrag.errors import IngestError, RRAGError
from rrag.index import ChunkIndex
from rrag.ingest.chunking import chunk_spans
from rrag.ingest.dedup import NearDuplicateFilter
from rrag.ingest.extract import check_file, check_size, extract
from rrag.settings import Settings
from rrag.types import Chunk, DocumentInfo, IngestResult

if TYPE_CHECKING:
    from rrag.store import Store

DOCUMENTS_DIR = "documents"  # under data_dir: the kept original of each document, for re-indexing
UPLOADS_DIR = "uploads"  # under data_dir: uploaded bytes while they are being ingested


def doc_id_for(source: str) -> str:
    """A stable, readable id per source name: a slug of the name plus a short hash of it."""
    slug = re.sub(r"[^a-z0-9]+", "-", Path(source).stem.lower()).strip("-")[:40] or "doc"
    return f"{slug}-{hashlib.sha256(source.encode('utf-8')).hexdigest()[:10]}"


def safe_filename(name: str) -> str:
    """The last component of an uploaded name: no directories, so nothing is written outside its folder."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if base in {"", ".", ".."}:
        raise IngestError(f"{name!r} is not a usable file name")
    return base


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

    def ingest_file(self, path: Path, source: str | None = None) -> IngestResult:
        """Index one file under `source` (default: its name); never raises for a bad file."""
        source = source or path.name
        try:
            with self._lock:
                return self._ingest(path, source, force=False)
        except (RRAGError, OSError) as exc:
            return _failed(source, doc_id_for(source), exc)

    def ingest_bytes(self, name: str, data: bytes) -> IngestResult:
        """Index uploaded bytes under their file name; the bytes pass through a private temp folder."""
        try:
            filename = safe_filename(name)
            check_size(filename, len(data), self.max_bytes)
        except RRAGError as exc:
            return IngestResult(source=name, status="failed", error=str(exc))
        uploads = self.settings.data_dir / UPLOADS_DIR
        uploads.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(dir=uploads))
        try:
            path = folder / filename
            path.write_bytes(data)
            return self.ingest_file(path, source=filename)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def delete(self, doc_id: str) -> list[IngestResult]:
        """Remove a document's chunks, its kept original and its registry row (NotFoundError if unknown).

        Other documents may have dropped chunks as near-copies of this one's: those come back, so that
        deleting a document never takes text of another one out of the index. Returns what was restored.
        """
        with self._lock:
            self.store.get_document(doc_id)
            stale = self.index.chunk_ids(doc_id)
            self.index.delete_document(doc_id)
            self._dedup.remove(stale)
            self._dedup_version = self.index.version
            shutil.rmtree(self.documents_dir / doc_id, ignore_errors=True)
            self.store.delete_document(doc_id)
            candidates = [info for info in self.store.list_documents()
                          if info.duplicates_dropped and self._original(info.doc_id, info.source).is_file()]
            results = [self._reingest(info, only_if_more_kept=True) for info in candidates]
            return [result for result in results if result.status != "unchanged"]

    def reindex(self, doc_id: str) -> IngestResult:
        """Chunk and index the kept original again, with the current settings (NotFoundError if unknown)."""
        info = self.store.get_document(doc_id)
        with self._lock:
            return self._reingest(info)

    def _original(self, doc_id: str, source: str) -> Path:
        """Where a document's original file is kept (re-indexing reads it from there)."""
        return self.documents_dir / doc_id / safe_filename(source)

    def _reingest(self, info: DocumentInfo, *, only_if_more_kept: bool = False) -> IngestResult:
        try:
            original = self._original(info.doc_id, info.source)
            if not original.is_file():
                raise IngestError(f"{info.source}: the original file is no longer kept; upload it again")
            return self._ingest(original, info.source, force=True, only_if_more_kept=only_if_more_kept)
        except (RRAGError, OSError) as exc:
            return _failed(info.source, info.doc_id, exc)

    def _ingest(self, path: Path, source: str, *, force: bool, only_if_more_kept: bool = False) -> IngestResult:
        doc_id = doc_id_for(source)
        check_file(path, max_bytes=self.max_bytes)
        data = path.read_bytes()
        sha256 = hashlib.sha256(data).hexdigest()
        known = self.store.get_document_by_source(source)
        old_ids = self.index.chunk_ids(doc_id)
        # "Unchanged" also needs the chunks to be there: an index rebuilt from scratch re-adds them.
        if not force and known is not None and known.sha256 == sha256 and len(old_ids) == known.chunks:
            return IngestResult(source=source, doc_id=doc_id, status="unchanged")

        document = extract(path, max_bytes=self.max_bytes)
        s = self.settings
        spans = chunk_spans(document.text, size=s.chunk_size, overlap=s.chunk_overlap, pages=document.pages)
        texts = [document.text[span.start : span.end] for span in spans]
        self._sync_dedup()
        dedup = self._dedup.filter(texts, exclude_doc=doc_id)
        if only_if_more_kept and known is not None and len(dedup.kept) <= known.chunks:
            return IngestResult(source=source, doc_id=doc_id, status="unchanged")  # nothing to restore
        chunks = [
            Chunk(f"{doc_id}:{n}", doc_id, source, texts[i], spans[i].start, spans[i].end, spans[i].page, n)
            for n, i in enumerate(dedup.kept)
        ]
        stale = sorted(set(old_ids) - {c.chunk_id for c in chunks})
        self._keep_original(doc_id, source, path, data)  # before the index: a full disk changes nothing
        self.index.add(chunks)
        self.index.delete(stale)
        self._dedup.remove(stale)
        self._dedup.add(chunks)
        self._dedup_version = self.index.version
        self.store.save_document(
            DocumentInfo(
                doc_id=doc_id,
                source=source,
                sha256=sha256,
                size_bytes=len(data),
                chunks=len(chunks),
                duplicates_dropped=dedup.dropped,
                created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            ),
            chunks,
        )
        # A copy of indexed text is recorded (it comes back if its twin is deleted) but adds nothing.
        if dedup.dropped and not chunks:
            status = "duplicate"
        else:
            status = "replaced" if known is not None or old_ids else "added"
        return IngestResult(
            source=source,
            doc_id=doc_id,
            status=status,
            chunks_added=len(chunks),
            duplicates_dropped=dedup.dropped,
            pages=document.page_count,
        )

    def _sync_dedup(self) -> None:
        # Re-reading every indexed chunk is only needed when someone else changed the index.
        version = self.index.version
        if version != self._dedup_version:
            self._dedup.reset(self.index.all_chunks())
            self._dedup_version = version

    def _keep_original(self, doc_id: str, source: str, path: Path, data: bytes) -> None:
        target = self._original(doc_id, source)
        if path.resolve() == target.resolve():
            return  # re-indexing from the kept copy itself
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(data)
        partial.replace(target)


def _failed(source: str, doc_id: str, exc: RRAGError | OSError) -> IngestResult:
    # OSError: the file became unreadable, or the data folder is full or read-only.
    message = str(exc) if isinstance(exc, RRAGError) else f"{source}: {exc.strerror or exc}"
    return IngestResult(source=source, doc_id=doc_id, status="failed", error=message)
