"""What the rules compare: a claim or an evidence window read as a `Statement` (its reading, less a
preamble or hedge, as terms to compare), the windows of a chunk (`Window`), and the share of a claim's
words a text covers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rrag.lang.en.dates import MONTH_NAMES
from rrag.lang.en.lexicon import IRREGULAR_FORMS, PREFIXES, SUFFIXES
from rrag.lang.en.table_rows import column_header, names_row, row_names, subject_of
from rrag.text import (
    Negation,
    Quantity,
    content_words,
    has_digit,
    is_partitive,
    month_ranges,
    months_inside,
    named_as_a_kind,
    same_amount,
    stem,
)
from rrag.text.quantities import FRACTION, TIME_OF_DAY, is_measured
from rrag.text.reading import read
from rrag.text.values import Value
from rrag.types import Chunk
from rrag.verify.rules.asserted import DISCOURSE_TERMS, asserted

NUMBER_WEIGHT = 2.0  # a number carries more of a claim's meaning than a word
_MONTH_STEMS = frozenset(stem(m) for m in MONTH_NAMES)
MIN_PREFIXED_BASE = 4
# A word is its base with a suffix ("delivery" is "deliver"), for a base long enough to tell
# ("nomination" is no "nominee").
MIN_SUFFIXED_BASE = 6
# The topic's verbs by their base form: "should be taken" is about what "take" is.
VERB_OF = {stem(form): stem(verb) for form, verb in IRREGULAR_FORMS.items()}
_PLAIN_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Statement:
    """What the rules compare of a claim or an evidence window: its reading (`rrag.text.read`), and
    that of what it asserts (less a preamble or hedge) as terms. Ranking the windows needs only the
    terms (and the numbers of those whose terms can still rank first); the rest is read on the few
    windows that are compared further (most retrieved sentences are never the evidence)."""

    text: str
    asserted: str  # the text less a preamble or leading hedge
    terms: frozenset[str]  # stemmed content words
    numeric: frozenset[str]  # the terms with a digit, which weigh NUMBER_WEIGHT
    weight: float  # the terms' total weight, the denominator of coverage

    @classmethod
    def of(cls, text: str) -> Statement:
        said = asserted(text)
        terms = frozenset(read(said).content_words) - DISCOURSE_TERMS
        numeric = frozenset(t for t in terms if has_digit(t))
        return cls(text, said, terms, numeric, len(terms) + (NUMBER_WEIGHT - 1) * len(numeric))

    @property
    def numbers(self) -> tuple[Quantity, ...]:
        return read(self.text).quantities

    @cached_property
    def topic(self) -> frozenset[str]:
        """The terms less numbers, their units and months: what the claim is about ("12 months" and
        "2 years" of a warranty are one topic)."""
        slots = {stem(w) for q in self.numbers for w in _PLAIN_WORD.findall(q.written(self.text).lower())}
        return frozenset(VERB_OF.get(t, t) for t in self.terms if not _is_slot(t) and t not in slots)

    @cached_property
    def rows(self) -> tuple[frozenset[str], ...]:
        """The terms of the name of each table row the text opens ("For Plus, the price ...": plu),
        read once per retrieved window, not per claim."""
        return row_terms(self.text)

    @property
    def stems(self) -> frozenset[str]:
        """Every word stemmed (a name the claim swaps must be in no retrieved text)."""
        return read(self.text).stems

    @property
    def values(self) -> tuple[Value, ...]:
        return read(self.text).values

    @cached_property
    def loose(self) -> tuple[Quantity, ...]:
        """The numbers that name what they count loosely, if at all: with no unit ("Of 2,117
        passengers, 95 have ..." states "95 passengers"), or a part ("three of the attackers"). Not
        one under a table's column header, which names what it counts ("the capacity is 12" is no
        "£12")."""
        return tuple(
            q
            for q in self.numbers
            if (not q.unit and not column_header(self.text, q.start)) or is_partitive(self.text, q)
        )

    @property
    def months(self) -> frozenset[int]:
        return read(self.text).months

    def months_unstated_by(self, e: Statement) -> frozenset[int]:
        """This claim's months that evidence `e` does not name, less those inside a range it names
        ("frozen from December to March" states January); a claim that names a range of its own
        is compared by its ends ("from December to February")."""
        unstated = self.months - e.months
        if not unstated or month_ranges(self.text):
            return unstated  # most claims name no month: neither text is read for ranges
        return unstated - months_inside(month_ranges(e.text))

    @property
    def negations(self) -> tuple[Negation, ...]:
        """Each negator of what it asserts, with the terms it reaches ("not cover" -> cover)."""
        return read(self.asserted).negations

    @property
    def denies(self) -> bool:
        """A negator or negative word anywhere in what it asserts."""
        return read(self.asserted).denies

    @property
    def plain(self) -> frozenset[str]:
        """The terms that occur outside any negation."""
        return read(self.asserted).plain


@dataclass(frozen=True)
class Window:
    """A window of a chunk: one sentence, or two adjacent ones (a claim may join two)."""

    chunk: Chunk
    start: int
    end: int
    statement: Statement
    sentences: int = 1


def row_terms(text: str) -> tuple[frozenset[str], ...]:
    """The terms of the name of each table row `text` opens ("For Plus, the price ...": plu)."""
    return tuple(frozenset(content_words(subject_of(name))) for name in row_names(text))


def names_every_row(rows: Sequence[frozenset[str]], terms: frozenset[str] | set[str]) -> bool:
    """Whether words `terms` name every one of the table rows `rows` (and there is one)."""
    return bool(rows) and all(names_row(row, terms) for row in rows)


def of_the_named_row(c: Statement, statements: Sequence[Statement]) -> list[int]:
    """Where the claim names a row of a table read as sentences ("The Plus plan costs ..." of "For
    Plus, the price ... is $6"), the indexes of the statements that hold no other row: another row's
    value is of another thing, and so is a row read with the sentence after it ("For Business, the
    price ... is $14. Annual billing saves 20% on Plus and Business." made "Plus costs $14" the
    Business row's). Where the named row gives a value of the claim's measure, of the rest only what
    names the row's subject, and not as a kind of it the claim does not name: "An electric car costs
    £48 a day" is of the electric row, not of the price per day of anything else, and "A consultation
    costs £150" of the consultation row, not of "Out-of-hours consultations cost £150"; "The Premier
    plan covers trips of up to 60 days" still speaks of Premier."""
    named = [s for s in statements if names_every_row(s.rows, c.terms)]
    if not named:
        return list(range(len(statements)))
    measures = {v.measure for v in c.values}
    about = frozenset().union(*(row for s in named for row in s.rows))
    of_the_row = any(v.measure in measures for s in named for v in s.values)
    return [
        i
        for i, s in enumerate(statements)
        if all(names_row(row, c.terms) for row in s.rows)
        and (
            s.rows
            or not of_the_row
            or (names_row(about, s.terms) and not named_as_a_kind(s.text, about, c.terms))
        )
    ]


def single_sentences(windows: Sequence[Window]) -> list[Statement]:
    """The windows' single sentences: what the retrieved text states, each sentence read once."""
    return [w.statement for w in windows if w.sentences == 1]


def _is_slot(term: str) -> bool:
    return term in _MONTH_STEMS or has_digit(term)


def share(terms: frozenset[str], evidence: frozenset[str]) -> float:
    """Share of `terms` in `evidence`, a word matching the same word with a prefix ("preheat") or a
    suffix ("delivery")."""
    unmatched = terms - evidence
    found = len(terms) - len(unmatched)
    found += sum(any(_affixed(t, e) or _affixed(e, t) for e in evidence) for t in unmatched)
    return found / len(terms) if terms else 0.0


def _affixed(word: str, base: str) -> bool:
    if word.endswith(base) and word[: -len(base)] in PREFIXES:
        return len(base) >= MIN_PREFIXED_BASE
    return len(base) >= MIN_SUFFIXED_BASE and word.startswith(base) and word[len(base) :] in SUFFIXES


def coverage(claim: Statement, evidence: Statement) -> float:
    """The weighted share of the claim's terms the evidence has (asked of every retrieved sentence)."""
    return weighted(claim, claim.terms & evidence.terms)


def stated_terms(claim: Statement, evidence: Statement) -> frozenset[str]:
    """The claim's terms the evidence states: its own words, and the words of a value the evidence
    gives as the same amount of the same thing in other words ("the kettle weighs 1,200 grams" for
    "1.2 kg", "starts at 20:00" for "8 pm"; not "a bonus of one month's salary" for "30 days' notice")."""
    # Not a count's: its "unit" may be any next word ("One customer").
    same_values = frozenset(
        t
        for v in claim.values
        if (is_measured(v.quantity) or v.quantity.unit in (TIME_OF_DAY, FRACTION))
        and any(o.same_amount(v) and share(v.near, o.near) > 0 for o in evidence.values)
        for t in content_words(v.written)
    )
    return claim.terms & (evidence.terms | same_values)


def weighted(claim: Statement, found: frozenset[str]) -> float:
    """The share of the claim's weight that `found`, some of its terms, carries."""
    if not claim.weight:
        return 0.0
    return (len(found) + (NUMBER_WEIGHT - 1) * len(found & claim.numeric)) / claim.weight


def has_value(numbers: Sequence[Quantity], q: Quantity) -> bool:
    return any(same_amount(q, n) for n in numbers)
