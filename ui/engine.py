"""The one cached engine handle, cached read queries, and engine errors turned into messages.

The engine (models, Chroma client, database engine) is built once per storage location and process
(`st.cache_resource`); Chroma allows one client per path per process. Read queries are cached with
`st.cache_data` under the storage location and cleared by `invalidate_reads()` after every change.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import pandas as pd
import streamlit as st

from rrag import ReliableRAG, UserEngine
from rrag.errors import AccessDeniedError, RRAGError
from rrag.redact import Redactor
from rrag.settings import Settings
from rrag.store import SessionSummary
from rrag.types import DocumentInfo
from ui.app_settings import apply_saved
from ui.auth import current_identity
from ui.charts import claims_frame, sessions_frame
from ui.highlight import md_escape

_READ_TTL_S = 60  # other processes (the CLI) may write too; never show stale data for long


def _storage_key(settings: Settings) -> str:
    location = settings.chroma_host and f"{settings.chroma_host}:{settings.chroma_port}"
    return "|".join(
        str(part)
        for part in (settings.data_dir.resolve(), settings.sqlalchemy_url, location, settings.collection)
    )


@st.cache_resource(show_spinner="Loading the engine: embedding model, index and database…")
def _engine(storage_key: str, _settings: Settings) -> tuple[ReliableRAG, str]:
    rag = ReliableRAG(_settings)
    try:
        rag.configure(apply_saved(rag.settings, rag.saved_settings()))
    except RRAGError as exc:
        # Saved settings that no longer work must not lock users out of the page that fixes them.
        return rag, f"Saved settings were not applied ({exc}); using the defaults. Fix them on Settings."
    return rag, ""


def get_engine() -> ReliableRAG:
    """The shared engine for the storage named by the environment (raises RRAGError when it cannot open).
    Pages use `user_engine()`, which checks every call against the user's role."""
    settings = Settings.from_env()
    rag, warning = _engine(_storage_key(settings), settings)
    if warning:
        st.warning(warning, icon=":material/warning:")
    return rag


def user_engine() -> UserEngine:
    """The shared engine as this session's user may use it (raises AccessDeniedError without one)."""
    identity = current_identity()
    if identity is None:
        raise AccessDeniedError("Sign in first.")
    return UserEngine(get_engine(), identity)


def storage_key() -> str:
    return _storage_key(get_engine().settings)


def invalidate_reads() -> None:
    """Call after any write (ingest, delete, ask, review, settings) so every page shows fresh data."""
    st.cache_data.clear()


@st.cache_data(ttl=_READ_TTL_S, show_spinner=False)
def _documents(key: str) -> list[DocumentInfo]:
    return get_engine().documents()


def documents() -> list[DocumentInfo]:
    return _documents(storage_key())


@st.cache_data(ttl=_READ_TTL_S, show_spinner=False)
def _sessions(
    key: str,
    search: str | None,
    level: str | None,
    decision: str | None,
    since: datetime | None,
    until: datetime | None,
    flagged_only: bool,
) -> list[SessionSummary]:
    return get_engine().sessions(
        search=search, level=level, decision=decision, since=since, until=until, flagged_only=flagged_only
    )


def sessions(
    *,
    search: str | None = None,
    level: str | None = None,
    decision: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    flagged_only: bool = False,
) -> list[SessionSummary]:
    return _sessions(storage_key(), search or None, level, decision, since, until, flagged_only)


@st.cache_data(ttl=_READ_TTL_S, show_spinner=False)
def _review_queue(key: str, include_reviewed: bool) -> list[SessionSummary]:
    return get_engine().review_queue(include_reviewed=include_reviewed)


def review_queue(*, include_reviewed: bool = False) -> list[SessionSummary]:
    return _review_queue(storage_key(), include_reviewed)


@st.cache_data(ttl=_READ_TTL_S, show_spinner="Loading saved sessions…")
def _frames(key: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    rag = get_engine()
    return sessions_frame(rag.session_records()), claims_frame(rag.claim_records())


def insight_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(sessions, claims) frames of the saved sessions, for the Insights charts."""
    return _frames(storage_key())


def redact(text: str) -> str:
    """Remove any secret value from a message before it is shown (defence in depth)."""
    return Redactor((), keys=[os.environ.get("OPENAI_API_KEY"), os.environ.get("RRAG_LLM_API_KEY")])(text)


@contextmanager
def engine_errors(action: str) -> Iterator[None]:
    """Show an engine error as a message at the edge; the page goes on and nothing else is lost.
    `action` may name the user's file or run: it is shown as plain text too."""
    try:
        yield
    except RRAGError as exc:
        st.error(f"**{md_escape(action)} failed.** {md_escape(redact(str(exc)))}", icon=":material/error:")
