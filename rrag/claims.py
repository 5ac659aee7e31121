"""Claim extractors split an answer into atomic claims that keep their span in the answer."""

from __future__ import annotations

from abc import ABC, abstractmethod

from rrag.types import Claim


class ClaimExtractor(ABC):
    name: str = "base"

    @abstractmethod
    def extract(self, answer: str, question: str = "") -> list[Claim]:
        """Claims in answer order; non-factual sentences come back with `checkable=False`."""
