"""Shared fixtures: every test gets its own data directory (real SQLite, real Chroma) under tmp."""

from __future__ import annotations

from pathlib import Path

import pytest

from rrag.settings import Settings


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # No test may read the developer's RRAG_* variables or key, or write into ./data.
    import os

    for name in list(os.environ):
        if name.startswith("RRAG_") or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RRAG_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")
