"""A claim whose number, date, amount or named value differs from the evidence's is contradicted,
with both values in the reason and the clash located in the claim (issue 12 item 2).

Most tests read the rules alone (`LexicalVerifier`): the value each side says. Whether the rules'
contradiction stands against the model is measured (issue 43 item 3, precision.json): a value clash
explains a model's no, and overrules no yes; the app's offline stage (`default_stage`, the judge with
its counterfactual, guarded by the rules) decides the verdicts asserted of it here."""

import pytest

from rrag.audit.claims import RuleClaimExtractor
from rrag.settings import Settings
from rrag.text import content_words, quantities, same_amount
from rrag.text.values import clashes, values
from rrag.types import Chunk, Claim, ClaimStatus, Report, RetrievedChunk, ValueClash, Verdict
from rrag.verify.base import Verifier
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.registry import VERIFIERS
from rrag.verify.rules.values import BORROWED
from tests.fake_judges import Rejects


@pytest.fixture(scope="module")
def default_stage() -> Verifier:
    return VERIFIERS.create("nli", Settings())  # the app's offline stage


def contexts(*texts: str) -> list[RetrievedChunk]:
    return [RetrievedChunk(Chunk(f"c{i}", "d", "policy.txt", t, 0, len(t)), 1.0) for i, t in enumerate(texts)]


