"""Claims that cover the answer: LLM claims checked against the answer (with a fake LLM), every part
of the answer covered, fragments stated with their question, placeholders refused, and no flagged
claim handed back inside a trimmed answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_llm import FakeLLM

from rrag.audit.claims import BARE_REPLY, NO_ANSWER, LLMClaimExtractor, RuleClaimExtractor
from rrag.audit.grounding import is_placeholder, rejected
from rrag.audit.scoring import NO_ANSWER_REFUSAL, score
from rrag.engine.pipeline import ReliableRAG
from rrag.settings import Settings
from rrag.types import Answer, Claim, ClaimResult, ClaimStatus, Decision, Verdict

RULES = RuleClaimExtractor()
QUESTION = "How long must passwords be?"
ANSWER = "Passwords must be at least 14 characters long. Laptops are encrypted before they are issued."


def spans(answer: str, claims: list[Claim]) -> list[tuple[str, str, bool]]:
    return [(c.text, answer[c.start : c.end], c.checkable) for c in claims]


def test_placeholder_meta_and_question_claims_from_the_llm_are_rejected() -> None:
    llm = FakeLLM(
        {
            "claims": [
                "...",
                "[...]",
                "This is a JSON response to the question.",
                "How long must passwords be?",
                "Passwords must be long",  # the question's own words, not in the answer
                "Passwords must be at least 14 characters long.",
                "Laptops are encrypted before they are issued.",
            ]
        }
    )
    claims, notes = LLMClaimExtractor(llm).extract_with_notes(ANSWER, QUESTION)
    first, second = ANSWER.split(". ")
    assert spans(ANSWER, claims) == [(first + ".", first, True), (second, second.rstrip("."), True)]
    assert len(notes) == 1 and notes[0].startswith("5 claim(s) from the LLM claim extractor were left out")
    for why in ("a placeholder", "a remark about the reply", "a question", "an echo of the question"):
        assert why in notes[0]


def test_a_claim_with_a_number_the_answer_does_not_state_is_rejected() -> None:
    llm = FakeLLM({"claims": ["Passwords must be at least 16 characters long.", "Laptops are encrypted."]})
    claims, notes = LLMClaimExtractor(llm).extract_with_notes(ANSWER, QUESTION)
    assert [c.text for c in claims] == [
        "Passwords must be at least 14 characters long.",  # the rules' claim covers the sentence
        "Laptops are encrypted.",
    ]
    assert "a number the answer does not state" in notes[0]


def test_every_sentence_is_covered_by_a_claim() -> None:
    llm = FakeLLM({"claims": ["Passwords must be at least 14 characters long."]})
    claims, notes = LLMClaimExtractor(llm).extract_with_notes(ANSWER, QUESTION)
    assert [c.text for c in claims if c.checkable] == [
        "Passwords must be at least 14 characters long.",
        "Laptops are encrypted before they are issued.",
    ]
    assert notes == ["1 part(s) of the answer no LLM claim covered were split by the rule-based splitter."]


def test_all_llm_claims_rejected_leaves_the_rules_claims() -> None:
    llm = FakeLLM({"claims": ["...", "..."]})
    claims, notes = LLMClaimExtractor(llm).extract_with_notes(ANSWER, QUESTION)
    assert claims == RULES.extract(ANSWER, QUESTION)
    assert "2 claim(s)" in notes[0] and "rule-based splitter" in notes[1]


@pytest.mark.parametrize(
    ("question", "fragment", "stated"),
    [
        (QUESTION, "12 hours", "Passwords must be: 12 hours"),
        (
            "Who approves expense claims?",
            "The Chief Financial Officer",
            "The Chief Financial Officer approves expense claims.",
        ),
        (
            "When must incidents be reported?",
            "Within 24 hours.",
            "Incidents must be reported: Within 24 hours.",
        ),
        ("How many days of leave do employees get?", "25 days", "Employees get days of leave: 25 days"),
        ("What is the notice period?", "3 months", "The notice period is: 3 months"),
        # a denied question keeps its "does": it was "The warranty not cover: ..."
        ("What does the warranty not cover?", "Wear parts.", "The warranty does not cover: Wear parts."),
        # a main verb no list knows, read off the parse: it was "I keep can cats: Two."
        ("How many cats can I keep?", "Two.", "I can keep cats: Two."),
        ("How long can guests stay?", "Up to 14 nights.", "Guests can stay: Up to 14 nights."),
        # "does" said as the verb's ending: it was "The library open on Sundays: At noon."
        ("When does the library open on Sundays?", "At noon.", "The library opens on Sundays: At noon."),
        ("What does the fee apply to?", "Late returns.", "The fee applies to: Late returns."),
        # "what's" is "what is": it was "Sheds 's the biggest shed allowed."
        ("What's the notice period?", "3 months", "The notice period is: 3 months"),
        ("Who’s the site manager?", "Jo Hart.", "The site manager is: Jo Hart."),
    ],
)
def test_a_fragment_answer_is_stated_with_its_question(question: str, fragment: str, stated: str) -> None:
    [claim] = RULES.extract(fragment, question)
    assert (claim.text, claim.start, claim.end, claim.checkable) == (stated, 0, len(fragment), True)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # Both were stated with the question ("I should call if my pet needs a vet at night number:
        # Outside our opening hours, ...", "The Pet Health Club costs for a dog: Spread the cost ..."),
        # claims the documents never made.
        (
            "What number should I call if my pet needs a vet at night?",
            "Outside our opening hours, call 01632 960555.",
        ),
        ("How much does the Pet Health Club cost for a dog?", "Spread the cost of your pet's routine care."),
    ],
)
def test_an_instruction_is_no_fragment(question: str, answer: str) -> None:
    [claim] = RULES.extract(answer, question)
    assert claim.text == answer


def test_a_sentence_whose_verb_no_list_names_is_no_fragment() -> None:
    # It was framed as "The late fee for junior members is: Non-residents pay ...", a claim the
    # documents never made, and the judge supported it.
    question = "What is the late fee for junior members?"
    [claim] = RULES.extract("Non-residents pay an annual fee of £18.", question)
    assert claim.text == "Non-residents pay an annual fee of £18."
    [fragment] = RULES.extract("Annual leave", "What is the benefit?")
    assert fragment.text == "The benefit is: Annual leave"  # a noun phrase is still a fragment


def test_a_piece_split_off_a_sentence_is_not_stated_with_the_question() -> None:
    # Both were stated with the question as garbage: "I borrow can items: Adults juniors 8." and "I
    # book a digital skills session: limited to 6 people.", and the judge supported them.
    [claim] = RULES.extract("Adults can borrow 15 items and juniors 8.", "How many items can I borrow?")
    assert claim.text == "Adults can borrow 15 items and juniors 8."  # "juniors" is no verb: one fact
    claims = RULES.extract(
        "Call 01632 960 118 to book; sessions are on Friday mornings at Quayside and limited to 6 people.",
        "How do I book a digital skills session?",
    )
    assert [c.text for c in claims] == [
        "Call 01632 960 118 to book",  # an instruction is a statement of its own
        "sessions are on Friday mornings at Quayside and limited to 6 people.",
    ]


@pytest.mark.parametrize(
    ("question", "reply", "stated"),
    [
        ("Do charities get a discount?", "No.", "Charities do not get a discount."),
        ("Is the main branch open on Sunday?", "Yes.", "The main branch is open on Sunday."),
        ("Has the report been approved by the board?", "yes", "The report has been approved by the board."),
        ("Must volunteers be over 18?", "Nope.", "Volunteers must not be over 18."),
        # the short answer after the "yes" or the "no" says which: it was checked as "it is."
        ("Is the main branch open on Sunday?", "Yes, it is.", "The main branch is open on Sunday."),
        ("Can volunteers be 15?", "No, they can't.", "Volunteers can not be 15."),
        ("Do charities get a discount?", "They don\u2019t.", "Charities do not get a discount."),
    ],
)
def test_a_yes_or_no_is_stated_with_its_question(question: str, reply: str, stated: str) -> None:
    # A bare "No." was checked as it stood, and the judge supported it (0.84) against "Charities
    # registered in the county receive a 50% discount".
    [claim] = RULES.extract(reply, question)
    assert (claim.text, claim.end, claim.checkable) == (stated, len(reply), True)


def test_a_yes_or_no_without_a_question_it_can_be_said_with_is_not_checked() -> None:
    for question in ("What is the fee?", ""):
        for reply in ("Yes.", "it is."):
            [claim] = RULES.extract(reply, question)
            assert (claim.checkable, claim.reason) == (False, BARE_REPLY)


def test_a_fragment_answer_read_from_a_file_is_no_heading() -> None:
    # "12 hours\n" (an answer file's last line) was a heading: not checkable, and the answer passed.
    [claim] = RULES.extract("12 hours\n", QUESTION)
    assert (claim.text, claim.checkable) == ("Passwords must be: 12 hours", True)
    heading, _ = RULES.extract("Leave\nParents get 16 weeks of leave.\n")
    assert (heading.text, heading.reason) == ("Leave", "heading")


def test_a_value_labelled_with_what_was_asked_is_stated_as_it_is() -> None:
    # It was "At Riverside Park are docks: Riverside Park: 24 docks, with e-bike charging."
    question = "How many docks are at Riverside Park?"
    [claim] = RULES.extract("Riverside Park: 24 docks, with e-bike charging.", question)
    assert claim.text == "Riverside Park: 24 docks, with e-bike charging."
    [claim] = RULES.extract("Price: £6.", "How much is a day pass?")  # a label that names no subject
    assert claim.text == "A day pass is: Price: £6."


def test_fragments_from_the_llm_are_stated_with_the_question_too() -> None:
    claims, _ = LLMClaimExtractor(FakeLLM({"claims": ["12 hours"]})).extract_with_notes("12 hours.", QUESTION)
    assert [(c.text, c.start, c.end) for c in claims] == [("Passwords must be: 12 hours", 0, 8)]


def test_sentences_are_left_as_they_are() -> None:
    assert [c.text for c in RULES.extract(ANSWER, QUESTION)] == ANSWER.replace(". ", ".|").split("|")
    assert [c.text for c in RULES.extract("12 hours")] == ["12 hours"]  # no question, nothing to add


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How much does a deep clean cost?", "A deep clean costs GBP 35."),
        ("How long does the guarantee last?", "The guarantee lasts 30 days."),
        ("When does the office open?", "The office opens at 9:00."),
    ],
)
def test_a_short_sentence_with_the_questions_verb_is_no_fragment(question: str, answer: str) -> None:
    # Read as fragments, they were checked as "A deep clean cost: A deep clean costs GBP 35."
    assert [c.text for c in RULES.extract(answer, question)] == [answer]


# The last four from SmolLM2-135M under a schema constraint (docs/llm.md): the reply's format, no answer.
@pytest.mark.parametrize(
    "answer",
    [
        "",
        "   ",
        "...",
        "…",
        "[...]",
        "N/A",
        "n/a.",
        "-",
        "null",
        "true",
        "} The answer is: {",
        "</document><document n=",
    ],
)
def test_an_empty_or_placeholder_answer_is_refused(answer: str) -> None:
    assert is_placeholder(answer)
    claims = RULES.extract(answer, QUESTION)
    assert all(not c.checkable and c.reason == NO_ANSWER for c in claims)
    scored = score(
        [ClaimResult(c, Verdict(ClaimStatus.NOT_CHECKABLE, 1.0, "claims", c.reason)) for c in claims],
        Answer(answer, "external"),
        threshold=0.2,
        strict=False,
    )
    assert (scored.decision, scored.final_answer, scored.level) == (Decision.REFUSE, NO_ANSWER_REFUSAL, None)


@pytest.mark.parametrize(
    "answer",
    ["None of them.", "No.", "12", "Yes, 14 characters.", "The answer is: 14 characters.", "<b>14</b>"],
)
def test_short_answers_are_not_placeholders(answer: str) -> None:
    assert not is_placeholder(answer)


def test_format_debris_and_the_models_own_refusal_among_sentences_are_not_checked() -> None:
    answer = "Passwords must be at least 14 characters long.\n} The answer is: {"
    assert spans(answer, RULES.extract(answer, QUESTION)) == [
        ("Passwords must be at least 14 characters long.",) * 2 + (True,),
        ("} The answer is: {",) * 2 + (False,),
    ]
    for refusal in ("The answer is not available.", "The answer is not in the provided documents."):
        (claim,) = RULES.extract(refusal, QUESTION)
        assert (claim.checkable, claim.reason) == (False, "refusal")
    (fact,) = RULES.extract("The answer is not in dispute: passwords have 14 characters.", QUESTION)
    assert fact.checkable


def _result(text: str, answer: str, status: ClaimStatus, span: str | None = None) -> ClaimResult:
    start = answer.index(span or text)
    return ClaimResult(Claim(text, start, start + len(span or text)), Verdict(status, 0.9, "quote", "test"))


def test_a_span_holding_a_flagged_claim_is_never_handed_back() -> None:
    answer = "Refunds take 30 days. Fees are $5. Support is open on weekdays. Orders ship in 2 days."
    S, C = ClaimStatus.SUPPORTED, ClaimStatus.CONTRADICTED
    refunds = "Refunds take 30 days."
    medium = [
        _result("This is a JSON response to the question.", answer, S, span=refunds),  # junk on the span
        _result(refunds, answer, C),
        _result("Fees are $5.", answer, S),
        _result("Support is open on weekdays.", answer, S),
        _result("Orders ship in 2 days.", answer, S),
    ]
    scored = score(medium, Answer(answer, "external"), threshold=0.5, strict=False)
    assert scored.decision is Decision.TRIM and "30 days" not in scored.final_answer
    assert scored.final_answer == "Fees are $5. Support is open on weekdays. Orders ship in 2 days."

    low = [
        medium[0],
        medium[1],
        _result("Fees are $5.", answer, C),
        _result("Orders ship in 2 days.", answer, S),
    ]
    scored = score(low, Answer(answer, "external"), threshold=0.5, strict=False)
    assert scored.decision is Decision.TRIM and scored.final_answer == "Orders ship in 2 days."

    only_junk = [medium[0], medium[1], _result("Fees are $5.", answer, C)]
    assert (
        score(only_junk, Answer(answer, "external"), threshold=0.5, strict=False).decision is Decision.REFUSE
    )


SECURITY = """Passwords must be at least 14 characters long.
Security incidents must be reported to the IT service desk within 24 hours.
"""


def test_fragment_answers_are_checked_as_statements_through_the_engine(
    settings: Settings, tmp_path: Path
) -> None:
    (tmp_path / "security.txt").write_text(SECURITY, encoding="utf-8")
    engine = ReliableRAG(settings)
    try:
        assert engine.ingest([tmp_path / "security.txt"])[0].ok
        wrong = engine.verify(QUESTION, "12 hours")
        assert wrong.claims[0].claim.text == "Passwords must be: 12 hours"
        assert wrong.claims[0].verdict.status is not ClaimStatus.SUPPORTED
        assert wrong.decision is Decision.REFUSE
        late = engine.verify("When must security incidents be reported?", "Within 48 hours.")
        assert late.claims[0].verdict.status is ClaimStatus.CONTRADICTED and late.decision is Decision.REFUSE
        for placeholder in ("...", "N/A", ""):
            report = engine.verify(QUESTION, placeholder)
            assert (report.decision, report.final_answer) == (Decision.REFUSE, NO_ANSWER_REFUSAL)
            assert report.level is None and report.hallucination_rate is None
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("claim", "why"),
    [
        ("Here is the answer to your question.", "a remark about the reply"),
        ("The answer is 14 characters.", ""),  # names the answer, states a fact of it
        ("Password requests must be filed by the user.", "not in the answer"),
        ("Passwords need 14 characters.", ""),  # reworded, grounded in its sentence
    ],
)
def test_what_counts_as_a_claim_of_the_answer(claim: str, why: str) -> None:
    assert rejected(claim, ANSWER, QUESTION, ANSWER.split(". ")[0]) == why
