"""The shipped model with the lexical veto, on real text (the real int8 model, no fakes)."""

from __future__ import annotations

import pytest

from rrag.settings import Settings
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.base import Verifier
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.registry import VERIFIERS
from rrag.verify.rules.values import BORROWED

POLICY = (
    "2.1 Multi-factor authentication (MFA) is required for every company system, including email, "
    "the HR portal and all internal systems. The primary carer of a new child is entitled to 16 weeks "
    "of parental leave at full pay. Parental leave can start up to 4 weeks before the expected date "
    "of birth."
)


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return VERIFIERS.create("nli", Settings())  # the app's offline stage


def _check(verifier: Verifier, text: str):
    chunk = Chunk("policy:0", "policy", "policy.md", POLICY, 0, len(POLICY))
    return verifier.verify(Claim(text, 0, len(text)), [RetrievedChunk(chunk, 0.9)])


def test_faithful_claim_keeps_the_models_verdict(verifier: Verifier) -> None:
    v = _check(verifier, "The primary carer is entitled to 16 weeks of parental leave at full pay.")
    assert v.status is ClaimStatus.SUPPORTED and v.verifier == "nli"


def test_negation_is_contradicted_with_the_deciding_sentence(verifier: Verifier) -> None:
    v = _check(verifier, "Multi-factor authentication is not required for internal systems.")
    assert v.status is ClaimStatus.CONTRADICTED
    assert v.evidence is not None and "is required for every company system" in v.evidence.quote


def test_a_word_denied_by_a_hyphened_free_on_both_sides_is_no_contradiction() -> None:
    # "interest-free" says "at no interest": the claim was contradicted and the answer refused
    evidence = "Private treatment costing over £500 can be spread over 10 monthly payments at no interest."
    chunk = Chunk("plans:0", "plans", "policy.pdf", evidence, 0, len(evidence))
    said = "Private treatment over £500 can be paid in ten monthly instalments, interest-free."
    denied = "Private treatment over £500 can be paid in ten monthly instalments, with interest."
    rules = LexicalVerifier()
    assert (
        rules.verify(Claim(said, 0, len(said)), [RetrievedChunk(chunk, 0.9)]).status
        is not ClaimStatus.CONTRADICTED
    )
    assert (
        rules.verify(Claim(denied, 0, len(denied)), [RetrievedChunk(chunk, 0.9)]).status
        is ClaimStatus.CONTRADICTED
    )


def test_an_amount_the_documents_never_state_is_unsupported(verifier: Verifier) -> None:
    v = _check(verifier, "The primary carer is entitled to 16 weeks of parental leave and a bonus of €2,000.")
    assert v.status in {ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED}


def test_a_changed_number_is_never_supported(verifier: Verifier) -> None:
    v = _check(verifier, "The primary carer is entitled to 20 weeks of parental leave at full pay.")
    assert v.status is ClaimStatus.CONTRADICTED and "'16 weeks'" in v.reason


def test_a_narrow_model_yes_on_words_the_documents_lack_is_unsupported(verifier: Verifier) -> None:
    v = _check(verifier, "The company also pays for a gym membership of up to 16 euros per month for carers.")
    assert v.status is ClaimStatus.UNSUPPORTED


HANDBOOK = (
    "The office opens at 8 am on weekdays. The canteen serves hot meals and salads at lunchtime. "
    "Every employee gets 25 days of annual leave."
)


def _check_in(verifier: Verifier, context: str, text: str):
    chunk = Chunk("handbook:0", "handbook", "handbook.md", context, 0, len(context))
    return verifier.verify(Claim(text, 0, len(text)), [RetrievedChunk(chunk, 0.9)])


def test_each_sentence_of_a_claim_is_checked_against_its_own_evidence(verifier: Verifier) -> None:
    # Against one window for the whole claim, the number of the other sentence looked unstated.
    v = _check_in(
        verifier,
        HANDBOOK,
        "The office opens at 8 am on weekdays. Every employee gets 25 days of annual leave.",
    )
    assert v.status is ClaimStatus.SUPPORTED, v.reason


def test_a_changed_number_in_a_later_sentence_is_contradicted(verifier: Verifier) -> None:
    v = _check_in(
        verifier,
        HANDBOOK,
        "The office opens at 8 am on weekdays. Every employee gets 30 days of annual leave.",
    )
    assert v.status is ClaimStatus.CONTRADICTED and "'25 days'" in v.reason
    assert v.evidence is not None and "25 days" in v.evidence.quote


SECURITY = "Passwords must be at least 12 characters long. Sessions expire after 12 hours of inactivity."


def test_a_value_borrowed_from_a_sentence_about_something_else_is_read_as_such(
    verifier: Verifier,
) -> None:
    # The two sentences together hold "passwords" and "12 hours": the rules read the value as of
    # something else (a sign the combiner reads; it decides no verdict alone: precision.json).
    chunk = RetrievedChunk(Chunk("s:0", "s", "security.md", SECURITY, 0, len(SECURITY)), 0.9)
    text = "Passwords must be: 12 hours"
    ((borrowed, kind),) = LexicalVerifier().assess([Claim(text, 0, len(text))], [chunk])
    assert kind == BORROWED and "'12 hours' of something else" in borrowed.reason
    assert "Sessions expire" in borrowed.reason
    for faithful in ("Passwords must be at least 12 characters long.", "Sessions expire after 12 hours."):
        assert _check_in(verifier, SECURITY, faithful).status is ClaimStatus.SUPPORTED
    # A sentence that goes on about the claim's subject ("It ...") lends no value of something else.
    joined = "The X400 was released in 2010. It costs $5."
    assert (
        _check_in(verifier, joined, "The X400, released in 2010, costs $5.").status is ClaimStatus.SUPPORTED
    )
