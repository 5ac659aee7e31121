from __future__ import annotations

import pytest

from rrag.text import (
    clean,
    clean_map,
    content_words,
    denies,
    fuzzy_locate,
    locate,
    month_ranges,
    months,
    months_inside,
    named_as_a_kind,
    negation_count,
    negations,
    normalize,
    normalize_map,
    plain_words,
    quantities,
    split_sentences,
    stem,
)
from rrag.text.values import gives_money

POLICY = """# Annual leave

Full-time employees receive 25 days of paid annual leave per calendar year.
Up to 5 unused days may be carried over. Dr. Smith signed it on Jan. 5, e.g. in the U.S. office.
The fee is $2.5 million (approx. 3.5% of revenue). Is that right? Yes!
- dental cover
- vision cover
1. First item
2) Second item
This sentence wraps
over two lines.
"""


def test_sentences_keep_exact_offsets_and_leave_out_markers() -> None:
    spans = split_sentences(POLICY)
    assert [s.text for s in spans] == [
        "Annual leave",
        "Full-time employees receive 25 days of paid annual leave per calendar year.",
        "Up to 5 unused days may be carried over.",
        "Dr. Smith signed it on Jan. 5, e.g. in the U.S. office.",
        "The fee is $2.5 million (approx. 3.5% of revenue).",
        "Is that right?",
        "Yes!",
        "dental cover",
        "vision cover",
        "First item",
        "Second item\nThis sentence wraps\nover two lines.",
    ]
    assert all(POLICY[s.start : s.end] == s.text for s in spans)


def test_numbering_abbreviations_only_hold_before_a_number() -> None:
    text = "See No. 5 on p. 12 for details. No. Part-time staff are not eligible."
    assert [s.text for s in split_sentences(text)] == [
        "See No. 5 on p. 12 for details.",
        "No.",
        "Part-time staff are not eligible.",
    ]


def test_sentences_of_empty_or_punctuation_only_text() -> None:
    assert split_sentences("") == []
    assert split_sentences("  \n - \n ... ") == []


def test_normalize_map_points_back_into_the_original() -> None:
    text = "Hello,  World \u2014 \u201cquoted\u201d 3.5% [2] end."
    norm, index = normalize_map(text, punctuation=False)
    assert norm == "hello world quoted 3.5% end"
    assert len(index) == len(norm)
    assert all(text[i].casefold() == c for c, i in zip(norm, index) if c.isalnum())
    assert normalize("A\u00a0B\u2019s") == "a b's"
    assert normalize("  Plain  ASCII\ttext \n") == "plain ascii text"  # the fast path agrees with the map
    assert normalize_map("  Plain  ASCII\ttext \n")[0] == "plain ascii text"


HIDDEN = "Leave: 2\u200b5\u00a0days, \u202e\uff11\uff12\u202c weeks or \u0662\u0665\u2009hours\ufeff."


def test_clean_drops_invisible_characters_and_unifies_digits_and_spaces() -> None:
    text, index = clean_map(HIDDEN)
    assert text == clean(HIDDEN) == "Leave: 25 days, 12 weeks or 25 hours."
    assert len(index) == len(text)
    # Every character of the result points at the one it came from.
    assert all(clean(HIDDEN[i]) == ch for ch, i in zip(text, index))
    assert HIDDEN[index[text.index("25")] : index[text.index("25") + 1] + 1] == "2\u200b5"
    assert clean("Line one\nline\ttwo") == "Line one\nline\ttwo"  # breaks shape sentences: kept


@pytest.mark.parametrize("punctuation", [True, False])
def test_normalize_map_reads_hidden_digits_and_maps_back(punctuation: bool) -> None:
    norm, index = normalize_map(HIDDEN, punctuation=punctuation)
    assert "25 days" in norm and "12 weeks" in norm and "25 hours" in norm
    assert "\u200b" not in norm and "\u202e" not in norm and "\ufeff" not in norm
    start = norm.index("12 weeks")
    assert HIDDEN[index[start] : index[start + len("12 weeks") - 1] + 1] == "\uff11\uff12\u202c weeks"


