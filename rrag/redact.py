"""Secrets never leave the process: not into the database, a report, an export or a log.

A URL keeps its host and path but loses its user and password and the values of query parameters
named like secrets (`?api_key=`, `?token=`). Text that comes from outside (a server's reply or error
message) loses every secret the process holds, in any letter case, before anything keeps it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import quote, unquote, urlsplit, urlunsplit

SECRET_WORDS = ("key", "secret", "token", "password", "passwd", "auth", "credential", "signature")
REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8  # shorter values are placeholders ("ollama", "EMPTY") or ordinary words

_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")
_QUERY_PARAM = re.compile(r"([^&=;]+)=([^&;]*)")


def looks_secret(name: object) -> bool:
    return any(word in str(name).lower() for word in SECRET_WORDS)


def redact_url(url: str) -> str:
    """`url` without its credentials: user and password dropped, secret query values replaced."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    query = _QUERY_PARAM.sub(
        lambda m: f"{m[1]}={REDACTED}" if looks_secret(unquote(m[1])) else m[0], parts.query
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def redact_urls(text: str) -> str:
    """`text` with every URL in it passed through `redact_url`."""
    return _URL.sub(lambda m: redact_url(m[0]), text)


def url_secrets(url: str | None) -> list[str]:
    """The secret values a URL carries: its password (or a lone user name, which is then the key) and
    the values of its secret-looking query parameters."""
    if not url:
        return []
    parts = urlsplit(url)
    found = [parts.password or parts.username or ""]
    found += [m[2] for m in _QUERY_PARAM.finditer(parts.query) if looks_secret(unquote(m[1]))]
    return [unquote(s) for s in found if s]


class Redactor:
    """Replaces known secret values (and their URL-encoded forms) in any letter case."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        values = {s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH}
        forms = values | {quote(s, safe="") for s in values}
        # Longest first, so a secret that contains another is replaced whole.
        alternatives = "|".join(re.escape(s) for s in sorted(forms, key=len, reverse=True))
        self._pattern = re.compile(alternatives, re.IGNORECASE) if alternatives else None

    def __call__(self, text: str) -> str:
        return self._pattern.sub(REDACTED, text) if self._pattern else text


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
