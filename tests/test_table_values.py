"""Values of table sentences ("For Deep clean, the price (GBP) is 25"): read with the unit their
column header names and the row they are of, by the value clash, the conflict detector and relevance
alike (issue 19 item 1)."""

from rrag.audit.relevance import assess
from rrag.text.values import values
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.nli import NLIVerifier

TABLE = (
    "For Regular clean, the price (GBP) is 18 and the duration is 2 hours.\n\n"
    "For Deep clean, the price (GBP) is 25 and the duration (hours) is 4.\n\n"
    "For Oven clean, the price (GBP) is 45 and the duration is 90 minutes."
)


def test_a_bare_number_takes_the_unit_of_its_column_header_and_the_words_of_its_row() -> None:
    row = TABLE.split("\n\n")[1]
    read = {(v.measure, v.amount): v for v in values(row)}
    assert set(read) == {("GBP", 25.0), ("duration", 4 / 24)}
    assert {"deep", "clean", "pric"} <= read["GBP", 25.0].near
    assert values("For Deep clean, the score is 25.") == ()  # a header naming no unit: still bare


def test_a_price_the_table_gives_otherwise_is_contradicted_by_the_value() -> None:
    contexts = [RetrievedChunk(Chunk("c0", "d", "price-list.docx", TABLE, 0, len(TABLE)), 1.0)]
    claim = "A deep clean costs GBP 35."
    rules = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts)
    assert rules.status is ClaimStatus.CONTRADICTED and "'25' where the claim says 'GBP 35'" in rules.reason
    # The judge guarded by the rules says so too: the value clash explains the judge's no (it overrules
    # no yes: a value clash is not measured precise enough, precision.json).
    verdict = GuardedVerifier(NLIVerifier()).verify(Claim(claim, 0, len(claim)), contexts)
    assert verdict.status is ClaimStatus.CONTRADICTED
    right = "A deep clean costs GBP 25."
    agreed = LexicalVerifier().verify(Claim(right, 0, len(right)), contexts)
    assert agreed.status is not ClaimStatus.CONTRADICTED


def test_relevance_reads_the_header_unit_as_the_value_parser_does() -> None:
    assert assess("How many hours does a deep clean take?", [TABLE.split("\n\n")[1]]).addressed