def test_locate_finds_a_plain_quote_in_text_with_hidden_characters() -> None:
    start, end = locate("25 days", HIDDEN)
    assert HIDDEN[start:end] == "2\u200b5\u00a0days"
    assert locate("5 days", HIDDEN) is None  # "2\u200b5" is one number, not "2" and "5"
    assert quantities(clean(HIDDEN))[0][:2] == (25, "day")


def test_locate_ignores_case_whitespace_and_punctuation_on_word_boundaries() -> None:
    hay = "The  annual FEE is $25,\nnot refundable."
    start, end = locate("annual fee is $25 not refundable", hay)  # type: ignore[misc]
    assert hay[start:end] == "annual FEE is $25,\nnot refundable"
    assert locate("fee is $2", hay) is None  # "$2" must not match inside "$25"
    assert locate("nual fee", hay) is None
    assert locate("", hay) is None


def test_fuzzy_locate_finds_near_exact_spans_and_rejects_paraphrase() -> None:
    hay = "x. Full-time employees receive 25 days of paid annual leave per calendar year."
    start, end, ratio = fuzzy_locate("Full time employees receive 25 day of paid annual leave", hay)  # type: ignore[misc]
    assert hay[start:end] == "Full-time employees receive 25 days of paid annual leave"
    assert 0.9 <= ratio < 1.0
    assert fuzzy_locate("Staff get a month of holiday every year", hay) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The fee is $2.5 million", [(2_500_000.0, "USD")]),
        ("15% of staff", [(15.0, "%")]),
        ("fifteen per cent", [(15.0, "%")]),
        ("five days", [(5.0, "day")]),
        ("twenty-five days", [(25.0, "day")]),  # was 20 "five" and 5 days: a faithful claim contradicted
        ("thirty one days", [(31.0, "day")]),
        ("1,000 employees", [(1000.0, "employ")]),
        ("3,5 kg", [(3.5, "kg")]),
        ("ISO27001 and A4 paper", []),
        ("within 24 hours", [(24.0, "hour")]),
        ("the 3rd floor", [(3.0, "floor")]),
        ("Step 2 shows how", [(2.0, "step")]),  # the noun before a reference's number: no "shows" counted
        ("Chapter 3 costs 15% more", [(3.0, "chapter"), (15.0, "%")]),
        ("Section 2 5% off", [(2.0, "section"), (5.0, "%")]),
        ("Room\u00a012 is free", [(12.0, "room")]),  # any space between the noun and its number
        ("subsection 9 applies", [(9.0, "apply")]),  # no reference noun: a word ending in one
        ("the price (GBP) is 65", [(65.0, "GBP")]),  # a table column's currency
        ("see page 12 percent", [(12.0, "%")]),  # a unit of measure after it still wins
        ("GBP 49 or Eur 5", [(49.0, "GBP"), (5.0, "EUR")]),
        ("\u017fix days", [(6.0, "day")]),  # the long s matches "six" case-insensitively: it raised KeyError
        ("\u1042\u1040\u1041\u1048", [(2018.0, "")]),  # any script's digits
        ("founded in 1132", [(1132.0, "calendar year")]),  # a year of any century since 1000
        ("opened on 23 December 1888", [(23.0, "date"), (1888.0, "calendar year")]),  # a date's year
        ("opened on December 23, 1888", [(23.0, "date"), (1888.0, "calendar year")]),  # the month first
        ("one and a quarter kilometres", [(1.25, "kilometr")]),  # was one of nothing: 1.25 km contradicted
        ("two and three quarter hours", [(2.75, "hour")]),
        ("1 and a quarter of the beds", [(1.0, "")]),  # a share of something is no part of the number
        ("the Jan. 5 deadline", [(5.0, "date")]),  # the month first, a noun after
        ("you may 2 times", [(2.0, "tim")]),  # "may" no month
        ("drivers younger than twenty-one may hire", [(21.0, "age")]),  # an age compared: no 21 May
        ("drivers of twenty-five and older", [(25.0, "age")]),
        ("guests 18 years or older", [(18.0, "age")]),
        ("on twenty-one May", [(21.0, "date")]),
        ("the thirteenth of February 2025", [(13.0, "date"), (2025.0, "calendar year")]),  # a day of a month
        ("the 3rd of March", [(3.0, "date")]),
        ("five of March's games", [(5.0, "")]),
        ("13th of 20 runners", [(13.0, ""), (20.0, "runner")]),
        ("the number 12 bus", [(12.0, "number")]),  # a route, not 12 buses
        ("the 1904-1905 season", [(1904.0, "calendar year"), (1905.0, "calendar year")]),  # not 1905 seasons
        ("the 2023-24 season", [(2023.0, "calendar year"), (2024.0, "calendar year")]),
        ("The tower is 85 m tall", [(85.0, "metr")]),  # metres, not 85 million
        ("two million visitors", [(2_000_000.0, "visitor")]),  # a number in words takes its scale
        ("Revenue was $5m", [(5_000_000.0, "USD")]),
        # pence are hundredths of a pound: "50p" was 50 of a unit "p", "£50" as far as values went
        ("50p per colour page", [(0.5, "GBP")]),
        ("fifty pence", [(0.5, "GBP")]),
        # pounds and pence said out loud: "one pound fifty" was £1 and a bare 50 (a right answer was
        # contradicted: "the evidence says '£1.50' where the claim says 'one pound'")
        ("rises by one pound fifty a month", [(1.5, "GBP")]),
        ("twelve pounds and fifty pence", [(12.5, "GBP")]),
        ("three dollars and fifty cents", [(3.5, "USD")]),
        ("two pounds for 50 pages", [(2.0, "GBP"), (50.0, "pag")]),  # pages, not pence
        ("10-20p a page", [(0.1, "GBP"), (0.2, "GBP")]),
        ("records video at 1080p", [(1080.0, "p")]),  # a video's lines
        ("a 50 cents stamp", [(50.0, "cent")]),  # money of a currency the text does not name
        ("renewed twice online", [(2.0, "tim")]),  # two times, not two of "online"
        ("once you arrive", []),  # "as soon as"
        # an age group said as a noun: "four two-year-olds" was an age of four years, and "two-year-olds"
        # a duration of two years
        ("one to every four two-year-olds", [(1.0, ""), (4.0, "old"), (2.0, "age")]),
        ("ten twenty-minute slots", [(10.0, "slot"), (20.0, "minut")]),
        # a day of every month: "the 15th of the month" was 15 months, "the 5th of each month" nothing
        ("paid by the 15th of the month", [(15.0, "date")]),
        ("paid by the 5th of each month", [(5.0, "date")]),
        # who is "aged" so is of an age, either end of a range (a bare number was no value at all)
        ("people aged 60 and over", [(60.0, "age")]),
        ("children aged 5 to 15", [(5.0, "age"), (15.0, "age")]),
        ("cheese aged 12 months", [(12.0, "month")]),  # a time it was kept, not an age of twelve
        ("closes at 5.30pm", [(17.5, "time")]),  # a British time: was 5.3 of a unit "pm"
        ("between 10am and 12 noon", [(10.0, "time"), (12.0, "time")]),  # was 12 of a unit "noon"
        ("at 12 midnight", [(0.0, "time")]),
        ("costs 5.30", [(5.3, "")]),  # ... and without am or pm an amount
        # every item of a list takes the unit of its last: "20" of "20, 30 and 40 hours" was a bare number
        ("courses of 20, 30 and 40 hours", [(20.0, "hour"), (30.0, "hour"), (40.0, "hour")]),
        ("tickets of 20, 30 or 50p", [(0.2, "GBP"), (0.3, "GBP"), (0.5, "GBP")]),
    ],
)
def test_quantities(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(q.value, q.unit) for q in quantities(text)] == expected


