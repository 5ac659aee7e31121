"""Typed replies: the output mode negotiated (json_schema, then json_object, then the prompt) and
remembered per server and model, replies validated against their pydantic model with one repair, the
prompt sized to the context window. Over real HTTP where the server's own refusal matters."""

from __future__ import annotations

import json

import pytest
from chat_server import ChatServer
from fake_llm import FakeLLM

from rrag.backends.llm import OutputMode
from rrag.backends.prompts import ANSWER, CLAIMS, JUDGE, AnswerReply, ClaimsReply, Judgement, fit_passages
from rrag.backends.structured import ask, estimate_tokens, parse_json, working_mode
from rrag.errors import ConfigError, LLMContextError, LLMError, LLMResponseError, OutputModeError
from rrag.settings import Settings
from rrag.types import Chunk, RetrievedChunk

HELLO = [{"role": "system", "content": "Split it."}, {"role": "user", "content": "An answer."}]
CLAIMS_JSON = {"claims": ["Leave is 25 days."]}
# What llama-cpp-python's server (0.3.36) answers to response_format json_schema.
LLAMA_CPP_REFUSAL = (
    "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
    "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}"
)


def passage(i: int, text: str) -> RetrievedChunk:
    return RetrievedChunk(Chunk(f"c{i}", "d", f"doc{i}.md", text, 0, len(text)), 1.0 - i / 100)


# -- negotiation --------------------------------------------------------------------------------------


def test_a_server_that_refuses_json_schema_is_asked_for_json_object_with_the_schema_beside_it(
    server: ChatServer, settings: Settings
) -> None:
    server.fail(500, LLAMA_CPP_REFUSAL)
    server.reply_json(CLAIMS_JSON)
    server.reply_json(CLAIMS_JSON)
    llm = server.llm(settings, llm_max_retries=2)  # a format refusal is not retried as a 500 would be
    value, mode = ask(llm, HELLO, ClaimsReply, kind="claims")
    assert (value.claims, mode) == (["Leave is 25 days."], OutputMode.JSON_OBJECT_SCHEMA)
    first, second = server.requests
    schema = ClaimsReply.model_json_schema()
    assert first["response_format"]["type"] == "json_schema" and "JSON schema" not in str(first["messages"])
    # llama.cpp's servers constrain generation to a schema given beside json_object; the prompt holds it
    # too, for a server that ignores the key.
    assert second["response_format"] == {"type": "json_object", "schema": schema}
    assert json.dumps(schema, separators=(",", ":")) in second["messages"][0]["content"]
    # Remembered for this server and model: the next call goes straight to that mode.
    assert working_mode(llm) is OutputMode.JSON_OBJECT_SCHEMA
    ask(llm, HELLO, ClaimsReply, kind="claims")
    assert server.requests[2]["response_format"] == second["response_format"] and server.unexpected == 0


def test_a_server_that_refuses_the_schema_beside_json_object_gets_json_object_alone(
    server: ChatServer, settings: Settings
) -> None:
    server.fail(400, LLAMA_CPP_REFUSAL)
    server.fail(400, "response_format: extra inputs are not permitted ('schema')")
    server.reply_json(CLAIMS_JSON)
    llm = server.llm(settings)
    value, mode = ask(llm, HELLO, ClaimsReply, kind="claims")
    assert (value.claims, mode) == (["Leave is 25 days."], OutputMode.JSON_OBJECT)
    assert [r["response_format"] for r in server.requests[1:]] == [
        {"type": "json_object", "schema": ClaimsReply.model_json_schema()},
        {"type": "json_object"},
    ]
    assert "follows this JSON schema" in server.requests[2]["messages"][0]["content"]
    assert working_mode(llm) is OutputMode.JSON_OBJECT


def test_a_server_that_refuses_every_format_is_prompted_for_plain_json() -> None:
    llm = FakeLLM(refuses=tuple(m for m in OutputMode if m is not OutputMode.PROMPT)).reply_json(CLAIMS_JSON)
    value, mode = ask(llm, HELLO, ClaimsReply, kind="claims")
    assert mode is OutputMode.PROMPT and value.claims == ["Leave is 25 days."]
    assert [r.mode for r in llm.requests] == [
        OutputMode.JSON_SCHEMA,
        OutputMode.JSON_OBJECT_SCHEMA,
        OutputMode.JSON_OBJECT,
        OutputMode.PROMPT,
    ]
    assert "follows this JSON schema" in llm.requests[-1].messages[0]["content"]


