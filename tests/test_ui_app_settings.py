"""Saved app settings: tuning only, never storage locations or secrets; bad values raise ConfigError."""

from __future__ import annotations

import json

import pytest

from rrag.errors import ConfigError
from rrag.settings import Settings
from ui.app_settings import SAVED_FIELDS, apply_saved, to_saved


def test_round_trip_through_json(settings: Settings) -> None:
    tuned = settings.replace(top_k=9, verifiers=("quote",), strict=True, llm_model="m")
    saved = json.loads(json.dumps(to_saved(tuned)))
    assert apply_saved(settings, saved) == tuned


def test_secrets_and_storage_are_never_saved(settings: Settings) -> None:
    saved = to_saved(settings.replace(llm_api_key="sk-secret-value"))
    assert "sk-secret-value" not in json.dumps(saved)
    assert not {"llm_api_key", "data_dir", "database_url", "chroma_host"} & set(SAVED_FIELDS)


def test_unknown_and_storage_names_in_the_database_are_ignored(settings: Settings) -> None:
    applied = apply_saved(settings, {"data_dir": "/elsewhere", "llm_api_key": "x", "nonsense": 1, "top_k": 3})
    assert applied.data_dir == settings.data_dir and applied.llm_api_key is None and applied.top_k == 3


@pytest.mark.parametrize("saved", [{"top_k": 0}, {"answerer": "magic"}, {"chunk_size": "big"}])
def test_invalid_saved_values_raise_config_error(settings: Settings, saved: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        apply_saved(settings, saved)
