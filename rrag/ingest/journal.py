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
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from rrag.errors import NotFoundError
from rrag.ingest.sources import safe_filename
from rrag.retrieval.index import ChunkIndex
from rrag.store.records import DocumentState
from rrag.store.schema import utcnow
from rrag.types import Chunk, DocumentInfo

if TYPE_CHECKING:
    from rrag.store import Store

CRASH_AT_ENV = "RRAG_TEST_CRASH_AT"
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
        return self.originals / doc_id / f"{filename}.v{version}.partial"

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

    def commit(self, info: DocumentInfo, version: int, chunks: Sequence[Chunk]) -> None:
        self.store.commit_document(info, version, chunks)

    def settle(self, doc_id: str, filename: str) -> list[str]:
        """Step 5 for whatever version the registry lists; returns the chunk ids deleted."""
        versions = self.index.chunk_versions(doc_id)  # before the row: see the module docstring
        state = self.store.document_state(doc_id)
        live = {state.version, state.pending_version} if state is not None else set()
        if state is not None and state.version:
            staged = self._staged(doc_id, filename, state.version)
            if staged.exists():
                staged.replace(self.original(doc_id, filename))
        stale = [i for i, version in versions.items() if version not in live]
        self.index.delete(stale)
        folder = self.originals / doc_id
        for leftover in folder.glob(f"{glob.escape(filename)}.v*.partial") if folder.is_dir() else ():
            if leftover.name not in {f"{filename}.v{v}.partial" for v in live if v}:
                leftover.unlink(missing_ok=True)
        if state is not None and state.state == "cleanup":
            self.store.finish_document(doc_id, state.version)
        return stale

    def abandon(self, doc_id: str, filename: str, version: int) -> list[str]:
        """Undo steps 1-3 of `version`; the listed version, if any, stays as it was."""
        doomed = [i for i, v in self.index.chunk_versions(doc_id).items() if v == version]
        self.index.delete(doomed)
        self._staged(doc_id, filename, version).unlink(missing_ok=True)
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

    def _finish_delete(self, doc_id: str) -> list[str]:
        doomed = list(self.index.chunk_versions(doc_id))
        self.index.delete(doomed)
        shutil.rmtree(self.originals / doc_id, ignore_errors=True)
        try:
            self.store.delete_document(doc_id)
        except NotFoundError:
            pass  # another process finished the same deletion
        return doomed

    def repair(self) -> list[str]:
        """Finish or undo what crashed processes left; returns the chunk ids deleted."""
        deleted: list[str] = []
        for state in self.store.busy_documents():
            if state.state == "cleanup" or writer_gone(state):
                deleted += self._repair(state)
        return deleted

    def _repair(self, state: DocumentState) -> list[str]:
        filename = safe_filename(state.source)
        if state.state == "pending" and state.pending_version is not None:
            return self.abandon(state.doc_id, filename, state.pending_version)
        if state.state == "deleting":
            return self._finish_delete(state.doc_id)
        return self.settle(state.doc_id, filename)
