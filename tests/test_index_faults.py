"""Full disk and Chroma faults (issue 46, item 7): a Chroma call that stalls is bounded by a timeout and
reported; chunks of a failed document are never retrieved and never stay (removed at once, or by the
next open); `rrag delete` removes whatever the index holds of an id."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_chroma_server import ChromaServer, chroma_server  # noqa: F401 (fixture)

from rrag.backends.embedding import get_embedder
from rrag.engine.pipeline import PRESENCE_LOCK
from rrag.errors import NotFoundError
from rrag.ingest.service import Ingestor
from rrag.ingest.sources import doc_id_for
from rrag.locks import PresenceLock
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import Chunk
from tests.served import ROOT, clean_env

LOBBY = "The lobby is on floor 1 and opens at 7 am."
GHOST = "The lobby has a fountain and a grand piano on floor 1."
QUESTION = "What does the lobby have?"


def ghost_chunk(doc_id: str = "ghost-0123456789", version: int = 1) -> Chunk:
    """A chunk no registry row accounts for, as a write that landed after its ingest gave up leaves it."""
    return Chunk(f"{doc_id}:v{version}:0", doc_id, "ghost.txt", GHOST, 0, len(GHOST), None, 0, version)


def test_chunks_the_registry_does_not_hold_are_never_retrieved(settings: Settings, tmp_path: Path) -> None:
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        (tmp_path / "lobby.txt").write_text(LOBBY)
        lobby = Ingestor(settings, index, store).ingest_file(tmp_path / "lobby.txt")
        assert lobby.ok
        index.add([ghost_chunk(), ghost_chunk(lobby.doc_id, version=9)])  # no row; a version never listed
        retrieved = HybridRetriever(index, store, settings.replace(relevance_floor=0.0)).retrieve(QUESTION)
        assert [hit.chunk.chunk_id for hit in retrieved] == [f"{lobby.doc_id}:v1:0"]


def run_cli(data: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rrag", *args],
        cwd=ROOT,
        env=clean_env(RRAG_DATA_DIR=str(data), **env),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_rrag_delete_removes_any_chunks_of_an_id(settings: Settings, tmp_path: Path) -> None:
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        (tmp_path / "lobby.txt").write_text(LOBBY)
        assert Ingestor(settings, index, store).ingest_file(tmp_path / "lobby.txt").ok
        index.add([ghost_chunk()])
        ghost_folder = settings.data_dir / "documents" / "ghost-0123456789"
        ghost_folder.mkdir()
        (ghost_folder / "ghost.txt.v1.partial").write_text(GHOST)

    # The app has the folder open, so the CLI is not alone with it and sweeps nothing on open.
    app = PresenceLock(settings.data_dir / PRESENCE_LOCK)
    try:
        deleted = run_cli(settings.data_dir, "delete", "ghost-0123456789")
        assert deleted.returncode == 0 and "deleted ghost-0123456789" in deleted.stdout, deleted.stderr
        unknown = run_cli(settings.data_dir, "delete", "ghost-0123456789")
        assert unknown.returncode == 2 and "No document with id 'ghost-0123456789'" in unknown.stderr
        outside = run_cli(settings.data_dir, "delete", "../documents")
        assert outside.returncode == 2 and "No document" in outside.stderr
    finally:
        app.close()

    index = ChunkIndex(settings, get_embedder())
    assert [c.doc_id for c in index.all_chunks()] == [doc_id_for("lobby.txt")]
    assert not ghost_folder.exists() and (settings.data_dir / "documents").is_dir()
    with Store(settings) as store, pytest.raises(NotFoundError):
        Ingestor(settings, index, store).delete("../documents")


# Run in a child process, so that "the process that gave up" is gone afterwards, as after a restart.
# The server is stopped just before the chunks are handed to it: the open, the count and the
# near-duplicate read before that answer, and the write is what stalls.
STALLED_INGEST = """
import json, os, signal, sys, time
from pathlib import Path
from rrag.backends.embedding import get_embedder
from rrag.ingest.service import Ingestor
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store

settings = Settings.from_env()
index = ChunkIndex(settings, get_embedder())
write = index.add

def add_once_the_server_stopped(chunks, embeddings=None):
    os.killpg(int(sys.argv[2]), signal.SIGSTOP)
    write(chunks, embeddings)