# (evidence, claim, the claim's value, the evidence's value)
CLASHES = [
    (  # "free" says what the minutes are, not what is counted
        "If the station is full, the app adds 15 free minutes to your ride.",
        "If the station is full, the app adds 30 free minutes to your ride.",
        "30 free minutes",
        "15 free minutes",
    ),
    (
        "The support team responds to every complaint within 5 working days.",
        "The support team responds within 10 working days.",
        "10 working days",
        "5 working days",
    ),
    (
        "The annual service plan costs GBP 49 per year.",
        "The annual service plan costs GBP 59.",
        "GBP 59",
        "GBP 49",
    ),
    (
        "The annual service plan costs £49 per year.",
        "The annual service plan costs 59 pounds.",
        "59 pounds",
        "£49",
    ),
    ("The fee is EUR 1,200.", "The fee is 1,300 euros.", "1,300 euros", "EUR 1,200"),
    ("The grant is $2.5 million.", "The grant is $3 million.", "$3 million", "$2.5 million"),
    ("The warranty lasts 12 months.", "The warranty lasts 2 years.", "2 years", "12 months"),
    (
        "Employees receive 25 days of paid annual leave.",
        "Employees receive twenty days of paid annual leave.",
        "twenty days",
        "25 days",
    ),
    ("The office has 40 desks.", "The office has forty-five desks.", "forty-five desks", "40 desks"),
    ("Members get a discount of 15%.", "Members get a discount of 20 percent.", "20 percent", "15%"),
    (
        "The policy took effect on 1 January 2026.",
        "The policy took effect on 1 March 2026.",
        "March",
        "January",
    ),
    (
        "The policy took effect on 1 January 2026.",
        "The policy took effect on 1 January 2025.",
        "2025",
        "2026",
    ),
    (
        "The policy took effect on 1 January 2026.",
        "The policy took effect on 3 January 2026.",
        "3 January",
        "1 January",
    ),
    (
        "Vaccines are stored between 2 °C and 8 °C.",
        "Vaccines are stored between 2 °C and 10 °C.",
        "10 °C",
        "8 °C",
    ),
    ("Daily stand-ups start at 9:30.", "Daily stand-ups start at 10:30.", "10:30", "9:30"),
    ("The help desk closes at 5 p.m.", "The help desk closes at 6 p.m.", "6 p.m.", "5 p.m."),
    ("The shop closes at 5 pm.", "The shop closes at 6 pm.", "6 pm", "5 pm"),  # not the full stop
    (
        "The pharmacy closes at midnight on Fridays.",
        "The pharmacy closes at 10 pm on Fridays.",
        "10 pm",
        "midnight",
    ),
    (
        "Three of the stranded climbers were rescued by helicopter.",
        "Five stranded climbers were rescued by helicopter.",
        "Five stranded",
        "Three of the stranded",
    ),
    (
        "Orders ship within 3-5 business days.",
        "Orders ship within 5-7 business days.",
        "5-7 business days",
        "3-5 business days",
    ),
    # the same amount per another time is another rate
    (
        "Employees are entitled to 10 sick days per year.",
        "Employees are entitled to 10 sick days per month.",
        "10 sick days per month",
        "10 sick days per year",
    ),
    ("Take 2 tablets per day.", "Take 2 tablets per week.", "2 tablets per week", "2 tablets per day"),
    # "twice daily" is twice per day, as "twice a day" is; "once weekly" once per week
    ("Take the tablets twice daily.", "Take the tablets twice a week.", "twice a week", "twice daily"),
    ("The office is cleaned once weekly.", "The office is cleaned once a month.", "once a month",
     "once weekly"),
    # the same number of another unit of the same measure
    ("The tower is 150 metres tall.", "The tower is 150 feet tall.", "150 feet", "150 metres"),
    ("The printer prints 20 pages per minute.", "The printer prints 20 pages per second.",
     "20 pages per second", "20 pages per minute"),
    # a speed in other units; a weight in pounds, which elsewhere are money
    ("The speed limit on the bridge is 40 km/h.", "The speed limit on the bridge is 40 mph.", "40 mph",
     "40 km/h"),
    ("The speed limit is 40 km per hour.", "The speed limit is 40 miles per hour.", "40 miles per hour",
     "40 km per hour"),
    ("The package weighs 5 pounds.", "The package weighs 5 kilograms.", "5 kilograms", "5 pounds"),
    # a month outside the range of months the evidence names, or a range with other ends
    ("The lake is frozen from December to March.", "The lake is frozen in July.", "July", "December"),
    ("The lake is frozen from December to March.", "The lake is frozen from December to February.",
     "February", "March"),
    ("Filming ran from September 1994 to August 1995.", "Filming ran from January 1994.", "January",
     "September"),
    ("The terminal is closed from November to February.", "The terminal is closed in May.", "May",
     "November"),
    # one unit, however written: no rounding to allow for ("743 ft" is no "744 ft")
    ("The building is 743 ft tall.", "The building is 744 feet tall.", "744 feet", "743 ft"),
    ("The peninsula is 110 km long.", "The peninsula is 111 km long.", "111 km", "110 km"),
    # the same amount given as the other bound, quoted with the bounds' words
    ("Applicants must be at least 18 years old.", "Applicants under 18 years old are accepted.",
     "under 18 years old", "at least 18 years old"),
    ("Hand luggage may weigh up to 7 kg.", "Hand luggage must weigh at least 7 kg.", "at least 7 kg",
     "up to 7 kg"),
    ("The album sold over 1.6 million copies.", "The album sold less than 1.6 million copies.",
     "less than 1.6 million copies", "over 1.6 million copies"),
    ("Bring no more than 3 bags.", "Bring more than 3 bags.", "more than 3 bags", "no more than 3 bags"),
    ("The battery lasts 10 hours or more.", "The battery lasts 10 hours or less.", "10 hours or less",
     "10 hours or more"),
    ("Do not take more than four tablets in 24 hours.", "Take more than four tablets in 24 hours.",
     "more than four tablets", "not take more than four tablets"),
    ("The case is not under 5 kg.", "The case is under 5 kg.", "under 5 kg", "not under 5 kg"),
    # "exceed" is a bound, and its "not" turns it round
    ("Cabin bags must not exceed 8 kg.", "Cabin bags have to weigh at least eight kilograms.",
     "at least eight kilograms", "not exceed 8 kg"),
    ("Monthly sales exceeded 400 units.", "Monthly sales stayed below 400 units.", "below 400 units",
     "exceeded 400 units"),
    # an age compared, which no word after it makes a date
    ("You must be at least 21 years old to hire a van.",
     "Only drivers younger than twenty-one may hire a van.",
     "younger than twenty-one", "at least 21 years old"),
    # the words next to the two bounds need not meet where the amount is one
    ("Deposits are returned only if you cancel your holiday cottage booking at least 72 hours in advance.",
     "Deposits are only returned to guests who cancel less than seventy-two hours before.",
     "less than seventy-two hours", "at least 72 hours"),
    # a fraction of the same thing
    ("Half of the tickets are reserved for students.", "A quarter of the tickets are reserved for students.",
     "A quarter", "Half"),
    ("A third of the budget goes to salaries.", "Two thirds of the budget goes to salaries.", "Two thirds",
     "A third"),
    # hours of the day are no rough amount: the other end of a span of them clashes
    ("The store is open from 9 am to 5 pm.", "The store is open from 9 am to 9 pm.", "9 am to 9 pm",
     "9 am to 5 pm"),
    # ... and a qualifier of either end is the span's
    ("The store is open from 9 am to 5 pm on weekdays and 10 am to 4 pm on Saturdays.",
     "The store is open from 10 am to 4 pm on weekdays.", "10 am to 4 pm on weekdays",
     "9 am to 5 pm on weekdays"),
    # a bare number after "and" is of the unit before it
    ("The ferry costs £12 for adults and 5 for children.", "Children travel on the ferry for £12.", "£12",
     "5"),
    ("The clinic sees 40 patients on Mondays and 25 on Fridays.", "The clinic sees 40 patients on Fridays.",
     "40 patients on Fridays", "25 on Fridays"),
    # "a week" is one week
    ("The lab results are ready within 48 hours.", "The lab results are ready within a week.", "a week",
     "48 hours"),
    ("The stitches come out 10 days after the operation.", "The stitches come out a week after the "
     "operation.", "a week", "10 days"),
    # a bound that another value of the sentence meets is no bound the evidence's amount meets
    ("The film grossed $181,674 worldwide on a budget of $160 million.",
     "The film grossed more than $1 million worldwide.", "$1 million", "$181,674"),
    # "shot up to" gives an amount, no bound
    ("The job rating fell from 60 to 55 points.", "The job rating shot up to 90 points.", "90 points", "60"),
    # "a single dose" is one dose
    ("The vaccine is given in two doses.", "The vaccine is given in a single dose.", "single dose",
     "two doses"),
    # pence are a pound's hundredths
    ("A colour page costs 50p.", "A colour page costs £50.", "£50", "50p"),
    # two prices under the same qualifier, told apart by their words (whatever other value gives €35)
    ("City bikes cost EUR 15 per day and e-bikes EUR 35 per day.", "City bikes cost €35 a day.", "€35",
     "EUR 15"),
    # "twice" is two times whatever word follows it
    ("An item can be renewed twice online, unless another member has reserved it.",
     "You can renew an item three times online.", "three times", "twice"),
    # a table's count is no amount of money: "the capacity is 12" stated no "£12"
    ("For Anchor Room, the capacity is 12, the hourly rate (GBP) is 9 and the deposit (GBP) is 20.",
     "The Anchor Room costs £12 an hour, with a £20 deposit.", "£12 an hour", "9"),
    # a bound is of the value the evidence gives as one ("capped at"), not of the rate its words name
    ("Adult members are charged 25p per item per day, capped at £6 per item.",
     "Adult members are charged a maximum of £10 per item.", "£10 per item", "£6 per item"),
    # a table's row the claim names is its evidence, not the row holding its value, nor a row read
    # with the sentence after it ("... on Plus and Business")
    ("For Plus, the price per user per month is $6 and the storage per user is 50 GB.\n\nFor Business, "
     "the price per user per month is $14 and the storage per user is 1 TB.\n\nAnnual billing saves 20% on "
     "Plus and Business.", "The Plus plan costs $14 per user per month.", "$14", "$6"),
    ("For Studio, the annual charge (GBP) is 1,150 and the parking permit (GBP) is 180.\n\nFor Garden "
     "flat, the annual charge (GBP) is 1,480 and the parking permit (GBP) is 180.\n\nFor Roof flat, the "
     "annual charge (GBP) is 1,920 and the parking permit (GBP) is 240.",
     "The roof flat's annual charge is £1,480.", "£1,480", "1,920"),
    # each value of a cell is named by its own words ("non-members", "colour")
    ("For Meeting room, the price is £20 per hour for members, £35 per hour for non-members.",
     "Non-members pay £20 per hour for a meeting room.", "£20", "£35"),
    ("For Printing, the price is 10p per page black and white, 30p per page colour.",
     "Colour printing costs 10p per page.", "10p", "30p"),
    # a rate in a clause of its own at the sentence's end is of the clause before it
    ("The nearest car park is Queen's Yard, 200 metres away, at £8 a day.",
     "The nearest car park is Queen's Yard, 200 metres away, at £8 an hour.", "£8 an hour", "£8 a day"),
    # a data rate is no pound sterling ("Gbps"), and 1 Gbps is 1,000 Mbps
    ("The guest network is limited to 50 Mbps.", "The guest network is limited to 1 Gbps.",
     "1 Gbps", "50 Mbps"),
    # a bound said before two values is both's: at most one dog
    ("Residents may keep up to two cats or one dog per flat.", "You can keep up to two dogs per flat.",
     "two dogs", "one dog"),
    # hours said with "until", or ending at "12 noon" (an allotment society's "between 10am and 2pm"
    # against "between 10am and 12 noon" passed HIGH)
    ("Rent can be paid at the hut between 10am and 12 noon.",
     "Rent can be paid at the hut between 10am and 2pm.", "10am and 2pm", "10am and 12 noon"),
    ("The café is open from 9am until 5pm.", "The café is open from 9am until 6pm.",
     "9am until 6pm", "9am until 5pm"),
]  # fmt: skip


