"""Values and names checked by a counterfactual the judge confirms.

A claim whose value or name differs from its aligned evidence ("Set your oven to 400°F and bake for 25
minutes" against "Bake at 350°F for 25 minutes") is contradicted when the claim with the evidence's
value put in its place is supported ("Set your oven to 350°F and bake for 25 minutes": the judge says
it follows) and the claim itself is not, whatever words surround the value. No word list decides which
value is the claim's: the judge reads the whole sentence both ways, so a value of another thing ("room
40" of another team) makes no counterfactual it supports, and no contradiction.

The same test tells two sources that disagree from two sources about different things
(rrag/verify/conflicts.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rrag.lang.en.numerals import ORDINAL_SUFFIXES, ORDINALS
from rrag.text import content_words, split_sentences, words
from rrag.text.quantities import CALENDAR_YEAR, Quantity, months, same_amount, same_temperature
from rrag.text.reading import Reading, read
from rrag.text.values import Value

ENTAILMENT = 0  # the judge's label order: entailment, neutral, contradiction
# The counterfactual must be what the judge says follows (its most likely label, at least this
# likely), and the claim must not be: both sides of "supported" and by a margin, so that a judge's
# coin toss between two near-equal readings decides nothing.
FOLLOWS = 0.5
MARGIN = 0.25
MAX_SWAPS = 6  # counterfactuals judged per claim sentence (each is one pass of the judge)
DIGITS = re.compile(r"\d(?:[\d,.]*\d)?")  # a number written in digits ("1,250", "8.5")

Judge = Callable[[Sequence[tuple[str, str]]], np.ndarray]


@dataclass(frozen=True)
class Swap:
    """The claim's words `said` at `start`:`end` of the claim, and the evidence's `instead`."""

    start: int
    end: int
    said: str
    instead: str
    is_value: bool = True  # a value of a measure, or else a name

    def applied(self, claim: str) -> str:
        return claim[: self.start] + self.instead + claim[self.end :]


@dataclass(frozen=True)
class Confirmed:
    """A swap the judge confirms: the claim with `swap.instead` follows from `evidence`, the claim not."""

    swap: Swap
    evidence: str
    claim_entailment: float
    swapped_entailment: float

    @property
    def reason(self) -> str:
        return f"the documents say {self.swap.instead!r} where the claim says {self.swap.said!r}"


def swaps(claim: str, evidence: str, written: Set[str] = frozenset()) -> list[Swap]:
    """Each value or name of `claim` that the sentence `evidence` gives otherwise, with each of the
    sentence's values of its measure (or names) in its place, values first. A value the sentence
    states too makes no swap, nor a name whose words it writes, or whose content words the documents
    write (`written`: their content_words): "Depeche Mode", named all over an article, is no wrong
    name for its album because one sentence names "UK CD" instead."""
    c, e = read(claim), read(evidence)
    return list(dict.fromkeys([*_value_swaps(c, e), *_name_swaps(c, e, written)]))


def _ordinal(reading: Reading, q: Quantity) -> bool:
    """Whether `q` is said as an ordinal ("2nd", "third"): a rank is no amount to put in its place."""
    written = reading.text[q.start : q.end].lower()
    return written in ORDINALS or (written[:-2].isdigit() and written.endswith(ORDINAL_SUFFIXES))


def written_alike(claim: str, evidence: str) -> str:
    """`claim` with each value that `evidence` states too written as `evidence` writes it: "8,500
    grams" as "8.5 kg", "six hundred dollars" as "$600", "ninety minutes" as "one and a half hours",
    a range as a range ("8am to 4pm" as "08:00 to 16:00"). The judge reads words, and a value said
    otherwise is no other value; one it does not state stays as the claim says it (a counterfactual's
    business). A bare number ("under twenty-five", "room twelve") takes the evidence's number only,
    not its unit."""
    c = read(claim)
    if not c.quantities:
        return claim  # most claims: the window's values need not be read (every window, every claim)
    e = read(evidence)
    ranges = {  # (start, end, instead) of the claim: each end of a range, its words between kept
        (q.start, max(q.end, q.unit_end), o.written(e.text))
        for v in c.values
        if v.bounds
        for x in [next((x for x in e.values if _same_range(v, x)), None)]
        if x is not None
        for q, o in _ends(c, v, e, x)
        if q.written(c.text) != o.written(e.text)
    }
    written = sorted(ranges)
    theirs = [x for x in e.values if not x.bounds and x.measure != CALENDAR_YEAR]
    ours = {v.quantity: v for v in c.values}
    for q in c.quantities:
        stop = max(q.end, q.unit_end)
        v = ours.get(q)
        if any(start < stop and q.start < end for start, end, _ in written):
            continue  # overlaps a value already written
        if q.unit and (v is None or v.bounds or v.measure == CALENDAR_YEAR):
            continue  # no amount of its own
        alike = next((x.quantity for x in theirs if _alike(c, q, v, e, x)), None)
        digits = DIGITS.search(e.text, alike.start, alike.end) if alike and v is None else None
        if alike is None or (v is None and digits is None):
            continue
        written.append((q.start, q.end, digits[0]) if digits else (q.start, stop, alike.written(e.text)))
    out, end = [], len(claim)
    for start, stop, instead in sorted(written, reverse=True):
        out += [claim[stop:end], instead]
        end = start
    return claim[:end] + "".join(reversed(out))


def _ends(c: Reading, v: Value, e: Reading, x: Value) -> list[tuple[Quantity, Quantity]]:
    """The claim's two numbers of its range `v`, each with the evidence's of its range `x`."""
    ours = [q for q in c.quantities if v.quantity.start <= q.start < v.quantity.unit_end]
    theirs = [q for q in e.quantities if x.quantity.start <= q.start < x.quantity.unit_end]
    return list(zip(ours, theirs)) if len(ours) == len(theirs) == 2 else []


def _same_range(v: Value, x: Value) -> bool:
    """Whether the claim's range `v` is the evidence's range `x`: the same two ends of one measure (not
    years, which have no amount of their own, as for a single value)."""
    return (
        x.bounds is not None
        and v.bounds is not None
        and v.measure == x.measure != CALENDAR_YEAR
        and v.compatible(x)
        and all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(v.bounds, x.bounds))
    )


def _alike(c: Reading, q: Quantity, v: Value | None, e: Reading, x: Value) -> bool:
    """Whether the evidence's `x` is the claim's `q` written otherwise: one amount of one measure in
    the same case, one temperature in the other scale, the same day of the same month (or `q`, read
    as no value, a bare number of `x`'s), both ranks or neither."""
    other = x.quantity
    if _ordinal(c, q) != _ordinal(e, other) or q.written(c.text) == other.written(e.text):
        return False
    if v is None:
        return not q.unit and math.isclose(q.value, other.value, rel_tol=1e-9)
    if same_temperature(q, other, c.text[q.start : q.end], e.text[other.start : other.end]):
        return True
    if "date" in (v.measure, x.measure):  # a date's amount is its day: its month must be the same too
        month, other_month = months(q.written(c.text)), months(other.written(e.text))
        return v.measure == x.measure and q.value == other.value and bool(month) and month == other_month
    return v.measure == x.measure and v.compatible(x) and same_amount(q, other)


def _value_swaps(c: Reading, e: Reading) -> Iterator[Swap]:
    claimed = {v.quantity: v for v in c.values}
    for q in c.quantities:
        measure, amount = q.measure
        ordinal = _ordinal(c, q)
        same = [x for x in e.quantities if x.measure[0] == measure and _ordinal(e, x) == ordinal]
        if any(math.isclose(x.measure[1], amount, rel_tol=1e-6) for x in same):
            yield from _rate_swaps(c, claimed.get(q), e)
            continue
        # not a value the claim states of something else ("a bonus of five hundred euros for paying in
        # ten thousand euros": the €10,000 is the deposit's, and the €50 the bonus's)
        said = [o.measure[1] for o in c.quantities if o is not q and o.measure[0] == measure]
        same = [x for x in same if not any(math.isclose(x.measure[1], o, rel_tol=1e-6) for o in said)]
        value = claimed.get(q)
        if value is not None:
            if any(x.bounds and x.measure == value.measure and x.holds(value) for x in e.values):
                continue  # within a range the sentence gives ("within 30 minutes" of "20 to 40
                # minutes"), not between two of its values ("£32" of "£19 a week and £76 a month")
            # the values under the claim's qualifiers, where the sentence gives one ("£32 a week": its
            # weekly £19, not its monthly £76)
            alike = {
                x.quantity for x in e.values if x.measure == value.measure and x.qualifiers & value.qualifiers
            }
            same = [x for x in same if x in alike] or same
        for x in same:
            yield Swap(q.start, max(q.end, q.unit_end), q.written(c.text), x.written(e.text))


def _rate_swaps(c: Reading, value: Value | None, e: Reading) -> Iterator[Swap]:
    """The claim's amount with its rate said after it, put as the sentence says the same amount at
    another rate ("£1.50 a month" where it says "£1.50 a week"): the same number states no rate."""
    if value is None or not value.per or value.qualified == value.written:
        return
    start = value.quantity.start
    if c.text.find(value.qualified, start) != start:
        return  # its words not as read (spaces): nothing to put in their place
    for x in e.values:
        said_alike = x.measure == value.measure and math.isclose(x.amount, value.amount, rel_tol=1e-6)
        if said_alike and x.per and not x.per & value.per and x.qualified != x.written:
            yield Swap(start, start + len(value.qualified), value.qualified, x.qualified)


def _name_swaps(c: Reading, e: Reading, written: Set[str]) -> Iterator[Swap]:
    evidence_words = set(e.words)
    theirs = [name for _, _, name in e.named]
    ours = {name for _, _, name in c.named}
    for start, end, name in c.named:
        if set(words(name)) <= evidence_words or written_in(name, written):
            continue
        for other in theirs:
            if other not in ours:
                yield Swap(start, end, name, other, is_value=False)


def written_in(name: str, written: Set[str]) -> bool:
    """Whether the documents (`written`: their content words) write each content word of `name`."""
    return set(content_words(name)) <= written


def follows_instead(claim: np.ndarray, counterfactual: np.ndarray) -> bool:
    """Given the judge's (entailment, neutral, contradiction) for a claim and for its counterfactual
    against one sentence: whether the counterfactual follows from it and the claim does not."""
    return (
        int(counterfactual.argmax()) == ENTAILMENT
        and counterfactual[ENTAILMENT] >= FOLLOWS
        and claim[ENTAILMENT] < FOLLOWS
        and counterfactual[ENTAILMENT] - claim[ENTAILMENT] >= MARGIN
    )


@dataclass(frozen=True)
class Counterfactuals:
    """What the judge must read to confirm a swap of `claim`: each sentence of its window with the
    claim, and each sentence with the claim's counterfactual (`pairs`), each written as the sentence
    writes its values (`written_alike`); `confirmed` reads the judge's answer."""

    claim: str
    sentences: tuple[str, ...]  # of the window
    found: tuple[tuple[str, Swap], ...]  # (evidence sentence, swap)

    @cached_property
    def pairs(self) -> list[tuple[str, str]]:
        return [
            *((s, written_alike(self.claim, s)) for s in self.sentences),
            *((s, written_alike(swap.applied(self.claim), s)) for s, swap in self.found),
        ]

    def confirmed(self, probabilities: np.ndarray) -> Confirmed | None:
        """Of the counterfactuals, the one the judge (`probabilities`, one row per pair) most
        believes, where it follows from its sentence and the claim does not (FOLLOWS, MARGIN), nor
        from another sentence of the window ("Students pay 12 dollars" beside the adults' 16)."""
        sentences = self.sentences
        claim_p = dict(zip(sentences, probabilities[: len(sentences)]))
        if any(p[ENTAILMENT] >= FOLLOWS for p in claim_p.values()):
            return None
        confirmed = [
            Confirmed(swap, sentence, float(claim_p[sentence][ENTAILMENT]), float(p[ENTAILMENT]))
            for (sentence, swap), p in zip(self.found, probabilities[len(sentences) :])
            if follows_instead(claim_p[sentence], p)
        ]
        # A value put right explains the claim; another name in its place may only say whom the value
        # is of ("Team Heron sits in room 40" for "Team Falcon sits in room 40"): a value goes first.
        values = [c for c in confirmed if c.swap.is_value]
        return max(values or confirmed, key=lambda c: c.swapped_entailment, default=None)


def counterfactuals(claim: str, window: str, written: Set[str] = frozenset()) -> Counterfactuals | None:
    """The counterfactuals of `claim` against each sentence of its evidence `window` (None: none).
    Each sentence is read on its own: a value the window gives of another thing, in another sentence,
    hides no clash with the sentence about the claim's. `written`: the content words of all the
    documents retrieved (see `swaps`)."""
    sentences = tuple(dict.fromkeys(s.text for s in split_sentences(window)))
    found = [(sentence, swap) for sentence in sentences for swap in swaps(claim, sentence, written)]
    return Counterfactuals(claim, sentences, tuple(found[:MAX_SWAPS])) if found else None


def confirm(judge: Judge, claim: str, window: str, written: Set[str] = frozenset()) -> Confirmed | None:
    """The swap the judge confirms of `claim` against a sentence of its evidence `window`, if any."""
    found = counterfactuals(claim, window, written)
    return found.confirmed(judge(found.pairs)) if found else None
