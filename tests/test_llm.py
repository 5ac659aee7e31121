"""The OpenAI-compatible client over real HTTP against the scripted loopback server."""

from __future__ import annotations

import time

import pytest
from chat_server import MODEL, ChatServer, closed_port

from rrag.backends.llm import PLACEHOLDER_API_KEY, OpenAIChatLLM, OutputMode
from rrag.errors import ConfigError, LLMError, LLMResponseError, LLMTimeoutError
from rrag.settings import Settings

HELLO = [{"role": "user", "content": "Say hello"}]


def test_complete_sends_the_conversation_and_returns_the_reply(
    server: ChatServer, settings: Settings
) -> None:
    server.reply("hello there")
    llm = server.llm(settings)
    completion = llm.complete(HELLO, max_tokens=32)
    assert (completion.text, completion.model, completion.truncated) == ("hello there", MODEL, False)
    assert (completion.prompt_tokens, completion.completion_tokens) == (1, 1)  # the server's usage
    request = server.requests[0]
    assert request["max_tokens"] == 32
    assert request["model"] == MODEL
    assert request["messages"] == HELLO
    assert request["temperature"] == 0
    assert "response_format" not in request
    # A local server needs no key; the client still sends a placeholder, never an empty header.
    assert server.headers[0]["authorization"] == f"Bearer {PLACEHOLDER_API_KEY}"


def test_json_schema_is_sent_as_structured_output(server: ChatServer, settings: Settings) -> None:
    server.reply('{"name": "x"}')
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    server.reply('{"name": "x"}')
    server.reply('{"name": "x"}')
    llm = server.llm(settings)
    for mode in (OutputMode.JSON_SCHEMA, OutputMode.JSON_OBJECT_SCHEMA, OutputMode.JSON_OBJECT):
        llm.complete(HELLO, max_tokens=32, mode=mode, schema=schema)
    assert [r["response_format"] for r in server.requests] == [
        {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}},
        {"type": "json_object", "schema": schema},  # what llama.cpp's servers constrain generation to
        {"type": "json_object"},
    ]


def test_a_server_that_refuses_max_tokens_gets_the_same_budget_as_max_completion_tokens(
    server: ChatServer, settings: Settings
) -> None:
    server.fail(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
    )
    server.reply("ok")
    assert server.llm(settings).complete(HELLO, max_tokens=40).text == "ok"
    first, second = server.requests
    assert first["max_tokens"] == 40 and "max_completion_tokens" not in first
    assert second["max_completion_tokens"] == 40 and "max_tokens" not in second


def test_an_unconfigured_llm_is_a_config_error(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="RRAG_LLM_BASE_URL"):
        OpenAIChatLLM(settings)


def test_server_down_is_a_clear_error(settings: Settings) -> None:
    llm = OpenAIChatLLM(
        settings.replace(
            llm_base_url=f"http://127.0.0.1:{closed_port()}/v1", llm_model=MODEL, llm_max_retries=0
        )
    )
    with pytest.raises(LLMError, match="cannot reach the LLM server at http://127.0.0.1") as caught:
        llm.complete(HELLO, max_tokens=32)
    assert not isinstance(caught.value, LLMTimeoutError)


def test_slow_server_times_out(server: ChatServer, settings: Settings) -> None:
    server.reply("too late", delay_s=5)
    llm = server.llm(settings, llm_timeout_s=0.3)
    began = time.monotonic()
    with pytest.raises(LLMTimeoutError, match=r"did not answer within 0.3 s \(tried once\)"):
        llm.complete(HELLO, max_tokens=32)
    assert time.monotonic() - began < 3


def test_rate_limit_is_reported_after_the_retries(server: ChatServer, settings: Settings) -> None:
    for _ in range(2):
        server.fail(429, "slow down")
    with pytest.raises(LLMError, match="rate-limiting requests \\(HTTP 429\\)"):
        server.llm(settings, llm_max_retries=1).complete(HELLO, max_tokens=32)
    assert len(server.requests) == 2 and server.pending == 0


