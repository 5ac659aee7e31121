"""A negation or a changed value against the aligned evidence sentence (issue 23 items 2-3): the app's
default offline stage contradicts it, with both sides quoted; values are compared only with the
evidence's value of the same thing under the same qualifiers.

The rules read each such contradiction and quote both sides; whether it stands against the model is
measured (issue 43 item 3, precision.json): only a kind measured precise on text the team did not write
(today the role swap and the value rules) is decided before the model is asked. The rules' reading
is asserted under a model that rejects every claim (`Rejects`), where it explains the no, and the
policy under one that accepts every claim (`SureYes`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rrag.settings import Settings
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.registry import VERIFIERS
from rrag.verify.rules import HARD_EVIDENCE, RULES
from rrag.verify.rules.contrasts import ROLE
from rrag.verify.rules.values import VALUE
from tests.fake_judges import Rejects, SureYes


def contexts(text: str) -> list[RetrievedChunk]:
    return [RetrievedChunk(Chunk("c0", "d", "doc.txt", text, 0, len(text)), 1.0)]


@pytest.fixture(scope="module")
def default_stage() -> Verifier:
    return VERIFIERS.create("nli", Settings())  # the app's offline stage: judge, counterfactual, rules


def check(verifier: Verifier, evidence: str, claim: str) -> Verdict:
    return verifier.verify(Claim(claim, 0, len(claim)), contexts(evidence))


def read(evidence: str, claim: str) -> tuple[Verdict, str | None]:
    """The rules' verdict alone, and the kind of evidence against the claim it rests on."""
    [found] = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))
    return found


# (evidence, claim, a word of the evidence's side and one of the claim's side the reason must quote)
CONTRADICTIONS = [
    (
        "Visitors may not bring food or drink into the reading room.",
        "Food and drink may be brought into the reading room.",
        "may not bring food",
        "Food and drink may be brought into the reading room",
    ),
    (
        "The insurance does not cover theft from an unlocked car.",
        "The insurance covers theft from an unlocked car.",
        "does not cover theft",
        "The insurance covers theft",
    ),
    ("Prices fell by 3 % in March.", "Prices rose by 3 % in March.", "fell", "rose"),
    ("The backup job runs every 3 hours.", "Backups are taken every 8 hours.", "3 hours", "8 hours"),
    ("Heat the oven to 180°F.", "Preheat to 220°F.", "180°F", "220°F"),
    ("See Section 4.", "Section 7.", "Section 4", "Section 7"),
    # a reference read by the noun before its number, whatever word follows it ("Step 2 shows")
    (
        "Step 2 shows how to pair the remote.",
        "How to pair the remote is shown in step 6.",
        "Step 2",
        "step 6",
    ),
    ("The library has 42 study rooms.", "The library has 24 study rooms.", "42", "24"),
    (
        "The clinic opens at 07:30 on weekdays and at 09:00 on Saturdays.",
        "The clinic opens at 09:00 on weekdays.",
        "07:30 on weekdays",
        "09:00 on weekdays",
    ),
    (
        "The kettle weighs 1.2 kg when empty and 2.9 kg when full.",
        "The kettle weighs 1.2 kg when full.",
        "2.9 kg when full",
        "1.2 kg when full",
    ),
    # the year of a date ("2 March 1874") and a year before 1900 are values
    (
        "The lighthouse was first lit on 2 March 1874.",
        "The lighthouse was first lit on 2 March 1879.",
        "1874",
        "1879",
    ),
    (
        "The abbey was founded in 1132 by monks from Yorkshire.",
        "The abbey was founded in 1152 by monks.",
        "1132",
        "1152",
    ),
    # the same subject in other words: "taken" is "take", "delivery" is "deliver"
    (
        "Take two capsules every 8 hours.",
        "Two capsules should be taken every 12 hours.",
        "8 hours",
        "12 hours",
    ),
    (
        "Parcels are delivered within 3 working days.",
        "Delivery of parcels takes 9 working days.",
        "3 working days",
        "9 working days",
    ),
    # "applied" is "apply"
    ("Apply the cream once a day.", "The cream should be applied four times daily.", "once", "four times"),
]


