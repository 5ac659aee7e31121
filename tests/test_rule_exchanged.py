"""Who does what to whom exchanged, read off the parse (rrag/verify/rules/contrasts/exchanged.py): a
passive or the words around the two parties do not hide it, and the same roles said otherwise are no
exchange. Its kind, `role`, is hard evidence (precision.json), so the default stage contradicts such a
claim before any model is asked."""

from __future__ import annotations

import pytest

from rrag.text.clauses import clauses
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.rules import HARD_EVIDENCE
from rrag.verify.rules.base import pairs
from rrag.verify.rules.contrasts import ROLE
from rrag.verify.rules.contrasts.exchanged import exchanged
from tests.fake_judges import SureYes

EXCHANGED = [
    ("The supplier was paid by the agency.", "The supplier paid the agency."),
    ("The agency paid the supplier in March.", "In March the supplier paid the agency."),
    ("The tenant who the landlord notified paid the deposit.", "The tenant notified the landlord."),
    ("The landlord who owns the flat notified the tenant.", "The tenant notified the landlord."),
    # what holds either way is asserted, though the clause before it is not
    ("Whether or not the lease is renewed, the agency pays the supplier.", "The supplier pays the agency."),
    # the act, or a word of the claim, said in another word that says it or a kind of it
    ("Halden Bank acquired Vesta Insurance in 2019.", "Vesta Insurance bought Halden Bank in 2019."),
    (
        "Halden Bank acquired Vesta Insurance in 2019.",
        "In 2019 Halden Bank was taken over by Vesta Insurance.",
    ),
    (
        "The committee interviewed the candidate for the job.",
        "The candidate interviewed the committee for the post.",
    ),
]
SAME_ROLES = [
    ("The supplier was paid by the agency.", "The agency paid the supplier."),
    ("The agency paid the supplier.", "The supplier was paid by the agency."),
    ("The landlord and the agent met the tenant.", "The agent met the tenant."),
    ("If the agency pays the supplier, the order ships.", "The supplier pays the agency."),  # not asserted
    ("The agency did not pay the supplier.", "The supplier paid the agency."),  # another polarity
    ("The supplier paid the agency a deposit.", "The supplier paid a deposit."),
    ("Halden Bank acquired Vesta Insurance.", "Vesta Insurance was bought by Halden Bank."),
    ("The agency paid the supplier.", "The supplier thanked the agency."),  # another act
]


def found(evidence: str, claim: str) -> bool:
    return any(exchanged(pair) is not None for pair in pairs(claim, evidence, frozenset()))


@pytest.mark.parametrize(("evidence", "claim"), EXCHANGED)
def test_a_doer_and_thing_exchanged_are_found_however_worded(evidence: str, claim: str) -> None:
    assert found(evidence, claim)


@pytest.mark.parametrize(("evidence", "claim"), SAME_ROLES)
def test_the_same_roles_said_otherwise_are_no_exchange(evidence: str, claim: str) -> None:
    assert not found(evidence, claim)


def test_a_passive_is_read_as_the_active_and_a_relative_clause_as_its_noun() -> None:
    [paid] = clauses("The supplier was paid by the agency.")
    assert (paid.verb, paid.doer, paid.thing) == ("pay", {"agency"}, {"supplier"})
    seen = next(c for c in clauses("The lawyer who the doctor saw left.") if c.verb == "see")
    assert (seen.doer, seen.thing, seen.asserted) == ({"doctor"}, {"lawyer"}, True)
    for sentence in ("If the doctor arrived, the lawyer left.", "The guide thinks that the museum opens."):
        assert not any(c.asserted for c in clauses(sentence) if c.verb in ("leave", "open")), sentence


def test_an_exchange_is_decided_before_the_model() -> None:
    assert ROLE in HARD_EVIDENCE
    evidence, claim = EXCHANGED[0]
    model = SureYes()
    context = [RetrievedChunk(Chunk("c0", "d", "doc.txt", evidence, 0, len(evidence)), 1.0)]
    verdict = GuardedVerifier(model).verify(Claim(claim, 0, len(claim)), context)
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert model.asked == []
