"""Values of table sentences ("For Deep clean, the price (GBP) is 25"): read with the unit their
column header names and the row they are of, by the value clash, the conflict detector and relevance
alike (issue 19 item 1)."""

import pytest

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


# A row for each treatment, a column for each kind of pet (a veterinary practice's fees, as ingest
# writes a DOCX table's rows)
FEES = (
    "For Dental scale and polish, the cat is £210, the dog under 20 kg is £240 and the dog 20 kg and over is "
    "£280.\n\nFor Consultation, the cat is £48, the dog under 20 kg is £48 and the dog 20 kg and over is £48."
    "\n\nOut-of-hours consultations cost £150, in addition to any treatment given."
)

# A booster's price per kind of pet, under a name a claim says in other words ("yearly" for "Annual")
BOOSTERS = "For Annual vaccination booster, the cat is £62, the dog is £68 and the rabbit is £55."

# A cell that holds two amounts (a bike-share's prices, as ingest writes a DOCX table's rows)
RIDES = (
    "For Pay as you go, the price is Free to join, the classic bike is £1 to unlock, then 10p per minute and "
    "the E-bike is £1 to unlock, then 20p per minute.\n\nFor Day pass, the price is £6, the classic bike is "
    "Unlimited 30-minute rides and the E-bike is 10p per minute."
)

# A column for each season, named by its months (a hotel's room rates, as ingest writes a DOCX table's rows)
ROOMS = (
    "For Family Suite, the low season (Nov-Mar) is £160 per night, the high season (Apr-Oct) is £240 per "
    "night and the sleeps are 4.\n\nFor Single, the low season (Nov-Mar) is £70 per night, the high season "
    "(Apr-Oct) is £99 per night and the sleeps are 1."
)

# A row named with a comma in brackets, a column for each way to pay (a dental practice's fees); a row
# for each day, a column for opening and one for closing (its hours)
DENTAL = (
    "For Filling (white, front tooth), the NHS charge is £75.30 and the private fee is £140.\n\n"
    "For Root canal (molar), the NHS charge is £75.30 and the private fee is £620.\n\n"
    "For Crown (porcelain), the NHS charge is £326.70 and the private fee is £780."
)
HOURS = (
    "For Monday, the opens are 8:30 and the closes are 17:30.\n\n"
    "For Tuesday, the opens are 8:30 and the closes are 20:00."
)
# A row for each van, its rates and deposit in one sentence, and shorter sentences about the same vans
# (a van hire's price list)
VANS = (
    "For Small van, the daily rate is £45, the weekly rate is £250 and the deposit is £200.\n\n"
    "For Luton van, the daily rate is £80, the weekly rate is £420 and the deposit is £500.\n\n"
    "Dogs may ride only in Luton vans. A van returned with dog hair is charged £40.\n\n"
    "A small van returned unswept is charged £30 for cleaning."
)