@pytest.mark.parametrize(("evidence", "claim", "theirs", "ours"), CONTRADICTIONS)
def test_a_textbook_contradiction_is_contradicted_with_both_sides_quoted(
    default_stage: Verifier, evidence: str, claim: str, theirs: str, ours: str
) -> None:
    verdict = check(default_stage, evidence, claim)
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason
    assert theirs in verdict.reason and ours in verdict.reason, verdict.reason


def test_the_weight_when_full_is_compared_with_the_weight_when_full() -> None:
    verdict = check(
        GuardedVerifier(Rejects()),
        "The kettle weighs 1.2 kg when empty and 2.9 kg when full.",
        "The kettle weighs 1.2 kg when full.",
    )
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason
    assert verdict.clash is not None and verdict.clash.evidence_value == "2.9 kg when full"
    assert "empty" not in verdict.reason


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (
            "The clinic opens at 07:30 on weekdays and at 09:00 on Saturdays.",
            "The clinic opens at 09:00 on Saturdays.",
        ),
        (
            "The check-in closes 30 minutes before departure.",
            "Check-in closes half an hour before departure.",
        ),
        ("The tablets take effect within 20 to 40 minutes.", "The tablets take effect within 30 minutes."),
        (
            "The kettle weighs 1.2 kg when empty and 2.9 kg when full.",
            "The kettle weighs 2.9 kg when full.",
        ),
        ("The lighthouse was first lit on 2 March 1874.", "The lighthouse was first lit in March 1874."),
        ("The abbey was founded in 1132 and rebuilt in 1540.", "The abbey was rebuilt in 1540."),
    ],
)
def test_a_faithful_control_is_supported(default_stage: Verifier, evidence: str, claim: str) -> None:
    verdict = check(default_stage, evidence, claim)
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        ("The tablets take effect within 20 to 40 minutes.", "The tablets take effect within 30 minutes."),
        ("Bake the cake for 12-15 minutes.", "Bake the cake for 13 minutes."),
    ],
)
def test_a_value_inside_a_stated_range_is_neither_clash_nor_unstated(evidence: str, claim: str) -> None:
    # The rules find nothing against it (whether the shipped judge says yes is its own matter: 0.44 for
    # the first, 0.55 for the second on 2026-11-24).
    verdict, kind = read(evidence, claim)
    assert kind is None and verdict.clash is None, verdict.reason


def test_a_value_outside_a_stated_range_is_contradicted_with_the_range_quoted() -> None:
    evidence = "The tablets take effect within 20 to 40 minutes."
    verdict = check(GuardedVerifier(Rejects()), evidence, "The tablets take effect within 50 minutes.")
    assert verdict.status is ClaimStatus.CONTRADICTED and "20 to 40 minutes" in verdict.reason


@pytest.mark.parametrize(("evidence", "claim", "theirs", "ours"), CONTRADICTIONS)
def test_the_rules_contradiction_explains_a_models_no_with_both_sides_quoted(
    evidence: str, claim: str, theirs: str, ours: str
) -> None:
    _, kind = read(evidence, claim)
    assert kind is not None and RULES.policy(kind).hard  # declared hard; it stands only if trusted
    model = Rejects()
    verdict = check(GuardedVerifier(model), evidence, claim)
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert theirs in verdict.reason and ours in verdict.reason, verdict.reason
    # Decided before the model is asked only where the kind was measured precise (precision.json).
    assert model.asked == ([] if kind in HARD_EVIDENCE else [claim])


def test_a_sure_yes_stands_against_a_kind_not_measured_precise() -> None:
    for evidence, claim, *_ in CONTRADICTIONS:
        _, kind = read(evidence, claim)
        expected = "lexical" if kind in HARD_EVIDENCE else "sure-yes"
        assert check(GuardedVerifier(SureYes()), evidence, claim).verifier == expected, (kind, claim)


# The ends of a way exchanged, in the second sentence of a claim (written here).
FERRY = "The ferry leaves at noon. The ferry sails from Dover to Calais."
SWAPPED_ENDS = "The ferry leaves at noon. The ferry sails from Calais to Dover."


