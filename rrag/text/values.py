"""Values read by what they measure: each number of a sentence with its measure, its amount in that
measure's base unit, the words about it, its qualifiers ("when full", "per wash", "on Saturdays",
"for the X400") and the bound it is given as ("at least 18 years", "up to 7 kg").

Two values are comparable only where they measure the same thing under compatible qualifiers: "1.2 kg
when empty" is no evidence about the weight "when full", opening hours "on weekdays" say nothing of
Saturdays, and tablets "per wash" are not the size of a "monthly pack". The value clash of the rules
(rrag/verify/rules/values.py) and the conflict detector (rrag/verify/conflicts.py) both compare these.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rrag.lang.en.dates import (
    DAY_QUALIFIER,
    EVENT_BEFORE,
    HALF_OF_DAY,
    MONTHS,
    SEASON_QUALIFIER,
    STATES,
    VERB_MONTHS,
)
from rrag.lang.en.function_words import ARTICLES, COPULA_BEFORE, STOPWORDS
from rrag.lang.en.lexicon import FREE, IRREGULAR_FORMS, NOT_FREE_BEFORE, PRICE_NOUNS, PRICED
from rrag.lang.en.negation import DENIED_BOUND, DENIED_SUBJECT_BOUND, NO_BOUND
from rrag.lang.en.numerals import (
    AGE_COMPARATIVES,
    BOUND_AFTER,
    BOUND_BEFORE,
    BOUND_PREPOSITIONS,
    BOUND_SAID,
    DIFFERENCE_AFTER,
    MOVED_UP,
    RANGE_JOIN,
    SHARED_BOUND_JOIN,
    YEAR_BOUND_BEFORE,
)
from rrag.lang.en.qualifiers import (
    ACT_BEFORE,
    LEADING_PREPOSITION,
    MODEL,
    OF_WHAT,
    PAST_PREFIXES,
    RATE,
    RATE_OF,
    STATE,
    VALUE_AND,
    VALUE_JOINT,
)
from rrag.lang.en.questions import MONEY_NOUNS
from rrag.lang.en.table_rows import column_header, last_row_name, names_row, row_of_value, subject_of
from rrag.lang.en.units import CURRENCY_CODES, CURRENCY_SYMBOLS, DAYS_PER
from rrag.text.caches import per_text
from rrag.text.clauses import verb_starts
from rrag.text.quantities import (
    CALENDAR_YEAR,
    CONVERTED_MEASURES,
    TIME_OF_DAY,
    Quantity,
    converted_tolerance,
    is_measured,
    is_unit,
    list_lasts,
    month_ranges,
    months,
    months_inside,
    other_measures,
    quantities,
)
from rrag.text.sentences import split_sentences
from rrag.text.words import Span, content_words, has_digit, stem, words

_UNITLESS = ""  # the measure of a bare number: nothing to compare it by
# A qualifier is one of these axes and its value; two values that both name an axis must agree on it.
_CASES = frozenset({"day", "season", "when", "for"})  # qualifier axes that say which case a value is of
# The measures whose amount is of a substance or of data, said after its unit ("16 GB of RAM"); not
# shares, money or times ("40% of voters", "£5 million of funding" name loosely).
_AMOUNTS_OF = frozenset({"mass", "volume", "length", "data"})
_QUALIFIER_REACH = 28  # characters between a value and a qualifier that still belongs to it
NEAR_WORDS = 3  # words either side of a value that say what it is the value of
_VALUE_BREAK = re.compile(r"[,;]")
_NEXT_NOUN = re.compile(r"[ \t]+[^\W\d_]")
# A rate's word is its unit's ("the weekly rate" is the price of a week)
_RATE_TERMS = {stem(word): stem(unit) for word, unit in RATE_OF.items()}
_CLAUSE_END = re.compile(r"[,;:!?()\[\]\"^]|\.(?!\d)")
_SPANS = frozenset({"date", CALENDAR_YEAR})
_EXACT_RANGES = frozenset({TIME_OF_DAY, "age"})  # a range of them draws a line, not a rough amount
_ACT_REACH = 60  # characters before a year that can hold its act
_UNIT_IN_BRACKETS = re.compile(r"\(([^()\s]{1,4})\)")
_BOUND_REACH = 20  # characters before a value that can hold its bound
_OTHER_BOUND = {"lower": "upper", "upper": "lower"}
_EVENT_REACH = 16
_TWELVE_HOUR = re.compile(r"(?:[1-9]|1[0-2])(?:[:.]\d\d)?$")


@dataclass(frozen=True)
class Value:
    """One value of a text, read by what it measures."""

    quantity: Quantity
    measure: str  # "duration", a currency code, "%", "time", "°f", or the thing counted ("room")
    amount: float  # in the measure's base unit (durations in days)
    written: str  # as the text writes it ("2.9 kg", "3-5 business days")
    near: frozenset[str]  # content words either side of it, values and units left out
    qualifiers: frozenset[tuple[str, str]]  # (axis, what): ("day", "saturday"), ("when", "full")
    qualified: str = ""  # with a qualifier that follows it ("2.9 kg when full")
    bounds: tuple[float, float] | None = None  # the range it is an end of ("20 to 40 minutes")
    row: frozenset[str] = frozenset()  # the name of its table row, read as a sentence ("For Deep clean, ...")
    # In a row, its column's header, every word but the article and an aside in brackets ("the dog
    # under 20 kg is £240": dog, under, 20, kg; "the monthly fee (GBP) is 52": monthly, fee)
    column: frozenset[str] = frozenset()
    # The months its column's header covers ("the low season (Nov-Mar) is £160": November to March)
    column_months: frozenset[int] = frozenset()
    words: frozenset[str] = frozenset()  # the content words of the sentence it is in
    said: frozenset[str] = frozenset()  # every word of the sentence it is in, in lower case
    # Where its sentence gives several values of its measure, the words that are its alone ("58 mg for
    # adults and 17 mg for children": 58 has "adult", 17 "children").
    own: frozenset[str] = frozenset()
    bound: str = ""  # "lower" or "upper" where the text gives it as a bound ("at least 18 years")
    bounded: str = ""  # the value with its bound's words, as its text writes them
    bounded_at: int = -1  # where `bounded` starts in its text
    event: str = ""  # of a time: "start" or "end" where its verb opens or closes something ("opens at 8:00")
    # "more" or "less" where the text gives it as a gap between two things ("£4 more per hour than
    # manual ones"): a difference, comparable only with another difference the same way
    compared: str = ""

    def cases_shared(self, other: Value) -> int:
        """How many of this value's cases (a day, a season, a state, a model: not what a rate is per,
        which is of its unit) `other` shares."""
        return sum(axis in _CASES for axis, _ in self.qualifiers & other.qualifiers)

    def bounded_otherwise(self, other: Value) -> bool:
        """Whether the two are given as opposite bounds ("at least 18 years" / "under 18 years")."""
        return bool(self.bound and other.bound) and self.bound != other.bound

    @property
    def unqualified_near(self) -> frozenset[str]:
        """The words next to it less what its qualifiers name: "rent", not "year", of "the rent is £39 a
        year" (what a value is per is compared by `compatible`, not as a word next to it)."""
        return self.near - {what for _, what in self.qualifiers}

    def of_another_row(self, other: Value) -> bool:
        """Whether `other` is in a table row named for something this value's text does not name
        ("Deep clean costs £48": the £48 of the carpet shampoo's row is no price of a deep clean). A
        value whose words say no more than the row's column names no other thing ("the rent is £39 a
        year" of "the concession rent is £39.00")."""
        if not other.row or names_row(other.row, self.words):
            return False
        said = self.unqualified_near
        return not (said and said <= other.near)

    def compatible(self, other: Value) -> bool:
        """Whether the two can be values of the same thing: the same measure, both amounts or both
        differences, and no axis that both qualify on which they differ (a qualifier only one of them
        names leaves the question open).
        Two amounts each per a time are amounts of one rate ("10 days per year", "per month")."""
        if self.measure != other.measure or self.compared != other.compared:
            return False
        if not (self.qualifiers and other.qualifiers):
            return True  # most values: no axis both qualify on
        mine, theirs = _by_axis(self.qualifiers), _by_axis(other.qualifiers)
        if self._per_time() and other._per_time():
            mine["per"] -= DAYS_PER.keys()
            theirs["per"] -= DAYS_PER.keys()
        return all(
            mine[axis] & theirs[axis] for axis in mine.keys() & theirs.keys() if mine[axis] and theirs[axis]
        )

    def same_amount(self, other: Value) -> bool:
        if other_measures(self.quantity, other.quantity):
            return False  # "5 pounds" is no "5 euros"
        scale = self._scale(other)
        # "24 months" is "2 years"; "£120 per year" is "£10 per month"; not across measures ("1 pm"
        # is no "8 mph", 12.9 km/h)
        if self.measure == other.measure and scale != 1:
            tolerance = 0.02
        elif self.measure == other.measure and self.measure in CONVERTED_MEASURES:
            tolerance = converted_tolerance(self.quantity.unit, other.quantity.unit)
        else:
            tolerance = 1e-9
        if self.measure == TIME_OF_DAY and (self._either_half() or other._either_half()):
            return math.isclose(self.amount % 12, other.amount % 12, rel_tol=tolerance)
        return math.isclose(self.amount, other.amount * scale, rel_tol=tolerance)

    def _either_half(self) -> bool:
        """Whether this is a time of day written with no "am" or "pm" that either half of the day
        can have ("at 9:36": 9:36 pm too), not a 24-hour one ("17:30", "08:15")."""
        return not HALF_OF_DAY.search(self.written) and bool(_TWELVE_HOUR.match(self.written))

    def holds(self, other: Value) -> bool:
        """Whether this value states `other`'s amount: the same amount, a range that holds it ("20 to
        40 minutes" holds "30 minutes", not the other way round), or a range that overlaps another
        ("50-70%" and "50-75%": no evidence against it; "3-5 days" and "5-7 days" only touch). Hours of
        the day and ages are no rough amount: "9 am to 9 pm" states hours that "9 am to 5 pm" does not,
        "aged 5 to 16" a child "aged 5 to 15" does not; and the time something opens at is the start
        of its hours ("opens at 8:00" is no hour of "6:30 to 21:00")."""
        if self.bounds and other.event and not other.bounds and self.measure == TIME_OF_DAY:
            edge = self.bounds[0] if other.event == "start" else self.bounds[1]
            return self.amount == edge and self.same_amount(other)
        if self.same_amount(other):
            return True
        if not self.bounds:
            return False
        scale = self._scale(other)
        if not other.bounds:
            return self.bounds[0] <= other.amount * scale <= self.bounds[1]
        if self.measure in _EXACT_RANGES:
            return self.bounds == other.bounds
        return max(self.bounds[0], other.bounds[0] * scale) < min(self.bounds[1], other.bounds[1] * scale)

    def bound_holds(self, other: Value) -> bool:
        """Whether this value's bound holds `other`'s amount, of the same measure: "less than an hour"
        holds "30 minutes", "more than 10 hours" holds "12 hours" and "up to 12 hours" (not "more than
        11 hours": another amount given as the same bound says another thing)."""
        if (
            not self.bound
            or other.bound == self.bound
            or self.measure != other.measure
            or other_measures(self.quantity, other.quantity)
        ):
            return False
        theirs = other.amount * self._scale(other)
        if self.bound == "upper":
            return theirs < self.amount if other.bound else theirs <= self.amount
        return theirs > self.amount if other.bound else theirs >= self.amount

    @property
    def per(self) -> frozenset[str]:
        """What a rate is per: its unit, not what it is of ("30 pages per minute in black")."""
        return frozenset(what for axis, what in self.qualifiers if axis == "per")

    def _per_time(self) -> float | None:
        """The days in the time its amount is per ("10 days per year": 365.25), if it is per one."""
        times = [DAYS_PER[what] for axis, what in self.qualifiers if axis == "per" and what in DAYS_PER]
        return times[0] if len(times) == 1 else None

    def _scale(self, other: Value) -> float:
        """What puts `other`'s amount per this value's time: 12 for "£10 per month" against "£120 per
        year"; 1 unless both are per a time."""
        mine, theirs = self._per_time(), other._per_time()
        return mine / theirs if mine and theirs else 1.0