@pytest.mark.parametrize("evidence, claim, said, found", CLASHES)
def test_a_changed_value_is_contradicted_with_both_values(
    evidence: str, claim: str, said: str, found: str
) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert verdict.reason == f"the evidence says {found!r} where the claim says {said!r}"
    assert verdict.clash == ValueClash(said, found, claim.index(said), claim.index(said) + len(said))


@pytest.mark.parametrize(
    "evidence, claim",
    [
        ("The warranty lasts 24 months.", "The warranty lasts 2 years."),
        ("Requests are answered within 5 working days.", "Requests are answered within five working days."),
        ("The plan costs GBP 49 per year.", "The plan costs £49 per year."),
        ("A colour page costs 50p.", "A colour page costs £0.50."),
        # the value given under all of the claim's qualifiers is the claim's, whatever other fee its
        # words name ("processing fee"); it was "the evidence says '£3'"
        (
            "Adult members are charged 25p per item per day, capped at £6 per item. Lost items are "
            "charged at replacement cost plus a £3 processing fee.",
            "Late fees are 25 pence per item per day for adults, up to six pounds per item.",
        ),
        ("The plan costs £120 per year.", "The plan costs £10 per month."),
        ("Take the tablets twice daily.", "Take the tablets twice a day."),
        ("Residents may keep up to two cats or one dog per flat.", "Residents may keep one dog per flat."),
        ("The office is cleaned once weekly.", "The office is cleaned 52 times a year."),
        ("Members get 1 Gbps fibre.", "Members get 1,000 Mbps fibre."),
        (
            "For Meeting room, the price is £20 per hour for members, £35 per hour for non-members.",
            "Members pay £20 per hour for a meeting room.",
        ),
        (
            "For Printing, the price is 10p per page black and white, 30p per page colour.",
            "Black and white printing costs 10p per page.",
        ),
        ("The pump moves 60 litres per minute.", "The pump moves 3,600 litres per hour."),
        ("The laptop weighs 1.4 kg.", "The laptop weighs 1,400 grams."),
        ("The bottle holds 500 ml.", "The bottle holds 0.5 litres."),
        ("The trail is 5 miles long.", "The trail is 8 km long."),
        ("The speed limit is 40 km/h.", "The speed limit is 25 mph."),
        ("The parcel weighs 2 kg.", "The parcel weighs 4.4 pounds."),
        # a month inside the range of months the evidence names
        ("The lake is frozen from December to March.", "The lake is frozen in January."),
        ("The site is closed between June and August.", "The site is closed in July."),
        ("Core hours are 10:00 to 15:00.", "Core hours are 10:00 to 3 p.m."),
        ("The pharmacy closes at midnight.", "The pharmacy closes at 12 am."),
        ("The hotel is 200 metres from the beach.", "The beach is 200 m from the hotel."),
        ("33% of the budget goes to salaries.", "A third of the budget goes to salaries."),
        ("Half of the seats are taken.", "50% of the seats are taken."),
        ("Three of the stranded climbers were rescued.", "Three stranded climbers were rescued."),
        # "of them" names no count: the number stays bare, as does the part of "the five patients"
        ("Two of the five patients recovered.", "Two patients recovered."),
        ("The store is open from 9 am to 5 pm.", "The store is open from 9:00 to 17:00."),
        # "a second floor" is no rate per second
        (
            "A second floor addition can run $100-$300 a square foot.",
            "A second floor addition costs $100 to $300 per square foot.",
        ),
        ("The hotel has two single rooms.", "The hotel has two single rooms and a suite."),
        # a bound the evidence's amount meets
        (
            "The takeover began within 30 minutes of takeoff.",
            "The takeover began less than an hour after takeoff.",
        ),
        ("The battery lasts 12 hours.", "The battery lasts more than 10 hours."),
        ("The battery lasts up to 12 hours.", "The battery lasts more than 10 hours."),
        # ... but not after a comma: "one" of the two
        ("Two men, one with a dog, are standing in the ring.", "Two men are standing in the ring."),
        # a price said with "costs" where the evidence says "for": "costs" names no one of its prices
        (
            "We collect up to three bulky items for £35. Each further item costs £10.",
            "It costs £35 for up to three items.",
        ),
    ],
)
def test_the_same_amount_written_differently_is_not_a_clash(evidence: str, claim: str) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.CONTRADICTED and verdict.clash is None


