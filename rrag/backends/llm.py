"""LLM backends: one abstract chat method; the OpenAI-compatible client is the real one.

`complete` sends one chat request with a `max_tokens` budget and, optionally, a requested output
mode (`OutputMode`); a server that refuses the mode raises OutputModeError, which
`rrag.backends.structured` answers by falling back to the next mode.

With `on_text`, the reply is streamed (`stream=True`) and each piece of its text passed on as it
comes; the Completion is the same as without. A stream that breaks off (a dropped connection, an error
event, the deadline) is an LLMError: a reply cut short is never taken for a whole one.

Every call made inside `llm_deadline(seconds)` shares that one time budget, across retries and
across every claim of a question: a slow server costs a question at most `RRAG_LLM_DEADLINE_S`. The
budget is a context variable, so the engine's shared backends serve concurrent questions each with
its own deadline (work handed to another thread must carry it: `contextvars.copy_context().run`).
"""

from __future__ import annotations

import json
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx
import openai

from rrag.errors import ConfigError, LLMError, LLMResponseError, LLMTimeoutError, OutputModeError
from rrag.redact import Redactor, StreamRedactor, redact_http_logs, redact_url, url_secrets
from rrag.settings import Settings

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}
TextSink = Callable[[str], None]  # receives a reply's text piece by piece as it is written


class OutputMode(str, Enum):
    """How a JSON reply is asked for, strongest first (`rrag.backends.structured` negotiates)."""

    JSON_SCHEMA = "json_schema"  # response_format json_schema: the server enforces the schema
    # response_format json_object with a "schema" key: llama.cpp's servers then constrain generation to
    # the schema; the schema is in the prompt too, for a server that ignores the key without a word.
    JSON_OBJECT_SCHEMA = "json_object_schema"
    JSON_OBJECT = "json_object"  # response_format json_object; the schema is in the prompt
    PROMPT = "prompt"  # no response_format; the schema is in the prompt


@dataclass(frozen=True)
class TokenLimits:
    """The model's context window and the reply budget (`max_tokens`) of each kind of call."""

    context: int
    answer: int
    claims: int
    judge: int

    @classmethod
    def from_settings(cls, settings: Settings) -> TokenLimits:
        return cls(
            settings.llm_context_tokens,
            settings.llm_max_tokens_answer,
            settings.llm_max_tokens_claims,
            settings.llm_max_tokens_judge,
        )

    def reply(self, kind: str) -> int:
        return int(getattr(self, kind))


@dataclass(frozen=True)
class Completion:
    """One reply: its text, the model the server says wrote it, and the tokens it counted."""

    text: str
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    truncated: bool = False  # cut at max_tokens


class LLM(ABC):
    name: str = "base"
    model: str = ""  # the model asked for
    server: str = ""  # where it runs, credentials redacted: for reports and messages
    limits: TokenLimits = TokenLimits.from_settings(Settings())

    @abstractmethod
    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        mode: OutputMode | None = None,
        schema: dict[str, Any] | None = None,
        on_text: TextSink | None = None,
    ) -> Completion:
        """The assistant's reply, at most `max_tokens` long. `mode` JSON_SCHEMA sends `schema` as the
        response format, JSON_OBJECT_SCHEMA sends it beside type json_object, JSON_OBJECT asks for any
        JSON object. `on_text` receives the reply's text as
        it is written (all of it, in one or more pieces). Raises OutputModeError when the server
        refuses the mode, LLMError (or another subclass) on any other failure."""

    def close(self) -> None:  # noqa: B027 - optional: only a client with connections overrides it
        """Release connections (a client's pool); nothing to do for an LLM that holds none."""


# Local OpenAI-compatible servers (llama.cpp, Ollama, vLLM) ignore the key, but the client needs one.
PLACEHOLDER_API_KEY = "not-needed"
# An error that names the response format: llama.cpp answers HTTP 500 "Input should be 'text' or
# 'json_object'" to json_schema; others say "response_format ... not supported".
_NAMES_FORMAT = re.compile(r"response_format|json_schema|json_object|structured output|'text'", re.IGNORECASE)

MAX_BACKOFF_S = 8.0
CONTEXT_PROBE_TIMEOUT_S = 3.0  # asking a server for its context window: it answers at once, or not at all
_served_context: dict[tuple[str, str], int] = {}  # (server, model) -> the context window it reported