@pytest.mark.parametrize(
    ("table", "claim", "documents_say"),
    [
        # The cell of the column the claim names, its bound said in any words; the row named by most of
        # its name's words. Each was supported: the amount is the row's, of another column.
        (FEES, "A scale and polish for a cat costs £240.", "£210"),
        (FEES, "A scale and polish for a dog under 20 kg costs £280.", "£240"),
        (FEES, "A scale and polish for a dog of 20 kg or more costs £240.", "£280"),
        # Two columns' amounts exchanged, each named by its own words; and a row named with a rate's
        # other word. Both passed HIGH.
        (FEES, "A scale and polish costs £240 for a cat and £210 for a dog under 20 kg.", "£210"),
        (BOOSTERS, "The yearly booster for a dog is £62.", "£68"),
        # The second amount of a cell is its column's too; and of a cell's amounts, the one under the
        # claim's "a minute". Both were supported: 10p per minute is the classic bike's.
        (RIDES, "On pay as you go, an e-bike costs £1 to unlock and then 10p a minute.", "20p per minute"),
        (RIDES, "On pay as you go, a classic bike costs 20p a minute.", "10p per minute"),
        # A month names the season whose range holds it: January is in Nov-Mar (passed HIGH).
        (ROOMS, "In January a Family Suite costs £240 per night.", "£160"),
        (ROOMS, "A single room costs £70 a night in August.", "£99"),
        # A price's column is named by its header's words but the price noun, an adjective as its adverb
        # too; a row's name holds its bracketed comma. Both were supported: £140 is a filling's,
        # £326.70 the NHS charge.
        (DENTAL, "A private root canal on a molar costs £140.", "£620"),
        (DENTAL, "A porcelain crown costs £326.70 privately.", "£780"),
        # The row the claim names over a shorter sentence as near to the claim; a rate's adjective is
        # its unit's word ("weekly" of "a week"); of the row's amounts, the one whose own words the
        # claim's meet. Each passed, supported by the judge, or quoted another column's amount.
        (VANS, "A Luton van costs £250 for a week.", "£420"),
        (VANS, "Small vans need a deposit of £500.", "£200"),
        (VANS, "A small van costs £250 a day.", "£45"),
    ],
)
def test_a_value_of_another_column_of_the_named_row_is_contradicted(
    table: str, claim: str, documents_say: str
) -> None:
    contexts = [RetrievedChunk(Chunk("c0", "d", "prices.docx", table, 0, len(table)), 1.0)]
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts)
    assert (
        verdict.status is ClaimStatus.CONTRADICTED
        and verdict.clash
        and verdict.clash.evidence_value == documents_say
    )


@pytest.mark.parametrize(
    ("table", "claim"),
    [
        (FEES, "A scale and polish for a cat costs £210."),
        (FEES, "A scale and polish for a dog of 20 kg or more costs £280."),
        (FEES, "Scale and polish costs £210 for a cat and £240 for a dog under 20 kg."),
        (BOOSTERS, "The yearly booster for a dog is £68."),
        (BOOSTERS, "The booster costs £62 for a cat and £55 for a rabbit."),
        (FEES, "An out-of-hours consultation costs £150."),
        (RIDES, "On pay as you go, an e-bike costs £1 to unlock and then 20p a minute."),
        (RIDES, "On a day pass, an e-bike costs 10p a minute."),
        (ROOMS, "In January a Family Suite costs £160 per night."),
        (ROOMS, "A Family Suite costs £240 per night in the high season."),
        (DENTAL, "A private root canal on a molar costs £620."),
        (DENTAL, "A porcelain crown costs £326.70 on the NHS."),
        (VANS, "A Luton van costs £420 for a week."),
        (VANS, "A small van returned unswept is charged £30 for cleaning."),
        # The day that names a row is every cell's: 20:00 is Tuesday's closing time, not a clash with
        # its 8:30 opening (contradicted, and the answer refused)
        (HOURS, "On Tuesdays the practice stays open until 8pm."),
        (HOURS, "On Tuesdays the practice closes at 20:00."),
    ],
)
def test_the_value_of_the_named_cell_is_no_clash(table: str, claim: str) -> None:
    contexts = [RetrievedChunk(Chunk("c0", "d", "prices.docx", table, 0, len(table)), 1.0)]
    assert (
        LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts).status is not ClaimStatus.CONTRADICTED
    )


def test_a_kind_of_the_named_row_the_claim_does_not_name_is_no_evidence() -> None:
    # "A consultation costs £150" was supported by "Out-of-hours consultations cost £150" beside the
    # consultation row's £48
    contexts = [RetrievedChunk(Chunk("c0", "d", "fees.docx", FEES, 0, len(FEES)), 1.0)]
    claim = "A consultation costs £150."
    assert LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts).status is not ClaimStatus.SUPPORTED


def test_every_amount_of_a_cell_has_its_column() -> None:
    assert [v.column for v in values(RIDES.split("\n\n")[0]) if v.amount == 0.2] == [{"e", "bike"}]


def test_a_time_of_another_day_of_the_table_is_contradicted() -> None:
    contexts = [RetrievedChunk(Chunk("c0", "d", "hours.docx", HOURS, 0, len(HOURS)), 1.0)]
    claim = "On Tuesdays the practice closes at 17:30."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts)
    assert (
        verdict.status is ClaimStatus.CONTRADICTED
        and verdict.clash
        and verdict.clash.evidence_value == "20:00"
    )