def test_a_server_that_refuses_every_mode_is_a_defined_failure_naming_its_reasons() -> None:
    llm = FakeLLM(refuses=tuple(OutputMode))
    with pytest.raises(OutputModeError, match="json_schema .*json_object_schema .*json_object .*prompt"):
        ask(llm, HELLO, ClaimsReply, kind="claims")


def test_an_error_that_does_not_name_the_format_is_not_a_fallback(
    server: ChatServer, settings: Settings
) -> None:
    server.fail(500, "CUDA out of memory")
    with pytest.raises(LLMError, match="HTTP 500\\): CUDA out of memory") as caught:
        ask(server.llm(settings), HELLO, ClaimsReply, kind="claims")
    assert not isinstance(caught.value, OutputModeError) and len(server.requests) == 1


def test_the_servers_error_text_reaches_the_user_redacted(server: ChatServer, settings: Settings) -> None:
    secret = "sk-live-0123456789abcdef"
    server.fail(400, f"response_format json_schema is not supported for key {secret}")
    server.fail(400, f"response_format schema is not supported for key {secret}")
    server.fail(400, f"response_format json_object is not supported for key {secret}")
    server.fail(400, f"context length exceeded for key {secret}")  # plain prompting: a real error
    with pytest.raises(LLMError) as caught:
        ask(server.llm(settings, llm_api_key=secret), HELLO, ClaimsReply, kind="claims")
    message = str(caught.value)
    assert "refused the request (HTTP 400): context length exceeded for key [redacted]" in message
    assert secret not in message and len(server.requests) == 4
    assert "response_format" not in server.requests[3]


# -- strict parsing ------------------------------------------------------------------------------------


def test_a_reply_of_the_wrong_shape_is_repaired_once_with_the_problem_stated() -> None:
    llm = FakeLLM().reply_json(["a bare list"]).reply_json(CLAIMS_JSON)
    value, _ = ask(llm, HELLO, ClaimsReply, kind="claims")
    assert value.claims == ["Leave is 25 days."]
    repair = llm.requests[1].messages
    assert repair[-2] == {"role": "assistant", "content": '["a bare list"]'}
    problem = repair[-1]["content"]
    assert problem.startswith("That reply was not usable: the reply: Input should be a valid dictionary")


def test_a_raw_line_break_inside_a_string_is_read_as_written_and_the_value_still_validated() -> None:
    # SmolLM2 under llama.cpp's schema constraint writes real newlines inside its strings.
    llm = FakeLLM().reply('{"claims": ["Leave is\n25 days.\tPaid."]}')
    value, _ = ask(llm, HELLO, ClaimsReply, kind="claims")
    assert value.claims == ["Leave is\n25 days.\tPaid."] and len(llm.requests) == 1
    llm = FakeLLM().reply('{"claims": "Leave is\n25 days."}').reply('{"claims": [7]}')
    with pytest.raises(LLMResponseError, match="not usable twice: claims.0: Input should be a valid string"):
        ask(llm, HELLO, ClaimsReply, kind="claims")


def test_a_second_unusable_reply_is_an_llm_response_error_never_a_silent_pass() -> None:
    llm = FakeLLM().reply('{"status": "supported", "evid', truncated=True).reply_json({"status": "maybe"})
    with pytest.raises(LLMResponseError, match="not usable twice"):
        ask(llm, HELLO, Judgement, kind="judge")
    assert "cut off at the limit of 256 tokens" in llm.requests[1].messages[-1]["content"]


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ({"answer": "", "refused": False, "citations": []}, '"answer" is empty'),
        ({"answer": "x", "refused": "no", "citations": []}, "refused"),
        ({"answer": "x", "refused": False, "citations": [{"quote": "q"}]}, "citations.0.passage"),
    ],
)
def test_answer_replies_are_validated_by_their_model(reply: dict, problem: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=problem.replace(".", r"\.")):
        AnswerReply.model_validate(reply)


