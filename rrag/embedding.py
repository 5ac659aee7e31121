"""Embedders turn texts into unit-length vectors. The offline default is int8 all-MiniLM-L6-v2 on onnxruntime."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np


class Embedder(ABC):
    """One abstract method; rows of the result are L2-normalised float32 vectors."""

    name: str = "base"
    dim: int = 0

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray: ...