def test_a_role_swap_measured_precise_is_decided_before_the_model_in_any_sentence() -> None:
    assert ROLE in HARD_EVIDENCE  # 94 fires at 100 % on text the team did not write (precision.json)
    model = SureYes()
    verdict = check(GuardedVerifier(model), FERRY, SWAPPED_ENDS)
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert "'Dover to Calais' where the claim says 'Calais to Dover'" in verdict.reason
    assert model.asked == []  # no model may overrule it


def test_a_changed_value_measured_precise_is_decided_before_the_model() -> None:
    assert VALUE in HARD_EVIDENCE  # 131 fires at 99.2 % on text the team did not write (precision.json)
    model = SureYes()
    evidence, claim = "The boiler is serviced every 12 months.", "The boiler is serviced every 18 months."
    verdict = check(GuardedVerifier(model), evidence, claim)
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert "'12 months' where the claim says '18 months'" in verdict.reason
    assert model.asked == []  # no model may overrule it


def test_a_clash_in_one_sentence_of_a_long_claim_explains_the_models_no_located_in_the_claim() -> None:
    evidence = "The kettle has a 1.7 litre jug. The kettle weighs 1.2 kg when empty and 2.9 kg when full."
    claim = "The kettle has a 1.7 litre jug. It boils water quickly. The kettle weighs 1.2 kg when full."
    verdict = check(GuardedVerifier(Rejects()), evidence, claim)
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason
    assert verdict.clash is not None and claim[verdict.clash.start : verdict.clash.end] == "1.2 kg when full"
    assert verdict.clash.evidence_value == "2.9 kg when full"


def test_a_not_about_another_word_is_no_contradiction() -> None:
    evidence = "Winter is the coldest season in polar zones (winter does not occur in the tropics)."
    verdict, kind = read(evidence, "Winter is the coldest season in polar zones.")
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason
    assert kind is None or not RULES.policy(kind).hard, kind  # a sign at most


def test_an_amount_of_none_is_a_no() -> None:
    """A broadband provider's plans table: "the set-up fee is £0" says there is no set-up fee."""
    row = (
        "For Essential (social tariff), the download speed is 50 Mbps, the monthly price is £15 and the "
        "set-up fee is £0.\n\nFor Fibre 900, the download speed is 900 Mbps, the monthly price is £45 and "
        "the set-up fee is £25."
    )
    contexts = [RetrievedChunk(Chunk("c0", "d0", "plans.docx", row, 0, len(row)), 1.0)]
    for claim in (
        "The Essential social tariff has no set-up fee.",
        "The Essential social tariff costs £15 a month with no set-up fee.",
    ):
        verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts)
        assert verdict.status is not ClaimStatus.CONTRADICTED, (claim, verdict.reason)
    claim = "Fibre 900 has no set-up fee."  # its fee is £25
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts)
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason


def test_a_question_states_nothing_to_deny() -> None:
    """An FAQ's question heading ("Is there a data cap?") is no statement of a data cap."""
    claim = "There is no data cap."
    for evidence in ("Is there a data cap?", "Is there a data cap? No. All plans have unlimited data."):
        verdict, _ = read(evidence, claim)
        assert verdict.status is not ClaimStatus.CONTRADICTED, (evidence, verdict.reason)
    verdict, _ = read("There is a data cap of 500 GB on Fibre 150.", claim)
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason


def test_a_reason_quotes_the_same_words_on_every_run() -> None:
    """Python orders a set of strings anew in each process: of two forms of the denied verb in the
    evidence ("drink", "drank"), the quote once took either."""
    evidence = (
        "In the survey of first-year students at the college last spring, those who said they drink at "
        "parties also had many friends who drank."
    )
    claim = "Students who said they drink at parties had friends who did not drink."
    script = (
        "import sys; from tests.test_hard_evidence import contexts; from rrag.types import Claim;"
        "from rrag.verify.lexical import LexicalVerifier;"
        "claim = Claim(sys.argv[2], 0, len(sys.argv[2]));"
        "print(LexicalVerifier().verify(claim, contexts(sys.argv[1])).reason)"
    )
    reasons = {
        subprocess.run(
            [sys.executable, "-c", script, evidence, claim],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(4)
    }
    assert len(reasons) == 1, reasons
    assert "they drink at parties" in reasons.pop()
