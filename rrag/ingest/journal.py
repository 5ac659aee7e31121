"""Crash consistency of ingest: the registry row is a write-ahead record, and a repair pass runs on open.

A new version of a document is written in this order, each step durable before the next starts:

  1. begin:   the registry row records `pending_version` N and the writing process (host:pid);
  2. stage:   the original is copied next to the kept one as `<name>.vN.partial`;
  3. chunks:  chunk batches are written to the index, ids `<doc_id>:vN:<ordinal>`, metadata version N;
  4. commit:  one transaction makes N the listed version (state `cleanup`);
  5. settle:  the staged original replaces the kept one, chunks of other versions are deleted, `ready`.

A `kill -9` before 4 leaves a pending row: repair deletes version N's chunks and staged original (the
listed version is untouched). After 4, repair finishes 5. Deleting marks the row `deleting` (unlisted)
before its chunks go. So no chunk outlives a crash unless its version is the one the registry lists.

Several processes may share a store: a pending or deleting row whose writer is still running is left
alone. Settling lists the chunks first and reads the row after, so a version begun meanwhile (its row is
written before its chunks) is never taken for an orphan.

Repair never stops an open: a row it cannot finish is named in `Repair.problems` and left for the next
open. The other direction, chunks no row accounts for (a write that landed after the ingest gave up on
it), is `sweep`, run by a process alone with its data folder.
"""

from __future__ import annotations

import errno
import glob
import os
import re
import shutil
import signal
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from rrag.errors import NotFoundError, RRAGError, StoreError
from rrag.ingest.sources import base_name, staged_name
from rrag.retrieval.index import ChunkIndex
from rrag.store.records import DocumentState
from rrag.store.schema import utcnow
from rrag.types import Chunk, DocumentInfo

if TYPE_CHECKING:
    from rrag.store import Store

CRASH_AT_ENV = "RRAG_TEST_CRASH_AT"
DOC_ID = re.compile(r"[a-z0-9-]+")  # what rrag.ingest.sources.doc_id_for makes
# A writer on another host cannot be asked whether it still runs; its busy row is taken over after this.
FOREIGN_WRITER_LEASE = timedelta(hours=12)


