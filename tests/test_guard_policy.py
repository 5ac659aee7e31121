"""When the rules overrule the model in the cascade's offline stage (issue 12 item 3): deterministic,
on verdicts built by hand and on the rules' real output; the real model is in test_guarded.py."""

from dataclasses import replace

import pytest

from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify.guarded import DEFAULT_GUARD, overrule
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.rules.contrasts import OPPOSITE, ROLE
from rrag.verify.rules.negation import NEGATED_EVIDENCE, NEGATION
from rrag.verify.rules.values import BORROWED, UNSTATED, VALUE


def model(status: ClaimStatus, p: float) -> Verdict:
    return Verdict(status, p, "nli", "the model", support_score=p)


def rule(status: ClaimStatus, support: float, clash: ValueClash | None = None) -> Verdict:
    return Verdict(status, 0.7, "lexical", "the rules", support_score=support, clash=clash)


CLASH = rule(ClaimStatus.CONTRADICTED, 0.05, ValueClash("10 working days", "5 working days", 0, 15))
FITTING = (rule(ClaimStatus.SUPPORTED, 0.9), None)


def test_a_role_swap_measured_precise_overrules_even_a_sure_yes_in_a_long_claim() -> None:
    swapped = rule(ClaimStatus.CONTRADICTED, 0.1)
    for sure in (model(ClaimStatus.SUPPORTED, 0.99), model(ClaimStatus.PARTIAL, 0.9)):
        assert overrule(sure, [(swapped, ROLE)]) is swapped
        assert overrule(sure, [FITTING, (swapped, ROLE), FITTING]) is swapped


def test_a_value_clash_measured_precise_overrules_even_a_sure_yes() -> None:
    for sure in (model(ClaimStatus.SUPPORTED, 0.99), model(ClaimStatus.PARTIAL, 0.9)):
        assert overrule(sure, [(CLASH, VALUE)]) is CLASH
        assert overrule(sure, [FITTING, (CLASH, VALUE), FITTING]) is CLASH


@pytest.mark.parametrize("kind", [NEGATION, OPPOSITE, UNSTATED, BORROWED])
def test_a_kind_measured_below_97_percent_never_overrules_a_yes(kind: str) -> None:
    """precision.json: below 97 % on the dev sets, HANS and the paraphrase split; the judge decides."""
    found = rule(ClaimStatus.CONTRADICTED, 0.1)
    for p in (0.55, 0.99):
        yes = model(ClaimStatus.SUPPORTED, p)
        assert overrule(yes, [(found, kind)]) is yes
        assert overrule(yes, [FITTING, (found, kind)]) is yes


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


def test_a_rules_contradiction_tells_a_contradiction_apart_where_the_model_says_no() -> None:
    negated = rule(ClaimStatus.CONTRADICTED, 0.1)
    assert overrule(model(ClaimStatus.UNSUPPORTED, 0.2), [FITTING, (negated, NEGATION)]) is negated
    assert overrule(model(ClaimStatus.UNSUPPORTED, 0.2), [(CLASH, VALUE)]) is CLASH


def test_a_veto_of_an_unsure_yes_falls_only_where_the_rules_find_few_of_the_claims_words() -> None:
    # A candidate of training/guard_cv.py: the shipped guard has no veto (DEFAULT_GUARD.model_sure 0).
    veto = replace(DEFAULT_GUARD, model_sure=0.8)
    unsure = model(ClaimStatus.SUPPORTED, 0.6)
    few = rule(ClaimStatus.UNSUPPORTED, veto.rules_doubt - 0.05)
    some = rule(ClaimStatus.UNSUPPORTED, veto.rules_doubt + 0.05)
    assert overrule(unsure, [(few, None)], veto) is few
    assert overrule(unsure, [(some, None)], veto) is unsure
    assert (
        overrule(model(ClaimStatus.SUPPORTED, veto.model_sure + 0.05), [(few, None)], veto).verifier == "nli"
    )
    assert overrule(unsure, [(few, None)]) is unsure  # the shipped guard: the judge's yes stands


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
