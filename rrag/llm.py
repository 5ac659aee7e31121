"""LLM backends: one abstract chat method; the OpenAI-compatible client is the real one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Sequence

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}


class LLM(ABC):
    name: str = "base"

    @abstractmethod
    def complete(self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None) -> str:
        """Return the assistant's reply text; raise LLMError (or a subclass) on failure."""