def test_months_tell_the_month_from_the_verb() -> None:
    assert months("Days expire on 31 March. You may go.") == {3}
    assert months("Starts in May 2024, ends 1 Sept") == {5, 9}
    # a word of time before it makes it a month; the verb that opens a question is none
    assert months("The terminal is closed in May.") == {5}
    assert months("May I bring a guest? Guests may stay.") == set()
    # nor after a number: "16 may" is an age and a verb (it was read as the 16th of May)
    assert [q.unit for q in quantities("Guests under 16 may use the pool.")] == [""]
    assert [q.unit for q in quantities("The museum opened on 16 May 1998.")] == ["date", "calendar year"]


def test_a_range_of_months_holds_the_months_between_its_ends() -> None:
    assert month_ranges("Frozen from December to March; open June-August.") == [(12, 3), (6, 8)]
    assert months_inside([(12, 3), (6, 8)]) == {1, 2, 7}
    assert month_ranges("Closed between June and August") == [(6, 8)]
    # "Mar" ending a range is a month, not the verb (a season's column: "Low season (Nov-Mar)")
    assert month_ranges("Low season (Nov-Mar)") == [(11, 3)]
    # months of two years, and two months that make no range
    assert month_ranges("Shot from September 1994 to August 1995, released in May and June") == []


