"""Sentence and claim splitting (issue 12 item 4): units, times, headings, list items, tables, and
numbered facts joined by "and" split into claims that each keep their span."""

import pytest

from rrag.audit.claims import RuleClaimExtractor
from rrag.text import split_sentences


def sentences(text: str) -> list[str]:
    spans = split_sentences(text)
    assert all(text[s.start : s.end] == s.text for s in spans)
    return [s.text for s in spans]


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Vaccines are stored between 2 °C and 8 °C. The log is checked every 6 hours.",
            ["Vaccines are stored between 2 °C and 8 °C.", "The log is checked every 6 hours."],
        ),
        ("Keep it below 25°C. Check it daily.", ["Keep it below 25°C.", "Check it daily."]),
        ("The box is 2 m. It weighs 3 kg.", ["The box is 2 m.", "It weighs 3 kg."]),
        ("The route is 12 km. It takes an hour.", ["The route is 12 km.", "It takes an hour."]),
        (
            "The office closes at 5 p.m. Staff may leave early on Fridays.",
            ["The office closes at 5 p.m.", "Staff may leave early on Fridays."],
        ),
        (
            "Support answers from 9 a.m. to 5 p.m. on weekdays.",
            ["Support answers from 9 a.m. to 5 p.m. on weekdays."],
        ),
        ("The desk opens at 8 a.m. Monday to Friday.", ["The desk opens at 8 a.m. Monday to Friday."]),
        (
            "It was written by J. R. Tolkien. Dr. Smith read it. A. Jones did not.",
            ["It was written by J. R. Tolkien.", "Dr. Smith read it.", "A. Jones did not."],
        ),
    ],
)
def test_units_times_and_initials(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_a_heading_line_is_not_glued_onto_the_next_sentence() -> None:
    text = (
        "Scope\nThis policy applies to all employees.\nEligibility Rules\n"
        "Staff with 6 months of service qualify."
    )
    assert sentences(text) == [
        "Scope",
        "This policy applies to all employees.",
        "Eligibility Rules",
        "Staff with 6 months of service qualify.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # A PDF's "1. Switching to us" under a version line was glued onto the answer ("Switching to us
        # Your switch completes ..."): "us" was taken for a function word a wrapped line ends on
        "Version 9, effective 1 October 2026\n1. Switching to us\nYour switch completes in 5 days.",
        # "Last updated 2 January 2027" over a heading: both were glued onto the answer ("Last updated 2
        # January 2027 Deposits and payment A deposit of ..."); a line that ends with a date ends there
        "Last updated 2 January 2027\nDeposits and payment\nA deposit of one night's rate is taken.",
    ],
)
def test_a_dateline_and_a_numbered_heading_are_lines_of_their_own(text: str) -> None:
    assert sentences(text) == [line.removeprefix("1. ") for line in text.split("\n")]


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("2. Send it to us\nbefore Friday.", "Send it to us\nbefore Friday."),  # the list's number left out
        (
            "Prices rose on 1 January 2027\nand again in May.",
            "Prices rose on 1 January 2027\nand again in May.",
        ),
    ],
)
def test_a_line_that_goes_on_in_lower_case_is_one_sentence(text: str, sentence: str) -> None:
    assert sentences(text) == [sentence]


def test_a_heading_that_asks_under_a_title_is_a_heading() -> None:
    # A PDF's section heading said as a question, with its auxiliary, under the document's title: it was
    # glued onto the answer ("Who can ride You must be 16 or over to hire a bike.")
    text = (
        "Membership terms\nWho can ride\nYou must be 16 or over to hire a bike.\n"
        "Staff who can\nride get a pass."
    )
    assert sentences(text) == [
        "Membership terms",
        "Who can ride",
        "You must be 16 or over to hire a bike.",
        "Staff who can\nride get a pass.",
    ]


def test_a_line_wrapped_mid_sentence_stays_one_sentence() -> None:
    text = (
        "Staff report incidents to the Security\nOperations team within 2 hours.\n"
        "The policy applies to all\nEmployees of the company."
    )
    assert sentences(text) == [
        "Staff report incidents to the Security\nOperations team within 2 hours.",
        "The policy applies to all\nEmployees of the company.",
    ]


def test_list_items_and_table_rows_are_units_of_their_own() -> None:
    assert sentences("Prices:\n- Berlin: EUR 48\n- Munich: EUR 52") == [
        "Prices:",
        "Berlin: EUR 48",
        "Munich: EUR 52",
    ]
    assert sentences("City | Price\nBerlin | €48\nMunich | €52") == [
        "City | Price",
        "Berlin | €48",
        "Munich | €52",
    ]
    assert sentences("| City | Price |\n|---|---|\n| Berlin | €48 |\n| Munich | €52 |") == [
        "| City | Price |",
        "| Berlin | €48 |",
        "| Munich | €52 |",
    ]


def claims(answer: str) -> list[tuple[str, str]]:
    """(claim text, the answer's text at the claim's span); the text always ends with the span's text."""
    out = [(c.text, answer[c.start : c.end]) for c in RuleClaimExtractor().extract(answer)]
    assert all(text.endswith(span) for text, span in out)
    return out


def test_facts_with_their_own_numbers_become_claims_that_keep_their_spans() -> None:
    assert claims("The eco programme takes 82 minutes and uses 120 litres and 1.9 kg of salt.") == [
        ("The eco programme takes 82 minutes", "The eco programme takes 82 minutes"),
        ("The eco programme uses 120 litres", "uses 120 litres"),
        ("The eco programme uses 1.9 kg of salt.", "1.9 kg of salt."),
    ]
    assert claims("The wash lasts for 82 minutes, uses 120 litres and costs EUR 2.") == [
        ("The wash lasts for 82 minutes", "The wash lasts for 82 minutes"),
        ("The wash uses 120 litres", "uses 120 litres"),
        ("The wash costs EUR 2.", "costs EUR 2."),
    ]
    assert claims("Members get 10% off classes and 20% off at the cafe.") == [
        ("Members get 10% off classes", "Members get 10% off classes"),
        ("Members get 20% off at the cafe.", "20% off at the cafe."),
    ]
    assert claims("The fee is 5% and the cap is EUR 100.") == [
        ("The fee is 5%", "The fee is 5%"),
        ("the cap is EUR 100.", "the cap is EUR 100."),
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "Vaccines are stored between 2 °C and 8 °C.",  # a range is one fact
        "Employees with 2 years of service and a good record qualify.",  # one number
        "2 and 3 bedroom flats are available.",  # no subject to carry over
        "Version 4.2, effective 1 January 2026.",  # a comma alone does not list facts
        # "14 days" joins "a reminder", not "£12": split, it read "A late payment is charged 14 days
        # without payment." and left the £12 without its condition
        "A late payment is charged £12 only after a reminder and 14 days without payment.",
    ],
)
def test_what_is_one_fact_stays_one_claim(answer: str) -> None:
    assert claims(answer) == [(answer, answer)]
