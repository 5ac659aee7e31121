"""A fake LLM for tests of what the engine does with replies: a subclass of the real base class that
returns queued replies in order (a dict is sent as its JSON) and records every request."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from typing import Any

from rrag.backends.llm import LLM, Message
from rrag.errors import LLMError


class FakeLLM(LLM):
    name = "fake"

    def __init__(self, *replies: str | dict[str, Any] | LLMError) -> None:
        self.replies: deque[str | dict[str, Any] | LLMError] = deque(replies)
        self.requests: list[list[Message]] = []

    def complete(self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None) -> str:
        self.requests.append(list(messages))
        if not self.replies:
            raise LLMError("the fake LLM has no reply queued")
        reply = self.replies.popleft()
        if isinstance(reply, LLMError):
            raise reply
        return reply if isinstance(reply, str) else json.dumps(reply)
