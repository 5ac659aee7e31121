from pathlib import Path

import pytest

from rrag.errors import ConfigError
from rrag.settings import RISK_PRESETS, Settings


def test_from_env_parses_each_type() -> None:
    s = Settings.from_env(
        {
            "RRAG_DATA_DIR": "/tmp/x",
            "RRAG_TOP_K": "7",
            "RRAG_STRICT": "yes",
            "RRAG_RELEVANCE_FLOOR": "0.4",
            "RRAG_VERIFIERS": "quote, llm",
            "RRAG_CHROMA_HOST": "127.0.0.1",
            "RRAG_CHROMA_PORT": "8123",
        }
    )
    assert s.data_dir == Path("/tmp/x")
    assert (s.top_k, s.strict, s.relevance_floor) == (7, True, 0.4)
    assert s.verifiers == ("quote", "llm")
    assert (s.chroma_host, s.chroma_port) == ("127.0.0.1", 8123)


def test_api_key_comes_from_openai_variable_and_never_shows_in_repr() -> None:
    s = Settings.from_env({"OPENAI_API_KEY": "sk-secret-123"})
    assert s.llm_api_key == "sk-secret-123"
    assert "sk-secret-123" not in repr(s)


def test_risk_preset_sets_threshold() -> None:
    assert Settings.from_env({"RRAG_RISK_PRESET": "high-risk"}).risk_threshold == RISK_PRESETS["high-risk"]
    assert Settings.from_env({}, risk_preset="general").risk_threshold == 0.30
    with pytest.raises(ConfigError, match="risk preset"):
        Settings.from_env({"RRAG_RISK_PRESET": "reckless"})


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"RRAG_TOP_K": "many"}, "RRAG_TOP_K"),
        ({"RRAG_STRICT": "perhaps"}, "RRAG_STRICT"),
        ({"RRAG_CHUNK_OVERLAP": "5000"}, "chunk_overlap"),
        ({"RRAG_ANSWERER": "oracle"}, "answerer"),
        ({"RRAG_VERIFIERS": "quote,astrology"}, "verifiers"),
        ({"RRAG_RISK_THRESHOLD": "1.5"}, "risk_threshold"),
    ],
)
def test_invalid_values_raise_config_error(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_default_database_is_sqlite_in_data_dir(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path)
    assert s.sqlalchemy_url == f"sqlite:///{(tmp_path / 'rrag.db').resolve()}"
    assert Settings(database_url="postgresql://db/rrag").sqlalchemy_url == "postgresql://db/rrag"
    assert s.chroma_dir == tmp_path / "chroma"
    assert not s.llm_configured
    assert s.replace(llm_base_url="http://127.0.0.1:1/v1", llm_model="m").llm_configured
