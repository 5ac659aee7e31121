"""A limit said with a negator: "Passengers must not carry more than 2 bags" and "No bag may weigh more
than 23 kg" allow carrying and weighing, up to the limit. The negator turns the bound round (at most);
it denies nothing else, so restating the limit is no contradiction and exceeding it is one."""

import pytest

from rrag.settings import Settings
from rrag.text import negation_count, negations
from rrag.text.values import values
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.cascade import build_verifier
from rrag.verify.lexical import LexicalVerifier


def contexts(text: str) -> list[RetrievedChunk]:
    return [RetrievedChunk(Chunk("c0", "d0", "rules.md", text, 0, len(text)), 1.0)]


@pytest.fixture(scope="module")
def default_stage():
    return build_verifier(Settings())


@pytest.mark.parametrize(
    ("text", "written", "bound"),
    [
        ("Passengers must not carry more than 2 bags on board.", "2 bags", "upper"),
        ("Drivers cannot drive more than 9 hours a day.", "9 hours", "upper"),
        ("No bag may weigh more than 23 kg.", "23 kg", "upper"),
        ("No single item is covered for more than £300.", "£300", "upper"),
        ("No employee may work fewer than 20 hours a week.", "20 hours", "lower"),
        ("No driver may be older than 79 on the day the rental starts.", "79", "upper"),
    ],
)
def test_the_negator_of_a_limit_turns_its_bound_round_and_denies_nothing(
    text: str, written: str, bound: str
) -> None:
    value = next(v for v in values(text) if v.written == written)
    assert value.bound == bound
    assert negation_count(text) == 0 and not negations(text)


@pytest.mark.parametrize(
    "text",
    [
        "No one under 18 is admitted.",  # the bound is the subject's: no verb between
        "No vehicle over 3.5 tonnes may use the bridge.",
    ],
)
def test_a_bound_within_a_denied_subject_is_no_limit(text: str) -> None:
    assert all(not v.bound for v in values(text))
    assert negation_count(text) == 1


LIMITS = (
    "Passengers must not carry more than 2 bags on board. No bag may weigh more than 23 kg. "
    "Drivers cannot drive more than 9 hours a day. "
    "No driver may be older than 79 on the day the rental starts."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Passengers may carry up to 2 bags on board.",
        "Bags may weigh up to 23 kg.",
        "Drivers can drive up to 9 hours a day.",
        "Drivers can be up to 79 years old when the rental starts.",
    ],
)
def test_the_limit_restated_is_not_contradicted(default_stage, claim: str) -> None:
    rules = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(LIMITS))
    assert rules.status is not ClaimStatus.CONTRADICTED, rules.reason
    verdict = default_stage.verify(Claim(claim, 0, len(claim)), contexts(LIMITS))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


@pytest.mark.parametrize(
    ("claim", "quoted"),
    [
        ("Passengers may carry more than 2 bags on board.", "not carry more than 2 bags"),
        ("Passengers may carry 3 bags on board.", "2 bags"),
        ("Bags may weigh more than 23 kg.", "No bag may weigh more than 23 kg"),  # no near-exact quote
        ("Drivers can drive more than 9 hours a day.", "cannot drive more than 9 hours"),
    ],
)
def test_the_limit_exceeded_is_contradicted_by_it(default_stage, claim: str, quoted: str) -> None:
    verdict = default_stage.verify(Claim(claim, 0, len(claim)), contexts(LIMITS))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert f"the evidence says '{quoted}'" in verdict.reason
