"""Eight real processes open a fresh store at the same moment: every one of them must succeed.

Each process imports everything first, then waits for a shared start signal, so that the opens race
on the schema creation (the database's migrations and the embedded Chroma's own sqlite schema).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from rrag.settings import Settings
from rrag.store.schema import DocumentRow, SchemaVersion

PROCESSES = 8
ROOT = Path(__file__).resolve().parents[1]

WORKER = """
import sys, time
from pathlib import Path
from rrag.backends.embedding import get_embedder
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import DocumentInfo

worker, go = sys.argv[1], Path(sys.argv[2])
settings = Settings.from_env()
Path(str(go) + "." + worker).touch()  # ready
while not go.exists():
    time.sleep(0.001)
with Store(settings) as store:
    ChunkIndex(settings, get_embedder())
    store.save_document(DocumentInfo(f"d{worker}", f"docs/{worker}.md", "0" * 64, 1, 1, 0, "2026-11-24"))
print("opened")
"""


def _open_from_processes(settings: Settings, tmp_path: Path) -> list[subprocess.CompletedProcess[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_")}
    env |= {"RRAG_DATA_DIR": str(settings.data_dir), "PYTHONPATH": str(ROOT)}
    if settings.database_url:
        env["RRAG_DATABASE_URL"] = settings.database_url
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(i), str(go)],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    deadline = time.monotonic() + 120
    while sum(Path(f"{go}.{i}").exists() for i in range(PROCESSES)) < PROCESSES:
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "a worker died early"
        time.sleep(0.01)
    go.touch()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(p.args, p.returncode, out, err))
    return results


@pytest.mark.slow
def test_eight_processes_open_a_fresh_store_at_once(db_settings: Settings, tmp_path: Path) -> None:
    assert not db_settings.data_dir.exists()
    results = _open_from_processes(db_settings, tmp_path)
    # The whole traceback's end: the last line alone hides where the error escaped (a CI failure did).
    failed = [r.stderr.strip()[-3000:] for r in results if r.returncode != 0]
    assert failed == [], f"{len(failed)}/{PROCESSES} processes failed to open the store: {failed}"
    assert all(r.stdout.strip() == "opened" for r in results)
    engine = create_engine(db_settings.sqlalchemy_url)
    try:
        with engine.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(DocumentRow)) == PROCESSES
            versions = list(conn.scalars(select(SchemaVersion.version).order_by(SchemaVersion.version)))
    finally:
        engine.dispose()
    assert versions == list(range(1, len(versions) + 1))  # each migration applied exactly once
