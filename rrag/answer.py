"""Answerers compose an answer to a question from retrieved chunks."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

from rrag.types import Answer, RetrievedChunk

REFUSAL = "I cannot answer this from the indexed documents: nothing relevant was found."


class Answerer(ABC):
    name: str = "base"

    @abstractmethod
    def answer(self, question: str, contexts: Sequence[RetrievedChunk]) -> Answer:
        """Answer only from `contexts`; with no contexts return the refusal (`refused=True`)."""