@pytest.mark.parametrize(
    "evidence, claim",
    [
        ("The battery lasts more than 10 hours.", "The battery lasts over 10 hours."),
        ("The battery lasts more than 10 hours.", "The battery lasts 10 hours or more."),
        ("The tour lasts up to 40 minutes.", "The tour lasts 40 minutes at most."),
        # a bound a "not" denies is the other bound
        ("Do not take more than four tablets in 24 hours.", "Take at most four tablets in 24 hours."),
        ("George weighs not less than 70 kg.", "George weighs not under 70 kg."),
        # "over" and "under" of a count or an age name two groups ("Children under 12 travel free")
        ("Children under 12 travel free.", "Children over 12 travel free."),
        ("Children younger than 12 travel free.", "Children older than 12 pay the full fare."),
        ("Cabin bags must not exceed 10 kg.", "A cabin bag can weigh up to 10 kg."),
        ("Drivers must be at least 21 years old.", "Drivers must be twenty-one or older."),
    ],
)
def test_the_same_bound_in_other_words_is_not_a_clash(evidence: str, claim: str) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.clash is None, verdict.reason


def test_a_share_and_the_rest_of_it_said_with_opposite_words_is_no_clash() -> None:
    evidence = "In the spring, 70% of the trainees passed the driving test."
    rest = "In the spring, 30% of the trainees failed the driving test."
    other = "In the spring, 40% of the trainees failed the driving test."
    assert LexicalVerifier().verify(Claim(rest, 0, len(rest)), contexts(evidence)).clash is None
    assert LexicalVerifier().verify(Claim(other, 0, len(other)), contexts(evidence)).clash is not None


@pytest.mark.parametrize(
    "evidence, claim, value_words",
    [
        ("The kettle weighs 1.2 kg.", "The kettle weighs 1,200 grams.", "grams"),
        ("Preheat the oven to 240°C.", "Preheat the oven to 240 degrees Celsius.", "Celsius"),
        ("The concert starts at 8 pm.", "The concert starts at 20:00.", "00"),
    ],
)
def test_the_words_of_a_value_stated_in_other_units_are_found(
    evidence: str, claim: str, value_words: str
) -> None:
    # The value is the evidence's: its unit's words are no words the evidence lacks.
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.SUPPORTED and value_words not in verdict.reason, verdict.reason


@pytest.mark.parametrize(
    "evidence, claim",
    [
        ("The recipe calls for two eggs.", "The recipe needs 2 eggs."),
        ("The course runs for six weeks.", "The course lasts 6 weeks."),
    ],
)
def test_a_number_in_words_is_found_as_its_digits(evidence: str, claim: str) -> None:
    # The words the rules look for: "2" was "not found" where the evidence wrote "two".
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.UNSUPPORTED, verdict.reason


def test_a_share_of_a_count_is_no_count() -> None:
    evidence = "The hotel has 40 rooms, and half of them have a sea view."
    claim = "Half of the rooms have a sea view."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason


def test_a_value_of_another_thing_is_not_a_clash() -> None:
    evidence = "Parking costs EUR 5 per day. The canteen serves lunch from 12:00."
    claim = "The annual membership costs EUR 80."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.CONTRADICTED


def _clashing_values(claim: str, *evidence: str) -> tuple[str, str]:
    """The claim's value and the evidence's, where the rules contradict `claim` by a value clash."""
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(*evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.clash is not None, verdict.reason
    return verdict.clash.claim_value, verdict.clash.evidence_value


def test_the_claims_value_stated_of_another_thing_elsewhere_does_not_hide_the_clash() -> None:
    """ "Three people" rescued is no statement of "three people" killed."""
    evidence = "The mine collapse killed at least two people and left more than 50 missing."
    rescue = "On Thursday, rescuers brought out three people from the rubble."
    claim = "The mine collapse killed at least three people."
    assert _clashing_values(claim, evidence, rescue) == ("three people", "two people")
    # Stated elsewhere of the same thing, the value is no clash with the best window's other one.
    evidence = "Two people were killed on Monday. By Friday the collapse had killed three people."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


def test_the_sentence_about_the_claims_subject_is_its_evidence_not_one_agreeing_on_its_number() -> None:
    """A broadband provider's terms and its add-ons table: the table's "£5" is a static IP address's
    monthly price, and no evidence of how much prices rise."""
    terms = "4. Price changes\nMonthly prices rise by £3 each April.\nWe tell you before any other change."
    addons = "For Static IP address, the monthly price is £5 and the notes are Fibre 500 and Fibre 900 only."
    assert _clashing_values("Monthly prices rise by £5 each April.", addons, terms) == ("£5", "£3")
    # Controls: the rise said rightly is no clash, nor the table's price asked of its own row.
    for right in ("Monthly prices rise by £3 each April.", "A static IP address costs £5 a month."):
        verdict = LexicalVerifier().verify(Claim(right, 0, len(right)), contexts(addons, terms))
        assert verdict.status is not ClaimStatus.CONTRADICTED, (right, verdict.reason)


def test_a_rows_value_is_stated_for_a_claim_that_names_no_other_thing() -> None:
    """An allotment society's right answer "the rent is £39 a year" (of a half plot, at the concession
    rate) was contradicted by the membership fee's "£5 per household per year": the table row's £39.00
    was taken for another row's, though the claim names no other thing than the row's column."""
    rows = (
        "For Half plot, the size is 125 square metres, the standard rent is £52.00 and the concession "
        "rent is £39.00.\n\nFor Full plot, the size is 250 square metres, the standard rent is £96.00 "
        "and the concession rent is £72.00."
    )
    fee = "Every plot holder also pays the membership fee of £5 per household per year with the rent."
    claim = "The rent is £39 a year."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(rows, fee))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason
    # ... and a claim that names another thing than the row is still not said by the row
    assert _clashing_values("The membership fee is £39 a year.", rows, fee) == (
        "£39 a year",
        "£5 per household per year",
    )


