"""The value rules: another amount of the same measure for the same thing under the same qualifiers
contradicts (VALUE: a value given as the other bound, a value clash, another month); a value the
evidence states only of something else is borrowed (BORROWED); a number the evidence never states
leaves the claim unsupported (UNSTATED). Whether a value of the claim and one of the evidence are of
the same thing is read here too."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rrag.lang.en.function_words import PRONOUNS
from rrag.lang.en.negation import DENIED_BEFORE
from rrag.text import month_mentions, words
from rrag.text.quantities import FRACTION, every_unit, is_measured
from rrag.text.values import Value, clashes, misattributed, near_words, of_something_else, reversed_bounds
from rrag.types import ClaimStatus, ValueClash, Verdict
from rrag.verify.rules.base import ALWAYS, Comparison, window_rule
from rrag.verify.rules.compared import Statement, Window, has_value, share, single_sentences
from rrag.verify.rules.contrasts.words import OPPOSITES
from rrag.verify.rules.negation import quoted_phrase

VALUE, UNSTATED = "value", "unstated"
# A value the best window states only of other things: under another qualifier ("1.2 kg when empty"
# for "1.2 kg when full"), or in a sentence about something else while its sentence about the claim's
# subject gives a value of its own (see `_borrowed`). The claim borrowed a value.
BORROWED = "borrowed value"
SAME_TOPIC = 0.7  # share of the claim's non-number words the evidence must hold for a month clash
# ... for a value clash, where the words next to the two values must also meet ("Backups are taken
# every 8 hours" against "The backup job runs every 3 hours").
SAME_TOPIC_NEAR_VALUE = 0.5


def _denied(text: str, value: Value) -> bool:
    """Whether a negation earlier in its clause denies `value` of `text`; a bound reads its own "not"
    ("do not take more than 4 tablets" is at most 4: text.values). A value denied on both sides is
    compared as said ("was not scrapped until 1961" / "until 1962")."""
    return not value.bound and bool(DENIED_BEFORE.search(text, 0, value.quantity.start))


def _stated_elsewhere(value: Value, sentences: Sequence[Statement], against: Value | None = None) -> bool:
    """Whether the retrieved text states `value` somewhere, in its measure under compatible qualifiers
    (and not in a table row about another thing) with a word next to it that is next to the claim's
    (not "three people" rescued for "three people" killed), or as a loose number next to such a word:
    then another value in the best window (which may be about something else) is no clash. Read in
    single sentences (`single_sentences`): a window of two states what its sentences do, and is not
    parsed again. A value of fewer of the claim's cases than the clashing one (`against`: a day, a
    season) says nothing of the claim's case ("The shop opens at 9:00" of "On Saturdays it opens at
    10:00")."""
    specific = value.cases_shared(against) if against else 0
    # ... nor a value with fewer of the claim's words next to it ("one calendar month's notice" to
    # cancel, against "Private Office memberships need three months' notice"); not counting what it
    # is per (the "year" of "the rent is £39 a year" makes a fee "per year" no nearer to it than a
    # row's "concession rent is £39.00")
    near = value.unqualified_near
    needed = max(len(near & against.near), 1) if against else 1
    return any(
        value.compatible(o)
        and o.holds(value)
        and not value.of_another_row(o)
        and len(o.near & near) >= needed
        and value.cases_shared(o) >= specific
        for sentence in sentences
        for o in sentence.values
    ) or any(  # "Three of the attackers were killed" states "killed three militants"
        len(near_words(sentence.text, q) & value.near) >= needed
        for sentence in sentences
        for q in sentence.loose
        if q.value == value.quantity.value  # the words of the other numbers are never read
    )


def _borrowed(c: Statement, best: Window, candidates: Sequence[Window]) -> tuple[Value, Statement] | None:
    """(claim's value, the sentence that states it) where the best window is two sentences, the
    claim's value is stated only in the one that shares none of the claim's topic and names a subject
    of its own (no "It was played in 1986"), and the other, about the claim's subject, gives a value
    of its own: "Passwords must be: 12 hours" against "Passwords must be at least 12 characters long.
    Sessions expire after 12 hours." """
    if not c.topic:
        return None
    if best.sentences != 2:
        return None
    sentences = single_sentences(candidates)
    halves = [
        cand.statement
        for cand in candidates
        if cand.sentences == 1 and cand.chunk is best.chunk and best.start <= cand.start < best.end
    ]

    def states(sentence: Statement, said: Value) -> bool:
        return any(said.compatible(o) and o.holds(said) for o in sentence.values)

    for said in c.values:
        holding = [h for h in halves if states(h, said)]
        if len(holding) != 1 or share(c.topic, holding[0].topic) or words(holding[0].text)[0] in PRONOUNS:
            continue
        subject = halves[1 - halves.index(holding[0])]
        of_the_subject = any(states(s, said) and share(c.topic, s.topic) for s in sentences)
        if subject.values and share(c.topic, subject.topic) and not of_the_subject:
            return said, holding[0]
    return None


