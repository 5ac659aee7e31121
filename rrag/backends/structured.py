"""Typed JSON replies from any OpenAI-compatible server: the output mode negotiated, the reply validated.

Servers differ in what structured output they accept: OpenAI, vLLM and Ollama take a JSON schema as
`response_format`, llama.cpp's Python server only `json_object` (with the schema beside it, which it
then enforces), some nothing at all. `ask` tries the
strongest mode first and falls back when the server refuses it (OutputModeError), and remembers per
server and model what worked, so later calls go straight there (the engine keeps it in the store
across restarts: `known_modes`, `learn_modes`). Whatever the mode, the reply is
validated against the pydantic model (raw control characters inside its strings, which a small
model writes, are let through; nothing else is): one repair re-prompt with the problem stated, then
LLMResponseError. With `on_text`, the first request is streamed and its raw text passed on as it is
written (`FieldText` follows one field of it); a repair is not streamed. Every call is counted in the
active `CallLog` (model, mode, tokens) for the report.
"""

from __future__ import annotations

import json
import re
import string
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rrag.backends.llm import LLM, Completion, Message, OutputMode, TextSink
from rrag.errors import LLMResponseError, OutputModeError

T = TypeVar("T", bound=BaseModel)

_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
MAX_ECHOED_CHARS = 4000  # of a bad reply, quoted back in the repair prompt
REPAIR_OVERHEAD_TOKENS = 64  # the repair request's own words and message framing

_working_mode: dict[tuple[str, str], OutputMode] = {}  # (server, model) -> the mode it accepted
_modes_lock = threading.Lock()
_OFFERED = [m.value for m in OutputMode]  # strongest first, as negotiated


def working_mode(llm: LLM) -> OutputMode | None:
    with _modes_lock:
        return _working_mode.get((llm.server, llm.model))


def _remember(llm: LLM, mode: OutputMode) -> None:
    with _modes_lock:
        _working_mode[(llm.server, llm.model)] = mode


def known_modes() -> dict[str, Any]:
    """What was learned, as JSON data to keep: {"offered": the modes negotiated from, "servers":
    {server: {model: mode}}}."""
    servers: dict[str, dict[str, str]] = {}
    with _modes_lock:
        for (server, model), mode in _working_mode.items():
            servers.setdefault(server, {})[model] = mode.value
    return {"offered": _OFFERED, "servers": servers} if servers else {}


def learn_modes(kept: Any) -> None:
    """Take up modes kept from an earlier process (`known_modes`' shape); what this process has learned
    itself stands. Modes found when other modes were on offer are negotiated again (a mode added since
    may be the better one), and anything malformed is ignored."""
    servers = kept.get("servers") if isinstance(kept, dict) and kept.get("offered") == _OFFERED else None
    if not isinstance(servers, dict):
        return
    with _modes_lock:
        for server, models in servers.items():
            for model, mode in (models if isinstance(models, dict) else {}).items():
                if mode in _OFFERED:
                    _working_mode.setdefault((str(server), str(model)), OutputMode(mode))


def schema_instruction(reply: type[BaseModel]) -> str:
    """The reply's JSON schema as an instruction, for the modes where the server does not enforce it."""
    schema = json.dumps(reply.model_json_schema(), separators=(",", ":"))
    return f"Reply with one JSON object, and nothing else, that follows this JSON schema: {schema}"


@dataclass(frozen=True)
class Call:
    kind: str  # answer, claims, judge, relevance
    mode: OutputMode
    model: str  # as the server named it
    prompt_tokens: int
    completion_tokens: int


