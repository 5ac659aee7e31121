"""A price "from X" is no exact price (rrag/verify/rules/price_from.py)."""

import pytest

from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.lexical import LexicalVerifier


@pytest.mark.parametrize(
    ("evidence", "claim", "found"),
    [
        ("Tickets cost from 20 euros.", "Tickets cost 20 euros.", True),
        ("Double rooms from $99 a night.", "A double room is $99 a night.", True),
        ("Tickets cost from 20 euros.", "Tickets cost from 20 euros.", False),  # said the same way
        ("Tickets cost from 20 euros.", "Tickets cost at least 20 euros.", False),  # said as a bound
        ("Tickets cost 20 euros.", "Tickets cost 20 euros.", False),  # an exact price
        ("Tickets cost from 20 to 40 euros.", "Tickets cost 20 to 40 euros.", False),  # a range
        ("The fare was cut from 20 euros to 15 euros.", "The fare was 20 euros.", False),  # a change
        ("A taxi from the airport costs 20 euros.", "The airport taxi is 20 euros.", False),  # a place
    ],
)
def test_a_price_from_is_no_exact_price(evidence: str, claim: str, found: bool) -> None:
    chunk = Chunk("c:0", "c", "prices.txt", evidence, 0, len(evidence))
    [(verdict, kind)] = LexicalVerifier().assess([Claim(claim, 0, len(claim))], [RetrievedChunk(chunk, 1.0)])
    assert (kind == "a price from") == found
    assert verdict.status is ClaimStatus.UNSUPPORTED or not found
