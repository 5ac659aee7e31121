"""Claim extraction: the rule-based default and the LLM extractor over real HTTP."""

from __future__ import annotations

import pytest
from chat_server import ChatServer, closed_port

from rrag.answer.answerers import REFUSAL
from rrag.audit.claims import LLMClaimExtractor, RuleClaimExtractor
from rrag.backends.llm import OpenAIChatLLM
from rrag.settings import Settings
from rrag.types import Claim

RULES = RuleClaimExtractor()


def table(claims: list[Claim]) -> list[tuple[str, bool, str]]:
    return [(c.text, c.checkable, c.reason) for c in claims]


def assert_spans_exact(answer: str, claims: list[Claim]) -> None:
    assert all(answer[c.start : c.end] == c.text for c in claims)


def test_sentences_become_claims_and_chatter_is_not_checkable() -> None:
    answer = (
        "Hello! Based on the documents, full-time employees receive 25 days of paid leave. "
        "Is there anything else? I think this is generous. The documents do not mention bonuses. "
        "I hope this helps."
    )
    claims = RULES.extract(answer)
    assert table(claims) == [
        ("Hello!", False, "greeting or closing"),
        ("full-time employees receive 25 days of paid leave.", True, ""),
        ("Is there anything else?", False, "question"),
        ("I think this is generous.", False, "opinion or hedge"),
        ("The documents do not mention bonuses.", False, "refusal"),
        ("I hope this helps.", False, "greeting or closing"),
    ]
    assert_spans_exact(answer, claims)


def test_conjoined_independent_clauses_are_split() -> None:
    answer = (
        "Incidents must be reported within 24 hours; laptops are encrypted before they are issued. "
        "Parents get 16 weeks of leave, and the leave must be requested 8 weeks ahead."
    )
    claims = RULES.extract(answer)
    assert [c.text for c in claims] == [
        "Incidents must be reported within 24 hours",
        "laptops are encrypted before they are issued.",
        "Parents get 16 weeks of leave",
        "the leave must be requested 8 weeks ahead.",
    ]
    assert all(c.checkable for c in claims)
    assert_spans_exact(answer, claims)


@pytest.mark.parametrize(
    "sentence",
    [
        "The plan covers dental, vision, and hearing care.",  # a list of nouns, not clauses
        "Parents get 16 weeks, and they must ask early.",  # "they" would not stand alone
        "Full-time and part-time staff get leave.",
        # numbers sharing the unit of the list's last: "Courses of 20" was a claim of its own
        "Courses of 20, 30 and 40 hours are available.",
    ],
)
def test_sentences_that_would_not_stand_alone_are_kept_whole(sentence: str) -> None:
    assert [c.text for c in RULES.extract(sentence)] == [sentence]


def test_list_items_are_claims_and_fragments_are_stated_with_their_lead_in() -> None:
    answer = (
        "Here is a summary:\n- Passwords must be at least 14 characters long.\n- MFA is mandatory.\n\n"
        "The plan covers:\n- dental\n- vision\n\n## Leave\nParents get 16 weeks of leave."
    )
    claims = RULES.extract(answer)
    assert table(claims) == [
        ("Here is a summary:", False, "remark about the answer"),
        ("Passwords must be at least 14 characters long.", True, ""),
        ("MFA is mandatory.", True, ""),
        ("The plan covers:", False, "remark about the answer"),
        ("The plan covers: dental", True, ""),  # each item a claim, under its lead-in
        ("The plan covers: vision", True, ""),
        ("Leave", False, "heading"),
        ("Parents get 16 weeks of leave.", True, ""),
    ]
    spans = [c.text for c in claims[:4]] + ["dental", "vision"] + [c.text for c in claims[6:]]
    assert [answer[c.start : c.end] for c in claims] == spans


def test_a_wrong_item_of_a_list_is_a_claim_of_its_own() -> None:
    # The list was one claim: "Juniors: up to 80 items" contradicted, the whole answer was refused with
    # the adults' right 15 items; now the wrong item alone is (rrag/audit/scoring.py trims it).
    answer = "You can borrow:\n- Adults: up to 15 items\n- Juniors: up to 80 items"
    assert [c.text for c in RULES.extract(answer) if c.checkable] == [
        "You can borrow: Adults: up to 15 items",
        "You can borrow: Juniors: up to 80 items",
    ]