def test_the_claims_value_stated_elsewhere_with_fewer_of_its_words_does_not_hide_the_clash() -> None:
    """The monthly membership's "one calendar month's notice" is no statement of the Private Office's."""
    evidence = (  # as the terms' PDF is read
        "Foundry Works - Membership terms\n\nVersion 3, effective 1 February 2027\n1. Notice\nMonthly "
        "memberships roll over each month. You can cancel with one calendar month's notice, given in "
        "writing.\nPrivate Office memberships need three months' notice.\n2. Deposit\n\nFixed Desk and "
        "Private Office members pay a deposit equal to one month's fee.\nThe deposit is refunded within 14 "
        "days of leaving, less any unpaid charges.\n\n3. Guests\n\nMembers may bring up to two guests a "
        "day free of charge. Further guests need a day pass.\n4. Access cards\n\nLost access cards are "
        "replaced for £10.\n5. Payment\n\nFees are paid monthly in advance by direct debit. A late "
        "payment is charged £15 after 7 days."
    )
    plans = (  # retrieved with it: the plans' table, as a DOCX table is read
        "For Fixed Desk, the price per month is £260, the access is 24/7 and the meeting room credits are "
        "4 hours.\n\nFor Private Office (2 people), the price per month is £650, the access is 24/7 and the "
        "meeting room credits are 10 hours."
    )
    claim = "Private Office memberships need one month's notice."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence, plans))
    assert verdict.clash is not None, verdict.reason
    assert (verdict.clash.claim_value, verdict.clash.evidence_value) == ("one month", "three months")
    claim = "You can cancel a monthly membership with one month's notice."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence, plans))
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason


@pytest.mark.parametrize(
    "evidence, claim",
    [
        ("The ticket costs 5 pounds.", "The ticket costs 5 euros."),
        # "1 pm" is 13 hours, "8 mph" 12.9 km/h: no conversion makes one the other
        ("3pm: 64 degrees with 8 mph winds.", "At 1 pm it is 64 degrees with 8 mph winds."),
        # a count of docks is no duration
        ("Classic bikes can be hired 24 hours a day.", "Classic bikes can be hired from 24 docks."),
    ],
)
def test_the_same_number_of_another_measure_is_not_stated(evidence: str, claim: str) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.UNSUPPORTED, verdict.reason


BORROWED_AMOUNTS = [
    ("The tank holds 40 litres of diesel.", "The tank holds 40 litres of water.", "40 litres of diesel"),
    ("The laptop has 16 GB of RAM.", "The laptop has 16 GB of storage.", "16 GB of RAM"),
    ("The clinic opens at 09:00 on Saturdays.", "It opens at 09:00 on weekdays.", "09:00 on Saturdays"),
]


@pytest.mark.parametrize("evidence, claim, given", BORROWED_AMOUNTS)
def test_the_rules_read_an_amount_the_evidence_gives_only_of_something_else(
    evidence: str, claim: str, given: str
) -> None:
    """The rules' reading; a sign the combiner reads, no verdict against the model's yes (its kind is
    not measured precise: precision.json)."""
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))
    assert kind == BORROWED and verdict.status is ClaimStatus.UNSUPPORTED, verdict.reason
    assert f"only as {given!r}" in verdict.reason


@pytest.mark.xfail(
    strict=False,  # the judge's P(supported) is 0.54-0.69 here, near enough the threshold to differ by CPU
    reason="issue 43 target: the judge trained on the hard pairs accepts these; the rules' borrowed-amount "
    "kind is below 97 % precision (precision.json), so it explains a no and overrules no yes",
)
@pytest.mark.parametrize("evidence, claim", [(evidence, claim) for evidence, claim, _ in BORROWED_AMOUNTS])
def test_the_default_stage_does_not_support_an_amount_the_evidence_gives_only_of_something_else(
    default_stage: Verifier, evidence: str, claim: str
) -> None:
    verdict = default_stage.verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.UNSUPPORTED, verdict.reason


@pytest.mark.parametrize(
    "evidence, claim",
    [
        ("Add 500 ml of milk.", "Add 500 ml of whole milk."),  # the same thing, named more closely
        ("The tent weighs 2.4 kg.", "The tent weighs 2.4 kg when packed."),  # a qualifier on one side
        ("Two people sit near the water while drinking.", "Two people sit by the water while talking."),
        ("The card holds 2 GB of photos.", "The card holds 2,000 MB of photos."),
    ],
)
def test_an_amount_of_the_same_thing_or_a_count_is_not_given_of_something_else(
    evidence: str, claim: str
) -> None:
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))
    assert kind is None, verdict.reason


@pytest.mark.parametrize(
    "evidence, claim",
    [
        # "a week" says one week
        ("Ballet dancers can go through 4 pairs of pointe shoes a week.",
         "Ballet dancers go through 4 pairs of pointe shoes in one week."),
        ("Ballet dancers can go through 4 pairs of pointe shoes a week.",
         "Ballet dancers go through 4 pairs of pointe shoes in a single week."),
    ],
)  # fmt: skip
def test_one_of_what_the_evidence_names_is_stated(evidence: str, claim: str) -> None:
    verdict, kind = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))[0]
    assert verdict.status is ClaimStatus.SUPPORTED and kind is None, verdict.reason


def test_an_amount_not_stated_is_quoted_with_its_unit() -> None:
    claim = "The ticket costs 5 euros."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts("The ticket costs 5 pounds."))
    assert verdict.reason == "the evidence does not state '5 euros'"


def test_value_clashes_is_reusable_on_parsed_values() -> None:
    policy, faq = values("a 12 month warranty"), values("a 2-year warranty and 30 days to return it")
    assert [(a.written, b.written) for a, b in clashes(policy, faq)][0] == ("12 month", "2-year")
    assert same_amount(quantities("24 months")[0], quantities("2 years")[0])
    assert not same_amount(quantities("2 months")[0], quantities("2 years")[0])


