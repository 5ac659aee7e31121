"""The pairs issue 43 quotes, written by people outside the team in everyday words, through the app's
default offline verifier (quote -> nli). Where the judge does not yet meet the issue's target the test
says so as an expected failure, so that it turns into a failure the day it is met and not marked."""

import pytest

from rrag.settings import Settings
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.cascade import build_verifier


@pytest.fixture(scope="module")
def verify():
    verifier = build_verifier(Settings())

    def run(evidence: str, claim: str) -> Verdict:
        context = [RetrievedChunk(Chunk("c0", "d0", "doc.md", evidence, 0, len(evidence)), 1.0)]
        return verifier.verify(Claim(claim, 0, len(claim)), context)

    return run


def test_who_pays_whom_exchanged_is_contradicted_whichever_side_the_amount_is_on(verify) -> None:
    verdict = verify(
        "The tenant pays the landlord a deposit of $2,000.", "The landlord pays the tenant a $2,000 deposit."
    )
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert "'tenant pays the landlord'" in verdict.reason


def test_a_weight_said_in_words_is_the_same_weight(verify) -> None:
    verdict = verify("The parcel weighs 6.5 kg.", "Weighing six and a half kilograms, the parcel is light.")
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


def test_another_oven_temperature_is_not_supported(verify) -> None:
    verdict = verify("Bake at 350°F for 25 minutes.", "Set your oven to 400°F and bake for 25 minutes.")
    assert verdict.status is not ClaimStatus.SUPPORTED, verdict.reason


@pytest.mark.xfail(
    strict=False,  # the judge's margin is 0.22 of the 0.25 needed: another CPU's int8 kernels may pass it
    reason="issue 43 target: the judge puts 0.36 on the claim and 0.58 on its counterfactual",
)
def test_another_oven_temperature_is_contradicted_by_the_documents_value(verify) -> None:
    verdict = verify("Bake at 350°F for 25 minutes.", "Set your oven to 400°F and bake for 25 minutes.")
    assert verdict.status is ClaimStatus.CONTRADICTED and "the documents say '350°F'" in verdict.reason


@pytest.mark.xfail(strict=True, reason="issue 43 target: the judge still reads these words as support")
@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (
            "Only a small portion of the fund, about 10%, is invested in equities.",
            "Most of the fund is invested in equities.",
        ),
        ("Refunds are given if you cancel 24 hours ahead.", "Refunds are given."),
    ],
)
def test_quantities_and_conditions_said_otherwise_are_not_supported(verify, evidence, claim) -> None:
    assert verify(evidence, claim).status is not ClaimStatus.SUPPORTED
