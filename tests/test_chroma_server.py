"""Server mode: a real `chroma run` on loopback, reached through HttpClient (RRAG_CHROMA_HOST/PORT)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures_docs import write_handbook

from rrag.backends.embedding import get_embedder
from rrag.errors import IndexError_
from rrag.ingest.service import Ingestor
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store

pytestmark = pytest.mark.slow

CHROMA = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
STARTUP_TIMEOUT_S = 30.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ChromaServer:
    def __init__(self, path: Path) -> None:
        self.port = _free_port()
        self.log = path.parent / "chroma.log"
        self._log_file = self.log.open("wb")
        self.process = subprocess.Popen(
            [str(CHROMA), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so stop() reaches any children too
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        url = f"http://127.0.0.1:{self.port}/api/v2/heartbeat"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chroma exited early: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"chroma did not answer its heartbeat within {STARTUP_TIMEOUT_S} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self._log_file.close()


@pytest.fixture
def chroma_server(tmp_path: Path, request: pytest.FixtureRequest) -> ChromaServer:
    if CHROMA is None:
        pytest.fail("the `chroma` command is missing: pip install -r requirements.txt")
    server = ChromaServer(tmp_path / "chroma-server")
    request.addfinalizer(server.stop)
    server.wait_ready()
    return server


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    with Store(settings) as store:
        yield store


def test_ingest_and_query_through_a_chroma_server(
    chroma_server: ChromaServer, settings: Settings, store: Store, tmp_path: Path
) -> None:
    remote = settings.replace(chroma_host="127.0.0.1", chroma_port=chroma_server.port)
    index = ChunkIndex(remote, get_embedder())
    assert index.location == f"http://127.0.0.1:{chroma_server.port}"
    ingestor = Ingestor(remote, index, store)
    results = [ingestor.ingest_file(p) for p in write_handbook(tmp_path / "docs")]
    assert all(r.status == "added" for r in results)
    assert index.count() == sum(r.chunks_added for r in results)
    assert not remote.chroma_dir.exists()  # nothing went to the embedded store

    hits = HybridRetriever(index, store, remote).retrieve("How many vacation days do full-time staff get?")
    assert hits[0].chunk.source == "annual_leave.md"
    assert HybridRetriever(index, store, remote).retrieve("What is the capital of Mongolia?") == []
    # A keyword candidate's similarity is read from the server's stored vectors, as the search gives it.
    asked = index.query_vectors(["How many vacation days do full-time staff get?"])
    nearest = index.nearest(asked, 3)[0]
    read = index.similarities(asked, [[chunk_id for chunk_id, _ in nearest] + ["no-such-chunk"]])[0]
    assert read == pytest.approx(dict(nearest), abs=1e-4)

    # The server keeps the data: a second client sees it, and delete goes through it.
    again = ChunkIndex(remote, get_embedder())
    leave = results[0].doc_id
    assert again.get_chunks(leave) == index.get_chunks(leave)
    ingestor.delete(leave)
    assert again.get_chunks(leave) == []


def test_a_server_that_goes_down_fails_each_file_clearly(
    chroma_server: ChromaServer, settings: Settings, store: Store, tmp_path: Path
) -> None:
    remote = settings.replace(chroma_host="127.0.0.1", chroma_port=chroma_server.port)
    index = ChunkIndex(remote, get_embedder())
    ingestor = Ingestor(remote, index, store)
    paths = write_handbook(tmp_path / "docs")
    assert ingestor.ingest_file(paths[0]).ok
    chroma_server.stop()
    result = ingestor.ingest_file(paths[1])
    assert result.status == "failed" and "vector index could not" in (result.error or "")
    assert store.get_document_by_identity(paths[1].name) is None  # not registered without its chunks
    with pytest.raises(IndexError_):
        HybridRetriever(index, store, remote).retrieve("How many vacation days?")
