"""Scale-out: two engine processes share one Chroma server and one PostgreSQL on loopback (the recipe
of docs/operations.md); what one ingests the other answers from at once, keyword search included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures_docs import write_handbook
from pg_server import PostgresServer
from test_chroma_server import ChromaServer, chroma_server  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

WORKER = Path(__file__).with_name("engine_worker.py")
REPLY_TIMEOUT_S = 120


class Engine:
    """A `ReliableRAG` in its own process, with its own data dir: nothing local is shared."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=Path(__file__).parent.parent,
        )
        assert self._reply() == {"ready": True}

    def send(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._reply()

    def _reply(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine process exited ({self.process.wait(REPLY_TIMEOUT_S)})")
        return dict(json.loads(line))

    def stop(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def engines(
    chroma_server: ChromaServer, postgres: PostgresServer, tmp_path: Path
) -> Iterator[tuple[Engine, Engine]]:
    shared = {
        "RRAG_DATABASE_URL": postgres.url(postgres.create_schema()),
        "RRAG_CHROMA_HOST": "127.0.0.1",
        "RRAG_CHROMA_PORT": str(chroma_server.port),
        "PYTHONPATH": str(Path(__file__).parent.parent),
    }
    started: list[Engine] = []
    try:
        for name in ("a", "b"):  # one after the other: the first one creates the schema
            started.append(Engine({**os.environ, **shared, "RRAG_DATA_DIR": str(tmp_path / name)}))
        yield started[0], started[1]
    finally:
        for engine in started:
            engine.stop()


def test_what_one_process_ingests_the_other_answers_from_at_once(
    engines: tuple[Engine, Engine], tmp_path: Path
) -> None:
    a, b = engines
    for path in write_handbook(tmp_path / "docs"):
        assert a.send(op="ingest", path=str(path))["status"] == "added"

    answer = b.send(op="ask", question="How many vacation days do full-time staff get?")
    source, vector, keyword = answer["contexts"][0]
    assert source == "annual_leave.md" and vector > 0 and keyword > 0

    forms = tmp_path / "forms.txt"
    forms.write_text("Form QX-7731 is used to claim relocation costs. Send it to payroll with your receipts.")
    assert b.send(op="ingest", path=str(forms))["status"] == "added"
    source, _, keyword = a.send(op="ask", question="Which form is QX-7731?")["contexts"][0]
    assert source == "forms.txt" and keyword > 0.3  # the keyword index is shared, not per process

    assert answer["session_id"] in a.send(op="sessions")["session_ids"]  # one history for both
