"""Secrets never leave the process: not into the database, a report, an export or a log.

A URL keeps its scheme, host, port and path and loses its user and password, its fragment and the
value of every query parameter but a few known to be harmless (`?api-version=`): a secret may be called
anything (`?sig=`, `?code=`, `?X-Amz-Signature=`). Text that comes from outside (a server's reply or
error message) loses every secret the process holds, in any letter case, before anything keeps it; the
configured key at any length.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from urllib.parse import quote, unquote, urlsplit, urlunsplit

SECRET_WORDS = ("key", "secret", "token", "password", "passwd", "auth", "credential", "signature")
# Query parameters whose values are kept: versions and names that OpenAI-compatible servers take.
HARMLESS_PARAMS = frozenset({"api-version", "api_version", "version", "deployment", "model", "format"})
REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8  # shorter values are placeholders ("ollama", "EMPTY") or ordinary words

_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")
_QUERY_PARAM = re.compile(r"([^&=;]+)=([^&;]*)")


def looks_secret(name: object) -> bool:
    return any(word in str(name).lower() for word in SECRET_WORDS)


def harmless_param(name: str) -> bool:
    return unquote(name).strip().lower() in HARMLESS_PARAMS


def redact_url(url: str) -> str:
    """`url` without its credentials: user, password and fragment dropped, every query value but the
    harmless ones replaced."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    query = _QUERY_PARAM.sub(lambda m: m[0] if harmless_param(m[1]) else f"{m[1]}={REDACTED}", parts.query)
    # A bare `?secret` (no "=") has no name to keep.
    query = "&".join(p if "=" in p else REDACTED for p in query.split("&") if p) if query else ""
    return urlunsplit(parts._replace(netloc=netloc, query=query, fragment=""))


def redact_urls(text: str) -> str:
    """`text` with every URL in it passed through `redact_url`."""
    return _URL.sub(lambda m: redact_url(m[0]), text)


def url_secrets(url: str | None) -> list[str]:
    """The secret values a URL carries: its password (or a lone user name, which is then the key), the
    values of its query parameters but the harmless ones, and its fragment."""
    if not url:
        return []
    parts = urlsplit(url)
    found = [parts.password or parts.username or "", parts.fragment]
    found += [m[2] for m in _QUERY_PARAM.finditer(parts.query) if not harmless_param(m[1])]
    found += [p for p in parts.query.split("&") if p and "=" not in p]
    return [unquote(s) for s in found if s]


class Redactor:
    """Replaces known secret values (and their URL-encoded forms) in any letter case. `secrets` shorter
    than MIN_SECRET_LENGTH are left alone (placeholders); `keys`, the configured API keys, are replaced
    at any length, the short ones where they stand as a word of their own."""

    def __init__(self, secrets: Iterable[str | None], keys: Iterable[str | None] = ()) -> None:
        given: set[str] = {k for k in keys if k}
        values: set[str] = {s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH} | given
        forms = values | {quote(s, safe="") for s in values}
        # Longest first, so a secret that contains another is replaced whole.
        alternatives = "|".join(
            re.escape(s) if len(s) >= MIN_SECRET_LENGTH else rf"(?<!\w){re.escape(s)}(?!\w)"
            for s in sorted(forms, key=len, reverse=True)
        )
        self._pattern = re.compile(alternatives, re.IGNORECASE) if alternatives else None
        self._forms = tuple(f.lower() for f in forms)

    def __call__(self, text: str) -> str:
        return self._pattern.sub(REDACTED, text) if self._pattern else text

    def safe_end(self, text: str) -> int:
        """Where the tail of `text` that could be the start of a secret begins (len(text): none)."""
        longest = max(map(len, self._forms), default=0)
        lowered = text.lower()
        end = next(
            (
                start
                for start in range(max(0, len(text) - longest + 1), len(text))
                if any(form.startswith(lowered[start:]) for form in self._forms)
            ),
            len(text),
        )
        # A whole secret that reaches past that point is held back whole (its start would leak).
        for match in self._pattern.finditer(text) if self._pattern else ():
            if match.start() < end < match.end():
                return match.start()
        return end


class StreamRedactor:
    """A text that arrives piece by piece, passed on with its secrets redacted: a tail that could be
    the start of a secret is held back until what follows shows it is not one (or the text ends)."""

    def __init__(self, redact: Redactor, sink: Callable[[str], None]) -> None:
        self._redact = redact
        self._sink = sink
        self._raw = ""
        self._sent = ""

    def feed(self, piece: str) -> None:
        self._raw += piece
        self._pass_on(self._redact(self._raw[: self._redact.safe_end(self._raw)]))

    def close(self) -> str:
        """The whole text, redacted; what was held back is passed on now."""
        text = self._redact(self._raw)
        self._pass_on(text)
        return text

    def _pass_on(self, text: str) -> None:
        # A secret found across what was already passed on cannot be taken back: nothing more is
        # passed on then (the whole text, redacted, is still the reply).
        if len(text) > len(self._sent) and text.startswith(self._sent):
            self._sink(text[len(self._sent) :])
            self._sent = text


class RedactingLogFilter(logging.Filter):
    """Formats a record's message with its URLs' credentials removed (HTTP clients log request URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact_urls(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


# The HTTP stacks under the openai client log every request's full URL at INFO level.
HTTP_LOGGERS = ("httpx", "httpx2")


def redact_http_logs() -> None:
    """Install the filter on the HTTP clients' loggers once per process."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingLogFilter) for f in logger.filters):
            logger.addFilter(RedactingLogFilter())
