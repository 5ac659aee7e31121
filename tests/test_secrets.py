"""Secrets never stored: an API key in the base URL (`?api_key=`, `?sig=`, `?code=`, `user:key@host`) or
echoed back by the server (in any letter case) reaches neither the database, the report JSON, the exports nor
the logs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from chat_server import MODEL, ChatServer
from sqlalchemy import MetaData, create_engine

from rrag.engine.pipeline import ReliableRAG
from rrag.redact import REDACTED, Redactor, redact_url, redact_urls, url_secrets
from rrag.settings import Settings
from rrag.store import Store
from ui.app_settings import apply_saved, to_saved
from ui.export import report_html, report_json, report_markdown

SECRET = "sk-Live-0123456789abcdef"
POLICY = "Passwords must be at least 14 characters long.\n"


# Each case scripts the replies to the judge (the batch stops at the first failure) and to the
# connection test.
def _with_key_in_query(server: ChatServer) -> dict[str, str]:
    for _ in range(2):
        server.fail(500, "kaboom")
    return {"llm_base_url": f"{server.base_url}?api-version=2&api_key={SECRET}"}


def _with_key_as_password(server: ChatServer) -> dict[str, str]:
    for _ in range(2):
        server.fail(400, "bad request")
    return {"llm_base_url": server.base_url.replace("http://", f"http://user:{SECRET}@")}


def _with_key_echoed(server: ChatServer) -> dict[str, str]:
    # The server repeats the key, upper-cased, in a verdict's reason and in error messages (to the
    # second claim's judgement, the answer-relevance judgement and the connection test).
    server.reply_json(
        {
            "status": "unsupported",
            "evidence_quote": "",
            "passage": 0,
            "reason": f"key {SECRET.upper()} says: not stated",
        }
    )
    for _ in range(3):
        server.fail(400, f"Invalid key {SECRET.lower()}")
    return {"llm_base_url": server.base_url, "llm_api_key": SECRET}


def _with_key_in_sig(server: ChatServer) -> dict[str, str]:
    for _ in range(2):
        server.fail(500, "kaboom")
    return {"llm_base_url": f"{server.base_url}?api-version=2&sig={SECRET}"}


def _with_key_in_code(server: ChatServer) -> dict[str, str]:
    for _ in range(2):
        server.fail(500, f"bad code {SECRET}")
    return {"llm_base_url": f"{server.base_url}?code={SECRET}"}


def _with_key_in_amz_signature(server: ChatServer) -> dict[str, str]:
    for _ in range(2):
        server.fail(500, "kaboom")
    return {"llm_base_url": f"{server.base_url}?X-Amz-Signature={SECRET}&X-Amz-Date=20261124"}


def _database_text(settings: Settings) -> str:
    engine = create_engine(settings.sqlalchemy_url)
    try:
        tables = MetaData()
        tables.reflect(engine)
        with engine.connect() as conn:
            return repr([conn.execute(table.select()).all() for table in tables.sorted_tables])
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    "case",
    [
        _with_key_in_query,
        _with_key_as_password,
        _with_key_echoed,
        _with_key_in_sig,
        _with_key_in_code,
        _with_key_in_amz_signature,
    ],
)
def test_a_key_reaches_the_server_but_nothing_that_is_kept(  # type: ignore[no-untyped-def]
    case, server: ChatServer, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "policy.txt").write_text(POLICY, encoding="utf-8")
    llm = {"llm_model": MODEL, "llm_max_retries": 0, "verifiers": ("quote", "llm")} | case(server)
    caplog.set_level(logging.DEBUG)  # every logger, at every level
    rag = ReliableRAG(settings.replace(**llm))
    try:
        rag.ingest([tmp_path / "policy.txt"])
        report = rag.verify("Policy?", "Passwords need 20 characters. Laptops are free.")
        rag.store.save_app_settings(to_saved(rag.settings))
        with pytest.raises(Exception) as failed:  # noqa: PT011 - any error; its text must be clean
            rag.test_llm_connection()
    finally:
        rag.close()
    assert server.unexpected == 0 and server.pending == 0
    sent = " ".join(server.paths) + repr(server.headers)
    assert SECRET in sent or "Basic " in sent  # the key did go to the server (basic auth encodes it)
    assert any("judge" in c.verdict.reason for c in report.claims)  # the server's text was kept ...
    kept = {
        "report JSON": json.dumps(report.to_dict()),
        "database": _database_text(settings),
        "JSON export": report_json(report),
        "Markdown export": report_markdown(report),
        "HTML export": report_html(report),
        "logs": caplog.text,
        "error message": str(failed.value),
    }
    for where, text in kept.items():
        assert SECRET.lower() not in text.lower(), f"the key reached the {where}"  # ... without the key


def test_saved_settings_keep_no_url_credentials_and_the_environment_supplies_them(
    settings: Settings,
) -> None:
    url = f"https://user:{SECRET}@llm.example.com/v1?api_key={SECRET}&deployment=gpt"
    with Store(settings) as store:
        store.save_app_settings(to_saved(settings.replace(llm_base_url=url)))
        saved = store.get_app_settings()
    assert saved["llm_base_url"] == f"https://llm.example.com/v1?api_key={REDACTED}&deployment=gpt"
    assert apply_saved(settings.replace(llm_base_url=url), saved).llm_base_url == url  # from the env
    assert apply_saved(settings, saved).llm_base_url == saved["llm_base_url"]


def test_a_short_configured_key_is_redacted_too() -> None:
    redact = Redactor([], keys=["abc12"])
    assert redact("server says: key ABC12 is wrong") == f"server says: key {REDACTED} is wrong"
    assert redact("xabc12y stays") == "xabc12y stays"  # not a word of its own


@pytest.mark.parametrize(
    ("url", "clean", "secrets"),
    [
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1", []),
        ("https://bob:hunter22@h.example/v1", "https://h.example/v1", ["hunter22"]),
        ("https://sk-only-user@h.example:443/v1", "https://h.example:443/v1", ["sk-only-user"]),
        (
            "https://h/v1?api_key=abc%2Fdef&x=1",
            f"https://h/v1?api_key={REDACTED}&x={REDACTED}",
            ["abc/def", "1"],
        ),
        (
            "https://h/v1?Token=t0k3n&access_token=a1&sig=s",
            f"https://h/v1?Token={REDACTED}&access_token={REDACTED}&sig={REDACTED}",
            ["t0k3n", "a1", "s"],
        ),
        (
            "https://h/v1?api-version=2024-06&code=c0de&X-Amz-Signature=abc#frag",
            f"https://h/v1?api-version=2024-06&code={REDACTED}&X-Amz-Signature={REDACTED}",
            ["frag", "c0de", "abc"],
        ),
        ("https://h/v1?rawsecret", f"https://h/v1?{REDACTED}", ["rawsecret"]),
    ],
)
def test_redact_url(url: str, clean: str, secrets: list[str]) -> None:
    assert redact_url(url) == clean
    assert url_secrets(url) == secrets
    assert redact_urls(f"failed: POST {url} (500)") == f"failed: POST {clean} (500)"


def test_the_redactor_matches_any_case_and_url_encoding_but_not_placeholders() -> None:
    redact = Redactor(["abc/def+1", None, "", "ollama"])  # a placeholder key is no secret
    assert redact("ABC/DEF+1 and abc%2Fdef%2B1, Ollama stays") == f"{REDACTED} and {REDACTED}, Ollama stays"
    assert Redactor([])("nothing to hide") == "nothing to hide"