def test_one_model_gives_the_schema_sent_and_the_validation() -> None:
    schema = Judgement.model_json_schema()
    assert schema["required"] == ["status", "evidence_quote", "passage", "reason"]
    assert schema["properties"]["status"]["enum"] == ["supported", "partial", "unsupported", "contradicted"]
    assert Judgement.model_validate(
        {**{k: "" for k in schema["required"]}, "status": " Supported", "passage": 1}
    )
    llm = FakeLLM().reply_json({"status": "supported", "evidence_quote": "", "passage": 1, "reason": ""})
    ask(llm, HELLO, Judgement, kind="judge")
    assert llm.requests[0].schema == schema and llm.requests[0].mode is OutputMode.JSON_SCHEMA


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ("Here you go: [1, 2] hope that helps", [1, 2]),
        ('<think>maybe {"a": 0}</think>\n{"a": 3}', {"a": 3}),
    ],
)
def test_parse_json_drops_wrapping(reply: str, expected: object) -> None:
    assert parse_json(reply) == expected


@pytest.mark.parametrize("reply", ['{"a": [1, 2', "no json at all", '{"a": }', '{"a": 1,}', "{'a': 1}"])
def test_parse_json_rejects_broken_or_truncated_json(reply: str) -> None:
    with pytest.raises(ValueError):
        parse_json(reply)


# -- token budgets -------------------------------------------------------------------------------------


def test_max_tokens_is_sent_per_kind_of_call_from_settings(server: ChatServer, settings: Settings) -> None:
    llm = server.llm(settings, llm_max_tokens_answer=300, llm_max_tokens_claims=200, llm_max_tokens_judge=100)
    server.reply_json({"answer": "x", "refused": False, "citations": []})
    server.reply_json(CLAIMS_JSON)
    server.reply_json({"status": "unsupported", "evidence_quote": "", "passage": 0, "reason": ""})
    ANSWER.run(llm, [passage(1, "Some text.")], question="q", refusal="no")
    CLAIMS.run(llm, question="q", answer="a")
    JUDGE.run(llm, [passage(1, "Some text.")], question="q", claim="c")
    assert [r["max_tokens"] for r in server.requests] == [300, 200, 100]


def test_passages_are_trimmed_to_fit_the_context_window_never_overflowing() -> None:
    long = [passage(i, f"Passage {i} says something. " * 120) for i in range(1, 9)]  # ~3,300 chars each
    settings = Settings(llm_context_tokens=4096, llm_max_tokens_judge=256)
    llm = FakeLLM(settings=settings)
    messages, shown = JUDGE.messages(llm, long, question="q", claim="c")
    prompt_tokens = sum(estimate_tokens(m["content"]) for m in messages)
    reserved = 2 * 256 + estimate_tokens(json.dumps(Judgement.model_json_schema()))
    assert prompt_tokens + reserved <= 4096
    assert 1 <= len(shown) < len(long) and [rc.chunk.chunk_id for rc in shown] == [
        f"c{i}" for i in range(1, len(shown) + 1)
    ]
    assert shown[-1].chunk.text != long[len(shown) - 1].chunk.text  # the last one shown is cut, not dropped
    assert long[0].chunk.text in messages[1]["content"]  # the best passage whole
    # A bigger window shows more.
    _, more = JUDGE.messages(
        FakeLLM(settings=Settings(llm_context_tokens=16384)), long, question="q", claim="c"
    )
    assert len(more) > len(shown)


def test_a_prompt_that_cannot_fit_even_without_passages_is_a_defined_error() -> None:
    llm = FakeLLM(
        settings=Settings(llm_context_tokens=1024, llm_max_tokens_answer=256, llm_max_tokens_claims=400)
    )
    with pytest.raises(LLMContextError, match="RRAG_LLM_CONTEXT_TOKENS"):
        CLAIMS.run(llm, question="q", answer="A long answer. " * 100)
    assert llm.requests == []


def test_fit_passages_keeps_order_and_skips_a_sliver() -> None:
    texts = [passage(1, "a " * 300), passage(2, "b " * 300)]
    assert fit_passages(texts, 10_000) == tuple(texts)
    assert fit_passages(texts, 5) == ()


def test_budgets_that_leave_no_room_for_a_prompt_are_refused() -> None:
    with pytest.raises(ConfigError, match="RRAG_LLM_CONTEXT_TOKENS"):
        Settings(llm_context_tokens=1024, llm_max_tokens_answer=600)
    assert Settings.from_env({"RRAG_LLM_MAX_TOKENS_JUDGE": "128"}).llm_max_tokens_judge == 128
