"""Numbers with their units: counts, money, percentages, durations, times and dates, read from text."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from string import ascii_letters
from typing import NamedTuple

from text_to_num import text2num

from rrag.lang.en.dates import (
    BEFORE_A_MONTH,
    MONTH_ALTERNATION,
    MONTH_NAMES,
    MONTH_RANGE_JOIN,
    MONTHS,
    OF_EVERY_MONTH,
    VERB_MONTHS,
)
from rrag.lang.en.function_words import STOPWORDS
from rrag.lang.en.numerals import (
    AGE_COMPARED_AFTER,
    AGE_COMPARED_BEFORE,
    AGED_BEFORE,
    AND_A_PART,
    CARDINALS,
    COMPOUND_NUMBER,
    DENOMINATORS,
    ELLIPSIS,
    ELLIPSIS_AFTER,
    LIST_COMMA,
    LIST_LAST,
    NAMED_TWELVE,
    NO_SHARE_BEFORE,
    ONE,
    ORDINAL_SUFFIXES,
    ORDINAL_UNITS,
    PARTITIVE,
    PARTS,
    RANGE_JOIN,
    SCALE_WORD,
    SCALES,
    TENS,
    UNITS,
    WORD_NUMBERS,
)
from rrag.lang.en.numerals import FRACTION as FRACTION_WORDS
from rrag.lang.en.table_rows import currency_column
from rrag.lang.en.units import (
    A_SPAN,
    AGE_UNITS,
    BASE_UNITS,
    CENTS,
    CURRENCIES,
    CURRENCY_CODES,
    CURRENCY_CODES_WRITTEN,
    CURRENCY_SYMBOLS,
    DATA_RATE_WORDS,
    DAYS_PER,
    DEGREES,
    EVERY_UNIT,
    HUNDREDTHS,
    METRES_AFTER,
    NO_SPAN_BEFORE,
    PER_HOUR,
    PERCENT,
    REFERENCE_NOUNS,
    SPAN_AFTER,
    SPAN_BEFORE,
    TIMES_PER,
    UNIT_QUALIFIERS,
    VIDEO_LINES,
    WEIGHED,
)
from rrag.text.caches import per_text
from rrag.text.words import content_words, stem, word_spans, words


class Quantity(NamedTuple):
    """A number mentioned in a text: its value, what it counts (`unit`), and where it is: `start`,
    `end` around the number (with a currency before it), `unit_end` after the words of its unit."""

    value: float
    unit: str
    start: int
    end: int
    unit_end: int = -1

    def written(self, text: str) -> str:
        """How `text` writes it, unit included ("10 working days", "GBP 49")."""
        return text[self.start : max(self.end, self.unit_end)]

    @property
    def measure(self) -> tuple[str, float]:
        """(what it measures, its value in that measure's base unit): durations in days, so that
        "24 months" and "2 years" state the same amount; ("", value) when the unit is unknown."""
        if self.unit in _IN_BASE_UNIT:
            measure, factor = _IN_BASE_UNIT[self.unit]
            return measure, self.value * factor
        return self.unit, self.value


_IN_BASE_UNIT = {
    unit: (measure, factor) for measure, units in BASE_UNITS.items() for unit, factor in units.items()
}
CONVERTED_MEASURES = frozenset(BASE_UNITS)  # compared with a tolerance across units (converted_tolerance)


def _starting_with(first_characters: str, pattern: str) -> re.Pattern[str]:
    """`pattern`, case-insensitive, tried only where the text has a character it can start with
    (`first_characters`: the body of a character class): the same matches, two to three times faster,
    as the regex engine skips every other position at once."""
    return re.compile(f"(?=[{first_characters}])" + pattern, re.IGNORECASE)


def _initials(words: Iterable[str]) -> str:
    return re.escape("".join(sorted({word[0] for word in words})))


_NUMBER = _starting_with(
    rf"{CURRENCY_SYMBOLS}\d{_initials(CURRENCY_CODES_WRITTEN)}",
    rf"(?:(?P<cur>[{CURRENCY_SYMBOLS}]|\b(?:{'|'.join(CURRENCY_CODES_WRITTEN)})\b)\s?)?(?P<num>\d+(?:[.,]\d+)*)"
    rf"(?:{'|'.join(ORDINAL_SUFFIXES)})?(?:\s?(?P<scale>{'|'.join(SCALES)})\b)?",
)
# "9:30", "17:00", "5 p.m.", "9am": a time of day, in hours since midnight.
_TIME = _starting_with(
    r"\d", r"\b(?P<h>\d{1,2})(?:(?P<sep>[:.])(?P<m>\d{2}))?(?:\s?(?P<ampm>[ap](?:\.m\.|\.?m\b)))?"
)
_UNITS_AND_ORDINALS = "|".join(UNITS) + "|" + "|".join(ORDINAL_UNITS)
_NUMBER_WORD = _starting_with(
    _initials(WORD_NUMBERS),
    rf"\b(?:(?:{'|'.join(TENS)})[-\s](?:{_UNITS_AND_ORDINALS})"  # "twenty-five" is one number
    r"|" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r")\b",
)
# Numbers said in several words and fractions: the language data's patterns, tried only where a word
# they can start with could.
_COMPOUND_NUMBER = _starting_with(_initials(CARDINALS), COMPOUND_NUMBER.pattern)
_FRACTION_WORDS = _starting_with(_initials((*ONE[1:], *UNITS, *DENOMINATORS)), FRACTION_WORDS.pattern)
_A_SINGLE = re.compile(r"a\s(?=single\s)", re.IGNORECASE)  # "a single dose" is one dose
_UNIT_WORD = re.compile(r"\s*(?:-\s*)?(\u00b0\s?)?([^\W\d_]+)")
CALENDAR_YEAR = "calendar year"
_YEAR = re.compile(r"1[0-9]\d\d|20\d\d")  # a four-digit number with no unit: a year ("in 1066", "1888")
TIME_OF_DAY = "time"  # the unit of a time of day ("17:00", "5 pm"), its value in hours
_AGE = re.compile(r"[-\s]olds?\b", re.IGNORECASE)
_COUNTED_AFTER = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+?(?:-(olds?)\b|[ \t]+([^\W\d_]+))", re.IGNORECASE)
FRACTION = "fraction"  # the unit of a fraction of something, its value the share ("a quarter": 0.25)
# Times of day said in words: "from 10:30 am to midnight".
_NAMED_TIME = _starting_with("mn", r"\b(?:(midnight)|noon|midday)\b")
# Nouns that number what follows them: "Section 4" and "Section 7" are two different sections.
# Both end where a number starts and are a few words long: searched for in the text just before it.
LOOKBACK = 80
_REFERENCE = re.compile(rf"\b({'|'.join(REFERENCE_NOUNS)})\s+$", re.IGNORECASE)
_REFERENCE_NOUN_SET = frozenset(REFERENCE_NOUNS)
_MONTH = MONTH_ALTERNATION
_OF_A_MONTH = re.compile(rf"\s+of\s+({_MONTH})\b(?!['\u2019]s)", re.IGNORECASE)  # not "of March's games"
_MONTH_BEFORE = re.compile(rf"\b({_MONTH})\.?\s+$", re.IGNORECASE)


def _reference_before(text: str, start: int, end: int) -> re.Match[str] | None:
    """`_REFERENCE` in text[start:end], searched only where the word before the spaces is one of its
    nouns (the search tries every position; most numbers follow no such noun)."""
    before = text[start:end]
    if not before[-1:].isspace():
        return None
    last = (before.split() or [""])[-1]
    noun = last[len(last.rstrip(ascii_letters)) :].lower()
    if last.isascii() and noun not in _REFERENCE_NOUN_SET:
        return None
    return _REFERENCE.search(text, start, end)


@per_text(maxsize=8192)  # the rules and the conflict finder read each retrieved sentence claim after claim
def quantities(text: str) -> tuple[Quantity, ...]:
    """Numbers (digits, "five", "$2.5 million", "GBP 49", "15%", "9:30") with the unit they count,
    in text order. The low end of a range takes the unit of the high end ("3-5 days")."""
    found: list[Quantity] = []
    times = [q for q in (_time_at(m) for m in _TIME.finditer(text)) if q is not None]
    times += [
        Quantity(0.0 if m[1] else 12.0, TIME_OF_DAY, m.start(), m.end()) for m in _NAMED_TIME.finditer(text)
    ]
    for m in _NUMBER.finditer(text):
        if m.start() > 0 and (text[m.start() - 1].isalpha() or text[m.start() - 1] == "_"):
            continue  # part of an identifier such as "A4" or "ISO27001"
        if any(t.start <= m.start("num") < t.end for t in times):
            continue
        value = _parse_number(m.group("num"))
        if value is None:
            continue
        unit, unit_end = _unit_after(text, m.end())
        if unit in HUNDREDTHS and m.group("num") not in VIDEO_LINES:
            unit, value = HUNDREDTHS[unit], value / 100
        if value == 12 and unit in NAMED_TWELVE:  # "12 noon", "12 midnight": times of day
            unit, value = TIME_OF_DAY, NAMED_TWELVE[unit]
        if m.group("scale") == "m" and not m.group("cur") and METRES_AFTER.match(text, m.end()):
            unit, unit_end = stem("metres"), m.end()  # "85 m tall" is metres, "$5m" a million
        else:
            value *= SCALES.get((m.group("scale") or "").lower(), 1.0)
        if m.group("cur"):
            unit, unit_end = CURRENCIES[m.group("cur").lower()], -1
        before = max(0, m.start() - LOOKBACK)
        header = None
        if not unit and not m.group("cur") and text.find(")", before, m.start()) != -1:
            header = currency_column(text, before, m.start())
        if header:  # "the price (GBP) is 65": a table column's currency
            unit = CURRENCIES[header.lower()]
        reference = None if header or m.group("cur") else _reference_before(text, before, m.start())
        month = None if header or m.group("cur") or _is_measure(unit) else _month_before(text, m.start())
        if month is not None and value.is_integer() and 1 <= value <= 31:
            unit, unit_end, start = "date", -1, month  # "February 13", "the May 2 deadline": a date's day
        elif reference and not _is_measure(unit):
            # "Section 4", "step 3": the noun before the number is what it numbers, whatever word
            # follows ("Step 2 shows ..." counts no shows); not "table 2 rows" of a measure ("2 %").
            unit, unit_end, start = stem(reference.group(1).lower()), -1, reference.start(1)
        elif not unit and _YEAR.fullmatch(m.group("num")):
            unit, start = CALENDAR_YEAR, m.start()  # "1 January 2026", "in 2025", "23 December 1888"
        else:
            start = m.start()
        found.append(Quantity(value, unit, start, m.end(), unit_end))
    fractions = _fractions(text)
    compounds = list(_compound_numbers(text))
    found.extend(compounds)
    for m in _NUMBER_WORD.finditer(text):
        if any(f.start <= m.start() < f.end for f in (*fractions, *compounds)):
            continue
        word = m.group(0).casefold()  # "ſix" matches case-insensitively and is "six"
        if word == "single" and not _A_SINGLE.match(text, max(0, m.start() - 2)):
            continue  # "single rooms", "single-use" count nothing
        value = sum(WORD_NUMBERS[part] for part in re.split(r"[-\s]", word))
        scaled = SCALE_WORD.match(text, m.end())  # "two million visitors" counts visitors
        end = scaled.end() if scaled else m.end()
        # "one of the best" counts nothing, "half of the rooms" is a share
        unit, unit_end = _unit_after(text, end, partitive=word not in ("one", "half"))
        if word == "twice" or (word == "once" and TIMES_PER.match(text, m.end())):
            # "once a day" is one time a day, as "three times a day" is three; the word is its own
            # unit, and what follows says what it is per ("twice daily": per day, not its unit) or
            # how ("renewed twice online": two times, not two of "online"). A bare "once" is mostly
            # "as soon as" ("once you arrive").
            unit, unit_end = stem("times"), m.end()
        if word in ("once", "half") and not unit:
            continue
        if unit in HUNDREDTHS:
            unit, value = HUNDREDTHS[unit], value / 100
        value *= SCALES[scaled.group(1).lower()] if scaled else 1
        found.append(Quantity(float(value), unit, m.start(), end, unit_end))
    spans = [
        Quantity(1.0, stem(m.group("unit").lower()), m.start(), m.start("unit"), m.end("unit"))
        for m in A_SPAN.finditer(text)
        if _is_span(text, m)
    ]
    if not (found or times or fractions or spans):
        spans = [
            Quantity(1.0, stem(m.group("unit").lower()), m.start(), m.start("unit"), m.end("unit"))
            for m in EVERY_UNIT.finditer(text)
        ]
    found = _and_a_part(text, sorted(found + times + fractions + spans, key=lambda q: q.start))
    found = _and_hundredths(text, found)
    found = [_compared_age(text, q) for q in found]
    for i, (low, high) in enumerate(zip(found, found[1:])):
        if not RANGE_JOIN.fullmatch(text, low.end, high.start):
            continue
        if not low.unit and high.unit:
            found[i] = _with_unit_of(text, low, high)
        elif low.unit == CALENDAR_YEAR and high.unit != CALENDAR_YEAR:
            found[i + 1] = _year_after(text, low, high)
    for i, last in enumerate(list_lasts(text, found)):
        if not found[i].unit and last is not None and found[last].unit:
            found[i] = _with_unit_of(text, found[i], found[last])
    for i, (first, then) in enumerate(zip(found, found[1:])):
        if (
            first.unit
            and not then.unit
            and ELLIPSIS.fullmatch(text, max(first.end, first.unit_end), then.start)
            and ELLIPSIS_AFTER.match(text, then.end)
        ):
            found[i + 1] = then._replace(unit=first.unit)
    return tuple(found)


def _with_unit_of(text: str, bare: Quantity, given: Quantity) -> Quantity:
    """`bare` with the unit of `given`, written after it ("3 to 5 days", "20p to 50p": 0.2 to 0.5 GBP)."""
    hundredths = given.unit_end > 0 and stem(text[given.end : given.unit_end].strip().lower()) in HUNDREDTHS
    return bare._replace(unit=given.unit, value=bare.value / 100 if hundredths else bare.value)


def list_lasts(text: str, found: Sequence[Quantity]) -> list[int | None]:
    """For each of `found`, where it is an item before the last of a list of three or more numbers ("20"
    and "30" of "20, 30 and 40 hours": commas between the items, "and" or "or" before the last), the
    index of that last; else None. One pass over the joins."""
    joins = [_list_join(text, a, b) for a, b in zip(found, found[1:])]
    lasts: list[int | None] = [None] * len(found)
    first = 0
    for i, join in enumerate(joins):
        if join == "and" and i - first >= 1:  # two items or more before the last
            lasts[first : i + 1] = [i + 1] * (i + 1 - first)
        if join != ",":
            first = i + 1
    return lasts


def _list_join(text: str, a: Quantity, b: Quantity) -> str:
    """How a list joins `a` to the number after it: "," between items, "and" before its last ("or"
    too), "" for no list's join."""
    if LIST_COMMA.fullmatch(text, a.end, b.start):
        return ","
    return "and" if LIST_LAST.fullmatch(text, a.end, b.start) else ""


def _is_span(text: str, m: re.Match[str]) -> bool:
    """Whether the "a week" of `m` is a span of one week ("within a week", "a week after the operation";
    not "once a week", "a quarter of an hour")."""
    before = text[max(0, m.start() - LOOKBACK) : m.start()]
    return bool(SPAN_BEFORE.search(before)) or (
        bool(SPAN_AFTER.match(text, m.end())) and not NO_SPAN_BEFORE.search(before)
    )


def _compound_numbers(text: str) -> Iterator[Quantity]:
    """Numbers said in several words ("three hundred millilitres", "one hundred and twenty minutes"),
    each one value of the unit after it."""
    for m in _COMPOUND_NUMBER.finditer(text):
        try:
            value = text2num(m.group(0).lower().replace("-", " "), "en")
        except ValueError:  # not one number ("one two three")
            continue
        unit, unit_end = _unit_after(text, m.end())
        yield Quantity(float(value), unit, m.start(), m.end(), unit_end)


def _and_a_part(text: str, found: list[Quantity]) -> list[Quantity]:
    """ "six and a half kilograms" is 6.5 kilograms and "one and a quarter kilometres" 1.25 kilometres,
    not six or one of nothing and a part of a kilogram or kilometre."""
    out: list[Quantity] = []
    for q in found:
        if out and q.start < max(out[-1].end, out[-1].unit_end):
            continue  # inside the quantity just joined ("half" of "and a half kilograms")
        part = AND_A_PART.match(text, q.end) if not q.unit else None
        unit, unit_end = _unit_after(text, part.end(), partitive=False) if part else ("", -1)
        if part and unit:
            q = Quantity(q.value + PARTS[(part["part"] or "").lower()], unit, q.start, part.end(), unit_end)
        out.append(q)
    return out


def _and_hundredths(text: str, found: list[Quantity]) -> list[Quantity]:
    """Whole units of money said in words, then their hundredths: "one pound fifty" is £1.50, "three
    dollars and fifty cents" $3.50 (not £1 and a bare 50)."""
    out: list[Quantity] = []
    for q in found:
        whole = out[-1] if out else None
        if (
            whole is not None
            and whole.unit in CURRENCY_CODES
            and whole.unit_end > whole.end  # the currency's word after the number, not "£12"
            and whole.value.is_integer()
            and _HUNDREDTHS_JOIN.fullmatch(text, whole.unit_end, q.start)
            and (part := _hundredths(q, whole.unit)) is not None
        ):
            out[-1] = whole._replace(value=whole.value + part, end=max(q.end, q.unit_end))
            continue
        out.append(q)
    return out


def _hundredths(q: Quantity, currency: str) -> float | None:
    """What `q` adds to whole units of `currency`: a bare 1 to 99 ("fifty"), pence, or cents."""
    if not q.unit and q.value.is_integer() and 1 <= q.value <= 99:
        return q.value / 100
    if q.unit == currency and q.value < 1:  # "fifty pence", read as £0.50
        return q.value
    return q.value / 100 if q.unit == CENTS and q.value < 100 else None


_HUNDREDTHS_JOIN = re.compile(r"\s+(?:and\s+)?")


def _year_after(text: str, low: Quantity, high: Quantity) -> Quantity:
    """The second year of a span of years ("the 1904-1905 season", "2023-24"), not a count of what
    follows it (1905 seasons); `high` as read where it is no year."""
    written = text[high.start : high.end]
    if _YEAR.fullmatch(written):
        return Quantity(high.value, CALENDAR_YEAR, high.start, high.end)
    joined = text[low.end : high.start] in ("-", "\u2013")  # "2023-24", never "2001 and 15 cars"
    if joined and len(written) == 2 and written.isdigit() and int(written) > low.value % 100:
        return Quantity(low.value - low.value % 100 + high.value, CALENDAR_YEAR, high.start, high.end)
    return high


def _compared_age(text: str, q: Quantity) -> Quantity:
    """`q` as an age where the text compares ages by it ("younger than twenty-one", "21 years or older",
    "25 and older") or says who is aged so ("aged 60 and over"), whatever word follows it
    ("twenty-one may hire" is no date)."""
    if q.unit not in ("", "date", *AGE_UNITS):
        return q
    before = AGE_COMPARED_BEFORE.search(text, max(0, q.start - LOOKBACK), q.start) or (
        not q.unit and AGED_BEFORE.search(text, max(0, q.start - LOOKBACK), q.start)  # not "aged 12 months"
    )
    after = AGE_COMPARED_AFTER.match(text, max(q.end, q.unit_end))
    if not (before or after):
        return q
    return q._replace(unit="age", unit_end=q.unit_end if q.unit in AGE_UNITS else -1)


def _fractions(text: str) -> list[Quantity]:
    """The fractions of `text`: a plural one ("two thirds"), or a singular one of something ("a
    quarter of the tickets", "half of the seats")."""
    out = []
    for m in _FRACTION_WORDS.finditer(text):
        count, denominator = (m.group("n") or "").lower(), m.group("d").lower()
        if not (count and denominator.endswith("s")) and not (m.group("of") and count in ONE):
            continue
        if not count and (denominator != "half" or NO_SHARE_BEFORE.search(text, 0, m.start())):
            continue  # "third of the budget" without its "a" is an ordinal's; "the first half" a period
        share = CARDINALS.get(count, 1) / DENOMINATORS[denominator.rstrip("s")]
        out.append(Quantity(share, FRACTION, m.start(), m.end("d")))
    return out


def is_partitive(text: str, q: Quantity) -> bool:
    """Whether `q` counts part of something ("three of the attackers"), which a claim may name otherwise."""
    return bool(q.unit) and PARTITIVE.match(text, q.end) is not None


def labelled_numbers(text: str) -> dict[str, set[float]]:
    """Numbers that name an item rather than count one, by the noun before them: "step 3",
    "department 17", "room 12" -> {"step": {3}, "department": {17}, "room": {12}} (nouns stemmed).
    Months ("March 2026") and amounts are left out."""
    labelled: dict[str, set[float]] = {}
    spans = word_spans(text)
    for n in quantities(text):
        if n.unit in CURRENCY_CODES or n.unit == "%":
            continue
        if not text[n.start].isdigit():  # "step 3" read whole, its noun as its unit; or "$5", "five"
            written = words(text[n.start : n.end])
            if n.unit and written and stem(written[0]) == n.unit:
                labelled.setdefault(n.unit, set()).add(n.value)
            continue
        before = [w for w in spans if w.end <= n.start]
        if not before or text[before[-1].end : n.start].strip() or before[-1].text.lower() in MONTH_NAMES:
            continue
        label = content_words(before[-1].text)
        if label and not label[0].isdigit():
            labelled.setdefault(label[0], set()).add(n.value)
    return labelled


_MEASURES = frozenset({"%", "date", "age"})


def _is_measure(unit: str) -> bool:
    """Whether `unit` is a unit of measure (a percentage, a currency, a duration, degrees, a date or an
    age), not a word that happens to follow a number."""
    return unit in _MEASURES or unit in DAYS_PER or unit in CURRENCY_CODES or unit.startswith("\u00b0")


def _time_at(m: re.Match[str]) -> Quantity | None:
    if not (m.group("m") or m.group("ampm")) or (m.group("sep") == "." and not m.group("ampm")):
        return None  # "5.30" alone is an amount; "5.30pm" a time (British usage)
    hours = int(m.group("h")) + int(m.group("m") or 0) / 60
    ampm = (m.group("ampm") or "").lower()
    if ampm.startswith("p") and hours < 12:
        hours += 12
    elif ampm.startswith("a") and hours >= 12:
        hours -= 12
    return Quantity(hours, TIME_OF_DAY, m.start(), m.end()) if hours < 24 else None


def _parse_number(raw: str) -> float | None:
    # "1,000" and "1,000.5" are thousands separators; "3,5" (one comma, not three digits after) a decimal.
    if "," in raw and "." not in raw and not re.fullmatch(r"\d{1,3}(,\d{3})+", raw):
        raw = raw.replace(",", ".")
    try:
        return float(raw.replace(",", ""))
    except ValueError:
        return None


def _month_before(text: str, pos: int) -> int | None:
    """Where the month name written just before `pos` starts ("February 13", "Feb. 13"), if one is and
    is capitalised ("May 2", not "may 2")."""
    m = _MONTH_BEFORE.search(text, max(0, pos - 12), pos)
    return m.start(1) if m and m.group(1)[0].isupper() else None


def _unit_after(text: str, pos: int, partitive: bool = True) -> tuple[str, int]:
    """What the number ending at `pos` counts (stemmed), and where the unit's words end; with
    `partitive`, what it counts of ("3 of the rooms")."""
    percent = PERCENT.match(text, pos)
    if percent:
        return "%", percent.end()
    of_month = _OF_A_MONTH.match(text, pos)
    if of_month and of_month.group(1)[0].isupper():
        return "date", of_month.end()  # "the 13th of February", "the thirteenth of February"
    of_every = OF_EVERY_MONTH.match(text, pos)
    if of_every:
        return "date", of_every.end()  # "the 5th of each month": a day of every month, no count of months
    of = PARTITIVE.match(text, pos) if partitive else None
    if of:
        counted = _UNIT_WORD.match(text, of.end())
        if counted is None or counted.group(1) or counted.group(2).lower() in WORD_NUMBERS:
            return "", -1
        return _unit_after(text, of.end(), partitive=False)
    m = _UNIT_WORD.match(text, pos)
    if m and m.group(2).lower() in UNIT_QUALIFIERS:
        m = _UNIT_WORD.match(text, m.end()) or m
    if m is not None and m.group(2).lower() not in STOPWORDS and not is_unit(m.group(2)):
        if m.group(2).lower() in CARDINALS:
            # "four two-year-olds", "ten twenty-minute slots": the next number has the unit, and this
            # one counts what the compound describes
            counted = _COUNTED_AFTER.match(text, m.start(2))
            return (stem(counted.group(1) or counted.group(2)), -1) if counted else ("", -1)
        after = _UNIT_WORD.match(text, m.end())
        if after and not after.group(1) and is_unit(after.group(2)):
            m = after  # a word before a unit of measure says which: "5 unused days" counts days
    if not m:
        return "", -1
    word = m.group(2).lower()
    if word in MONTH_NAMES and not (word in VERB_MONTHS and m.group(2)[0].islower()):
        return "date", m.end()  # "30 April": the day of a date; not "guests under 16 may use the pool"
    if word in STOPWORDS:
        return "", -1
    if m.group(1):
        return "\u00b0" + word, m.end()  # "8 °C"
    if word in DATA_RATE_WORDS:
        return DATA_RATE_WORDS[word], m.end()
    scale = DEGREES.match(text, m.end()) if stem(word) == stem("degrees") else None
    if scale:  # "230 degrees Celsius" is "230 °C"
        return "\u00b0" + scale.group(1)[0].lower(), scale.end()
    age = _AGE.match(text, m.end())
    if age and stem(word) in AGE_UNITS:
        return "age", age.end()  # "a 34-year-old teacher" is no duration
    unit = stem(word)
    hourly = PER_HOUR.match(text, m.end()) if unit in BASE_UNITS["length"] else None
    if hourly:
        return f"{unit}/h", hourly.end()
    if unit == "pound" and WEIGHED.search(text, max(0, pos - LOOKBACK), pos):
        return "lb", m.end()  # "weighs 5 pounds" is a mass, "costs 5 pounds" money
    return CURRENCIES.get(unit, unit), m.end()


def is_unit(word: str) -> bool:
    """Whether `word` is a unit of a measure ("days", "kg", "pounds")."""
    unit = stem(word.lower())
    return bool(_kind(CURRENCIES.get(unit, unit)))


def same_amount(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities state the same amount: the same value, or, in the same measure, the
    same value in its base unit ("24 months" and "2 years"); never in two currencies or two measures
    ("5 pounds" is no "5 euros", "40 km/h" no "40 mph")."""
    if other_measures(a, b):
        return False
    if {a.unit, b.unit} == {FRACTION, "%"}:  # "a third" is "33%", rounded
        share, percent = (a.value, b.value) if a.unit == FRACTION else (b.value, a.value)
        return abs(share * 100 - percent) < 1
    (kind_a, base_a), (kind_b, base_b) = a.measure, b.measure
    if kind_a and kind_a == kind_b and kind_a != a.unit:
        return math.isclose(base_a, base_b, rel_tol=converted_tolerance(a.unit, b.unit))
    return math.isclose(a.value, b.value, rel_tol=1e-9)


def same_temperature(a: Quantity, b: Quantity, written_a: str, written_b: str) -> bool:
    """Whether `a` in °F and `b` in °C (or the other way round) are one temperature, converted and
    rounded to the less precise of the two as written ("about 218 °C" for "425 °F", 218.3 °C; "38 °C"
    for "100.4 °F"; not "180 °C" for "350 °F", 176.7 °C)."""
    if {a.unit, b.unit} != {"\u00b0f", "\u00b0c"}:
        return False
    (f, written_f), (c, written_c) = sorted(
        [(a, written_a), (b, written_b)], key=lambda q: q[0].unit, reverse=True
    )
    half_unit = max(_half_unit(written_f) * 5 / 9, _half_unit(written_c))
    return abs((f.value - 32) * 5 / 9 - c.value) <= half_unit + 1e-9


def _half_unit(number: str) -> float:
    """Half of the last written digit's unit: 0.5 for "218" or "two hundred", 0.05 for "38.5"."""
    decimals = number.split(".", 1)[1] if "." in number else ""
    return 0.5 * 10 ** -len(decimals.rstrip(" \u00b0FCfc"))


_MONEY = "money"


def converted_tolerance(unit_a: str, unit_b: str) -> float:
    """How far two amounts of a measure may differ and still be one: an amount converted to another
    unit is rounded ("554 ft", "169 m"); in one unit, however written ("ft", "feet"), none."""
    same_unit = _IN_BASE_UNIT.get(unit_a, ("", 1.0))[1] == _IN_BASE_UNIT.get(unit_b, ("", 1.0))[1]
    return 1e-9 if same_unit else 0.02


def _kind(unit: str) -> str:
    """What a unit measures, where two units of it can be told apart: money, or a measure of
    `BASE_UNITS`; "" for a unit that counts a thing ("rooms")."""
    return _MONEY if unit in CURRENCY_CODES else _IN_BASE_UNIT.get(unit, ("", 0.0))[0]


def every_unit(text: str, q: Quantity) -> bool:
    """Whether `q` is "every" and a unit of time, no number written ("every day", said "daily" too)."""
    return bool(EVERY_UNIT.match(text, q.start))


def is_measured(q: Quantity) -> bool:
    """Whether `q` is an amount of a measure (a temperature, a share, money, a length, a weight, a
    time, a speed), not a count or an age."""
    return q.unit.startswith("\u00b0") or q.unit == "%" or bool(_kind(q.unit))


def other_measures(a: Quantity, b: Quantity) -> bool:
    """Whether `a` and `b` are amounts of two measures told apart by their units: two currencies, a
    mass and a length, a count of a thing and an amount of a measure ("24 docks" is no "24 hours");
    not a count of rooms and one of floors (a unit of a thing may be written otherwise: "rooms" and
    "study rooms")."""
    if (_counts_a_thing(a) and is_measured(b)) or (_counts_a_thing(b) and is_measured(a)):
        return True
    kind_a, kind_b = _kind(a.unit), _kind(b.unit)
    return bool(kind_a and kind_b) and (kind_a != kind_b or (kind_a == _MONEY and a.unit != b.unit))


# Units that count no thing though they measure nothing `_kind` knows: a year, a time of day, a share,
# an age, a date.
_NOT_COUNTS = frozenset({CALENDAR_YEAR, TIME_OF_DAY, FRACTION, *_MEASURES})


def _counts_a_thing(q: Quantity) -> bool:
    return bool(q.unit) and q.unit not in _NOT_COUNTS and not is_measured(q)


def months(text: str) -> set[int]:
    """Calendar months named in `text` (1-12); "may" only when it looks like a date."""
    return {month for month, _, _ in month_mentions(text)}


# What joins the two ends of a range of months: "from December to March", "June-August".
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
_YEAR_AFTER = re.compile(r"\s*\d{4}\b")


def month_ranges(text: str) -> list[tuple[int, int]]:
    """(first, last) of each range of months named in `text` ("from December to March": (12, 3);
    "between June and August"). Not one with a year ("September 1994 to August 1995"): its months
    are of two years, which the values compare."""
    found = []
    named = month_mentions(text)
    for (first, first_start, first_end), (last, last_start, last_end) in zip(named, named[1:]):
        joined = MONTH_RANGE_JOIN.fullmatch(text, first_end, last_start) or (
            _BETWEEN.search(text, 0, first_start) and re.fullmatch(r"\s+and\s+", text[first_end:last_start])
        )
        if joined and not _YEAR_AFTER.match(text, last_end):
            found.append((first, last))
    return found


def months_inside(ranges: Sequence[tuple[int, int]]) -> set[int]:
    """The months strictly between the ends of each range, over the turn of the year: January and
    February in (12, 3)."""
    inside = set()
    for first, last in ranges:
        month = first % 12 + 1
        while month != last and month != first:
            inside.add(month)
            month = month % 12 + 1
    return inside


def month_mentions(text: str) -> list[tuple[int, int, int]]:
    """(month 1-12, start, end) of each calendar month named in `text`, in text order."""
    found = []
    for m in re.finditer(r"\b([A-Za-z]{3,9})\b\.?", text):
        word = m.group(1)
        month = MONTHS.get(word.lower())
        if month is None:
            continue
        if word.lower() in VERB_MONTHS and not (word[0].isupper() and _a_date(text, m)):
            continue  # "may" the verb, "mar" the verb
        found.append((month, m.start(1), m.end(1)))
    return found


def _a_date(text: str, m: re.Match[str]) -> bool:
    """Whether "May" (or "Mar") at `m` is a month: a digit near it ("3 May"), or a word of time
    before it ("closed in May"), not the verb that opens a question ("May I ...")."""
    near_digit = re.search(r"\d", text[max(0, m.start() - 4) : m.end() + 6])
    return bool(
        near_digit
        or BEFORE_A_MONTH.search(text[max(0, m.start() - 8) : m.start()])
        or _AFTER_A_MONTH.search(text[max(0, m.start() - 16) : m.start()])  # "Nov-Mar"
    )


# The end of a range of months that opens with another: "Nov-Mar", "from October to May".
_AFTER_A_MONTH = re.compile(
    rf"\b(?:{MONTH_ALTERNATION})\.?{MONTH_RANGE_JOIN.pattern}$",
    re.IGNORECASE,
)
