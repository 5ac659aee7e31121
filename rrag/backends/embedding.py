"""Embedders turn texts into unit-length vectors. The offline default is int8 all-MiniLM-L6-v2 on
onnxruntime."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rrag.backends.onnx import cpu_session, model_file_for_this_cpu
from rrag.errors import ConfigError

if TYPE_CHECKING:
    from tokenizers import Encoding


class Embedder(ABC):
    """One abstract method; rows of the result are L2-normalised float32 vectors."""

    name: str = "base"
    dim: int = 0

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


MINILM_DIM = 384
MINILM_MAX_TOKENS = 256  # what all-MiniLM-L6-v2 was trained with; longer input is truncated
MODEL_DIR = Path(__file__).resolve().parent / "models"
# all-MiniLM-L6-v2 with int8 products (training/export_embedder.py), and the same weights as uint8 for
# CPUs whose int8 kernels saturate (x86-64 without VNNI): the same vectors on every CPU.
MODEL_FILE = "embed-minilm-l6-int8.onnx"
PORTABLE_MODEL_FILE = "embed-minilm-l6-uint8.onnx"
TOKENIZER_FILE = "embed-tokenizer.json"
THREADS = 2  # the target machine has 2 cores; more threads only contend


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised 384-d sentence vectors, no torch.

    Each text runs alone, two at a time: int8 activations are quantised per tensor, so batch mates
    would move a text's vector; alone, a text's vector is its own, no padding is computed, and the
    memory a call holds does not grow with the number or length of its batch mates."""

    name = "minilm"
    dim = MINILM_DIM

    def __init__(
        self, model_dir: Path = MODEL_DIR, threads: int = THREADS, model_file: str | None = None
    ) -> None:
        from tokenizers import Tokenizer

        model_file = model_file or model_file_for_this_cpu(model_dir, MODEL_FILE, PORTABLE_MODEL_FILE)
        model_path, tokenizer_path = model_dir / model_file, model_dir / TOKENIZER_FILE
        if not model_path.is_file() or not tokenizer_path.is_file():
            raise ConfigError(
                f"the offline embedding model is missing from {model_dir} (expected {model_file})"
            )
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)
        self._session = cpu_session(model_path, 1)
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="embed")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(list(texts))
        return np.stack(list(self._pool.map(self._embed_one, encodings)))

    def _embed_one(self, encoding: Encoding) -> np.ndarray:
        ids = np.array([encoding.ids], dtype=np.int64)
        hidden = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)},
        )[0][0]
        pooled = hidden.mean(axis=0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)


EMBEDDERS: dict[str, type[Embedder]] = {"minilm": MiniLMEmbedder}

_instances: dict[str, Embedder] = {}
_instances_lock = threading.Lock()


def get_embedder(name: str = "minilm") -> Embedder:
    """One shared instance per backend and process: loading the model costs about a second."""
    if name not in EMBEDDERS:
        raise ConfigError(f"unknown embedder {name!r}; choose one of {sorted(EMBEDDERS)}")
    with _instances_lock:
        if name not in _instances:
            _instances[name] = EMBEDDERS[name]()
        return _instances[name]