@dataclass(frozen=True)
class _Budget:
    ends: float  # time.monotonic() at the deadline
    seconds: float  # the budget as configured, for messages

    def left(self) -> float:
        return self.ends - time.monotonic()


_deadline: ContextVar[_Budget | None] = ContextVar("rrag_llm_deadline", default=None)  # None: no question


@contextmanager
def llm_deadline(seconds: float) -> Iterator[None]:
    """Every LLM call in this block, retries included, ends by `seconds` from now (an inner block
    never extends an outer one)."""
    outer = _deadline.get()
    budget = _Budget(time.monotonic() + seconds, seconds)
    token = _deadline.set(budget if outer is None or budget.ends < outer.ends else outer)
    try:
        yield
    finally:
        _deadline.reset(token)


class OpenAIChatLLM(LLM):
    """Any OpenAI-compatible chat-completions server. Transport failures (timeouts, 429, 5xx) are
    retried `llm_max_retries` times, then raised as LLMError with a plain message. The retries are
    ours, not the client's, so that no attempt or back-off outlasts the question's deadline."""

    name = "openai"

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_configured:
            raise ConfigError("the LLM is not configured: set RRAG_LLM_BASE_URL and RRAG_LLM_MODEL")
        self.model = str(settings.llm_model)
        base_url = str(settings.llm_base_url)
        self.server = redact_url(base_url)
        self.where = f"the LLM server at {self.server}"
        self._configured = TokenLimits.from_settings(settings)
        self._limits: TokenLimits | None = None
        # Whatever the server sends back is cleaned of every secret we sent it, echoes included.
        self._redact = Redactor(url_secrets(base_url), keys=[settings.llm_api_key])
        redact_http_logs()
        self._timeout_s = settings.llm_timeout_s
        self._attempts = settings.llm_max_retries + 1
        # A query in the base URL (`?api_key=...`) goes with every request, after the path (the client
        # would glue the path onto it).
        parts = urlsplit(base_url)
        self._client = openai.OpenAI(
            base_url=urlunsplit(parts._replace(query="")),
            default_query=dict(parse_qsl(parts.query, keep_blank_values=True)) or None,
            api_key=settings.key_for(base_url) or PLACEHOLDER_API_KEY,
            timeout=settings.llm_timeout_s,
            max_retries=0,
        )

    @property
    def limits(self) -> TokenLimits:
        """The configured budgets, with the context window the server reports where it says
        (RRAG_LLM_CONTEXT_TOKENS where it does not); the server is asked once, at first use."""
        if self._limits is None:
            key = (self.server, self.model)
            if key not in _served_context:
                context = self._read_context()
                if context is None:
                    self._limits = self._configured
                    return self._limits
                _served_context[key] = context
            self._limits = replace(self._configured, context=_served_context[key])
        return self._limits

    @limits.setter
    def limits(self, limits: TokenLimits) -> None:
        self._limits = limits

    def _read_context(self) -> int | None:
        """The context window the server says it has: llama.cpp's /props (`n_ctx` of its default
        generation settings), vLLM's /v1/models (`max_model_len` of the model); None where neither
        says (llama-cpp-python, OpenAI, Ollama) or the server cannot be asked."""
        base = str(self._client.base_url).rstrip("/")
        probes = (
            (f"{base.removesuffix('/v1')}/props", _llama_cpp_context),
            (f"{base}/models", self._vllm_context),
        )
        client = self._client.with_options(timeout=min(self._timeout_s, CONTEXT_PROBE_TIMEOUT_S))
        for url, read in probes:
            try:
                context = read(client.get(url, cast_to=httpx.Response).json())
            except (openai.OpenAIError, ValueError):  # not there, not JSON, or not reachable
                continue
            if isinstance(context, int) and not isinstance(context, bool) and context > 0:
                return context
        return None

    def _vllm_context(self, body: Any) -> Any:
        models = body.get("data") if isinstance(body, dict) else None
        found = [m for m in models or [] if isinstance(m, dict) and m.get("id") == self.model]
        return found[0].get("max_model_len") if found else None

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        mode: OutputMode | None = None,
        schema: dict[str, Any] | None = None,
        on_text: TextSink | None = None,
    ) -> Completion:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": max_tokens,  # always: without it a small model writes until the context is full
        }
        if mode is OutputMode.JSON_SCHEMA:
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": schema},
            }
        elif mode is OutputMode.JSON_OBJECT_SCHEMA:
            request["response_format"] = {"type": "json_object", "schema": schema}
        elif mode is OutputMode.JSON_OBJECT:
            request["response_format"] = {"type": "json_object"}
        if on_text is not None:
            # Servers that do not count a stream's tokens (llama.cpp) ignore stream_options.
            request |= {"stream": True, "stream_options": {"include_usage": True}}
        try:
            response = self._create(**request)
        except openai.OpenAIError as exc:
            raise self._error(exc) from None  # the chained exception would carry the request headers
        except ValueError:  # the HTTP body itself is not JSON
            raise LLMResponseError(f"{self.where} sent a reply that is not a valid chat completion") from None
        if on_text is not None:
            return self._read_stream(response, on_text)
        try:
            choice = response.choices[0]
            content = choice.message.content
        except (AttributeError, IndexError, TypeError):  # the client does not validate the shape
            content = choice = None
        if not isinstance(content, str):
            raise LLMResponseError(f"{self.where} sent an empty reply")
        usage = getattr(response, "usage", None)
        return Completion(
            # A reply cut at the token limit comes back as is, marked: JSON callers say it was cut.
            text=self._redact(content),
            model=self._redact(str(getattr(response, "model", "") or "")),
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            truncated=getattr(choice, "finish_reason", None) == "length",
        )

    def close(self) -> None:
        self._client.close()

    def _read_stream(self, stream: Any, on_text: TextSink) -> Completion:
        """A streamed reply, its text passed on (redacted) as it comes. Closing the stream closes the
        connection, so a server cut off at the deadline stops generating."""
        budget = _deadline.get()
        redacted = StreamRedactor(self._redact, on_text)
        response = getattr(stream, "response", None)
        if response is not None and "json" in response.headers.get("content-type", ""):
            with stream:  # a server that ignores `stream`: its whole reply at once, read as such
                return self._read_plain(response, redacted)
        model, finish, usage, pieces = "", None, None, 0
        try:
            with stream:
                for chunk in stream:
                    model = model or str(getattr(chunk, "model", "") or "")
                    usage = getattr(chunk, "usage", None) or usage
                    for choice in getattr(chunk, "choices", None) or []:
                        content = getattr(getattr(choice, "delta", None), "content", None)
                        if content:
                            pieces += 1
                            redacted.feed(content)
                        finish = getattr(choice, "finish_reason", None) or finish
                    if budget is not None and budget.left() <= 0:
                        raise self._out_of_time(budget)
        except (openai.APITimeoutError, httpx.TimeoutException):
            if budget is not None and budget.left() <= 0:
                raise self._out_of_time(budget) from None
            raise LLMTimeoutError(
                f"{self.where} stopped writing its reply for {self._timeout_s:g} s (RRAG_LLM_TIMEOUT_S)"
            ) from None
        except (openai.OpenAIError, httpx.HTTPError) as exc:
            detail = self._redact(str(exc))[:300] or type(exc).__name__
            raise LLMError(f"{self.where} broke off its reply after {pieces} pieces: {detail}") from None
        if finish is None:  # the stream ended, but the server never said the reply was done
            raise LLMError(f"{self.where} broke off its reply after {pieces} pieces (the stream was cut)")
        return Completion(
            text=redacted.close(),
            model=self._redact(model),
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            # A server that does not count a stream's tokens sends one token per piece (llama.cpp).
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or pieces),
            truncated=finish == "length",
        )

    def _read_plain(self, response: httpx.Response, redacted: StreamRedactor) -> Completion:
        """A plain chat completion sent for a streaming request: its text passed on in one piece."""
        try:
            body = json.loads(response.read())
            choice = body["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, httpx.HTTPError):
            raise LLMResponseError(f"{self.where} sent a reply that is not a valid chat completion") from None
        if not isinstance(content, str) or not content:
            raise LLMResponseError(f"{self.where} sent an empty reply")
        redacted.feed(content)
        usage = body.get("usage") or {}
        return Completion(
            text=redacted.close(),
            model=self._redact(str(body.get("model") or "")),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            truncated=choice.get("finish_reason") == "length",
        )

    def _create(self, **request: Any) -> Any:
        """One request, retried on transient failures, each attempt and wait cut at the deadline."""
        budget = _deadline.get()
        attempt = 0
        while True:
            timeout = self._timeout_s
            if budget is not None:
                left = budget.left()
                if left <= 0:
                    raise self._out_of_time(budget)
                timeout = min(timeout, left)
            try:
                return self._client.with_options(timeout=timeout).chat.completions.create(**request)
            except openai.APITimeoutError:
                if budget is not None and timeout < self._timeout_s:  # cut short: the deadline passed
                    raise self._out_of_time(budget) from None
                if attempt + 1 == self._attempts:
                    raise
            except openai.APIStatusError as exc:
                if "response_format" in request and _NAMES_FORMAT.search(_server_message(exc)):
                    kind = request["response_format"]["type"]
                    detail = self._redact(_server_message(exc))
                    raise OutputModeError(
                        f"{self.where} refused response_format {kind} (HTTP {exc.status_code}): {detail}"
                    ) from None
                if "max_tokens" in request and "max_completion_tokens" in _server_message(exc):
                    # OpenAI's reasoning models refuse max_tokens and name its successor: same budget.
                    request["max_completion_tokens"] = request.pop("max_tokens")
                    continue
                if not isinstance(exc, (openai.RateLimitError, openai.InternalServerError)):
                    raise
                self._wait_before_retry(exc, attempt, budget)
            except openai.APIConnectionError as exc:
                self._wait_before_retry(exc, attempt, budget)
            attempt += 1

    def _wait_before_retry(self, exc: openai.OpenAIError, attempt: int, budget: _Budget | None) -> None:
        """Re-raise `exc` after the last attempt; otherwise sleep the back-off, if the deadline allows."""
        if attempt + 1 == self._attempts:
            raise exc
        wait = _retry_after(exc, attempt)
        if budget is not None and budget.left() <= wait:
            raise self._out_of_time(budget) from None
        time.sleep(wait)

    def _out_of_time(self, budget: _Budget) -> LLMTimeoutError:
        return LLMTimeoutError(
            f"{self.where} ran out of time: the question's LLM deadline of {budget.seconds:g} s "
            "(RRAG_LLM_DEADLINE_S) passed"
        )

    def _error(self, exc: openai.OpenAIError) -> LLMError:
        where = self.where
        if isinstance(exc, openai.APITimeoutError):
            tries = "once" if self._attempts == 1 else f"{self._attempts} times"
            return LLMTimeoutError(f"{where} did not answer within {self._timeout_s:g} s (tried {tries})")
        if isinstance(exc, openai.APIConnectionError):
            return LLMError(f"cannot reach {where}: is it running, and is RRAG_LLM_BASE_URL right?")
        if isinstance(exc, openai.RateLimitError):
            return LLMError(f"{where} is rate-limiting requests (HTTP 429); wait a minute and try again")
        if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
            return LLMError(f"{where} rejected the API key (HTTP {exc.status_code}); check OPENAI_API_KEY")
        if isinstance(exc, openai.NotFoundError):
            return LLMError(f"{where} does not know model {self.model!r}, or the URL is wrong (HTTP 404)")
        if isinstance(exc, openai.APIStatusError):
            detail = self._redact(_server_message(exc))
            if exc.status_code >= 500:
                return LLMError(f"{where} failed (HTTP {exc.status_code}): {detail}; try again later")
            return LLMError(f"{where} refused the request (HTTP {exc.status_code}): {detail}")
        return LLMResponseError(f"{where} sent a reply that is not a valid chat completion")


def _llama_cpp_context(body: Any) -> Any:
    settings = body.get("default_generation_settings") if isinstance(body, dict) else None
    return settings.get("n_ctx") if isinstance(settings, dict) else None


def _server_message(exc: openai.APIStatusError) -> str:
    """The server's own words: the error message of an OpenAI-style body, else the body's text."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"][:300]
    text = body if isinstance(body, str) else getattr(exc.response, "text", "")
    return " ".join(str(text).split())[:300] or "no details"


def _retry_after(exc: openai.OpenAIError, attempt: int) -> float:
    """The server's Retry-After when it gives one, else exponential back-off; at most MAX_BACKOFF_S."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        if "retry-after-ms" in headers:
            return min(float(headers["retry-after-ms"]) / 1000, MAX_BACKOFF_S)
        if "retry-after" in headers:
            return min(float(headers["retry-after"]), MAX_BACKOFF_S)
    except ValueError:
        pass  # an HTTP date or garbage: fall back to our own back-off
    return min(0.5 * 2**attempt, MAX_BACKOFF_S)