def _same_subject(c: Statement, topic: float, said: Value, found: Value) -> bool:
    """Whether two aligned values are of the same thing: the claim is at least half about what the
    evidence is about and the words next to the two values meet ("Retrieved January 15, 2022" is not
    the year of an appointment); a claim that is only its value ("Section 7") is about what its
    measure names."""
    if not c.topic:
        return True
    return topic >= SAME_TOPIC_NEAR_VALUE and share(said.near, found.near) > 0


def _the_rest(said: Value, found: Value) -> bool:
    """Whether two percentages are a share and the rest of it, each said with the other's opposite:
    "20% of the pupils failed" is "80% of the pupils passed"."""
    return (
        said.measure == found.measure == "%"
        and math.isclose(said.amount + found.amount, 100)
        and any(OPPOSITES.get(word, set()) & found.near for word in said.near)
    )


def _same_bounded_thing(c: Statement, topic: float, said: Value, found: Value) -> bool:
    """Whether one amount given as two bounds is a bound of the same thing: as `_same_subject`, but the
    words next to either value need only be in the other's text ("cancel less than 48 hours before" /
    "cancel your check-up at least 48 hours in advance"). The same amount of the same measure is
    already most of the match; another amount needs its neighbours to meet."""
    if not c.topic:
        return True
    return topic >= SAME_TOPIC_NEAR_VALUE and bool(said.near & found.words or found.near & said.words)


def _end_of(text: str, written: str, start: int) -> int:
    """Where `written` (spaces normalised) ends in `text` from `start`; `start` if it is not there."""
    at = text.find(written, start)
    return at + len(written) if at == start else start


# ------------------------------------------------------------------------------------------------
# The rules


def _clashing(comparison: Comparison, clash: ValueClash, confidence: float) -> Verdict:
    reason = f"the evidence says {clash.evidence_value!r} where the claim says {clash.claim_value!r}"
    return comparison.verdict(ClaimStatus.CONTRADICTED, confidence, 0.05, reason, clash)


@window_rule(VALUE, 200)
def other_bound(comparison: Comparison) -> Verdict | None:
    """The same amount of the same thing, bounded the other way: "under 18" where the evidence says
    "at least 18"."""
    c, e = comparison.claim, comparison.evidence
    flipped = [
        (said, found)
        for said, found in reversed_bounds(c.values, e.values)
        if _same_bounded_thing(c, comparison.topic, said, found)
    ]
    if not flipped:
        return None
    said, found = flipped[0]
    start = said.bounded_at
    return _clashing(
        comparison, ValueClash(said.bounded, found.bounded, start, start + len(said.bounded)), 0.8
    )


@window_rule(VALUE, 210)
def value_clash(comparison: Comparison) -> Verdict | None:
    """Another amount of the same measure, under the same qualifiers, where the rest of the claim is what
    the evidence is about; or a value of the evidence's sentence that the claim gives to another of its
    qualifiers ("adults take 17 mg" where 17 mg is for children), though the amount is stated there."""
    text, c, e, topic = comparison.text, comparison.claim, comparison.evidence, comparison.topic
    misplaced = [
        (said, found)
        for said, found in misattributed(c.values, e.values)
        if _same_subject(c, topic, said, found)
    ]
    aligned = misplaced or [
        (said, found)
        for said, found in clashes(c.values, e.values)
        if _same_subject(c, topic, said, found)
        and not has_value(e.loose, said.quantity)
        and not _stated_elsewhere(said, comparison.single, found)
        and _denied(text, said) == _denied(e.text, found)
        and not _the_rest(said, found)
    ]
    if not aligned:
        return None
    # The pair that shares most qualifiers ("£32 per year" / "£320 per year", not "£32 per month"),
    # then is bounded alike ("a maximum of £10" / "capped at £6", not the rate "25p per day" capped),
    # then whose words next to the values meet most ("net sales of $1.5 billion" / "of $1.8
    # billion", not the prior year's earnings of another sentence), the evidence value's own words
    # first (a table row's "security deposit is £400" for "a deposit of £250", not the "weekly rate
    # is £330 and the security deposit" beside it)
    said, found = max(
        aligned,
        key=lambda pair: (
            len(pair[0].qualifiers & pair[1].qualifiers),
            pair[0].bound == pair[1].bound,
            share(pair[0].near, pair[1].own),
            share(pair[0].near, pair[1].near),
        ),
    )
    # Quoted with their qualifiers where those told the evidence's values apart ("2.9 kg when full",
    # not the "1.2 kg when empty" beside it), or the two ("10 days per year" / "10 days per month").
    told_apart = said.qualifiers != found.qualifiers or any(
        o.measure == found.measure and o.qualifiers != found.qualifiers for o in e.values
    )
    ours, theirs = (said.qualified, found.qualified) if told_apart else (said.written, found.written)
    start = said.quantity.start
    end = max(said.quantity.end, said.quantity.unit_end, _end_of(text, ours, start))
    return _clashing(comparison, ValueClash(ours, theirs, start, end), 0.8)