def test_units_of_speed_and_pounds_by_what_they_weigh() -> None:
    speeds = [q.measure for q in quantities("40 km/h, 25 mph, 60 miles per hour")]
    assert [(measure, round(km_per_hour)) for measure, km_per_hour in speeds] == [
        ("speed", n) for n in (40, 40, 97)
    ]
    assert quantities("The bag weighs 5 pounds")[0].unit == "lb"
    assert quantities("The bag costs 5 pounds")[0].unit == "GBP"


@pytest.mark.parametrize(
    "text",
    [
        "Bring no more than 3 bags.",
        "Submit the form no later than Friday.",
        "The deposit is not less than £200.",
        "George weighs not under 70 kg.",
        "Bags must not exceed 8 kg.",
    ],
)
def test_the_no_or_not_of_a_bound_is_no_negation(text: str) -> None:
    assert negation_count(text) == 0 and not negations(text)


def test_a_not_that_reaches_a_bound_negates_no_word() -> None:
    # "do not take more than 4" is "take at most 4": the bound is the value's (rrag.text.values)
    assert not negations("Do not take more than four tablets in 24 hours.")


@pytest.mark.parametrize(
    "text", ["There is no room at the inn without a fireplace.", "You cannot board without a ticket."]
)
def test_a_negation_and_a_without_in_its_clause_cancel_out(text: str) -> None:
    assert negation_count(text) == 0 and not negations(text)


def test_a_without_of_its_own_or_of_another_clause_still_denies() -> None:
    assert [sorted(n.terms) for n in negations("He left without paying.")] == [["pay"]]
    assert negation_count("The dog did not bark, but it left without a sound.") == 2


def test_a_hyphened_free_denies_the_word_before_it() -> None:
    text = "Treatment over £500 can be paid in ten instalments, interest-free."
    assert [sorted(n.terms) for n in negations(text)] == [["interest"]] and negation_count(text) == 1
    assert "interest" not in plain_words(text)
    assert not negations("Parking is free for residents.")  # free of a charge, said of the parking
    # a "not" before the compound denies the clause, not the compound's word; the compound denies no
    # clause: "The café serves dairy-free desserts" denies nothing it serves
    assert [sorted(n.terms) for n in negations("The café does not serve dairy-free desserts.")] == [
        ["fre", "serv"],
        ["dairy"],
    ]
    assert not denies("The café serves dairy-free desserts.")


def test_a_denial_is_still_a_denial() -> None:
    assert negation_count("The shop no longer sells bread.") == 1
    assert [sorted(n.terms) for n in negations("Visitors may not bring food.")] == [["bring", "food"]]
    assert negations("The courier does not deliver more parcels than vans.")  # no number: no bound


