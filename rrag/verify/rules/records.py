"""Yes/no facts and opening hours of structured records ("OutdoorSeating": false, "Monday":
"5:0-17:0") against what a claim says of them.

A record exported as JSON (a listing, a product sheet) states its facts as keys set to true or false;
a claim that says "offers outdoor seating" where the record says `"OutdoorSeating": false`, or "does
not take reservations" where it says `true`, states the opposite. The records are read from the
retrieved text as it is, a chunk of a record included (no whole-document parse): each `"Key": value`
with the keys of the objects around it ("BusinessParking": {"valet": false} is valet parking).
Opening hours ("hours": {"Monday": "5:0-17:0", ...}) are a time each day opens and closes at: a
claim about when it opens that gives a time no day opens or closes at ("from 5 pm to 7 pm") says
otherwise.

The same reading affirms: a sentence each of whose parts states facts the records give the same way
round ("offers outdoor seating and takeout" where both are `true`), and nothing else but the record's
own name and words any listing uses ("offers", "available", "options"), is stated by the records
(`record_support`), with the record's own `"OutdoorSeating": true` as its evidence. A judge trained
on prose cannot read that from JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rrag.lang.en.dates import (
    ABOUT_HOURS,
    CLOSED_ON,
    DAY_NAME,
    DAY_SPAN,
    EVERY_DAY,
    HOURS_VARY,
    HOURS_WORDS,
    WEEKDAYS,
)
from rrag.lang.en.function_words import COPULAS, STOPWORDS
from rrag.lang.en.negation import ABSENT, NEGATIVE_WORDS, NEGATORS
from rrag.lang.en.records import (
    KIND_WORDS,
    LISTING_WORDS,
    OTHER_SPELLINGS,
    PART_BREAK,
    PREDICATE_START,
    RATING_SAID,
    RECORD_TOKEN,
    SAYS,
)
from rrag.text import quantities, stem, words
from rrag.text.caches import per_text
from rrag.text.quantities import TIME_OF_DAY
from rrag.text.words import has_digit
from rrag.verify.rules.base import RecordClash, record_rule

_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_KIND_WORDS = frozenset(stem(w) for w in KIND_WORDS)
_ALSO = {stem(key): frozenset(stem(w) for w in others) for key, others in OTHER_SPELLINGS.items()}
_LIST_ITEM_WORDS = 4  # a comma's piece this short is an item of the list before it ("garage")


RECORD = "record"  # a yes/no fact or the hours of a structured record the claim says otherwise


@dataclass(frozen=True)
class Fact:
    key: str  # as the record writes it, with the keys around it ("BusinessParking.valet")
    terms: frozenset[str]  # the key's own words, stemmed ("valet"; "take", "out")
    written: str  # the key's own words as one ("takeout")
    context: frozenset[str]  # the words of the keys around it ("park"): one must be in the claim
    holds: bool
    start: int  # where the text writes it ('"valet": false')
    end: int


def _terms(key: str) -> frozenset[str]:
    return frozenset(stem(w.lower()) for w in _CAMEL.findall(key)) - _KIND_WORDS


def _written(key: str) -> str:
    return "".join(w.lower() for w in _CAMEL.findall(key) if stem(w.lower()) not in _KIND_WORDS)


@per_text(maxsize=1024)
def facts(text: str) -> tuple[Fact, ...]:
    """The yes/no facts of the records in `text`; none where `text` holds no record."""
    out: list[Fact] = []
    around: list[str] = []  # the keys of the objects the text is in ("" for one in a list)
    for m in RECORD_TOKEN.finditer(text):
        key, value, opening, closing = m.groups()
        if closing:
            if around:
                around.pop()
        elif opening or value == "{":
            around.append(key or "")
        elif _terms(key):
            context = frozenset().union(*(_terms(k) for k in around))
            where = ".".join([*filter(None, around), key])
            out.append(Fact(where, _terms(key), _written(key), context, SAYS[value], *m.span()))
    return tuple(out)


@per_text(maxsize=1024)  # read once per retrieved chunk, not once per claim sentence
def _free_words(text: str) -> frozenset[str]:
    """The stemmed words of `text` outside its records' keys and values (a review's words)."""
    return frozenset(stem(w) for w in words(RECORD_TOKEN.sub(" ", text)))


@record_rule(RECORD, 100)
def record_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """The first part of `claim` that says the opposite of a yes/no fact that every record of `texts`
    naming the fact agrees on, and that no free text beside it (a review) mentions."""
    agreed = _agreed_facts(tuple(texts))
    if not agreed:
        return None
    free = frozenset().union(*(_free_words(text) for text in texts))
    for part in _parts(claim):
        tokens = list(words(part))
        stems = _with_other_spellings([stem(t) for t in tokens])
        for fact, i, at in _named(agreed, tokens, stems):
            if fact.terms <= free:
                continue  # a review speaks of it too
            if _negated(tokens, at) == fact.holds:
                return RecordClash(part.strip(" ,"), i, fact.start, fact.end)
    return None


# A record's ratings ("business_stars": 4.0, "review_stars": 5.0, "rating": 4.5), and a claim's
# (rrag.lang.en.records.RATING_SAID).
_RATING_KEY = re.compile(r'"(?:\w*_)?(?:stars|rating)"\s*:\s*(\d+(?:\.\d+)?)\b', re.IGNORECASE)


@record_rule(RECORD, 120)
def rating_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """A rating the claim gives that no rating of the records has (not the overall one, nor any
    review's), against the first rating the records give: "an average rating of 2.4 stars" where
    the record says `"business_stars": 3.0` and its reviews 1, 2 and 3."""
    said = [float(a or b) for a, b in RATING_SAID.findall(claim)]
    if not said:
        return None
    ratings = [(i, m) for i, text in enumerate(texts) for m in _RATING_KEY.finditer(text)]
    if not ratings:
        return None
    given = {float(m[1]) for _, m in ratings}
    if all(any(abs(value - rating) < 1e-9 for rating in given) for value in said):
        return None
    i, first = ratings[0]
    return RecordClash(claim.strip(" ,"), i, first.start(), first.end())


@dataclass(frozen=True)
class RecordQuote:
    text: int  # which of the texts states the fact
    start: int  # where that text writes it ('"OutdoorSeating": true')
    end: int


def record_support(claim: str, texts: Sequence[str]) -> RecordQuote | None:
    """Where the records of `texts` state `claim`: each part of it names yes/no facts that the records
    agree on, said the same way round, or says when it is open as the records' hours do; and no other
    word but the record's name, its categories and the words of any listing (`_LISTING_WORDS`). The
    first fact or day stated is the quote."""
    agreed = _agreed_facts(tuple(texts))
    if not agreed and not any(_opening_hours(text) for text in texts):
        return None
    allowed = _LISTING_WORDS | frozenset().union(*(_subject_words(text) for text in texts))
    hours = _hours_stated(claim, texts)
    quotes = []
    for part in _parts(claim):
        tokens = list(words(part))
        stems = _with_other_spellings([stem(t) for t in tokens])
        named = list(_named(agreed, tokens, stems))
        if named:
            quotes.append(_facts_stated(named, agreed, tokens, stems, allowed))
        else:  # a part that names no fact may say when it is open, in no other words
            said = {s for t, s in zip(tokens, stems) if t not in STOPWORDS and not has_digit(t)}
            quotes.append(hours if not said - _HOURS_WORDS - allowed else None)
    return quotes[0] if quotes and all(quotes) else None


def _facts_stated(
    named: list[tuple[Fact, int, int]],
    agreed: Sequence[tuple[Fact, int]],
    tokens: list[str],
    stems: list[str],
    allowed: frozenset[str],
) -> RecordQuote | None:
    """The first fact of a part that names `named`, if the part says each the records' way round and
    nothing else. A word the facts are grouped under, denied bare ("no parking", not "no valet
    parking"), needs every fact under it to be false."""
    if any(_negated(tokens, at) == fact.holds for fact, _, at in named):
        return None
    said = {s for fact, _, _ in named for s in fact.terms | fact.context}
    said |= {s for t, s in zip(tokens, stems) if any(t in fact.written for fact, _, _ in named)}
    if {s for t, s in zip(tokens, stems) if t not in STOPWORDS and t not in NEGATORS} - said - allowed:
        return None  # the part says something the records do not
    kinds = {s for fact, _, _ in named for s in fact.terms}
    for group in {c for fact, _, _ in named for c in fact.context}:
        bare = [j for j, s in enumerate(stems) if s == group and (j == 0 or stems[j - 1] not in kinds)]
        if any(_negated(tokens, j, reach=1) for j in bare) and any(
            fact.holds for fact, _ in agreed if group in fact.context
        ):
            return None
    fact, i, _ = named[0]
    return RecordQuote(i, fact.start, fact.end)


@per_text(maxsize=256)
def _agreed_facts(texts: tuple[str, ...]) -> tuple[tuple[Fact, int], ...]:
    """Each fact the records of `texts` name and agree on, at its first mention (the text's index)."""
    said: dict[str, set[bool]] = {}
    named: dict[str, tuple[Fact, int]] = {}
    for i, text in enumerate(texts):
        for fact in facts(text):
            said.setdefault(fact.key, set()).add(fact.holds)
            named.setdefault(fact.key, (fact, i))
    return tuple(named[key] for key in named if len(said[key]) == 1)


def _named(
    agreed: Sequence[tuple[Fact, int]], tokens: list[str], stems: list[str]
) -> Iterator[tuple[Fact, int, int]]:
    """(fact, its text, where `tokens` name it) for each agreed fact a part of a claim names."""
    for fact, i in agreed:
        at = _position(fact, tokens, stems)
        if at is None:
            continue
        if fact.context and not fact.context & set(stems):
            continue  # "lot" of "BusinessParking" is a parking lot, not "a lot"
        yield fact, i, at


_LISTING_WORDS = frozenset(stem(w) for w in LISTING_WORDS) | _KIND_WORDS
_SUBJECT = re.compile(r'"(?:name|categories)"\s*:\s*"([^"]*)"')


@per_text(maxsize=1024)  # read once per retrieved chunk, not once per claim sentence
def _subject_words(text: str) -> frozenset[str]:
    """The stemmed words of the records' names and categories ("Goodland Kitchen", "Cafes")."""
    return frozenset(stem(w) for m in _SUBJECT.finditer(text) for w in words(m.group(1)))


_HOURS = re.compile(r'"hours"\s*:\s*\{[^{}]*\}')
_DAY_HOURS = re.compile(r'"([A-Z][a-z]+day)"\s*:\s*"(\d{1,2}):(\d{1,2})-(\d{1,2}):(\d{1,2})"')


@record_rule(RECORD, 110)
def hours_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """A claim about opening hours that gives a time at which no day of the records' hours (of the
    days it names, if any) opens or closes ("from 5 pm to 7 pm" where every day is "5:0-17:0"), or
    one pair of hours for every day ("daily from 9 am to 11 pm"; not "... to 1 am or midnight,
    depending on the day") where a day has others ("Monday": "9:0-17:0"); against the first such
    day's hours, or the day that differs. Or a claim of the days it opens that the hours do not bear
    out (`_days_clash`)."""
    return _times_clash(claim, texts) or _days_clash(claim, texts)


def _times_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    if not ABOUT_HOURS.search(claim):
        return None
    said = _times_said(claim)
    days = [(i, *day) for i, text in enumerate(texts) for day in _opening_hours(text)]
    if not said or not days:
        return None
    named = _days_named(claim)  # "closes at midnight on Sundays" is of Sundays' hours
    of_the_days = [day for day in days if day[4] in named] or days
    if not set(said) <= {t for _, _, _, kept, _ in of_the_days for t in kept}:
        i, start, end, _, _ = of_the_days[0]
        return RecordClash(claim.strip(" ,"), i, start, end)
    if len(said) == 2 and EVERY_DAY.search(claim) and not HOURS_VARY.search(claim):
        other = next((day for day in days if day[3] != tuple(said)), None)
        if other is not None:
            return RecordClash(claim.strip(" ,"), *other[:3])
    return None


def _times_said(claim: str) -> list[float]:
    """The times of day a claim gives, in hours since midnight (midnight is 0)."""
    return [q.value % 24 for q in quantities(claim) if q.unit == TIME_OF_DAY]


def _days_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """A day the claim says it is closed ("closed on Sundays") that the records' hours open on, quoting
    that day; or a day the claim names as open, by name or as every day ("Monday to Sunday", "seven
    days a week"), that the records' hours do not list, quoting the hours (not "weekdays", which
    claims use loosely)."""
    closed = CLOSED_ON.search(claim)
    if not closed and not ABOUT_HOURS.search(claim):
        return None
    hours = [(i, m) for i, text in enumerate(texts) for m in _HOURS.finditer(text)]
    if not hours:
        return None
    opened = {
        day: (i, start, end) for i, text in enumerate(texts) for start, end, _, day in _opening_hours(text)
    }
    if closed:
        day = next((d for d in WEEKDAYS if d in _days_named(closed.group(1)) and d in opened), None)
        return None if day is None else RecordClash(claim.strip(" ,"), *opened[day])
    listed = {m[1].lower() for i, h in hours for m in _DAY_HOURS.finditer(texts[i], h.start(), h.end())}
    named = _days_named(claim, loosely=False) | (set(WEEKDAYS) if EVERY_DAY.search(claim) else set())
    if named - listed:  # "0:0-0:0" (closed, or not known) is listed
        i, h = hours[0]
        return RecordClash(claim.strip(" ,"), i, h.start(), h.end())
    return None


def _hours_stated(claim: str, texts: Sequence[str]) -> RecordQuote | None:
    """Where the records' hours state what a claim says of opening hours: one pair of hours (opens,
    closes) that each day it names has ("Monday through Friday", "on weekends"), or every day where
    it names none; the first such day is the quote."""
    said = _times_said(claim)
    if not ABOUT_HOURS.search(claim) or len(said) != 2:
        return None
    days = {
        day: (i, start, end, kept)
        for i, text in enumerate(texts)
        for start, end, kept, day in _opening_hours(text)
    }
    named = _days_named(claim)
    if EVERY_DAY.search(claim) or not named:
        named = set(WEEKDAYS) if EVERY_DAY.search(claim) else set(days)
    if not named or any(day not in days or days[day][3] != tuple(said) for day in named):
        return None
    i, start, end, _ = min((days[day] for day in named), key=lambda d: (d[0], d[1]))
    return RecordQuote(i, start, end)


_HOURS_WORDS = (
    frozenset(stem(w) for w in HOURS_WORDS)
    | frozenset(WEEKDAYS)
    | {stem(d) for d in WEEKDAYS}
    | {stem("weekdays"), stem("weekends")}
)


def _days_named(part: str, loosely: bool = True) -> set[str]:
    """The days of the week a part names, a span of them whole ("Tuesday to Sunday"); `loosely`, the
    days of "weekdays" and "weekends" too."""
    names = [(m.group(1).lower(), m) for m in DAY_NAME.finditer(part)]
    named: set[str] = set()
    for n, (name, m) in enumerate(names):
        if name in ("weekday", "weekend"):
            named |= set(WEEKDAYS[:5] if name == "weekday" else WEEKDAYS[5:]) if loosely else set()
            continue
        named.add(name)
        following = names[n + 1][1] if n + 1 < len(names) else None
        if following is not None and DAY_SPAN.fullmatch(part, m.end(), following.end()):
            first, last = WEEKDAYS.index(name), WEEKDAYS.index(following.group(1).lower())
            named |= {WEEKDAYS[d % 7] for d in range(first, last + (7 if last < first else 0) + 1)}
    return named


@per_text(maxsize=1024)  # read once per retrieved chunk, not once per claim sentence
def _opening_hours(text: str) -> tuple[tuple[int, int, tuple[float, float], str], ...]:
    """(start, end, (opens, closes) in hours, the day in lower case) of each day of the records'
    "hours" in `text`; none for "0:0-0:0" (closed, or not known)."""
    out = []
    for hours in _HOURS.finditer(text):
        for m in _DAY_HOURS.finditer(text, hours.start(), hours.end()):
            kept = ((int(m[2]) + int(m[3]) / 60) % 24, (int(m[4]) + int(m[5]) / 60) % 24)
            if kept != (0.0, 0.0):
                out.append((m.start(), m.end(), kept, m[1].lower()))
    return tuple(out)


def _parts(text: str) -> list[str]:
    """The parts of a sentence that each say yes or no on their own: clauses, and predicates joined
    by "and" ("has a classy ambience | and does not take reservations"); a list stays whole ("no
    valet, garage, or lot parking")."""
    parts: list[str] = []
    for clause in PART_BREAK.split(text):
        for piece in clause.split(","):
            ws = words(piece)
            listed = (len(ws) <= _LIST_ITEM_WORDS or ws[:1] in (("or",), ("and",), ("nor",))) and not (
                COPULAS & set(ws) or PREDICATE_START.match(piece)
            )
            if parts and listed:
                parts[-1] += "," + piece
            elif ws:
                parts.append(piece)
    return parts


def _position(fact: Fact, tokens: list[str], stems: list[str]) -> int | None:
    """Where `tokens` name the fact: its words ("outdoor seating"), or them written as one
    ("takeout", "take-out")."""
    if fact.terms <= set(stems):
        return min(i for i, s in enumerate(stems) if s in fact.terms)
    for i in range(len(tokens)):
        if fact.written in (tokens[i], "".join(tokens[i : i + 2])):
            return i
    return None


def _negated(tokens: list[str], at: int, reach: int = 2) -> bool:
    """Whether the fact named at `at` is denied: a negator before it in its part ("does not offer
    valet parking"), or a negated copula right after it ("WiFi is not available", "is unavailable"),
    the denial within `reach` words of the copula."""
    if any(t in NEGATORS or t in NEGATIVE_WORDS for t in tokens[:at]):
        return True
    after = tokens[at + 1 : at + 7]
    copula = next((i for i, t in enumerate(after[:5]) if t in COPULAS), None)
    return copula is not None and any(
        t in NEGATORS or t in ABSENT for t in after[copula + 1 : copula + 1 + reach]
    )


def _with_other_spellings(stems: list[str]) -> list[str]:
    return [next((key for key, others in _ALSO.items() if s in others), s) for s in stems]