def crash_point(name: str) -> None:
    """Test hook (tests/test_crash_consistency.py): die here as `kill -9` would when RRAG_TEST_CRASH_AT
    names this point. It does nothing else, and nothing when the variable is unset."""
    if os.environ.get(CRASH_AT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def writer_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def writer_gone(state: DocumentState) -> bool:
    """Whether the process that set a busy state can no longer finish it."""
    host, _, pid = (state.writer or "").rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False  # alive, owned by another user
        return False
    return state.state_since is None or utcnow() - state.state_since > FOREIGN_WRITER_LEASE


def chunk_id(doc_id: str, version: int, ordinal: int) -> str:
    return f"{doc_id}:v{version}:{ordinal}"


@dataclass
class Repair:
    """What a repair pass did: the chunk ids it deleted, and what it could not finish, for people."""

    deleted: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _remove(path: Path) -> None:
    """Delete a file if it is there. A name too long for the file system (accepted by an older limit,
    see rrag/ingest/sources.py) was never written, so it is not there either."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        return False


class Journal:
    """The steps above over one store, one index and the folder of kept originals."""

    def __init__(self, store: Store, index: ChunkIndex, originals: Path) -> None:
        self.store = store
        self.index = index
        self.originals = originals

    def original(self, doc_id: str, filename: str) -> Path:
        """Where a document's original file is kept (re-indexing reads it from there)."""
        return self.originals / doc_id / filename

    def _staged(self, doc_id: str, filename: str, version: int) -> Path:
        return self.originals / doc_id / staged_name(filename, version)

    def begin(self, identity: str, source: str, doc_id: str) -> int:
        state = self.store.document_state(doc_id)
        if (
            state is not None
            and state.state != "ready"
            and (writer_gone(state) or state.writer == writer_id())
        ):
            self._repair(state)  # left by a crash, or by this process failing to undo its own write
        return self.store.begin_document(identity, source, doc_id, writer_id())

    def stage_original(self, doc_id: str, filename: str, version: int, path: Path) -> None:
        staged = self._staged(doc_id, filename, version)
        staged.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, staged)

    def commit(
        self,
        info: DocumentInfo,
        version: int,
        chunks: Sequence[Chunk],
        sentence_vectors: Mapping[str, bytes] | None = None,
    ) -> None:
        self.store.commit_document(info, version, chunks, sentence_vectors)

    def settle(self, doc_id: str, filename: str) -> list[str]:
        """Step 5 for whatever version the registry lists; returns the chunk ids deleted."""
        versions = self.index.chunk_versions(doc_id)  # before the row: see the module docstring
        state = self.store.document_state(doc_id)
        live = {state.version, state.pending_version} if state is not None else set()
        if state is not None and state.version:
            staged = self._staged(doc_id, filename, state.version)
            if _exists(staged):
                staged.replace(self.original(doc_id, filename))
        stale = [i for i, version in versions.items() if version not in live]
        self.index.delete(stale)
        folder = self.originals / doc_id
        for leftover in folder.glob(f"{glob.escape(filename)}.v*.partial") if folder.is_dir() else ():
            if leftover.name not in {staged_name(filename, v) for v in live if v}:
                leftover.unlink(missing_ok=True)
        if state is not None and state.state == "cleanup":
            self.store.finish_document(doc_id, state.version)
        return stale

    def abandon(self, doc_id: str, filename: str, version: int) -> list[str]:
        """Undo steps 1-3 of `version`; the listed version, if any, stays as it was."""
        doomed = [i for i, v in self.index.chunk_versions(doc_id).items() if v == version]
        self.index.delete(doomed)
        _remove(self._staged(doc_id, filename, version))
        self.store.abandon_document(doc_id, version)
        remaining = self.store.document_state(doc_id)
        if remaining is None:
            shutil.rmtree(self.originals / doc_id, ignore_errors=True)
            return doomed
        return doomed + self.settle(doc_id, filename)

    def delete(self, doc_id: str) -> list[str]:
        """Unlist, then delete chunks, kept original and row (NotFoundError if not listed)."""
        self.store.begin_delete(doc_id, writer_id())
        crash_point("delete-begun")
        return self._finish_delete(doc_id)

    def delete_unlisted(self, doc_id: str) -> list[str]:
        """Delete what is left of an id no document lists: chunks a failed ingest left, its kept files,
        a row whose writer is gone. NotFoundError when nothing is left; StoreError when a running
        process is writing it."""
        if not DOC_ID.fullmatch(doc_id):  # names a folder below `originals`: nothing else may be named
            raise NotFoundError(f"No document with id {doc_id!r}")
        state = self.store.document_state(doc_id)
        if state is not None and not (writer_gone(state) or state.state == "cleanup"):
            raise StoreError(
                f"{state.source} is being {'indexed' if state.state == 'pending' else 'deleted'} by "
                f"another process ({state.writer}); try again when it is done"
            )
        if state is not None:
            self._repair(state)
        doomed = list(self.index.chunk_versions(doc_id))
        folder = self.originals / doc_id
        if state is None and not doomed and not folder.exists():
            raise NotFoundError(f"No document with id {doc_id!r}")
        self.index.delete(doomed)
        shutil.rmtree(folder, ignore_errors=True)
        return doomed

    def _finish_delete(self, doc_id: str) -> list[str]:
        doomed = list(self.index.chunk_versions(doc_id))
        self.index.delete(doomed)
        shutil.rmtree(self.originals / doc_id, ignore_errors=True)
        try:
            self.store.delete_document(doc_id)
        except NotFoundError:
            pass  # another process finished the same deletion
        return doomed

    def repair(self) -> Repair:
        """Finish or undo what crashed or failed writers left, row by row: a row that cannot be
        repaired now (the index down, the disk full) is named and left for the next pass."""
        done = Repair()
        for state in self.store.busy_documents():
            if state.state == "cleanup" or writer_gone(state):
                try:
                    done.deleted += self._repair(state)
                except (RRAGError, OSError) as exc:
                    done.problems.append(f"{state.source}: {_reason(exc)}")
        return done

    def sweep(self) -> list[str]:
        """Delete what no registry row accounts for: chunks and kept files of a document without a row,
        chunks of a version other than a settled document's own, and its staged files. Returns the
        chunk ids deleted. Only for a process alone with the data folder: a row removed and begun again
        by another process meanwhile would lose its new chunks."""
        # Listing every chunk is needed only when the index holds more than the listed documents have.
        extra = self.index.count() > self.store.listed_chunks()
        owners = self.index.chunk_owners() if extra else {}  # before the rows: see the module docstring
        folders = sorted(self.originals.iterdir()) if self.originals.is_dir() else []
        states = {state.doc_id: state for state in self.store.document_states()}
        for folder in folders:
            state = states.get(folder.name)
            if state is None:
                shutil.rmtree(folder, ignore_errors=True)
            elif state.state == "ready":
                for leftover in folder.glob("*.partial"):
                    leftover.unlink(missing_ok=True)
        orphans = []
        for chunk, (doc_id, version) in owners.items():
            state = states.get(doc_id)
            if state is None or (state.state == "ready" and version != state.version):
                orphans.append(chunk)
        self.index.delete(orphans)
        return orphans

    def _repair(self, state: DocumentState) -> list[str]:
        filename = base_name(state.source)  # as it was kept, under the limit of its day
        if state.state == "pending" and state.pending_version is not None:
            return self.abandon(state.doc_id, filename, state.pending_version)
        if state.state == "deleting":
            return self._finish_delete(state.doc_id)
        return self.settle(state.doc_id, filename)


def _reason(exc: RRAGError | OSError) -> str:
    return str(exc) if isinstance(exc, RRAGError) else f"{exc.strerror or exc} ({exc.filename})"