@pytest.mark.parametrize(
    ("text", "shares"),
    [
        ("Two thirds of the budget goes to salaries.", [2 / 3]),
        ("A quarter of the tickets are sold.", [0.25]),
        ("Half of the staff left in the first half of the year.", [0.5]),
        ("The third floor is closed.", []),  # an ordinal
        ("A third visit is free.", []),
        ("The tour takes an hour and a half.", []),
        ("Rest the joint for a quarter of an hour.", []),
    ],
)
def test_a_fraction_is_a_share(text: str, shares: list[float]) -> None:
    found = [q.value for q in quantities(text) if q.unit == "fraction"]
    assert found == pytest.approx(shares)


def test_words_stems_and_negation() -> None:
    assert content_words("Employees don't receive the required 25 days of leave") == (
        "employ",
        "receiv",
        "requir",
        "25",
        "day",
        "leav",
    )
    assert stem("requires") == stem("required") == stem("require")
    assert stem("applied") == stem("applies") == stem("apply")  # "-ied" is "-y"
    # a 4-letter singular in "e" is its plural's word
    for singular in ("fare", "rate", "time", "take", "dose", "date"):
        assert stem(singular) == stem(singular + "s"), singular
    in_words, in_digits = content_words("two eggs, six weeks"), content_words("2 eggs, 6 weeks")
    assert in_words == in_digits == ("2", "egg", "6", "week")
    assert content_words("one of them") == ("one",)  # also a pronoun: left a word
    assert negation_count("Employees don't get no leave") == 2
    assert negation_count("Employees get leave") == 0


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        # an elided "but not X" reads the clause before it, past its comma
        ("It connects over Wi-Fi and USB, but not Bluetooth.", {"connect", "wi", "fi", "usb", "bluetooth"}),
        (" but not the children.", {"children"}),  # nothing before it: its own words
    ],
)
def test_an_elided_negation_reads_the_clause_before_it(text: str, clause: set[str]) -> None:
    (negation,) = negations(text)
    assert negation.elided and negation.clause == clause


def test_a_whole_number_and_a_half_is_one_value_of_its_unit():
    for text, value, unit in [
        ("The parcel weighs six and a half kilograms.", 6.5, "kilogram"),
        ("The drive takes one and a half hours.", 1.5, "hour"),
        ("It lasts 2 and a half days.", 2.5, "day"),
    ]:
        (found,) = quantities(text)
        assert (found.value, found.unit) == (value, unit)
        assert found.written(text).endswith(unit + "s")


@pytest.mark.parametrize(
    ("sentence", "money"),
    [
        ("Printing costs 10p per page.", True),
        ("A stamp costs 73 cents.", True),
        ("It is 10 CHF.", True),
        ("The fee is 30.", True),  # under a money header that names no currency
        ("For Deep clean, the price (GBP) is 25 and the duration is 4 hours.", True),
        ("The parcel weighs 5 pounds.", False),  # a mass
        ("Costs are 5% higher.", False),
        ("Parents get 16 weeks of leave.", False),
        # a difference between two prices is the price of neither (it led the answer to "What do
        # automatic lessons cost?" over the £46 an automatic lesson costs)
        ("Automatic lessons cost £4 more per hour than manual ones.", False),
    ],
)
def test_gives_money(sentence: str, money: bool) -> None:
    assert gives_money(sentence) is money
    assert gives_money(sentence, differences=True) is (money or "more per hour" in sentence)


def test_a_thing_named_with_a_measure_is_no_kind_of_it() -> None:
    # "Our products come with a 2-year warranty." was dropped from the answer to "How long is the
    # warranty on products?" as about a kind of warranty, and the two sources' disagreement went unseen
    warranty, office = set(content_words("warranty")), set(content_words("office"))
    assert not named_as_a_kind("Our products come with a 2-year warranty.", warranty, set())
    assert named_as_a_kind("We do not charge for paying at a post office.", office, office)
