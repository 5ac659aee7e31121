"""Whether a value of the claim and one of the evidence are of the same thing (the value and month
clashes of rrag/verify/lexical.py), and a value the claim borrowed from a sentence about something
else."""

from __future__ import annotations

from collections.abc import Sequence

from rrag.lang.en.function_words import PRONOUNS
from rrag.lang.en.negation import DENIED_BEFORE
from rrag.text import words
from rrag.text.values import Value
from rrag.verify.compared import _Candidate, _share, _single, _Text

SAME_TOPIC = 0.7  # share of the claim's non-number words the evidence must hold for a month clash
# ... for a value clash, where the words next to the two values must also meet ("Backups are taken
# every 8 hours" against "The backup job runs every 3 hours").
SAME_TOPIC_NEAR_VALUE = 0.5


# A negator earlier in a value's clause (rrag.lang.en.negation.DENIED_BEFORE): a value denied on both
# sides is compared as said ("was not scrapped until 1961" / "until 1962").


def _denied(text: str, value: Value) -> bool:
    """Whether a negation earlier in its clause denies `value` of `text`; a bound reads its own "not"
    ("do not take more than 4 tablets" is at most 4: text.values)."""
    return not value.bound and bool(DENIED_BEFORE.search(text, 0, value.quantity.start))


def _stated_elsewhere(value: Value, sentences: Sequence[_Text], against: Value | None = None) -> bool:
    """Whether the retrieved text states `value` somewhere, in its measure under compatible qualifiers
    (and not in a table row about another thing) with a word next to it that is next to the claim's
    (not "three people" rescued for "three people" killed), or as a loose number next to such a word:
    then another value in the best window (which may be about something else) is no clash. Read in
    single sentences (`_single`): a window of two states what its sentences do, and is not parsed
    again. A value of fewer of the claim's cases than the clashing one (`against`: a day, a season) says
    nothing of the claim's case ("The shop opens at 9:00" of "On Saturdays it opens at 10:00")."""
    specific = value.cases_shared(against) if against else 0
    return any(
        value.compatible(o)
        and o.holds(value)
        and not value.of_another_row(o)
        and o.near & value.near
        and value.cases_shared(o) >= specific
        for sentence in sentences
        for o in sentence.values
    ) or any(  # "Three of the attackers were killed" states "killed three militants"
        amount == value.quantity.value and near & value.near
        for sentence in sentences
        for amount, near in sentence.bare
    )


def _borrowed(c: _Text, best: _Candidate, candidates: Sequence[_Candidate]) -> tuple[Value, _Text] | None:
    """(claim's value, the sentence that states it) where the best window is two sentences, the
    claim's value is stated only in the one that shares none of the claim's topic and names a subject
    of its own (no "It was played in 1986"), and the other, about the claim's subject, gives a value
    of its own: "Passwords must be: 12 hours" against "Passwords must be at least 12 characters long.
    Sessions expire after 12 hours." """
    if not c.topic:
        return None
    if best.sentences != 2:
        return None
    sentences = _single(candidates)
    halves = [
        cand.features
        for cand in candidates
        if cand.sentences == 1 and cand.chunk is best.chunk and best.start <= cand.start < best.end
    ]

    def states(sentence: _Text, said: Value) -> bool:
        return any(said.compatible(o) and o.holds(said) for o in sentence.values)

    for said in c.values:
        holding = [h for h in halves if states(h, said)]
        if len(holding) != 1 or _share(c.topic, holding[0].topic) or words(holding[0].text)[0] in PRONOUNS:
            continue
        subject = halves[1 - halves.index(holding[0])]
        of_the_subject = any(states(s, said) and _share(c.topic, s.topic) for s in sentences)
        if subject.values and _share(c.topic, subject.topic) and not of_the_subject:
            return said, holding[0]
    return None


def _same_subject(c: _Text, topic: float, said: Value, found: Value) -> bool:
    """Whether two aligned values are of the same thing: the claim is at least half about what the
    evidence is about and the words next to the two values meet ("Retrieved January 15, 2022" is not
    the year of an appointment); a claim that is only its value ("Section 7") is about what its
    measure names."""
    if not c.topic:
        return True
    return topic >= SAME_TOPIC_NEAR_VALUE and _share(said.near, found.near) > 0


def _end_of(text: str, written: str, start: int) -> int:
    """Where `written` (spaces normalised) ends in `text` from `start`; `start` if it is not there."""
    at = text.find(written, start)
    return at + len(written) if at == start else start