index.add = add_once_the_server_stopped
began = time.monotonic()
result = Ingestor(settings, index, Store(settings)).ingest_file(Path(sys.argv[1]))
print(json.dumps({"status": result.status, "error": result.error, "seconds": time.monotonic() - began}))
"""


@pytest.mark.slow
def test_a_stalled_chroma_write_is_bounded_reported_and_undone_by_the_next_open(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    remote = {"RRAG_CHROMA_HOST": "127.0.0.1", "RRAG_CHROMA_PORT": str(chroma_server.port)}
    (tmp_path / "lobby.txt").write_text(LOBBY)
    (tmp_path / "ghost.txt").write_text(GHOST)
    assert run_cli(data, "ingest", str(tmp_path / "lobby.txt"), **remote).returncode == 0

    try:
        stalled = subprocess.run(
            [
                sys.executable,
                "-c",
                STALLED_INGEST,
                str(tmp_path / "ghost.txt"),
                str(chroma_server.process.pid),
            ],
            cwd=ROOT,
            env=clean_env(RRAG_DATA_DIR=str(data), RRAG_INDEX_TIMEOUT_S="3", **remote),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        os.killpg(chroma_server.process.pid, signal.SIGCONT)
    assert stalled.returncode == 0, stalled.stderr
    result = json.loads(stalled.stdout)
    assert result["status"] == "failed"
    assert "did not store chunks within 3 s" in result["error"] and "RRAG_INDEX_TIMEOUT_S" in result["error"]
    assert result["seconds"] < 60  # the write (3 s) and the undo's reads (3 s each), not 600 s

    time.sleep(1)  # the server, running again, takes what was queued before it stopped
    listed = run_cli(data, "documents", **remote)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "lobby.txt" in listed.stdout and "ghost.txt" not in listed.stdout
    index = ChunkIndex(
        Settings(data_dir=data, chroma_host="127.0.0.1", chroma_port=chroma_server.port), get_embedder()
    )
    assert [c.doc_id for c in index.all_chunks()] == [doc_id_for("lobby.txt")]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """An 8 MB file system of its own (tmpfs): needs the right to mount, as root in a container has."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    mount = ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)]
    mounted = subprocess.run(mount, capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.slow
def test_a_full_disk_during_ingest_fails_the_file_and_leaves_nothing_of_it(
    small_disk: Path, tmp_path: Path
) -> None:
    data = small_disk / "data"
    (tmp_path / "lobby.txt").write_text(LOBBY)
    rules = " ".join(f"Rule {i}: the limit for item {i} is {i * 7} euros." for i in range(1500))
    (tmp_path / "rules.txt").write_text(rules)
    assert run_cli(data, "ingest", str(tmp_path / "lobby.txt")).returncode == 0
    free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
    filler = small_disk / "filler"
    subprocess.run(["fallocate", "-l", str(free - 150_000), str(filler)], check=True)

    full = run_cli(data, "ingest", str(tmp_path / "rules.txt"))
    assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
    assert "failed    rules.txt:" in full.stdout and "full" in full.stdout

    filler.unlink()
    listed = run_cli(data, "documents")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "lobby.txt" in listed.stdout and "rules.txt" not in listed.stdout
    index = ChunkIndex(Settings(data_dir=data), get_embedder())
    assert {c.doc_id for c in index.all_chunks()} == {doc_id_for("lobby.txt")}
    assert not (data / "documents" / doc_id_for("rules.txt")).exists()


def test_a_chunk_no_row_accounts_for_makes_no_new_text_a_duplicate(
    settings: Settings, tmp_path: Path
) -> None:
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        ghost = " ".join(f"Visitors sign in at desk {i} and wear badge {i} at all times." for i in range(8))
        index.add([Chunk("ghost-0123456789:v1:0", "ghost-0123456789", "ghost.txt", ghost, 0, len(ghost))])
        (tmp_path / "visitors.txt").write_text(ghost)
        result = Ingestor(settings, index, store).ingest_file(tmp_path / "visitors.txt")
        assert (result.status, result.chunks_added, result.duplicates_dropped) == ("added", 1, 0)
        hits = HybridRetriever(index, store, settings).retrieve("Where do visitors sign in?")
        assert [hit.chunk.source for hit in hits] == ["visitors.txt"]
