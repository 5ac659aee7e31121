"""onnxruntime sessions for the local models (the embedder, the judge and the question-passage model),
set up alike, and which of a model's two int8 copies this CPU runs exactly."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from onnxruntime import InferenceSession


def cpu_session(model_path: Path, threads: int) -> InferenceSession:
    """A session on `threads` CPU threads, one operator at a time. Its idle threads sleep rather than
    spin (onnxruntime's default): one model's spinning thread holds a core the next model needs, as the
    query embedder's did while the question-passage model scored the candidates on both
    (docs/log/2026-11-29-reranking-on-two-cores.md)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])


# A one-matrix model beside a model's two copies: uint8 [1, width] times int8 weights all 127
# (training/portable_int8.py writes it).
INT8_PROBE_FILE = "int8-probe.onnx"


def model_file_for_this_cpu(model_dir: Path, int8_file: str, portable_file: str) -> str:
    """`int8_file` where onnxruntime's int8 kernels multiply exactly, else `portable_file`: the same
    weights as uint8, exact on every x86-64 CPU but about 1.5x the time of int8 where that is exact.

    Asks the kernels rather than the CPU flags: a probe of products large enough to saturate a 16-bit
    lane (255 x 127, summed in pairs) comes back exact only where no lane saturates (CPUs with VNNI)."""
    probe = model_dir / INT8_PROBE_FILE
    if not probe.is_file():
        return int8_file  # an export without a probe (a test's own model folder): one model only
    return int8_file if _multiplies_exactly(probe) else portable_file


@lru_cache(maxsize=4)
def _multiplies_exactly(probe: Path) -> bool:
    import onnxruntime as ort

    session = ort.InferenceSession(str(probe), providers=["CPUExecutionProvider"])
    row = session.get_inputs()[0]
    width = row.shape[1]
    product = session.run(None, {row.name: np.full((1, width), 255, dtype=np.uint8)})[0]
    return int(product.flat[0]) == 255 * 127 * width
