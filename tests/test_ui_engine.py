"""The engine handle's pure parts: storage keys and secret redaction in messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from rrag.settings import Settings
from ui.engine import _storage_key, redact


def test_storage_key_separates_locations_and_ignores_tuning(tmp_path: Path) -> None:
    a = Settings(data_dir=tmp_path / "a")
    assert _storage_key(a) == _storage_key(a.replace(top_k=9, strict=True))
    assert _storage_key(a) != _storage_key(Settings(data_dir=tmp_path / "b"))
    assert _storage_key(a) != _storage_key(a.replace(chroma_host="127.0.0.1"))
    assert _storage_key(a) != _storage_key(a.replace(collection="other"))


def test_redact_removes_keys_from_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-abcdef123456")
    monkeypatch.setenv("RRAG_LLM_API_KEY", "sk-other-999999")
    message = "401 from server: key sk-live-abcdef123456 rejected (also sk-other-999999)"
    assert redact(message) == "401 from server: key [redacted] rejected (also [redacted])"


def test_redact_removes_a_short_key_as_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k3y")  # shorter than any length rule would keep
    assert redact("key K3Y refused; mk3yz stays") == "key [redacted] refused; mk3yz stays"


def test_redact_leaves_messages_alone_without_keys() -> None:
    assert redact("nothing secret here") == "nothing secret here"
