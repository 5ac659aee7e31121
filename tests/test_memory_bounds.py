"""Memory bounds of ingest (issue 11): each case runs in a fresh subprocess that reports its own peak
resident memory (VmHWM), with bounds far from both the old and the new figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures_docs import make_docx_bomb, make_long_pdf

pytestmark = pytest.mark.slow  # real subprocesses

# Prints the result of the code before it as JSON, with the process's peak resident memory in MB.
# VmHWM belongs to the process's own address space; getrusage's ru_maxrss would also count the pytest
# process it was forked from (Linux keeps the larger value across exec).
REPORT_PEAK = (
    "\nimport json, re\n"
    "hwm = re.search(r'VmHWM:\\s+(\\d+) kB', open('/proc/self/status').read()).group(1)\n"
    "print(json.dumps({'out': out, 'peak_mb': int(hwm) / 1024}))"
)


def _measured(code: str, data_dir: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    env["RRAG_DATA_DIR"] = str(data_dir)
    done = subprocess.run(
        [sys.executable, "-c", code + REPORT_PEAK],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_a_docx_bomb_is_refused_from_its_zip_directory_without_inflating_it(tmp_path: Path) -> None:
    bomb = make_docx_bomb(tmp_path / "memo.docx", inflated_mb=40)  # ~60 KB on disk
    result = _measured(
        "from pathlib import Path\nfrom rrag.errors import FileTooLargeError\n"
        "from rrag.ingest.extract import extract\n"
        f"try:\n    out = extract(Path({str(bomb)!r}), max_bytes=10**8).text\n"
        "except FileTooLargeError as exc:\n    out = str(exc)\n",
        tmp_path / "data",
    )
    assert "memo.docx: the file unpacks to 40 MB" in str(result["out"])
    assert float(result["peak_mb"]) < 300  # the old reader parsed it all: 0.9 GB for 24 MB of it here


def test_a_long_pdf_is_embedded_in_bounded_batches(tmp_path: Path) -> None:
    # 24 pages give ~140 chunks of ~1,000 characters: two of the old batches of 64 full-length texts,
    # whose attention tensors alone took ~0.6 GB on top of the ~0.5 GB of loaded models.
    pdf = make_long_pdf(tmp_path / "manual.pdf", pages=24)
    result = _measured(
        f"from rrag.tools.cli import main\nout = main(['ingest', {str(pdf)!r}])\n", tmp_path / "data"
    )
    assert result["out"] == 0
    assert float(result["peak_mb"]) < 1000
