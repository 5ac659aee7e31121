"""LLM backends: one abstract chat method; the OpenAI-compatible client is the real one.

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
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import openai

from rrag.errors import ConfigError, LLMError, LLMResponseError, LLMTimeoutError
from rrag.redact import Redactor, redact_http_logs, redact_url, url_secrets
from rrag.settings import Settings

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}


class LLM(ABC):
    name: str = "base"

    @abstractmethod
    def complete(self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None) -> str:
        """Return the assistant's reply text; raise LLMError (or a subclass) on failure."""


# Local OpenAI-compatible servers (llama.cpp, Ollama, vLLM) ignore the key, but the client needs one.
PLACEHOLDER_API_KEY = "not-needed"
_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")

T = TypeVar("T")

MAX_BACKOFF_S = 8.0


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
        self.where = f"the LLM server at {redact_url(base_url)}"
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
            api_key=settings.llm_api_key or PLACEHOLDER_API_KEY,
            timeout=settings.llm_timeout_s,
            max_retries=0,
        )

    def complete(self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None) -> str:
        extra: dict[str, Any] = {}
        if json_schema is not None:
            extra["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": json_schema},
            }
        try:
            response = self._create(model=self.model, messages=list(messages), temperature=0, **extra)
        except openai.OpenAIError as exc:
            raise self._error(exc) from None  # the chained exception would carry the request headers
        except ValueError:  # the HTTP body itself is not JSON
            raise LLMResponseError(f"{self.where} sent a reply that is not a valid chat completion") from None
        try:
            content = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):  # the client does not validate the shape
            content = None
        if not isinstance(content, str):
            raise LLMResponseError(f"{self.where} sent an empty reply")
        # A reply cut at the token limit comes back as is: JSON callers see it is truncated.
        return self._redact(content)

    def close(self) -> None:
        self._client.close()

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
            except (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError) as exc:
                if attempt + 1 == self._attempts:
                    raise
                wait = _retry_after(exc, attempt)
                if budget is not None and budget.left() <= wait:
                    raise self._out_of_time(budget) from None
                time.sleep(wait)
            attempt += 1

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
            if exc.status_code >= 500:
                return LLMError(f"{where} failed (HTTP {exc.status_code}); try again later")
            detail = self._redact(_server_message(exc))
            return LLMError(f"{where} refused the request (HTTP {exc.status_code}): {detail}")
        return LLMResponseError(f"{where} sent a reply that is not a valid chat completion")


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"][:300]
    return "no details"


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


def parse_json(reply: str) -> Any:
    """Parse a model's JSON reply leniently: thinking blocks, ``` fences and prose around the JSON
    are dropped. Raises ValueError (with a short reason) when no complete JSON value is there."""
    text = _FENCE.sub("", _THINKING.sub("", reply).strip()).strip()
    starts = [i for i in (text.find("{"), text.find("[")) if i != -1]
    if not starts:
        raise ValueError("the reply holds no JSON")
    text = text[min(starts) :]
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the JSON is malformed or truncated ({exc.msg} at character {exc.pos})") from None
    return value


def complete_json(
    llm: LLM,
    messages: Sequence[Message],
    validate: Callable[[Any], T],
    *,
    json_schema: dict[str, Any] | None = None,
) -> T:
    """Ask for JSON and return `validate(parsed)`. `validate` raises ValueError on a wrong shape.

    Malformed, truncated or invalid output is asked for once more, with the problem stated; a second
    failure raises LLMResponseError. LLMError from the transport propagates unchanged.
    """
    attempt = list(messages)
    for _ in range(2):
        reply = llm.complete(attempt, json_schema=json_schema)
        try:
            return validate(parse_json(reply))
        except ValueError as exc:
            problem = str(exc)
        attempt = [
            *messages,
            {"role": "assistant", "content": reply[:4000]},
            {
                "role": "user",
                "content": f"That reply was not usable: {problem}. Reply again with only the JSON.",
            },
        ]
    raise LLMResponseError(f"the LLM's reply was not usable twice: {problem}")
