"""Crash consistency of ingest (issue 11): a real `python -m rrag` process dies by SIGKILL (kill -9) at a
point named in RRAG_TEST_CRASH_AT; opening the data folder afterwards must list exactly what the index
holds, one version per document, with the kept original of that version."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from rrag.backends.embedding import get_embedder
from rrag.engine.pipeline import ReliableRAG
from rrag.ingest.journal import CRASH_AT_ENV, Journal
from rrag.ingest.service import Ingestor
from rrag.ingest.sources import doc_id_for
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store

pytestmark = pytest.mark.slow  # real subprocesses

OLD = " ".join(f"Old rule {i}: the hotel limit is {100 + i} euros per night." for i in range(12))
NEW = " ".join(f"New rule {i}: the meal allowance is {40 + i} euros per day." for i in range(12))
OTHER = "Visitors sign in at the front desk and wear a badge at all times."
SMALL_CHUNKS = {"RRAG_CHUNK_SIZE": "200", "RRAG_CHUNK_OVERLAP": "0"}  # several chunks per document


def run_cli(*args: str, data_dir: Path, crash_at: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    env |= SMALL_CHUNKS | {"RRAG_DATA_DIR": str(data_dir)}
    if crash_at:
        env[CRASH_AT_ENV] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "rrag", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder where docs/policy.txt (the old text) and docs/other.txt are indexed."""
    root = tmp_path_factory.mktemp("crash")
    (root / "docs").mkdir()
    (root / "docs" / "policy.txt").write_text(OLD)
    (root / "docs" / "other.txt").write_text(OTHER)
    out = run_cli("ingest", str(root / "docs"), data_dir=root / "data")
    assert out.returncode == 0, out.stdout + out.stderr
    return root


@pytest.fixture
def copy(committed: Path, tmp_path: Path) -> Path:
    shutil.copytree(committed, tmp_path / "copy")
    return tmp_path / "copy"


def _open_and_check(root: Path) -> ReliableRAG:
    """Open the folder as the app does (the repair pass runs) and check it is consistent."""
    rag = ReliableRAG(Settings.from_env(data_dir=root / "data", chunk_size=200, chunk_overlap=0))
    listed = {d.doc_id: d for d in rag.documents()}
    chunks = rag.index.all_chunks()
    assert {c.doc_id for c in chunks} <= set(listed), "chunks retrieved that no listed document owns"
    for doc in listed.values():
        versions = [c.version for c in chunks if c.doc_id == doc.doc_id]
        assert set(versions) <= {doc.version} and len(versions) == doc.chunks, doc
        original = root / "data" / "documents" / doc.doc_id / Path(doc.source).name
        assert hashlib.sha256(original.read_bytes()).hexdigest() == doc.sha256  # the listed version's file
        assert not list(original.parent.glob("*.partial"))
    assert rag.store.busy_documents() == []
    return rag


def _policy_text(rag: ReliableRAG) -> str:
    return " ".join(c.text for c in rag.document_chunks(doc_id_for("policy.txt")))


@pytest.mark.parametrize(
    ("crash_at", "listed"),
    [("ingest-begun", OLD), ("chunk-batch-written", OLD), ("committed", NEW)],
)
def test_a_replacement_killed_at_any_point_leaves_one_whole_version(
    copy: Path, crash_at: str, listed: str
) -> None:
    (copy / "docs" / "policy.txt").write_text(NEW)
    out = run_cli("ingest", str(copy / "docs"), data_dir=copy / "data", crash_at=crash_at)
    assert out.returncode == -signal.SIGKILL, out.stderr

    rag = _open_and_check(copy)
    text = _policy_text(rag)
    assert text == listed and len(rag.documents()) == 2
    policy = rag.store.get_document(doc_id_for("policy.txt"))
    assert policy.sha256 == hashlib.sha256(listed.encode()).hexdigest()
    # The next ingest is not blocked by anything the crash left, and ends on the new text.
    assert rag.ingest([copy / "docs"])[0].ok and _policy_text(rag) == NEW


def test_a_new_document_killed_after_its_chunks_is_neither_listed_nor_retrieved(copy: Path) -> None:
    (copy / "docs" / "new.txt").write_text(NEW)
    out = run_cli(
        "ingest", str(copy / "docs" / "new.txt"), data_dir=copy / "data", crash_at="chunk-batch-written"
    )
    assert out.returncode == -signal.SIGKILL, out.stderr

    rag = _open_and_check(copy)
    assert sorted(d.source for d in rag.documents()) == ["other.txt", "policy.txt"]
    assert not (copy / "data" / "documents" / doc_id_for("new.txt")).exists()


def test_a_delete_killed_after_it_began_finishes_on_open(copy: Path) -> None:
    out = run_cli("delete", doc_id_for("other.txt"), data_dir=copy / "data", crash_at="delete-begun")
    assert out.returncode == -signal.SIGKILL, out.stderr

    rag = _open_and_check(copy)
    assert [d.source for d in rag.documents()] == ["policy.txt"]


def test_repair_leaves_a_version_that_a_running_process_is_writing(settings: Settings) -> None:
    with Store(settings) as store:
        index = ChunkIndex(settings, get_embedder())
        journal = Journal(store, index, settings.data_dir / "documents")
        running = store.begin_document("a.txt", "a.txt", "a-1", f"{socket.gethostname()}:{os.getpid()}")
        finished = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        )
        dead = store.begin_document(
            "b.txt", "b.txt", "b-1", f"{socket.gethostname()}:{finished.stdout.strip()}"
        )
        assert (running, dead) == (1, 1)

        journal.repair()

        assert [s.doc_id for s in store.busy_documents()] == ["a-1"]  # still being written: left alone
        assert store.document_state("b-1") is None  # never committed, its writer gone: undone


def test_a_replacement_keeps_only_the_new_original_whatever_its_name(
    settings: Settings, tmp_path: Path
) -> None:
    with Store(settings) as store:
        ingestor = Ingestor(settings, ChunkIndex(settings, get_embedder()), store)
        path = tmp_path / "report [final].txt"  # glob characters in the name
        kept = settings.data_dir / "documents" / doc_id_for(path.name)
        path.write_text(OLD)
        assert ingestor.ingest_file(path).ok
        (kept / f"{path.name}.v9.partial").write_text(OLD)  # as an undone write could leave it
        path.write_text(NEW)
        assert ingestor.ingest_file(path).ok
        assert [p.name for p in kept.iterdir()] == [path.name] and (kept / path.name).read_text() == NEW
