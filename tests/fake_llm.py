"""A scripted LLM for tests outside the HTTP adapter's own: a subclass of the real `LLM` base (as
simonw/llm's MockModel), so every caller runs its real code and only the server is replaced.

Queue replies (`reply`, `reply_json`, `fail`, or as arguments: a str is sent as it is, any other
value as its JSON, an LLMError raised); each call takes the next one in order and is recorded
with its messages, `max_tokens` and output mode. Modes in `refuses` are refused as a server refuses
a response format (OutputModeError), before any reply is taken. With nothing queued a call raises
AssertionError, so a test sees calls it did not plan for. A call with `on_text` streams its reply in
pieces of `piece_chars` characters, recorded in its request; `fail(error, after=TEXT)` streams TEXT,
then raises `error`, as a server that breaks off mid-reply.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rrag.backends.llm import LLM, Completion, Message, OutputMode, TextSink, TokenLimits
from rrag.errors import LLMError, OutputModeError
from rrag.settings import Settings

MODEL = "fake-model"
_instances = itertools.count()


@dataclass(frozen=True)
class Request:
    messages: list[Message]
    max_tokens: int
    mode: OutputMode | None
    schema: dict[str, Any] | None
    streamed: list[str] = field(default_factory=list)  # the pieces passed to on_text


@dataclass(frozen=True)
class _BreakOff:
    text: str  # streamed before the error
    error: LLMError


class FakeLLM(LLM):
    name = "fake"

    def __init__(
        self,
        *replies: Any,
        refuses: Sequence[OutputMode] = (),
        server: str | None = None,
        settings: Settings | None = None,
        served_model: str = MODEL,
        piece_chars: int = 4,
    ) -> None:
        self.model = MODEL
        self.server = (
            server or f"fake://llm-{next(_instances)}"
        )  # its own: output modes are remembered per server
        self.limits = TokenLimits.from_settings(settings or Settings())
        self.refuses = set(refuses)
        self.served_model = served_model
        self.piece_chars = piece_chars
        self.requests: list[Request] = []
        self._replies: deque[Completion | LLMError | _BreakOff] = deque()
        for queued in replies:
            if isinstance(queued, LLMError):
                self.fail(queued)
            elif isinstance(queued, str):
                self.reply(queued)
            else:
                self.reply_json(queued)

    def reply(self, text: str, *, truncated: bool = False, prompt_tokens: int = 10) -> FakeLLM:
        self._replies.append(
            Completion(text, self.served_model, prompt_tokens, max(1, len(text) // 4), truncated)
        )
        return self

    def reply_json(self, value: Any, **kwargs: Any) -> FakeLLM:
        return self.reply(json.dumps(value), **kwargs)

    def fail(self, error: LLMError, *, after: str = "") -> FakeLLM:
        self._replies.append(_BreakOff(after, error) if after else error)
        return self

    @property
    def pending(self) -> int:
        return len(self._replies)

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        mode: OutputMode | None = None,
        schema: dict[str, Any] | None = None,
        on_text: TextSink | None = None,
    ) -> Completion:
        request = Request(list(messages), max_tokens, mode, schema)
        self.requests.append(request)
        if mode in self.refuses:
            raise OutputModeError(f"{self.server} refused response_format {mode.value} (HTTP 500)")
        assert self._replies, "the fake LLM was called with no reply queued"
        nxt = self._replies.popleft()
        if isinstance(nxt, LLMError):
            raise nxt
        text = nxt.text
        if on_text is not None:
            for at in range(0, len(text), self.piece_chars):
                request.streamed.append(text[at : at + self.piece_chars])
                on_text(request.streamed[-1])
        if isinstance(nxt, _BreakOff):
            raise nxt.error
        return nxt
