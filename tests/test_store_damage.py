"""A store that notices damage: a malformed rrag.db refuses writes with a clear error and a recovery
hint; a lost index is reported and re-indexed from the kept originals; a full disk and an unwritable
folder are named as such. The CLI runs as a user runs it, one process per command."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import streamlit as st
from test_pages import _page, rag  # noqa: F401 (fixture)

from rrag.engine.pipeline import PRESENCE_LOCK
from rrag.errors import StoreDamagedError, StoreFullError, StoreReadOnlyError
from rrag.locks import PresenceLock
from rrag.settings import Settings
from rrag.store import Store
from rrag.store.health import named_os_failure
from ui.engine import get_engine

POLICY = "Passwords must be at least 14 characters long and are changed every 90 days.\n"
GARBAGE = os.urandom(8192)


def run_cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    env["RRAG_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-m", "rrag", *args], capture_output=True, text=True, env=env, timeout=300
    )


def _docs(root: Path, count: int) -> list[str]:
    paths = []
    for n in range(count):
        path = root / f"policy{n}.txt"
        path.write_text(
            f"Section {n}. " + POLICY + f"Rule {n}: badge number {n * 7919} opens door {n}.\n" * 30
        )
        paths.append(str(path))
    return paths


def _scribble(database: Path) -> None:
    with sqlite3.connect(database) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    size = database.stat().st_size
    with database.open("r+b") as stream:
        stream.seek(size // 2 - len(GARBAGE) // 2)
        stream.write(GARBAGE)


def test_a_malformed_database_refuses_writes_with_a_recovery_hint(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert run_cli(data, "ingest", *_docs(tmp_path, 8)).returncode == 0
    _scribble(data / "rrag.db")
    (tmp_path / "new.txt").write_text("Visitors sign in at the reception desk.\n", encoding="utf-8")
    out = run_cli(data, "ingest", str(tmp_path / "new.txt"))
    assert out.returncode == 2
    assert "is damaged" in out.stderr and ".recover" in out.stderr and "Traceback" not in out.stderr
    with Store(Settings(data_dir=data)) as store:
        assert store.damage
        with pytest.raises(StoreDamagedError, match="Nothing was written"):
            store.save_app_settings({"top_k": 3})


def test_a_lost_index_is_repaired_on_open_from_the_kept_originals(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert run_cli(data, "ingest", *_docs(tmp_path, 2)).returncode == 0
    shutil.rmtree(data / "chroma")
    listed = run_cli(data, "documents")  # alone with the folder: safe to re-index on open
    assert listed.returncode == 0 and "policy0.txt" in listed.stdout
    assert "2 document(s) the index lacked were re-indexed from the kept originals on open" in listed.stderr
    assert "missing from the index" not in listed.stderr
    asked = run_cli(data, "ask", "How long must passwords be?")
    assert "14 characters" in asked.stdout and "missing from the index" not in asked.stdout + asked.stderr


def test_a_lost_index_beside_another_process_is_reported_and_repaired_on_demand(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert run_cli(data, "ingest", *_docs(tmp_path, 2)).returncode == 0
    shutil.rmtree(data / "chroma")
    other = PresenceLock(data / PRESENCE_LOCK)  # another process has the folder open: no repair on open
    try:
        listed = run_cli(data, "documents")
        assert listed.returncode == 0 and "policy0.txt" in listed.stdout
        assert "2 listed document(s) are missing from the index" in listed.stderr
        assert "python -m rrag repair" in listed.stderr and "re-indexed" not in listed.stderr
        asked = run_cli(data, "ask", "How long must passwords be?", "--json")
        assert "missing from the index" in asked.stdout  # the report's notes say why nothing was found
        repaired = run_cli(data, "repair")  # asked for: runs beside the other process
        assert repaired.returncode == 0, repaired.stderr
        assert repaired.stdout.count("replaced") + repaired.stdout.count("added") == 2
    finally:
        other.close()
    asked = run_cli(data, "ask", "How long must passwords be?")
    assert "14 characters" in asked.stdout and "missing from the index" not in asked.stdout + asked.stderr
    assert "nothing to repair" in run_cli(data, "repair").stdout


def test_full_disk_and_read_only_are_named() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    assert isinstance(named_os_failure("save the report", "/d/rrag.db", full), StoreFullError)
    io_error = sqlite3.OperationalError("disk I/O error")
    assert "full" in str(named_os_failure("save the report", "/d/rrag.db", io_error))
    read_only = sqlite3.OperationalError("attempt to write a readonly database")
    assert isinstance(named_os_failure("save the report", "/d/rrag.db", read_only), StoreReadOnlyError)
    assert named_os_failure("save", "/d/rrag.db", sqlite3.OperationalError("no such table: x")) is None


@pytest.mark.usefixtures("rag")  # the pages' engine, with documents indexed
def test_the_documents_page_reports_a_lost_index_and_repairs_it() -> None:
    engine = get_engine()
    lost = engine.documents()[0]
    engine.index.delete_document(lost.doc_id)  # the index lost one document's chunks
    at = _page("documents")
    (warning,) = [w.value for w in at.warning if "missing from the index" in w.value]
    assert "1 listed document(s)" in warning and lost.source in warning
    next(b for b in at.button if b.label == "Re-index from the kept originals").click()
    at.run()
    assert not at.exception
    assert not [w for w in at.warning if "missing from the index" in w.value]
    assert len(engine.index.chunk_versions(lost.doc_id)) == lost.chunks


@pytest.mark.usefixtures("rag")  # the pages' engine, with documents indexed
def test_the_documents_page_says_what_was_re_indexed_on_open() -> None:
    engine = get_engine()
    lost = engine.documents()[0]
    engine.index.delete_document(lost.doc_id)  # the index lost one document's chunks
    engine.close()  # the app stops
    st.cache_resource.clear()
    at = _page("documents")  # and starts again, alone with its folder: repaired on open
    (note,) = [
        i.value.replace("\\", "") for i in at.info if "re-indexed from the kept originals on open" in i.value
    ]
    assert note.startswith("1 document(s) the index lacked") and lost.source in note
    assert not get_engine().missing_from_index()
    assert not [w for w in at.warning if "missing from the index" in w.value]
