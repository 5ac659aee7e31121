"""Keys stay home (issue 46, item 4): the environment's API key goes only to the origin of the base URL
configured with it; a URL typed on Settings is tested without it unless a key is typed there; no
password, token or signature of the configured URL reaches the browser. The browser side, in real
Chromium with its websocket frames read, is tests/e2e/test_hostile_journey.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import streamlit as st
from chat_server import MODEL, ChatServer
from streamlit.testing.v1 import AppTest
from test_pages import SECRET, _all_text, _page, _submit, rag  # noqa: F401 (fixture)

from rrag import ReliableRAG
from rrag.backends.llm import PLACEHOLDER_API_KEY
from rrag.redact import REDACTED
from rrag.settings import Settings
from ui.engine import get_engine

URL_PASSWORD = "pw-NEVER-IN-THE-BROWSER-42"
URL_SIGNATURE = "sig-NEVER-IN-THE-BROWSER-43"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as s:
        yield s


def _connect(server: ChatServer) -> None:
    server.reply_json({"answer": "It opens at 9:00.", "refused": False, "citations": []})


def _test_connection(at: AppTest, url: str | None = None, key: str = "") -> AppTest:
    if url is not None:
        next(w for w in at.text_input if w.label == "Base URL").input(url)
    next(w for w in at.text_input if w.label == "Model").input(MODEL)
    next(w for w in at.text_input if w.label.startswith("API key for testing")).input(key)
    return _submit(at, "Test LLM connection")


def test_a_key_belongs_to_the_origin_it_was_configured_with(settings: Settings) -> None:
    home = settings.replace(llm_base_url="http://LLM.example.com:80/v1", llm_model=MODEL, llm_api_key="k")
    assert home.llm_key_origin == "http://llm.example.com"
    assert home.key_for("http://llm.example.com/v1/chat") == "k"
    for elsewhere in (
        "https://llm.example.com/v1",
        "http://llm.example.com:8080/v1",
        "http://evil.example/v1",
    ):
        assert home.key_for(elsewhere) is None
        assert home.replace(llm_base_url=elsewhere).key_for(elsewhere) is None
    assert (
        home.replace(llm_base_url="http://evil.example/v1", llm_api_key="typed").key_for(
            "http://evil.example/v1"
        )
        == "typed"
    )
    only_key = Settings.from_env({"OPENAI_API_KEY": "k", "RRAG_DATA_DIR": str(settings.data_dir)})
    assert only_key.llm_key_origin == "https://api.openai.com"  # the service the variable is named after


def test_a_url_typed_on_settings_is_tested_without_the_environments_key(
    rag: ReliableRAG,
    server: ChatServer,
) -> None:
    _connect(server)
    at = _test_connection(_page("settings"), server.base_url)
    assert any("in output mode" in s.value for s in at.success), [e.value for e in at.error]
    assert server.headers[0]["authorization"] == f"Bearer {PLACEHOLDER_API_KEY}"
    assert SECRET not in str(server.headers)

    _connect(server)
    at = _test_connection(at, server.base_url, key="sk-typed-for-this-test")
    assert server.headers[1]["authorization"] == "Bearer sk-typed-for-this-test"
    assert "sk-typed-for-this-test" not in str(rag.store.get_app_settings())


def test_the_configured_url_gets_the_environments_key(
    rag: ReliableRAG, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RRAG_LLM_BASE_URL", server.base_url)
    st.cache_resource.clear()  # as after a restart with the URL configured beside the key
    _connect(server)
    at = _test_connection(_page("settings"))  # the URL as shown, unchanged
    assert any("in output mode" in s.value for s in at.success), [e.value for e in at.error]
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"
    get_engine().close()


def test_the_settings_page_shows_the_configured_url_without_its_secrets_and_keeps_them(
    rag: ReliableRAG, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = server.base_url.removeprefix("http://")
    monkeypatch.setenv(
        "RRAG_LLM_BASE_URL", f"http://ops:{URL_PASSWORD}@{host}?sig={URL_SIGNATURE}&api-version=2"
    )
    monkeypatch.setenv("RRAG_LLM_MODEL", MODEL)
    st.cache_resource.clear()
    at = _page("settings")
    shown = next(w for w in at.text_input if w.label == "Base URL").value
    assert shown == f"http://{host}?sig={REDACTED}&api-version=2"
    widget_state = str([w.value for kind in ("text_input", "number_input") for w in at.get(kind)])
    for secret in (URL_PASSWORD, URL_SIGNATURE, SECRET):
        assert secret not in _all_text(at) and secret not in widget_state
    _submit(at, "Save")  # the URL unchanged: the credentials the environment gave stay in use
    assert (
        get_engine().settings.llm_base_url
        == f"http://ops:{URL_PASSWORD}@{host}?sig={URL_SIGNATURE}&api-version=2"
    )
    assert URL_PASSWORD not in str(rag.store.get_app_settings())
    get_engine().close()