def test_the_default_offline_stage_contradicts_a_changed_number(default_stage: Verifier) -> None:
    """The issue's case: the model alone once passed "within 10 working days" where the document says 5."""
    evidence = (
        "Complaints\nThe customer care team acknowledges every complaint on the day it arrives and "
        "responds in writing within 5 working days."
    )
    answer = "The customer care team responds to complaints in writing within 10 working days."
    claim = RuleClaimExtractor().extract(answer)[0]
    verdict = default_stage.verify(claim, contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert "'5 working days' where the claim says '10 working days'" in verdict.reason
    start = answer.index("10 working days")
    assert verdict.clash is not None and verdict.clash.in_answer(claim) == (
        start,
        start + len("10 working days"),
    )


def test_the_clash_is_located_in_the_sentence_it_is_in_and_in_the_answer() -> None:
    evidence = "The plan costs GBP 49 per year. It includes 3 users."
    claim_text = "The plan includes 3 users. The plan costs GBP 59 per year."
    # The guard reads each sentence on its own, and locates its clash in the whole claim: the rules'
    # contradiction explains the model's no.
    claim = Claim(claim_text, 10, 10 + len(claim_text))
    verdict = GuardedVerifier(Rejects()).verify(claim, contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    clash = verdict.clash
    assert clash is not None and claim_text[clash.start : clash.end] == "GBP 59"
    assert clash.in_answer(claim) == (10 + clash.start, 10 + clash.end)


def test_a_borrowed_subject_is_not_marked_in_the_answer() -> None:
    answer = "The wash takes 82 minutes and uses 120 litres."
    second = RuleClaimExtractor().extract(answer)[1]
    assert second.text == "The wash uses 120 litres."
    in_claim = second.text.index("120 litres")
    assert ValueClash("120 litres", "90 litres", in_claim, in_claim + 10).in_answer(second) == (
        answer.index("120"),
        answer.index("120") + 10,
    )
    assert ValueClash("wash", "dryer", 4, 8).in_answer(second) is None


def test_the_clash_survives_the_report_round_trip() -> None:
    from rrag.types import ClaimResult, Decision, Verdict

    clash = ValueClash("GBP 59", "GBP 49", 15, 21)
    result = ClaimResult(
        Claim("The plan costs GBP 59.", 0, 22),
        Verdict(ClaimStatus.CONTRADICTED, 0.8, "lexical", "r", clash=clash),
    )
    assert result.to_dict()["clash"] == {
        "claim_value": "GBP 59",
        "evidence_value": "GBP 49",
        "start": 15,
        "end": 21,
    }
    report = Report(
        "s",
        "q",
        "The plan costs GBP 59.",
        "",
        Decision.REFUSE,
        None,
        None,
        None,
        True,
        {},
        [result],
        [],
        {},
        "t",
    )
    assert Report.from_dict(report.to_dict()).claims[0].verdict.clash == clash


@pytest.mark.parametrize(
    "evidence, claim",
    [
        (
            "Discovery Channel is the third most widely distributed cable channel.",
            "Discovery Channel is the 3rd most widely distributed cable channel.",
        ),
        (
            "Potatoes were introduced to Europe in the sixteenth century.",
            "Potatoes were introduced to Europe in the 16th century.",
        ),
        ("The firm marked its twenty-fifth anniversary.", "The firm marked its 25th anniversary."),
    ],
)
def test_an_ordinal_in_words_states_the_same_number(evidence: str, claim: str) -> None:
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))
    assert kind is None and verdict.status is not ClaimStatus.UNSUPPORTED, verdict.reason  # was: unstated


def test_a_value_the_claim_states_itself_contradicts_none_of_its_others() -> None:
    # RAGTruth: the evidence gives only 6pm's figure; the claim's 3pm is unstated there, not contradicted.
    evidence = "6pm: There is a 58% chance of rain and 7 mph winds from the Northwest."
    claim = "There is a chance of rain, with a 42% chance at 3pm and a 58% chance at 6pm."
    ((verdict, kind),) = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence))
    assert verdict.status is ClaimStatus.UNSUPPORTED and kind == "unstated" and verdict.clash is None
    changed = "There is a 42% chance of rain at 6pm."
    ((verdict, kind),) = LexicalVerifier().assess([Claim(changed, 0, len(changed))], contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED and kind == "value"


DEPARTS_AND_ARRIVES = "The night bus leaves the station at 23:10 and reaches the airport at 00:05."
# Two ranges of one measure in a sentence, each with its words: "Guests under 16 may use the pool from 8am
# to 8pm." passed HIGH, a range's ends having had no words of their own.
MEALS = "Lunch is served from 12:00 to 14:00 and dinner from 18:00 to 21:30."
SPA = (
    "Our spa has a sauna and a hydrotherapy pool. It is open from 8am to 8pm, and guests under 16 may use "
    "the pool only from 9am to 11am."
)


@pytest.mark.parametrize(
    "evidence, claim, said, found",
    [
        ("The train departs at 8:15 and arrives at 10:40.", "The train arrives at 8:15.", "8:15", "10:40"),
        (DEPARTS_AND_ARRIVES, "The night bus reaches the airport at 23:10.", "23:10", "00:05"),
        (DEPARTS_AND_ARRIVES, "The night bus leaves the station at 00:05.", "00:05", "23:10"),
        (SPA, "Guests under 16 may use the pool from 8am to 8pm.", "8am to 8pm", "9am to 11am"),
        # The verb said once for both values: each is its subject's ("Children pay £10." was supported)
        ("Adults pay £10 and children £5.", "Children pay £10.", "£10", "£5"),
        (MEALS, "Dinner is served from 12:00 to 14:00.", "12:00 to 14:00", "18:00 to 21:30"),
    ],
)
def test_a_time_given_to_the_other_act_of_the_same_subject_is_contradicted(
    evidence: str, claim: str, said: str, found: str
) -> None:
    # The subject before the first time ("The train") is both times' subject, not the first's alone.
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason
    assert verdict.reason == f"the evidence says {found!r} where the claim says {said!r}"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (DEPARTS_AND_ARRIVES, "The night bus reaches the airport at 00:05."),
        (DEPARTS_AND_ARRIVES, "The night bus leaves the station at 23:10."),
        (SPA, "Guests under 16 may use the pool from 9am to 11am."),
        (SPA, "The spa is open from 8am to 8pm."),
        ("Adults pay £10 and children £5.", "Children pay £5."),
        (MEALS, "Lunch is served from 12:00 to 14:00."),
        (MEALS, "Dinner is served from 18:00 to 21:30."),
    ],
)
def test_each_act_keeps_its_own_time(evidence: str, claim: str) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason


SHOP = "The shop opens at 9:00. On Saturdays it opens at 10:00."
MARKET = "The farmers' market runs every Saturday from 8:00 to 13:00. In winter it opens at 9:00."
TREATY = "The treaty was signed in Vienna in 1815. It was ratified by Prussia in 1816."
POOL = (
    "The swimming pool is open from 6:30 to 21:00 on weekdays. "
    "At weekends it opens at 8:00 and closes at 18:00."
)
FASTING = "Patients should fast for 8 hours before the scan. They may drink water up to 2 hours before it."