def _by_axis(qualifiers: frozenset[tuple[str, str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for axis, what in qualifiers:
        out.setdefault(axis, set()).add(what)
    return out


@per_text(maxsize=8192)  # the rules and the conflict finder read each retrieved sentence claim after claim
def values(text: str) -> tuple[Value, ...]:
    """The values of `text` that have a measure, in text order. A bare number takes the unit its
    column header names ("the price (GBP) is 25": GBP 25)."""
    read = [
        q if q.unit else q._replace(unit=header_unit(column_header(text, q.start))) for q in quantities(text)
    ]
    found = [q for q in read if q.measure[0] != _UNITLESS]
    if not found:
        return ()
    qualified = _qualifiers(text, found)
    sentence_at = _sentence_at(text)
    out, qualified_ends = [], []
    for q in found:
        measure, amount = q.measure
        sentence = sentence_at(q.start)
        row = _row(sentence, q)
        header = column_header(text, q.start)
        qualifiers = qualified.get(q, [])
        end = max([q.end, q.unit_end] + [e for _, _, e in qualifiers if e > q.end])
        qualified_ends.append(end)
        bound, (bound_start, bound_end) = _bound(text, q)
        out.append(
            Value(
                q,
                measure,
                amount,
                " ".join(q.written(text).split()),
                _near(text, q, row) | _row_words(text, q, header),
                frozenset((axis, what) for axis, what, _ in qualifiers),
                " ".join(text[q.start : end].split()),
                row=row,
                column=_said(subject_of(header)) - ARTICLES if row else frozenset(),
                column_months=_months_covered(header) if row else frozenset(),
                words=frozenset(content_words(sentence.text)),
                said=_said(sentence.text),
                bound=bound,
                bounded=text[bound_start:bound_end] if bound else "",
                bounded_at=bound_start if bound else -1,
                event=_event(text, q) if measure == TIME_OF_DAY else "",
                compared=_compared(text, q),
            )
        )
    for i, (first, then) in enumerate(zip(out, out[1:])):
        if _shares_bound(text, first, then):
            at = then.quantity.start
            out[i + 1] = replace(then, bound=first.bound, bounded=then.written, bounded_at=at)
    listed = list_lasts(text, [v.quantity for v in out])  # "20, 30 and 40 hours": three values, no range
    for i, (low, high) in enumerate(zip(out, out[1:])):
        joined = RANGE_JOIN.fullmatch(text, low.quantity.end, high.quantity.start)
        if joined and listed[i] is None and low.measure == high.measure and low.amount < high.amount:
            # Both ends are the range: "3-5 business days", from its first character to its unit's last,
            # and a qualifier of either end is the range's ("9 am to 5 pm on weekdays"), as are the
            # words next to either ("open from 9:00 to 18:00": the shop's opening hours, both ends).
            start, end = low.quantity.start, max(high.quantity.end, high.quantity.unit_end)
            whole, bounds = " ".join(text[start:end].split()), (low.amount, high.amount)
            of_both = low.qualifiers | high.qualifiers
            with_them = " ".join(text[start : max(end, qualified_ends[i + 1])].split())
            for at, end_value in ((i, low), (i + 1, high)):
                span = end_value.quantity._replace(start=start, unit_end=end)
                out[at] = replace(
                    end_value,
                    quantity=span,
                    bounds=bounds,
                    written=whole,
                    qualifiers=of_both,
                    qualified=with_them,
                    near=low.near | high.near,
                )
    return tuple(_with_own_words(text, out))


def _shares_bound(text: str, first: Value, then: Value) -> bool:
    """Whether `then` takes the bound said before `first`: two values, the first with its unit written,
    the one just after the other ("up to two cats or one dog", "at least 3 adults and 2 children"; not
    "under 5 and 3 adults", whose 5 is an age)."""
    a, b = first.quantity, then.quantity
    written = a.unit_end > a.end or text[a.start] in CURRENCY_SYMBOLS
    return (
        bool(first.bound and not then.bound and written and b.unit)
        and SHARED_BOUND_JOIN.fullmatch(text, max(a.end, a.unit_end), b.start) is not None
    )


def _bound(text: str, q: Quantity) -> tuple[str, tuple[int, int]]:
    """Which bound `text` gives `q` as ("" for none), and the span of the value with the bound's words
    (and the "not" that turns it round)."""
    end = max(q.end, q.unit_end)
    before = BOUND_BEFORE.search(text, max(0, q.start - _BOUND_REACH), q.start)
    if before is None and q.unit == CALENDAR_YEAR:
        before = YEAR_BOUND_BEFORE.search(text, max(0, q.start - _BOUND_REACH), q.start)
    if before and before.group(0).lower().startswith("up") and MOVED_UP.search(text, 0, before.start()):
        before = None  # "the rating shot up to 90 points" gives it, no bound
    if before:
        bound = "upper" if before.group("upper") else "lower"
        denied = DENIED_BOUND.search(text, 0, before.start()) or DENIED_SUBJECT_BOUND.search(
            text, 0, before.start()
        )
        if denied:
            return _OTHER_BOUND[bound], (denied.start(), end)
        if not NO_BOUND.search(text, 0, before.start()):
            return bound, (before.start(), end)
    after = BOUND_AFTER.match(text, end)
    if after:
        return ("upper" if after.group("upper") else "lower"), (q.start, after.end())
    return "", (q.start, end)


def _compared(text: str, q: Quantity) -> str:
    """ "more" or "less" where `text` gives `q` as a difference ("£4 more per hour than manual ones"),
    else ""."""
    after = DIFFERENCE_AFTER.match(text, max(q.end, q.unit_end))
    return "" if after is None else "more" if after.group("more") else "less"


def _event(text: str, q: Quantity) -> str:
    """ "start" or "end" where the verb just before a time says it is when something opens or closes
    ("opens at 8:00", "the last train leaves at 23:10"); "" for a state ("is open at 8:00")."""
    verb = EVENT_BEFORE.search(text, max(0, q.start - _EVENT_REACH), q.start)
    if verb is None or (
        verb.group(0).split()[0].lower() in STATES and COPULA_BEFORE.search(text, 0, verb.start())
    ):
        return ""
    return "end" if verb.group("end") else "start"


def _with_own_words(text: str, found: list[Value]) -> list[Value]:
    """`found`, each value with the words that are its alone among the values of its measure in its
    sentence. The words between two values go to the first up to a joint ("and", "or", a comma), to
    the second after it; where a value has words of its own before it ("born in 1950 and died in
    2010"), each value's words are those before it, else those after it ("58 mg for adults and 17 mg
    for children"), and the words before the first value's own are everyone's. A sentence's years are
    mostly the span of one thing ("the 1997-98 season"): they have their acts only (`_acts`). An
    amount or a time in a window of two sentences, where the other gives another of its measure, has
    the words of its sentence that the other's lacks ("fast for 8 hours before the scan. They may
    drink water up to 2 hours before": the 2 hours are the water's; "Standard delivery ... costs
    £4.99. Express delivery ... costs £9.99": £9.99 is the express's)."""
    out = list(found)
    amounts: dict[str, set[float]] = {}
    for v in found:
        amounts.setdefault(v.measure, set()).add(v.amount)
    if all(len(a) < 2 for a in amounts.values()):
        return out  # no measure with two values: nothing to tell apart (most texts; sentences cost)
    in_sentence: dict[int, int] = {}
    sentences = split_sentences(text)
    for n, sentence in enumerate(sentences):
        # A range's two ends are one member ("open from 8am to 8pm, and guests under 16 may use the pool
        # only from 9am to 11am": each range has its words)
        group: dict[str, dict[tuple[int, tuple[float, float] | None], list[int]]] = {}
        for i, v in enumerate(found):
            if sentence.start <= v.quantity.start < sentence.end:
                group.setdefault(v.measure, {}).setdefault((v.quantity.start, v.bounds), []).append(i)
                if not v.bounds:
                    in_sentence[i] = n
        for measure, by_place in group.items():
            members = list(by_place.values())
            if len({found[m[0]].bounds or found[m[0]].amount for m in members}) < 2:
                continue
            if measure in _SPANS:
                continue  # a window's years are told apart by their acts, below
            ends = [max(max(found[i].quantity.end, found[i].quantity.unit_end) for i in m) for m in members]
            starts = [found[m[0]].quantity.start for m in members]
            between = [text[end:start] for end, start in zip(ends, starts[1:])]
            if not all(VALUE_JOINT.search(b) for b in between):
                continue  # "from 23 February to 6 March": one span, not values of several things
            parts = [_split_at_joint(b) for b in between]
            leading = [content_words(after) for _, after in parts]
            if any(leading):  # each value's words come before it (and those after it, up to the joint)
                # The first value's are as many words before it as the others have: the subject before
                # them is everyone's ("The train departs at 8:15 and arrives at 10:40": the train's);
                # where the verb is said once for all, the first's are its subject ("Adults pay £10 and
                # children £5": the verb is everyone's).
                reach = max(len(w) for w in leading)
                first = _gapped_subject(text, sentence, starts, parts)
                if first is None:
                    first = content_words(text[sentence.start : starts[0]])[-reach:]
                words = [first, *leading]
                words = [w + content_words(lead) for w, (lead, _) in zip(words, parts + [("", "")])]
            else:
                words = [content_words(lead) for lead, _ in parts]
                words.append(content_words(text[ends[-1] : sentence.end]))
            owned = [frozenset(w) for w in words]
            for member, mine in zip(members, owned):
                shared = frozenset().union(*(o for o in owned if o is not mine))
                for i in member:
                    out[i] = replace(out[i], own=mine - shared - out[i].per)
    years = [i for i, v in enumerate(found) if v.measure == CALENDAR_YEAR and not v.bounds]
    if len({found[i].amount for i in years}) > 1:
        for i, act in zip(years, _acts(text, [found[i] for i in years])):
            out[i] = replace(out[i], own=act)
    return _own_across_sentences(out, in_sentence, sentences)


def _sentence_at(text: str) -> Callable[[int], Span]:
    """The sentence of `text` at each place: a value's text is its sentence, not the two-sentence
    window it is read in ("We aim to settle claims within 10 working days. ... treatment costing more
    than £500": the £500 is no claim's; "For Electric (Group E), the daily rate is £55 ... Excess
    Reduction cover costs £12 per day": the £12 is no row's)."""
    whole = Span(text, 0, len(text))
    if len(sentences := split_sentences(text)) < 2:
        return lambda at: whole
    return lambda at: next((s for s in sentences if s.start <= at < s.end), whole)


def _own_across_sentences(
    found: list[Value], in_sentence: dict[int, int], sentences: list[Span]
) -> list[Value]:
    """`found`, each amount or time that has no words of its own in its sentence given the words of its
    sentence that another sentence giving another amount of its measure lacks."""
    out = list(found)
    words = [frozenset(t for t in content_words(s.text) if not has_digit(t)) for s in sentences]
    for i, n in in_sentence.items():
        v = found[i]
        if v.own or not (is_measured(v.quantity) or v.measure == TIME_OF_DAY):
            continue  # a count's "unit" may be any next word ("12 737 MAX 9", "seven MAX 9")
        theirs = [k for k, o in enumerate(found) if o.measure == v.measure and in_sentence.get(k, n) != n]
        if any(found[k].amount != v.amount for k in theirs):
            their_words = frozenset().union(*(words[in_sentence[k]] for k in theirs))
            out[i] = replace(v, own=words[n] - their_words - v.per - _priced(v))
    return out


def _priced(value: Value) -> frozenset[str]:
    """The words that say a value is a price, where it is one: a sentence's "costs" tells none of its
    prices from another sentence's ("We collect up to three bulky items for £35. Each further item
    costs £10": "It costs £35 for up to three items" is of the first)."""
    return _PRICE_TERMS if value.measure in (*CURRENCY_CODES, MONEY) else frozenset()


_PRICE_TERMS = frozenset(content_words(" ".join((*PRICED, *PRICE_NOUNS))))


def _acts(text: str, years: list[Value]) -> list[frozenset[str]]:
    """Each year's act, where each year of a text follows an act of its own, a past form: "built in
    1902 and extended in 1968" (built, extended), "signed in Vienna in 1815. It was ratified by Prussia
    in 1816" (signed, ratified); none where any year lacks one ("members in 1971 ... now in 2017") or
    two acts are one ("released in 2001 and re-released in 2005")."""
    acts = [ACT_BEFORE.search(text, max(0, y.quantity.start - _ACT_REACH), y.quantity.start) for y in years]
    said = [a.group(1).lower() if a else "" for a in acts]
    stems = [stem(w) for w in said]
    if not all(_past(w) for w in said) or len(set(stems)) < len(stems):
        return [frozenset()] * len(years)
    return [frozenset({s}) for s in stems]


def _past(word: str) -> bool:
    """Whether `word` is a past form: "extended", "built", "rebuilt", "withdrew"."""
    base = next((word[len(p) :] for p in PAST_PREFIXES if word.startswith(p)), word)
    return word.endswith("ed") or word in IRREGULAR_FORMS or base in IRREGULAR_FORMS


def _gapped_subject(
    text: str, sentence: Span, starts: list[int], parts: list[tuple[str, str]]
) -> tuple[str, ...] | None:
    """The content words of the first value's subject where the values after it say theirs without a
    verb, the first's verb standing for all ("Adults pay £10 and children £5": adults; "Lunch is
    served from 12:00 to 14:00 and dinner from 18:00": lunch), as the parse reads it; None where a
    later value has a verb of its own ("departs at 8:15 and arrives at 10:40") or the first none."""
    verbs = sorted(sentence.start + at for at in verb_starts(sentence.text))
    later = [(start - len(after), start) for start, (_, after) in zip(starts[1:], parts)]
    if any(begin <= at < end for at in verbs for begin, end in later):
        return None
    first_verb = next((at for at in verbs if sentence.start <= at < starts[0]), None)
    if first_verb is None:
        return None
    return content_words(text[sentence.start : first_verb])


def _split_at_joint(between: str) -> tuple[str, str]:
    """The words between two values, cut at their last joint: (the first's, the second's)."""
    joints = list(VALUE_JOINT.finditer(between))
    if not joints:
        return between, ""
    return between[: joints[-1].start()], between[joints[-1].end() :]


def misattributed(claimed: Sequence[Value], stated: Sequence[Value]) -> list[tuple[Value, Value]]:
    """(claim's value, evidence's value) where the claim names the words of one of several values of
    its measure in an evidence sentence and that value is not the claim's: "Adults take 17 mg"
    against "58 mg for adults and 17 mg for children" (the 17 mg is the children's). A claim that
    states the named value itself too, of the same thing, restates the sentence; and
    where the evidence gives the claim's amount under all of its qualifiers and the named value lacks
    some, the claim's is that one ("25 pence per item per day" of "25p per item per day", not the "£3
    processing fee" its "fees" name).
    Two values under the same qualifiers are told apart by their words ("e-bikes EUR 35 per day"),
    and a bound by the value given as one. A value of a table row's column is named by every word of its
    header ("A dental for a dog under 20 kg costs £280" of "..., the dog under 20 kg is £240 and the dog
    20 kg and over is £280"), or by a month the header covers ("In January a suite costs £240" of "...,
    the low season (Nov-Mar) is £160 and the high season (Apr-Oct) is £240")."""
    out = []
    named_by = [_named(c, claimed, stated) for c in claimed]
    for c, named in zip(claimed, named_by):
        qualified = [o for o in stated if o.holds(c) and c.qualifiers <= o.qualifiers]
        # Of a cell's values, the one under the claim's qualifiers ("£1 to unlock, then 20p per minute"
        # for "10p a minute")
        named = [o for o in named if c.qualifiers and c.qualifiers <= o.qualifiers] or named
        # A range named is one value: its end that is the claim's ("from 9am to 11am" for "from 8am")
        named = [o for o in named if not (o.bounds and c.bounds and _low_end(o) != _low_end(c))]
        if (
            len(named) == 1
            and not named[0].holds(c)
            and not c.holds(named[0])
            # the claim states the named value too, of what names it: it restates the sentence (not
            # "£260 for a dog and £290 for a cat", which gives the dog's £290 to the cat)
            and not any(o.holds(named[0]) and named[0] in theirs for o, theirs in zip(claimed, named_by))
            and not (qualified and not c.qualifiers <= named[0].qualifiers)
            and not _bound_elsewhere(c, named[0], stated)
        ):
            out.append((c, named[0]))
    return out


def _named(c: Value, claimed: Sequence[Value], stated: Sequence[Value]) -> list[Value]:
    """The evidence's values that the claim's value `c` names (`_names`) and can be of its thing. A claim
    of several values of the measure names a value's words next to it ("The plan costs 12 euros, and
    the family plan 25 euros": "family" is the 25's), and a table column by the words that are its
    alone ("£260 for a dog and £290 for a cat": the dog's is £260)."""
    several = sum(o.measure == c.measure for o in claimed) > 1
    words, said = (c.near, c.own or c.said) if several else (c.words, c.said)
    return [
        o for o in stated if _names(c, words, said, o, stated) and c.compatible(o) and not c.of_another_row(o)
    ]


def _names(c: Value, words: frozenset[str], said: frozenset[str], o: Value, stated: Sequence[Value]) -> bool:
    """Whether the claim's value `c`, with `words` around it, names the evidence's `o`: a table cell by
    its column (among the words `said` of it) or the months its column covers, any other value by its
    own words; so too one of a cell's values of a measure ("10p per page black and white, 30p per page
    colour")."""
    if o.column and (_names_column(said, o) or bool(o.column_months and o.column_months & _months_said(c))):
        return True
    cell = (o.row, o.column, o.measure)
    return bool(o.own & words) and (
        not o.column or any(p is not o and (p.row, p.column, p.measure) == cell for p in stated)
    )


def _names_column(said: frozenset[str], o: Value) -> bool:
    """Whether words `said` of a claim's value name the table column of `o` by every word of its header,
    a price's header less the words that say it is a price, an adjective as its adverb too ("costs
    £326.70 privately" names "the private fee")."""
    told = {w for w in o.column if stem(w) not in _priced(o)}
    return o.column <= said or (bool(told) and all(w in said or f"{w}ly" in said for w in told))


def _months_said(v: Value) -> set[int]:
    """The months the sentence of `v` names in full or short, "may" and "mar" left to their verbs."""
    return {MONTHS[w] for w in v.said if w in MONTHS and w not in VERB_MONTHS}


def _low_end(v: Value) -> bool:
    return v.bounds is not None and v.amount == v.bounds[0]


def _bound_elsewhere(claimed: Value, named: Value, stated: Sequence[Value]) -> bool:
    """Whether the claim's value is a bound that the named value is not and another of the evidence's
    is: "a maximum of £10 per item" is of the cap in "charged 25p per item per day, capped at £6"."""
    return (
        bool(claimed.bound)
        and named.bound != claimed.bound
        and any(o.bound == claimed.bound and claimed.compatible(o) for o in stated)
    )


_IN_BRACKETS = re.compile(r"\(([^()]{1,20})\)")


def _row_words(text: str, q: Quantity, header: str) -> frozenset[str]:
    """The words of the row label and column `header` of a table sentence's value ("For Deep clean, the
    price (GBP) is 25": deep, clean, price): what it is the value of, outside its clause."""
    named = f"{row_of_value(text, q.start) if header else ''} {header}"
    return frozenset(t for t in content_words(named) if not has_digit(t))


def _months_covered(header: str) -> frozenset[int]:
    """The months a column header names, a range's whole ("high season (Apr-Oct)": April to October)."""
    return frozenset(months(header) | months_inside(month_ranges(header)))  # a range's ends are named


@per_text(maxsize=4096)  # each value of a sentence reads it
def _said(text: str) -> frozenset[str]:
    """Every word of `text` in lower case, a bound as one word however it is said ("dog under 20 kg"
    and "dog of less than 20 kg" both say "at most", "20 kg and over" and "20 kg or more" "at least")."""
    marked = BOUND_SAID.sub(lambda m: " atmost " if m.group("upper") else " atleast ", text)
    return frozenset(w.lower() for w in words(marked))


def header_unit(header: str) -> str:
    """The unit a column header names in brackets ("price (GBP)": GBP, "duration (hours)": hour), or ""."""
    for named in _IN_BRACKETS.findall(header):
        # The value parser reads the bracketed unit as if the value stood beside it: "GBP 1 GBP".
        unit = next((u.unit for u in quantities(f"{named} 1 {named}") if u.unit), "")
        if unit:
            return unit
    return ""


MONEY = "money"  # the unit read under a money header that names no currency ("the price is 25")


def unit_read(sentence: str, n: Quantity) -> str:
    """What `n` counts: its own unit, else what the column header before it names ("the price (GBP)
    is 25": GBP, "the duration (hours) is 4": hour, "the fee is 30": money)."""
    if n.unit or sentence[n.start : n.start + 1] in CURRENCY_SYMBOLS:
        return n.unit
    header = column_header(sentence, n.start)
    unit = header_unit(header)
    return unit or (MONEY if any(w.lower() in MONEY_NOUNS for w in words(header)) else "")


def gives_money(sentence: str, differences: bool = False) -> bool:
    """Whether `sentence` gives an amount of money: in a currency ("£6", "50p", "73 cents") or under a
    money column's header ("the price (GBP) is 25", "the fee is 30"); a difference between two
    amounts ("£4 more per hour than manual ones") only with `differences`."""
    return any(
        unit_read(sentence, n) in CURRENCY_CODES | {MONEY} and (differences or not _compared(sentence, n))
        for n in quantities(sentence)
    )


def states_one_of(text: str, given: Sequence[Value]) -> bool:
    """Whether `text` states one of the amounts of a measure `given` (a question's "100 sq ft" asks of
    the table row whose floor area it is; a bare number or a count names no row)."""
    return any(v.same_amount(o) for v in given if is_measured(v.quantity) for o in values(text))


def costs_nothing(sentence: str) -> bool:
    """Whether `sentence` says that its subject costs nothing: "Parking is free for residents",
    "collected free of charge", "at no charge", "costs nothing"; not "a free trial" (something else
    that is free) nor "the Free plan" (a name)."""
    free = said_free(sentence)
    if free is None:
        return False
    adverb = _ADVERB_BEFORE.search(sentence, 0, free.start())  # "is completely free"
    said_of = adverb.start() if adverb else free.start()
    return free.group(0).lower() != "free" or bool(COPULA_BEFORE.search(sentence, 0, said_of))


_ADVERB_BEFORE = re.compile(r"\b\w+ly\s+$")


@per_text(maxsize=4096)  # an evidence sentence is read for claim after claim
def said_free(text: str) -> re.Match[str] | None:
    """Where `text` says that something costs nothing ("free", "free of charge", "no charge", "costs
    nothing"); not "feel free", "duty-free" or "free to choose"."""
    return next((m for m in FREE.finditer(text) if not NOT_FREE_BEFORE.search(text, 0, m.start())), None)


def of_something_else(claimed: Sequence[Value], stated: Sequence[Value]) -> list[tuple[Value, Value]]:
    """(claim's value, evidence's value) where the evidence gives the claim's amount (a measure's or a
    time), but only under another qualifier on an axis both name: "1.2 kg when full" against "1.2 kg
    when empty", "16 GB of storage" against "16 GB of RAM", "09:00 on weekdays" against "09:00 on
    Saturdays"."""
    out = []
    for c in claimed:
        if not is_measured(c.quantity) and c.measure != "time":
            continue  # a count's or a year's qualifiers are loose ("Two people sit ... while talking")
        same = [o for o in stated if o.measure == c.measure and o.holds(c) and not c.of_another_row(o)]
        if same and not any(c.compatible(o) for o in same):
            out.append((c, same[0]))
    return out


def reversed_bounds(claimed: Sequence[Value], stated: Sequence[Value]) -> list[tuple[Value, Value]]:
    """(claim's value, evidence's value) where the evidence gives the claim's amount of the same thing
    only as the other bound: "less than 1.6 million copies" against "over 1.6 million copies", "up to
    40 minutes" against "at least 40 minutes". Two groups of a count or an age ("children under 12",
    "over 12") are not."""
    out = []
    for c in claimed:
        if not c.bound or c.bounds:
            continue
        same = [o for o in stated if c.compatible(o) and c.same_amount(o) and not c.of_another_row(o)]
        groups = not is_measured(c.quantity) and c.measure != "time" and _names_group(c)
        if same and all(c.bounded_otherwise(o) and not (groups and _names_group(o)) for o in same):
            out.append((c, same[0]))
    return out


_GROUP_BOUNDS = BOUND_PREPOSITIONS | AGE_COMPARATIVES


def _names_group(value: Value) -> bool:
    """Whether a bound names a group rather than an amount said of it ("children under 12", "people
    over 65", "drivers younger than 21"): two groups of a count or an age either side of one number
    are no contradiction."""
    return value.bounded.split()[0].lower() in _GROUP_BOUNDS


def aligned(value: Value, others: Sequence[Value]) -> list[Value]:
    """The values of `others` that can be of what `value` is of, those sharing most of its qualifiers
    first; none of a table row about another thing."""
    fitting = [o for o in others if value.compatible(o) and not value.of_another_row(o)]
    return sorted(fitting, key=lambda o: -len(value.qualifiers & o.qualifiers))


def clashes(claimed: Sequence[Value], stated: Sequence[Value]) -> list[tuple[Value, Value]]:
    """(claim's value, evidence's value) for each value of a claim that no aligned value of the
    evidence states and each aligned one that gives another amount, one the claim does not state itself
    (the best aligned first; whether they are of one thing is the caller's to judge):
    "10 working days" where the evidence says "5 working days"; "09:00 on weekdays" where it says
    "07:30 on weekdays" (its "09:00 on Saturdays" is of another day). A claim of "42% at 3pm and 58%
    at 6pm" against evidence that gives only "58% at 6pm" is not contradicted: its 3pm is not stated."""
    out: list[tuple[Value, Value]] = []
    for c in claimed:
        candidates = aligned(c, stated)
        # The values of most of the claim's cases say it: "In winter it opens at 9:00", not the "8:00
        # to 13:00" of every Saturday
        most = max((c.cases_shared(o) for o in candidates), default=0)
        candidates = [o for o in candidates if c.cases_shared(o) == most]
        if not candidates or any(o.holds(c) or c.holds(o) for o in candidates):
            continue  # stated, or the claim's range holds the evidence's value ("30-45" / "35")
        if all(c.bound_holds(o) or o.bound_holds(c) for o in candidates):
            continue  # "less than an hour" of "within 30 minutes" (not "over $1 million" of "$181,674")
        out.extend(
            (c, o)
            for o in candidates
            if not any(o.same_amount(other) for other in claimed if other.measure == o.measure)
        )
    return out


def _qualifiers(text: str, found: Sequence[Quantity]) -> dict[Quantity, list[tuple[str, str, int]]]:
    """Each qualifier of `text` given to the value nearest to it (ties to the value before it, as
    English puts "when full" after the weight), a day that opens a sentence to each value of it:
    value -> [(axis, what, end of the qualifier)]."""
    out: dict[Quantity, list[tuple[str, str, int]]] = {}
    if not found:
        return out
    for axis, pattern in (
        ("day", DAY_QUALIFIER),
        ("season", SEASON_QUALIFIER),
        ("when", STATE),
        ("per", RATE),
        ("for", MODEL),
    ):
        for m in pattern.finditer(text):
            what = next(g for g in m.groups() if g)
            if what.lower() in STOPWORDS:
                continue  # "when the ...": a clause, not a state
            if any(q.start <= m.start() < max(q.end, q.unit_end) for q in found):
                continue  # part of a value's own words ("every 3 hours", "every hour" is the value)
            if axis == "per" and _of_a_unit_asked(text, m.start(), found):
                continue  # "how many weeks a year are the 15 hours given": the weeks' rate, not the 15's
            # a rate's adjective before a noun ("the monthly price") qualifies what that noun is
            attributive = axis == "per" and what.lower() in RATE_OF and bool(_NEXT_NOUN.match(text, m.end()))
            what = RATE_OF.get(what.lower(), what) if axis == "per" else what
            what = what if axis == "for" else stem(what.lower())

            def distance(
                q: Quantity, m: re.Match[str] = m, attributive: bool = attributive
            ) -> tuple[int, int]:
                end = max(q.end, q.unit_end)
                if m.start() >= end:
                    # nor back across a comma to the value before it ("the daily rate is £55, the
                    # weekly rate is £330": weekly is the £330's), nor, said before its noun, across
                    # an "and" ("the weekly price is £19 and the monthly price is £76")
                    cut = _VALUE_BREAK.search(text, end, m.start()) or (
                        attributive and VALUE_AND.search(text, end, m.start())
                    )
                    return (m.start() - end + (_QUALIFIER_REACH if cut else 0), 0)
                # no qualifier reaches across an "and" to the value after it ("58 metres tall when
                # built and 30 metres tall after the fire": built is the 58 metres')
                across = _QUALIFIER_REACH if VALUE_AND.search(text, m.end(), q.start) else 0
                return (q.start - m.end() + across, 1)

            opened = _opened(text, m.start()) if axis in ("day", "season") else None
            if opened is not None:
                # "At weekends it opens at 8:00 and closes at 18:00": the day of every value after it
                for q in found:
                    if m.end() <= q.start < opened.end:
                        out.setdefault(q, []).append((axis, what, m.end()))
                continue
            nearest = min(found, key=distance)
            if distance(nearest)[0] <= _QUALIFIER_REACH:
                out.setdefault(nearest, []).append((axis, what, m.end()))
    for q in found:
        of = OF_WHAT.match(text, max(q.end, q.unit_end)) if q.measure[0] in _AMOUNTS_OF else None
        if of:
            out.setdefault(q, []).extend(("of", what, of.end()) for what in content_words(of.group(1)))
    return out


_LAST_WORD = re.compile(r"([^\W\d_]+)\s*$")


def _of_a_unit_asked(text: str, at: int, found: Sequence[Quantity]) -> bool:
    """Whether the rate at `at` follows a unit that no number of `text` has ("how many weeks a year"):
    it is that unit's rate, and no value's."""
    unit = _LAST_WORD.search(text, max(0, at - _QUALIFIER_REACH), at)
    return unit is not None and is_unit(unit.group(1)) and not any(q.unit_end == unit.end(1) for q in found)


def _opened(text: str, at: int) -> Span | None:
    """The sentence of `text` that a qualifier at `at` opens (a preposition at most before it)."""
    sentence = next((s for s in split_sentences(text) if s.start <= at < s.end), None)
    return sentence if sentence and LEADING_PREPOSITION.fullmatch(text, sentence.start, at) else None


def near_words(text: str, q: Quantity) -> frozenset[str]:
    """The words next to any number of `text`, one with no unit too ("Three of the attackers were
    killed": killed)."""
    return _near(text, q, _row(_sentence_at(text)(q.start), q))


def _row(sentence: Span, q: Quantity) -> frozenset[str]:
    """The content words of what the table row `q` is in is about, if its sentence is a row's."""
    name = last_row_name(sentence.text, q.start - sentence.start)
    return frozenset(content_words(subject_of(name))) if name is not None else frozenset()


def _near(text: str, q: Quantity, row: frozenset[str]) -> frozenset[str]:
    """The content words next to a value, within its clause ("Retrieved January 15, 2022. President
    Trump" puts no president near 2022); in a table row read as a sentence, `row`, what its row is
    about, too ("For Deep clean, the price (GBP) is 65": the price of a deep clean)."""
    text = _UNIT_IN_BRACKETS.sub(lambda m: f" {m.group(1)} ", text)  # "(GBP)" ends no clause
    end = max(q.end, q.unit_end)
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, q.start)), default=0)
    clause_end = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    before = content_words(text[clause_start : q.start])[-NEAR_WORDS:]
    label = _label_over(text, clause_start, q.start)
    after = content_words(text[end:clause_end])[:NEAR_WORDS]
    if not before and not after and text.startswith(",", clause_end):
        # A value that opens its sentence before a comma is of the clause after it: "Every 6 hours,
        # the backup job runs", "In May 1995, the museum opened".
        main_end = next((m.start() for m in _CLAUSE_END.finditer(text, clause_end + 1)), len(text))
        after = content_words(text[clause_end + 1 : main_end])[:NEAR_WORDS]
    elif not before and set(after) <= DAYS_PER.keys() and text.startswith(",", clause_start - 1):
        # A value whose clause after a comma holds nothing but its rate is of the clause before it:
        # "The nearest car park is Queen's Yard, 200 metres away, at £8 a day".
        previous_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, clause_start - 1)), default=0)
        before = content_words(text[previous_start : clause_start - 1])[-NEAR_WORDS:]
    return frozenset(_RATE_TERMS.get(t, t) for t in (*before, *after, *row, *label) if not has_digit(t))


# A label that opens its line before a colon names what the values on the line are of ("University: 30
# docks, beside the library"); a numbered one does not ("Step 3:", "passage 1:").
_LABEL = re.compile(r"(?:^|\n)[ \t]*(?P<label>[^\W\d][^\n:\d]{0,40}):[ \t]")


def _label_over(text: str, clause_start: int, at: int) -> tuple[str, ...]:
    """The content words of the label whose colon opens the clause of the value at `at`, if any."""
    m = _LABEL.match(text, max(text.rfind("\n", 0, at), 0))
    if m is None or m.end() > at or clause_start != m.end("label") + 1:  # the clause opens at its colon
        return ()
    return content_words(m.group("label"))[-NEAR_WORDS:]
