"""When the rules overrule the model in the cascade's offline stage (issue 12 item 3): deterministic,
on verdicts built by hand and on the rules' real output; the real model is in test_guarded.py."""

import pytest

from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify.guarded import DEFAULT_GUARD, overrule
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.rules.contrasts import OPPOSITE
from rrag.verify.rules.negation import NEGATED_EVIDENCE, NEGATION
from rrag.verify.rules.values import BORROWED, UNSTATED, VALUE


def model(status: ClaimStatus, p: float) -> Verdict:
    return Verdict(status, p, "nli", "the model", support_score=p)


def rule(status: ClaimStatus, support: float, clash: ValueClash | None = None) -> Verdict:
    return Verdict(status, 0.7, "lexical", "the rules", support_score=support, clash=clash)


CLASH = rule(ClaimStatus.CONTRADICTED, 0.05, ValueClash("10 working days", "5 working days", 0, 15))
FITTING = (rule(ClaimStatus.SUPPORTED, 0.9), None)


def test_a_value_clash_overrules_even_a_sure_yes_in_a_long_claim() -> None:
    assert overrule(model(ClaimStatus.SUPPORTED, 0.97), [(CLASH, VALUE)]) is CLASH
    assert overrule(model(ClaimStatus.SUPPORTED, 0.97), [FITTING, (CLASH, VALUE), FITTING]) is CLASH


def test_a_claim_that_negates_the_evidence_overrules_a_sure_yes() -> None:
    negated = rule(ClaimStatus.CONTRADICTED, 0.1)
    assert overrule(model(ClaimStatus.SUPPORTED, 0.95), [(negated, NEGATION)]) is negated


def test_a_not_about_another_word_in_the_evidence_is_only_a_sign() -> None:
    claim = "Remote employees may work from another country for 20 days a year."
    evidence = (
        "Remote employees may work from another country for 20 days a year, but not from a sanctioned one."
    )
    chunk = Chunk("c", "d", "remote.txt", evidence, 0, len(evidence))
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], [RetrievedChunk(chunk, 1.0)])
    assert verdict.status is ClaimStatus.SUPPORTED and kind == NEGATED_EVIDENCE  # the words' verdict
    yes, no = model(ClaimStatus.SUPPORTED, 0.7), model(ClaimStatus.UNSUPPORTED, 0.3)
    assert overrule(yes, [(verdict, kind)]) is yes  # never overrules a yes
    relabelled = overrule(no, [(verdict, kind)])  # only tells a contradiction from an unsupported claim
    assert relabelled.status is ClaimStatus.CONTRADICTED and relabelled.verifier == "nli"
    negated = "Remote employees may not work from another country."
    ((verdict, kind),) = LexicalVerifier().assess(
        [Claim(negated, 0, len(negated))],
        [
            RetrievedChunk(
                Chunk("c", "d", "r.txt", "Remote employees may work from another country.", 0, 47), 1.0
            )
        ],
    )
    assert verdict.status is ClaimStatus.CONTRADICTED and kind == NEGATION


def test_hard_evidence_wins_in_any_sentence_of_any_claim_whatever_the_model_says() -> None:
    negated = rule(ClaimStatus.CONTRADICTED, 0.1)
    for sure in (model(ClaimStatus.SUPPORTED, 0.99), model(ClaimStatus.PARTIAL, 0.9)):
        assert overrule(sure, [FITTING, (negated, NEGATION), FITTING]) is negated
        assert overrule(sure, [FITTING, (CLASH, VALUE)]) is CLASH


def test_an_opposite_word_is_hard_evidence_in_any_sentence_of_any_claim() -> None:
    opposite = rule(ClaimStatus.CONTRADICTED, 0.1)
    yes = model(ClaimStatus.SUPPORTED, 0.99)
    assert overrule(yes, [(opposite, OPPOSITE)]) is opposite
    assert overrule(yes, [FITTING, (opposite, OPPOSITE)]) is opposite