@pytest.mark.parametrize(
    "evidence, claim, found",
    [
        # the time something opens at is the start of its hours, not any hour of them
        (POOL, "On weekdays the pool opens at 8:00.", "6:30 to 21:00 on weekdays"),
        (POOL, "The pool closes at 20:00 on weekdays.", "6:30 to 21:00 on weekdays"),
        # an amount of the other sentence of a window: the words next to it are another act's
        (FASTING, "Patients should fast for 2 hours before the scan.", "8 hours"),
        (
            "Standard delivery takes 3 working days and costs £4.99. "
            "Express delivery takes 1 working day and costs £9.99.",
            "Express delivery costs £4.99.",
            "£9.99",
        ),
        # an amount of another measure with the same number is no value of the claim's ("8 °C")
        (
            "Store the insulin between 2 and 8 °C. Once opened, the vial must be used within 24 hours.",
            "Once opened, the vial must be used within 8 hours.",
            "24 hours",
        ),
        # the value of the claim's own case, not the general one ("On Saturdays", "In winter")
        (SHOP, "On Saturdays the shop opens at 9:00.", "10:00"),
        (MARKET, "In winter the market opens at 8:00.", "9:00"),
        # a year of the other act of the sentence
        ("The museum was built in 1902 and extended in 1968.", "The museum was extended in 1902.", "1968"),
        ("The museum was built in 1902 and extended in 1968.", "The museum was built in 1968.", "1902"),
        ("The castle was built in 1240 and rebuilt in 1560.", "The castle was rebuilt in 1240.", "1560"),
        (TREATY, "The treaty was signed in Vienna in 1816.", "1815"),
        # the evidence's value of the claim's subject, not the first of its measure ("formed in 1990")
        (
            "The band formed in Seattle in 1990. The band toured in 2016 to mark the album's anniversary.",
            "The band toured in 1906.",
            "2016",
        ),
    ],
)
def test_a_value_of_the_neighbouring_sentence_or_of_the_hours_is_no_support(
    evidence: str, claim: str, found: str
) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason
    assert verdict.clash is not None and verdict.clash.evidence_value == found


@pytest.mark.parametrize(
    "evidence, claim",
    [
        (POOL, "The pool is open at 8:00 on weekdays."),  # a state, within the hours
        (POOL, "On weekdays the pool opens at 6:30."),
        (POOL, "At weekends the pool closes at 18:00."),
        (POOL, "The pool closes at 18:00 at weekends."),
        (FASTING, "Patients should fast for 8 hours before the scan."),
        (FASTING, "Patients may drink water until 2 hours before the scan."),
        ("The museum was built in 1902 and extended in 1968.", "In 1902 the museum was built."),
        (TREATY, "Prussia ratified the treaty in 1816."),
        (SHOP, "The shop opens at 9:00."),
        (SHOP, "On Saturdays the shop opens at 10:00."),
        (MARKET, "The market opens at 8:00 on Saturdays."),
    ],
)
def test_each_sentence_of_a_window_keeps_its_own_values(evidence: str, claim: str) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.SUPPORTED, verdict.reason


@pytest.mark.parametrize(
    "claim",
    [
        "The film was released in 2005.",  # "re-released" is the same act
        "The film came out in 2001.",
    ],
)
def test_years_without_acts_of_their_own_are_not_told_apart(claim: str) -> None:
    evidence = "The film was released in 2001 and re-released in 2005."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


def test_a_claim_of_several_values_is_quoted_at_the_one_that_differs() -> None:
    evidence = "The plan costs 12 euros per month, and the family plan costs 20 euros per month."
    claim = "The plan costs 12 euros per month, and the family plan costs 25 euros per month."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert verdict.clash is not None
    assert (verdict.clash.claim_value, verdict.clash.evidence_value) == ("25 euros", "20 euros")


def test_a_qualifier_after_a_value_is_not_given_across_an_and_to_the_next() -> None:
    tower = values("The bell tower was 58 metres tall when built and 30 metres tall after the fire.")
    assert [(v.written, sorted(v.qualifiers)) for v in tower] == [
        ("58 metres", [("when", "built")]),
        ("30 metres", []),
    ]


def test_a_rate_said_before_its_noun_is_the_value_after_it_not_across_an_and() -> None:
    row = values("For Small, the weekly price is £19 and the monthly price is £76.")
    assert [(v.written, sorted(v.qualifiers)) for v in row] == [
        ("£19", [("per", "week")]),
        ("£76", [("per", "month")]),
    ]


def test_a_claims_amount_aligns_with_the_same_amount_not_with_its_digits() -> None:
    # "£500" is not the "500" of "£2,500": the evidence is the single-item limit, and it says £300
    evidence = (
        "For Baggage, the cover limit is £2,500 and the excess is £75.\n\n"
        "Within the baggage limit, no single item is covered for more than £300."
    )
    claim = "A single item is covered for up to £500."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert verdict.evidence is not None and verdict.evidence.quote.startswith("Within the baggage limit")
    assert verdict.clash is not None and verdict.clash.evidence_value == "£300"


def test_the_same_amount_of_the_next_sentences_thing_is_no_clash() -> None:
    # A window of two sentences: the £500 is the treatment's, not a claim's
    evidence = (
        "We aim to settle claims within 10 working days of receiving all the documents.\n"
        "Medical emergencies abroad must be reported before any treatment costing more than £500."
    )
    claim = "You can claim up to £500 for a single item."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is not ClaimStatus.CONTRADICTED and verdict.clash is None, verdict.reason


PRICES = (
    "Prices are per day and include VAT.\n\n"
    "For Mini (Group A), the daily rate is £29, the deposit is £200 and the excess is £950.\n\n"
    "For Electric (Group E), the daily rate is £55, the deposit is £300 and the excess is £1,250.\n\n"
    "Excess Reduction cover costs £12 per day and brings the excess down to £100 for every group."
)


def test_a_row_named_without_its_aside_is_the_claims_evidence() -> None:
    # "Electric (Group E)" is the electric row: its excess, not the Mini's, nor the reduced one
    claim = "The excess on an electric car is £950."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(PRICES))
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert verdict.clash is not None and verdict.clash.evidence_value == "£1,250"