@window_rule(VALUE, 220)
def other_month(comparison: Comparison) -> Verdict | None:
    """Another month of the same thing, one no other retrieved sentence names."""
    text, c, e = comparison.text, comparison.claim, comparison.evidence
    unstated_months = comparison.unstated_months
    month_clash = comparison.topic >= SAME_TOPIC and unstated_months and e.months - c.months
    if not month_clash or c.months <= frozenset().union(*(s.months for s in comparison.single)):
        return None
    said_month = next(m for m in month_mentions(text) if m[0] in unstated_months)
    found_month = next(m for m in month_mentions(e.text) if m[0] not in c.months)
    _, start, end = said_month
    return _clashing(
        comparison, ValueClash(text[start:end], e.text[found_month[1] : found_month[2]], start, end), 0.75
    )


# A value borrowed from a sentence about something else always overrules the model's yes: its window
# fools the model (docs/verifier.md).
@window_rule(BORROWED, 600, overrules_below=ALWAYS)
def of_another_qualifier(comparison: Comparison) -> Verdict | None:
    """The claim's amount, which the evidence gives only under another qualifier."""
    c, e, topic = comparison.claim, comparison.evidence, comparison.topic
    qualified_otherwise = [
        (said, found)
        for said, found in of_something_else(c.values, e.values)
        if _same_subject(c, topic, said, found) and not _stated_elsewhere(said, comparison.single)
    ]
    if not qualified_otherwise:
        return None
    said, found = qualified_otherwise[0]
    reason = f"the evidence gives {said.written!r} only as {found.qualified!r}, not {said.qualified!r}"
    return comparison.verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason)


@window_rule(BORROWED, 610, overrules_below=ALWAYS)
def of_another_sentence(comparison: Comparison) -> Verdict | None:
    """The claim's value, which the window states only in its sentence about something else."""
    borrowed = _borrowed(comparison.claim, comparison.best, comparison.candidates)
    if not borrowed:
        return None
    said, other = borrowed
    said_where = quoted_phrase(other.text, said.written.split()[0].lower())
    reason = f"the evidence gives {said.written!r} of something else: {said_where!r}"
    return comparison.verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason)


# An unstated number overrules the model's yes on a one-sentence claim below P = 0.7, measured on the
# dev sets with group cross-validation (python -m training.guard_cv; docs/verifier.md): 0.6 until the
# combiner read the speaker's words and records, and the demo's invented EUR 2,000 bonus rose from P
# 0.55 to 0.63.
@window_rule(UNSTATED, 800, overrules_below=0.7)
def unstated(comparison: Comparison) -> Verdict | None:
    """A number or month of the claim that the evidence does not state."""
    text, c, e = comparison.text, comparison.claim, comparison.evidence
    stated = {  # ranges and bounds
        v.quantity.end
        for v in c.values
        if any(o.holds(v) or v.holds(o) or v.bound_holds(o) or o.bound_holds(v) for o in e.values)
    }
    # A fraction is mostly a rough share ("over half", "nearly a third"): one the evidence does not
    # give is no unstated number, though another one of the same thing clashes. Nor is one of a thing
    # the evidence names: its "a week" says "one week", "a single week"; nor "every day", which the
    # evidence may say "daily" (no number is written).
    missing = [
        q
        for q in c.numbers
        if not has_value(e.numbers, q)
        and q.end not in stated
        and q.unit != FRACTION
        and not (q.value == 1 and q.unit in e.terms)
        and not every_unit(text, q)
    ]
    if not (missing or comparison.unstated_months):
        return None
    # An amount quoted with its unit ("5 euros"), a count as its number (a count's "unit" may be any
    # next word: "27 German")
    what = ", ".join(repr(q.written(text) if is_measured(q) else text[q.start : q.end]) for q in missing)
    what = what or "the month"
    return comparison.verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, f"the evidence does not state {what}")