@dataclass
class CallLog:
    """The LLM calls of one question, for its report's provenance."""

    calls: list[Call] = field(default_factory=list)

    def summary(self, llm: LLM | None, prompt_version: str) -> dict[str, Any]:
        """What the report records; empty when no LLM was called."""
        if llm is None or not self.calls:
            return {}
        return {
            "server": llm.server,
            "model_requested": llm.model,
            "models": sorted({c.model for c in self.calls if c.model}),
            "output_modes": sorted({c.mode.value for c in self.calls}),
            "prompt_version": prompt_version,
            "calls": len(self.calls),
            "prompt_tokens": sum(c.prompt_tokens for c in self.calls),
            "completion_tokens": sum(c.completion_tokens for c in self.calls),
        }


_log: ContextVar[CallLog | None] = ContextVar("rrag_llm_calls", default=None)


@contextmanager
def logging_calls() -> Iterator[CallLog]:
    """Every structured LLM call in this block is recorded in the yielded log."""
    log = CallLog()
    token = _log.set(log)
    try:
        yield log
    finally:
        _log.reset(token)


Check = Callable[[Any], str]  # a reply's soft problem ("" when none): re-prompted once, then accepted


def ask(
    llm: LLM,
    messages: Sequence[Message],
    reply: type[T],
    *,
    kind: str,
    check: Check | None = None,
    fresh: bool = False,
    on_text: TextSink | None = None,
) -> tuple[T, OutputMode]:
    """The reply as a validated `reply` model, and the output mode that produced it. `fresh`: ignore
    what was remembered for this server (a connection test). `on_text`: the first reply's raw text as
    it is written. Raises OutputModeError when the server
    refuses every mode, LLMResponseError after a second unusable reply; other LLMErrors propagate."""
    modes = list(OutputMode)
    known = None if fresh else working_mode(llm)
    if known is not None:
        modes = modes[modes.index(known) :]
    refusals: list[str] = []
    for mode in modes:
        try:
            return _ask_in(llm, mode, messages, reply, kind, check, on_text), mode
        except OutputModeError as exc:
            refusals.append(str(exc))
    raise OutputModeError("; ".join(refusals))


def _ask_in(
    llm: LLM,
    mode: OutputMode,
    messages: Sequence[Message],
    reply: type[T],
    kind: str,
    check: Check | None,
    on_text: TextSink | None,
) -> T:
    if mode is not OutputMode.JSON_SCHEMA:
        messages = _with_schema(messages, reply)
    max_tokens = llm.limits.reply(kind)
    attempt = list(messages)
    for tries in (1, 2):
        completion = llm.complete(
            attempt,
            max_tokens=max_tokens,
            mode=mode,
            schema=reply.model_json_schema(),
            on_text=on_text if tries == 1 else None,
        )
        _remember(llm, mode)  # the server accepted the mode, whatever the model wrote
        _record(kind, mode, completion)
        value, problem = _validate(completion, reply, max_tokens)
        soft = check(value) if value is not None and check else ""
        if value is not None and (not soft or tries == 2):
            return value
        attempt = [
            *messages,
            {"role": "assistant", "content": completion.text[:MAX_ECHOED_CHARS]},
            {
                "role": "user",
                "content": f"That reply was not usable: {problem or soft}. Reply again with only the JSON.",
            },
        ]
    raise LLMResponseError(f"the LLM's reply was not usable twice: {problem}")


def _validate(completion: Completion, reply: type[T], max_tokens: int) -> tuple[T | None, str]:
    if completion.truncated:
        return None, f"it was cut off at the limit of {max_tokens} tokens; reply again, shorter"
    try:
        return reply.model_validate(parse_json(completion.text)), ""
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        return None, _short(exc)


def _short(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'the reply'}: {e['msg']}" for e in exc.errors()[:5]
        )
    return str(exc)


def _with_schema(messages: Sequence[Message], reply: type[BaseModel]) -> list[Message]:
    first, *rest = messages
    return [{**first, "content": f"{first['content']}\n{schema_instruction(reply)}"}, *rest]


def _record(kind: str, mode: OutputMode, completion: Completion) -> None:
    log = _log.get()
    if log is not None:
        log.calls.append(
            Call(kind, mode, completion.model, completion.prompt_tokens, completion.completion_tokens)
        )


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\", "/": "/"}