def test_a_value_after_a_table_is_no_rows() -> None:
    daily, reduction = (v for v in values(PRICES) if v.written in ("£55", "£12"))
    assert daily.row == frozenset(content_words("Electric"))
    assert reduction.row == frozenset()
    claim = "An electric car costs £55 a day."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(PRICES))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


def test_a_claim_of_a_named_rows_measure_is_read_against_that_row() -> None:
    # the electric car's daily rate, not the additional driver's price per day
    text = PRICES + "\n\nAn additional driver costs £9 per day, up to a maximum of £90 per rental."
    claim = "An electric car costs £48 a day."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(text))
    assert verdict.evidence is not None and verdict.evidence.quote.startswith("For Electric (Group E)")
    assert verdict.clash is None or verdict.clash.evidence_value != "£9 per day"


def test_what_the_text_says_of_a_named_rows_subject_is_evidence_too() -> None:
    text = (
        "For Essentials, the price is £19 per trip and the longest trip is 31 days.\n\n"
        "For Premier, the price is £39 per trip and the longest trip is 60 days.\n\n"
        "The Premier plan covers trips of up to 60 days."
    )
    claim = "Only the Premier plan covers a 45-day trip."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(text))
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason


STATIONS = (
    "Main stations\n\nCentral Station: 40 docks, at the front of the station.\n"
    "Riverside Park: 24 docks, with e-bike charging.\nUniversity: 30 docks, beside the library.\n"
)


def test_a_value_after_a_label_is_the_labels() -> None:
    # The label before the colon says what the docks are of: "University station has 24 docks" passed,
    # its 24 the park's.
    claim = "University station has 24 docks."
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(STATIONS))
    assert (
        verdict.status is ClaimStatus.CONTRADICTED
        and verdict.clash
        and verdict.clash.evidence_value == "30 docks"
    )
    right = "Riverside Park has 24 docks."
    assert (
        LexicalVerifier().verify(Claim(right, 0, len(right)), contexts(STATIONS)).status
        is ClaimStatus.SUPPORTED
    )
    # a numbered label names nothing
    assert {v.written: v.near for v in values("Passage 1: The forecast is 64 degrees.")}["64 degrees"] == {
        "forecast"
    }


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        # a word between a number and a unit of measure says which ones, not what is counted: with a
        # count of a thing no amount of a measure, "5 unused days" was no "5 days"
        ("Up to 5 unused days may be carried over into the next year.", "Up to 5 days may be carried over."),
        (
            "If the station is full, the app adds 15 free minutes.",
            "If the station is full, the app adds 15 minutes.",
        ),
    ],
)
def test_a_word_before_a_unit_of_measure_says_which_not_what_is_counted(evidence: str, claim: str) -> None:
    assert (
        LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence)).status
        is ClaimStatus.SUPPORTED
    )


@pytest.mark.parametrize(
    ("evidence", "claim", "says", "agrees"),
    [
        # a day of every month, said with another word before "month" (was unstated, a sign the judge
        # overruled at 0.57: the claim passed)
        (
            "Invoices must be paid by the 5th of each month.",
            "Invoices have to be paid by the 15th of the month.",
            "5th",
            "Invoices have to be paid by the fifth of the month.",
        ),
        # an age limit said with "aged" (was no value: "60" unstated, and the judge passed it at 0.9)
        (
            "For Concession, the price is £15 and the who is Aged 65 and over, students and jobseekers.",
            "Concession tickets are for people aged 60 and over.",
            "65",
            "Concession tickets are for people aged 65 and over.",
        ),
        # a range's far end, whose own neighbours are only "to" (was unstated: the words next to the
        # shop's hours were its first end's alone)
        (
            "The shop is open from 9:00 to 17:00.",
            "The shop is open from 9:00 to 18:00.",
            "9:00 to 17:00",
            "The shop is open from 9am to 5pm.",
        ),
        # an age band draws a line, as hours do (overlapping "5 to 15" held "5 to 16": no evidence against)
        (
            "For Child, the price is £9 and the who is Aged 5 to 15.",
            "Child tickets are for children aged 5 to 16.",
            "5 to 15",
            "Child tickets are for children aged 5 to 15.",
        ),
        # a count of an age group (was a clash of ages: "four two-year" against "eight two-year")
        (
            "We keep one adult to every three children under two and one to every four two-year-olds.",
            "There is one adult for every eight two-year-olds.",
            "four",
            "There is one adult for every four two-year-olds.",
        ),
    ],
)
def test_a_day_of_every_month_age_limits_a_ranges_end_and_a_count_of_an_age_group_are_values(
    evidence: str, claim: str, says: str, agrees: str
) -> None:
    verdict = LexicalVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert verdict.status is ClaimStatus.CONTRADICTED and f"the evidence says '{says}" in verdict.reason
    same = LexicalVerifier().verify(Claim(agrees, 0, len(agrees)), contexts(evidence))
    assert same.status is not ClaimStatus.CONTRADICTED, same.reason


def test_a_difference_is_the_amount_of_neither_thing_it_compares() -> None:
    # A driving school's "£4 more per hour than manual ones" stated a lesson's price of £4 (supported)
    # and disagreed with the £46 an automatic lesson costs (a right price trimmed LOW).
    evidence = contexts(
        "Automatic lessons cost £4 more per hour than manual ones. An automatic lesson is £46."
    )

    def verdict(claim: str) -> Verdict:
        return LexicalVerifier().verify(Claim(claim, 0, len(claim)), evidence)

    price = verdict("An automatic lesson costs £4.")
    assert price.status is ClaimStatus.UNSUPPORTED and "'£4 more per hour'" in price.reason
    assert (
        verdict("Automatic lessons are £4 an hour more than manual lessons.").status is ClaimStatus.SUPPORTED
    )
    other = verdict("Automatic lessons are £10 an hour more than manual lessons.")
    assert other.status is ClaimStatus.CONTRADICTED and "the evidence says '£4'" in other.reason
    assert verdict("An automatic lesson costs £46.").status is ClaimStatus.SUPPORTED
