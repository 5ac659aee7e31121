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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rrag.text import NEGATORS, quantities, stem, words
from rrag.text.quantities import TIME_OF_DAY
from rrag.text.words import NEGATIVE_WORDS

_TOKEN = re.compile(
    r'"([A-Za-z][A-Za-z0-9_ ]{0,40})"\s*:\s*(\{|true\b|false\b|"(?:yes|no|free|paid|none)")|(\{)|(\})'
)
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# A key's words that name the record's kind, not the fact ("RestaurantsTakeOut" is take-out).
_KIND_WORDS = frozenset(stem(w) for w in "restaurants business attributes".split())
_SAYS = {
    "true": True,
    '"yes"': True,
    '"free"': True,  # "WiFi": "free": there is WiFi
    '"paid"': True,
    "false": False,
    '"no"': False,
    '"none"': False,
}
# Other spellings of a key's words ("Ambience": the claim writes "ambiance" or "atmosphere").
_ALSO = {stem("ambience"): frozenset(stem(w) for w in "ambiance atmosphere vibe".split())}
# Where one part of a sentence ends and another with its own yes or no starts: a clause ("outdoor
# seating, but no WiFi"), or a predicate after "and" ("and does not take reservations").
_PREDICATE = (
    r"has|have|had|is|are|was|were|does|do|did|doesn't|don't|offers?|provides?|accepts?|takes?|allows?|"
    r"features?|serves?|lacks?|can|cannot|also|it|its|they|their|there|the|all|a|an"
)
_PART_BREAK = re.compile(
    rf"[;:()]|\b(?:but|while|whereas|although|though|however)\b|\band\s+(?=(?:{_PREDICATE})\b)",
    re.IGNORECASE,
)
_PREDICATE_START = re.compile(rf"\s*(?:{_PREDICATE})\b", re.IGNORECASE)
_COPULAS = frozenset("is are was were isnt arent wasnt werent".split())
_LIST_ITEM_WORDS = 4  # a comma's piece this short is an item of the list before it ("garage")


@dataclass(frozen=True)
class Fact:
    key: str  # as the record writes it, with the keys around it ("BusinessParking.valet")
    terms: frozenset[str]  # the key's own words, stemmed ("valet"; "take", "out")
    written: str  # the key's own words as one ("takeout")
    context: frozenset[str]  # the words of the keys around it ("park"): one must be in the claim
    holds: bool
    start: int  # where the text writes it ('"valet": false')
    end: int


@dataclass(frozen=True)
class RecordClash:
    claim: str  # the part of the claim that says the opposite
    text: int  # which of the texts states the fact
    start: int  # where that text writes it ('"valet": false', '"Monday": "5:0-17:0"')
    end: int


def _terms(key: str) -> frozenset[str]:
    return frozenset(stem(w.lower()) for w in _CAMEL.findall(key)) - _KIND_WORDS


def _written(key: str) -> str:
    return "".join(w.lower() for w in _CAMEL.findall(key) if stem(w.lower()) not in _KIND_WORDS)


@lru_cache(maxsize=1024)
def facts(text: str) -> tuple[Fact, ...]:
    """The yes/no facts of the records in `text`; none where `text` holds no record."""
    out: list[Fact] = []
    around: list[str] = []  # the keys of the objects the text is in ("" for one in a list)
    for m in _TOKEN.finditer(text):
        key, value, opening, closing = m.groups()
        if closing:
            if around:
                around.pop()
        elif opening or value == "{":
            around.append(key or "")
        elif _terms(key):
            context = frozenset().union(*(_terms(k) for k in around))
            where = ".".join([*filter(None, around), key])
            out.append(Fact(where, _terms(key), _written(key), context, _SAYS[value], *m.span()))
    return tuple(out)


@lru_cache(maxsize=1024)  # read once per retrieved chunk, not once per claim sentence
def _free_words(text: str) -> frozenset[str]:
    """The stemmed words of `text` outside its records' keys and values (a review's words)."""
    return frozenset(stem(w) for w in words(_TOKEN.sub(" ", text)))


def clear_caches() -> None:
    """Forget the records read (rrag.verify.lexical.clear_caches)."""
    facts.cache_clear()
    _free_words.cache_clear()
    _opening_hours.cache_clear()