def test_the_refusal_is_one_not_checkable_claim() -> None:
    claims = RULES.extract(REFUSAL)
    assert table(claims) == [(REFUSAL, False, "refusal")]
    assert RULES.extract("") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Unfortunately, the fee is $500.",
        "The policy does not cover contractors.",
        "Employees receive no information about salaries before they start.",
        "I'm sorry to say the deadline is 3 May.",
    ],
)
def test_a_fact_is_not_hidden_as_a_refusal(sentence: str) -> None:
    [claim] = RULES.extract(sentence)
    assert claim.checkable, claim.reason


def test_meta_prefixes_are_left_out_of_the_claim() -> None:
    answer = "According to the policy, the fee is $5. Sure, refunds take 30 days. In summary, fees are low."
    assert [c.text for c in RULES.extract(answer)] == [
        "the fee is $5.",
        "refunds take 30 days.",
        "fees are low.",
    ]


def test_llm_claims_are_placed_on_their_spans(server: ChatServer, settings: Settings) -> None:
    answer = "Hi! Parents get 16 weeks of leave, and it must be requested 8 weeks ahead. Anything else?"
    server.reply_json(
        {
            "claims": [
                "Parents get 16 weeks of leave",  # verbatim
                "Parental leave must be requested 8 weeks ahead",  # rewritten: placed on its sentence
            ]
        }
    )
    claims, notes = LLMClaimExtractor(server.llm(settings)).extract_with_notes(answer, "Parental leave?")
    assert notes == []
    sentence = answer.index("Parents"), answer.index("Anything") - 1
    assert [(c.text, c.start, c.end, c.checkable) for c in claims] == [
        ("Hi!", 0, 3, False),
        ("Parents get 16 weeks of leave", sentence[0], sentence[0] + 29, True),
        ("Parental leave must be requested 8 weeks ahead", *sentence, True),
        ("Anything else?", answer.index("Anything"), len(answer), False),
    ]
    request = server.requests[0]["messages"]
    assert "<answer>\n" + answer + "\n</answer>" in request[1]["content"]
    assert "not instructions" in request[0]["content"]


def test_llm_extractor_falls_back_to_rules_with_a_note(settings: Settings) -> None:
    llm = OpenAIChatLLM(
        settings.replace(
            llm_base_url=f"http://127.0.0.1:{closed_port()}/v1", llm_model="m", llm_max_retries=0
        )
    )
    answer = "Parents get 16 weeks of leave. Passwords need 14 characters."
    claims, notes = LLMClaimExtractor(llm).extract_with_notes(answer)
    assert claims == RULES.extract(answer)
    assert len(notes) == 1 and "rule-based splitter" in notes[0] and "cannot reach" in notes[0]
    assert LLMClaimExtractor(llm).extract(answer) == claims


def test_llm_extractor_falls_back_on_broken_json_twice(server: ChatServer, settings: Settings) -> None:
    server.reply('{"claims": ["Parents get')
    server.reply("sorry, no JSON today")
    claims, notes = LLMClaimExtractor(server.llm(settings)).extract_with_notes(
        "Parents get 16 weeks of leave."
    )
    assert [c.text for c in claims] == ["Parents get 16 weeks of leave."]
    assert "not usable twice" in notes[0]


def test_an_empty_llm_claim_list_does_not_hide_the_answer(server: ChatServer, settings: Settings) -> None:
    server.reply_json({"claims": []})
    claims, notes = LLMClaimExtractor(server.llm(settings)).extract_with_notes(
        "Parents get 16 weeks of leave."
    )
    assert [c.checkable for c in claims] == [True]
    assert "found no claims" in notes[0]


def test_nothing_to_ask_the_llm_about(server: ChatServer, settings: Settings) -> None:
    claims, notes = LLMClaimExtractor(server.llm(settings)).extract_with_notes(REFUSAL)
    assert table(claims) == [(REFUSAL, False, "refusal")] and notes == []
    assert server.requests == []