def test_other_hard_evidence_overrules_one_sentence_claims_only() -> None:
    unstated = rule(ClaimStatus.UNSUPPORTED, 0.1)
    yes = model(ClaimStatus.SUPPORTED, 0.55)
    assert overrule(yes, [(unstated, UNSTATED)]) is unstated
    assert overrule(yes, [FITTING, (unstated, UNSTATED)]) is yes  # a whole response: many such misfire
    assert overrule(model(ClaimStatus.SUPPORTED, 0.9), [(unstated, UNSTATED)]) is not unstated


def test_a_borrowed_value_overrules_a_sure_yes_on_a_one_sentence_claim() -> None:
    borrowed = rule(ClaimStatus.UNSUPPORTED, 0.1)
    assert overrule(model(ClaimStatus.SUPPORTED, 0.99), [(borrowed, BORROWED)]) is borrowed
    long_claim = model(ClaimStatus.SUPPORTED, 0.99)
    assert overrule(long_claim, [FITTING, (borrowed, BORROWED)]) is long_claim


def test_hard_evidence_tells_a_contradiction_apart_in_any_claim() -> None:
    negated = rule(ClaimStatus.CONTRADICTED, 0.1)
    assert overrule(model(ClaimStatus.UNSUPPORTED, 0.2), [FITTING, (negated, NEGATION)]) is negated


def test_an_unsure_yes_falls_only_where_the_rules_find_few_of_the_claims_words() -> None:
    unsure = model(ClaimStatus.SUPPORTED, 0.6)
    few = rule(ClaimStatus.UNSUPPORTED, DEFAULT_GUARD.rules_doubt - 0.05)
    some = rule(ClaimStatus.UNSUPPORTED, DEFAULT_GUARD.rules_doubt + 0.05)
    assert overrule(unsure, [(few, None)]) is few
    assert overrule(unsure, [(some, None)]) is unsure
    assert (
        overrule(model(ClaimStatus.SUPPORTED, DEFAULT_GUARD.model_sure + 0.05), [(few, None)]).verifier
        == "nli"
    )


def test_an_unstated_number_overrules_an_unsure_yes_only_below_its_own_bound() -> None:
    # The rules' verdict on a number the evidence does not state has a low support score, but the doubt
    # about a claim's words is another matter: it does not carry an UNSTATED verdict past its bound.
    unstated = rule(ClaimStatus.UNSUPPORTED, 0.1)
    above = model(ClaimStatus.SUPPORTED, DEFAULT_GUARD.overrules_below[UNSTATED] + 0.1)
    assert above.support_score < DEFAULT_GUARD.model_sure
    assert overrule(above, [(unstated, UNSTATED)]) is above


@pytest.mark.parametrize(
    "claim",
    [
        "I'm not sure, but multi-factor authentication is required for internal systems.",
        "No, but multi-factor authentication is required for internal systems.",
        "Not really, multi-factor authentication is required for internal systems.",
    ],
)
def test_a_leading_hedge_does_not_negate_the_fact_after_it(claim: str) -> None:
    evidence = "Multi-factor authentication is required for internal systems."
    chunk = RetrievedChunk(Chunk("c", "d", "it.txt", evidence, 0, len(evidence)), 1.0)
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], [chunk])
    assert kind is None and verdict.status is ClaimStatus.SUPPORTED, verdict.reason
    negated = "No, multi-factor authentication is not required for internal systems."
    ((verdict, kind),) = LexicalVerifier().assess([Claim(negated, 0, len(negated))], [chunk])
    assert kind == NEGATION


def test_a_preamble_and_words_of_conversation_are_not_facts_to_find() -> None:
    evidence = "Broccoli contains potassium, which helps maintain a healthy nervous system."
    chunk = RetrievedChunk(Chunk("c", "d", "food.txt", evidence, 0, len(evidence)), 1.0)
    for claim in (
        "Based on the given passages, broccoli contains potassium.",
        "Yes, broccoli contains potassium.",
    ):
        ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], [chunk])
        assert verdict.status is ClaimStatus.SUPPORTED and verdict.support_score == 1.0, claim