def test_a_transient_failure_is_retried_by_the_client(server: ChatServer, settings: Settings) -> None:
    server.fail(429)
    server.reply("recovered")
    assert server.llm(settings, llm_max_retries=1).complete(HELLO, max_tokens=32).text == "recovered"
    assert len(server.requests) == 2


def test_a_server_error_says_what_the_server_said(server: ChatServer, settings: Settings) -> None:
    server.fail(500, "kaboom: model failed to load")
    with pytest.raises(LLMError, match=r"failed \(HTTP 500\): kaboom: model failed to load; try again"):
        server.llm(settings).complete(HELLO, max_tokens=32)


def test_the_api_key_never_appears_in_errors(server: ChatServer, settings: Settings) -> None:
    secret = "sk-test-very-secret-123"
    server.fail(401, f"Incorrect API key provided: {secret}")
    server.fail(400, f"bad request for key {secret}")
    llm = server.llm(settings, llm_api_key=secret)
    with pytest.raises(LLMError) as unauthorised:
        llm.complete(HELLO, max_tokens=32)
    with pytest.raises(LLMError) as bad_request:
        llm.complete(HELLO, max_tokens=32)
    assert server.headers[0]["authorization"] == f"Bearer {secret}"  # it was sent, but is never shown
    assert "rejected the API key (HTTP 401)" in str(unauthorised.value)
    assert "HTTP 400" in str(bad_request.value) and "[redacted]" in str(bad_request.value)
    for error in (unauthorised.value, bad_request.value):
        assert secret not in str(error) and error.__cause__ is None
    assert secret not in repr(settings.replace(llm_api_key=secret))


def test_credentials_in_the_url_are_not_shown(settings: Settings) -> None:
    port = closed_port()
    llm = OpenAIChatLLM(
        settings.replace(
            llm_base_url=f"http://user:hunter2@127.0.0.1:{port}/v1", llm_model=MODEL, llm_max_retries=0
        )
    )
    with pytest.raises(LLMError) as caught:
        llm.complete(HELLO, max_tokens=32)
    assert "hunter2" not in str(caught.value) and f"127.0.0.1:{port}" in str(caught.value)


def test_a_body_that_is_not_a_chat_completion(server: ChatServer, settings: Settings) -> None:
    server.raw(b'{"choices": [{"message": {"content": "unterminated')
    server.raw(b'{"choices": []}')
    llm = server.llm(settings)
    with pytest.raises(LLMResponseError):
        llm.complete(HELLO, max_tokens=32)
    with pytest.raises(LLMResponseError, match="empty reply"):
        llm.complete(HELLO, max_tokens=32)


def test_the_context_window_is_read_from_llama_cpp_props(server: ChatServer, settings: Settings) -> None:
    server.serve_get("/props", {"default_generation_settings": {"n_ctx": 2048}})
    llm = server.llm(settings.replace(llm_context_tokens=8192))
    assert llm.limits.context == 2048
    assert llm.limits.answer == settings.llm_max_tokens_answer  # the reply budgets stay as configured


def test_the_context_window_is_read_from_vllm_models(server: ChatServer, settings: Settings) -> None:
    models = [{"id": "other", "max_model_len": 512}, {"id": MODEL, "max_model_len": 32768}]
    server.serve_get("/v1/models", {"object": "list", "data": models})
    assert server.llm(settings.replace(llm_context_tokens=8192)).limits.context == 32768
    assert server.got == ["/props", "/v1/models"]


def test_a_server_that_does_not_say_keeps_the_configured_context(
    server: ChatServer, settings: Settings
) -> None:
    server.serve_get("/v1/models", {"object": "list", "data": [{"id": MODEL, "owned_by": "me"}]})
    assert server.llm(settings.replace(llm_context_tokens=3000)).limits.context == 3000
    llm = OpenAIChatLLM(settings.replace(llm_base_url=f"http://127.0.0.1:{closed_port()}/v1", llm_model="m"))
    assert llm.limits.context == settings.llm_context_tokens  # unreachable: the setting, no error