def record_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """The first part of `claim` that says the opposite of a yes/no fact that every record of `texts`
    naming the fact agrees on, and that no free text beside it (a review) mentions."""
    said: dict[str, set[bool]] = {}
    named: dict[str, tuple[Fact, int]] = {}
    for i, text in enumerate(texts):
        for fact in facts(text):
            said.setdefault(fact.key, set()).add(fact.holds)
            named.setdefault(fact.key, (fact, i))
    if not said:
        return None
    free = frozenset().union(*(_free_words(text) for text in texts))
    for part in _parts(claim):
        tokens = list(words(part))
        stems = _with_other_spellings([stem(t) for t in tokens])
        for key, (fact, i) in named.items():
            at = _position(fact, tokens, stems)
            if at is None or len(said[key]) != 1 or fact.terms <= free:
                continue  # not named here; the records disagree; or a review speaks of it too
            if fact.context and not fact.context & set(stems):
                continue  # "lot" of "BusinessParking" is a parking lot, not "a lot"
            if _negated(tokens, at) == fact.holds:
                return RecordClash(part.strip(" ,"), i, fact.start, fact.end)
    return None


_HOURS = re.compile(r'"hours"\s*:\s*\{[^{}]*\}')
_DAY_HOURS = re.compile(r'"[A-Z][a-z]+day"\s*:\s*"(\d{1,2}):(\d{1,2})-(\d{1,2}):(\d{1,2})"')
_ABOUT_HOURS = re.compile(r"\b(?:open|opens|opening|operat\w*|hours|closes?|closing)\b", re.IGNORECASE)
_EVERY_DAY = re.compile(
    r"\b(?:daily|every day|(?:seven|7) days a week|all week|monday (?:to|through|-) sunday)\b", re.IGNORECASE
)
_VARIES = re.compile(r"\b(?:or|either|depending|vary|varies|varying|varied)\b", re.IGNORECASE)


def hours_clash(claim: str, texts: Sequence[str]) -> RecordClash | None:
    """A claim about opening hours that gives a time at which no day of the records' hours opens or
    closes ("from 5 pm to 7 pm" where every day is "5:0-17:0"), or one pair of hours for every day
    ("daily from 9 am to 11 pm"; not "... to 1 am or midnight, depending on the day") where a day
    has others ("Monday": "9:0-17:0"); against the first day's hours, or the day that differs."""
    if not _ABOUT_HOURS.search(claim):
        return None
    said = [q.value % 24 for q in quantities(claim) if q.unit == TIME_OF_DAY]
    days = [(i, *day) for i, text in enumerate(texts) for day in _opening_hours(text)]
    if not said or not days:
        return None
    if not set(said) <= {t for *_, kept in days for t in kept}:
        i, start, end, _ = days[0]
        return RecordClash(claim.strip(" ,"), i, start, end)
    if len(said) == 2 and _EVERY_DAY.search(claim) and not _VARIES.search(claim):
        other = next((day for day in days if day[3] != tuple(said)), None)
        if other is not None:
            return RecordClash(claim.strip(" ,"), *other[:3])
    return None


@lru_cache(maxsize=1024)  # read once per retrieved chunk, not once per claim sentence
def _opening_hours(text: str) -> tuple[tuple[int, int, tuple[float, float]], ...]:
    """(start, end, (opens, closes) in hours) of each day of the records' "hours" in `text`; none
    for "0:0-0:0" (closed, or not known)."""
    out = []
    for hours in _HOURS.finditer(text):
        for m in _DAY_HOURS.finditer(text, hours.start(), hours.end()):
            kept = ((int(m[1]) + int(m[2]) / 60) % 24, (int(m[3]) + int(m[4]) / 60) % 24)
            if kept != (0.0, 0.0):
                out.append((m.start(), m.end(), kept))
    return tuple(out)


def _parts(text: str) -> list[str]:
    """The parts of a sentence that each say yes or no on their own: clauses, and predicates joined
    by "and" ("has a classy ambience | and does not take reservations"); a list stays whole ("no
    valet, garage, or lot parking")."""
    parts: list[str] = []
    for clause in _PART_BREAK.split(text):
        for piece in clause.split(","):
            ws = words(piece)
            listed = (len(ws) <= _LIST_ITEM_WORDS or ws[:1] in (("or",), ("and",), ("nor",))) and not (
                _COPULAS & set(ws) or _PREDICATE_START.match(piece)
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


def _negated(tokens: list[str], at: int) -> bool:
    """Whether the fact named at `at` is denied: a negator before it in its part ("does not offer
    valet parking"), or a negated copula right after it ("WiFi is not available", "is unavailable")."""
    if any(t in NEGATORS or t in NEGATIVE_WORDS for t in tokens[:at]):
        return True
    after = tokens[at + 1 : at + 7]
    copula = next((i for i, t in enumerate(after[:5]) if t in _COPULAS), None)
    return copula is not None and any(t in NEGATORS or t in _ABSENT for t in after[copula + 1 : copula + 3])


# Words that deny a fact after its copula; "under review", "unlimited" or "unreliable" deny nothing.
_ABSENT = frozenset("unavailable unoffered unsupported inaccessible unusable absent".split())


def _with_other_spellings(stems: list[str]) -> list[str]:
    return [next((key for key, others in _ALSO.items() if s in others), s) for s in stems]
