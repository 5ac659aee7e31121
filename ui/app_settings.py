"""Which settings the Settings page saves in the database, and how saved values are applied.

Only tuning and endpoints are saved; storage locations stay with the environment (changing them
from a page would silently switch databases) and the API key is never saved anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rrag.errors import ConfigError
from rrag.redact import redact_url as redact_url  # the Settings page shows the URL this way too
from rrag.settings import RISK_PRESETS, Settings

CUSTOM = "custom"  # a threshold that is no preset's

SAVED_FIELDS = (
    "llm_base_url",
    "llm_model",
    "llm_timeout_s",
    "llm_max_retries",
    "llm_context_tokens",
    "llm_max_tokens_answer",
    "llm_max_tokens_claims",
    "llm_max_tokens_judge",
    "chunk_size",
    "chunk_overlap",
    "dedup_threshold",
    "top_k",
    "relevance_floor",
    "answerer",
    "claim_extractor",
    "verifiers",
    "risk_threshold",
    "strict",
)


def to_saved(settings: Settings) -> dict[str, Any]:
    """JSON-ready values of the saved fields (tuples become lists)."""
    values = {name: getattr(settings, name) for name in SAVED_FIELDS}
    values["verifiers"] = list(settings.verifiers)
    return values


def apply_saved(base: Settings, saved: Mapping[str, Any]) -> Settings:
    """`base` with the saved values on top; unknown names are ignored, invalid values raise ConfigError."""
    values = {name: saved[name] for name in SAVED_FIELDS if name in saved}
    if "llm_base_url" in values:
        values["llm_base_url"] = with_credentials(values["llm_base_url"], base.llm_base_url)
    if "verifiers" in values:
        values["verifiers"] = tuple(values["verifiers"])
    try:
        return base.replace(**values)
    except (TypeError, ValueError) as exc:  # a value of the wrong type in an old database
        raise ConfigError(f"saved settings are not valid: {exc}") from exc


def with_credentials(entered: str | None, configured: str | None) -> str | None:
    """`entered`, or the configured URL where `entered` is that URL without its credentials. URLs are
    saved and shown (the Settings page) without them; the configured one keeps them where it stands."""
    if configured and entered == redact_url(configured):
        return configured
    return entered


def preset_of(threshold: float) -> str:
    """The risk preset whose threshold this is, or CUSTOM."""
    return next((name for name, value in RISK_PRESETS.items() if value == threshold), CUSTOM)