class FieldText:
    """One string field of a JSON reply as it is written: fed the reply's raw text piece by piece, it
    passes on the decoded new part of that field's value (a streamed answer's words, not its JSON)."""

    def __init__(self, name: str, sink: TextSink) -> None:
        self._key = re.compile(rf'"{re.escape(name)}"\s*:\s*"')
        self._sink = sink
        self._raw = ""
        self._at: int | None = None  # where the value's undecoded rest begins; None: not found yet
        self._ended = False

    def feed(self, piece: str) -> None:
        self._raw += piece
        if self._ended:
            return
        if self._at is None:
            found = self._key.search(self._raw)
            if found is None:
                return
            self._at = found.end()
        decoded, self._at, self._ended = _decode_string(self._raw, self._at)
        if decoded:
            self._sink(decoded)


def _decode_string(raw: str, at: int) -> tuple[str, int, bool]:
    """The JSON string text of `raw` from `at` decoded as far as it is complete: (text, where the rest
    begins, whether the closing quote was reached)."""
    out: list[str] = []
    while at < len(raw):
        char = raw[at]
        if char == '"':
            return "".join(out), at + 1, True
        if char != "\\":
            out.append(char)
            at += 1
            continue
        escape = raw[at + 1 : at + 2]
        if escape == "u":
            code, step = _code_point(raw, at)
            if not step:
                break  # the rest of the escape is still to come
            out.append(chr(code))
            at += step
        elif escape:
            out.append(_ESCAPES.get(escape, escape))
            at += 2
        else:
            break
    return "".join(out), at, False


def _code_point(raw: str, at: int) -> tuple[int, int]:
    """The character of the \\uXXXX escape at `at` (a surrogate pair joined; U+FFFD for a broken one)
    and the escape's length; length 0 while it is incomplete."""
    code = _hex4(raw, at + 2)
    if code is None:
        return (0, 0) if len(raw) < at + 6 else (0xFFFD, 6)
    if not 0xD800 <= code < 0xDC00:
        return (0xFFFD if 0xDC00 <= code < 0xE000 else code), 6
    if len(raw) < at + 12:
        return 0, 0
    low = _hex4(raw, at + 8) if raw[at + 6 : at + 8] == "\\u" else None
    if low is None or not 0xDC00 <= low < 0xE000:
        return 0xFFFD, 6
    return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), 12


def _hex4(raw: str, at: int) -> int | None:
    digits = raw[at : at + 4]
    return int(digits, 16) if len(digits) == 4 and all(c in string.hexdigits for c in digits) else None


def parse_json(reply: str) -> Any:
    """A model's JSON reply with thinking blocks, ``` fences and prose around it dropped. Raises
    ValueError (with a short reason) when no complete JSON value is there."""
    text = _FENCE.sub("", _THINKING.sub("", reply).strip()).strip()
    starts = [i for i in (text.find("{"), text.find("[")) if i != -1]
    if not starts:
        raise ValueError("the reply holds no JSON")
    text = text[min(starts) :]
    try:
        # strict=False: a raw newline or tab inside a string (a small model writes them) is taken as
        # written; the value is still validated against the reply's model.
        value, _ = json.JSONDecoder(strict=False).raw_decode(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the JSON is malformed or truncated ({exc.msg} at character {exc.pos})") from None
    return value


def tokens_needed(reply: type[BaseModel], kind: str, llm: LLM) -> int:
    """Tokens to keep free beside the prompt: the schema in the prompt (fallback modes), the reply
    and, should it be unusable, its echo, the repair request and the second reply."""
    return estimate_tokens(schema_instruction(reply)) + 2 * llm.limits.reply(kind) + REPAIR_OVERHEAD_TOKENS


CHARS_PER_TOKEN = 3  # conservative: English runs about 4 characters per token


def estimate_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)
