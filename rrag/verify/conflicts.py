"""Conflicting sources: retrieved documents that give different values for the same thing.

A claim can be quoted word for word from policy.pdf ("a warranty of 12 months") while faq.html says
"a 2-year warranty": both verdicts are honest, and the answer is still unreliable. For each value a
claim states, the retrieved sentences about the claim (they share most of its topic words) are read
for values of the same measure under compatible qualifiers (rrag.text.values: money in one currency,
a percentage, a duration, a count of the same unit; "per wash" is not "monthly", "on Saturdays" not
"on weekdays"). The sources disagree when one states the claim's value and another, which never
states it, gives a different one with a word in common next to it ("warranty"): "sources disagree:
12 months (policy.pdf) vs 2-year (faq.html)", the sources in the order they were retrieved, so that
one pair reads the same from either claim and is reported once. One document listing several values
(full-time 25 days, part-time 15 days) is not a disagreement, nor are values of other things in the
same sentences. Given the question's judge (`answers`: does a sentence answer the question asked?
yes, no, or unsure), a sentence that does not answer it is about another subject or measure, and no
disagreement ("check-in closes 15 minutes before departure" beside "arrive at least 45 minutes before
departure", asked how early to arrive); one that does is about what the claim is about, whatever its
words ("freeze your membership" and "a membership can be frozen"); where it is unsure, the words
decide as without it.

Words only find the candidates. Given the offline judge, two sources disagree by the counterfactual the
verifier uses for a single claim (rrag/verify/counterfactual.py): the claim with the other source's value
in its place must follow from the other source's sentence, and the claim itself must not. "Team Heron
sits in room 40" does not make "Team Falcon sits in room 40" follow, so the two teams' rooms are no
disagreement; "a 2-year warranty" makes "All products carry a warranty of 2 years" follow, so it is one.
Each side is read up to the end of the value's clause (the other source need not give the claim's other
facts), and the other source must write the names that clause gives ("Team Falcon", "Off-Peak") and
the nouns that name its kind ("payment" of "a late payment charge": a late collection's is another).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from rrag.text import chunk_sentences, content_words, stem
from rrag.text.clauses import compound_nouns
from rrag.text.reading import read
from rrag.text.values import Value
from rrag.types import ClaimResult, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.counterfactual import Judge, follows_instead, written_in

CONFLICT_PREFIX = "sources disagree"
SAME_THING = 0.6  # share of the smaller topic the two sentences must have in common
MIN_SHARED_TERMS = 2
_NO_SLOT = frozenset({"date"})  # the day of a date: the same day of two months is no disagreement
MAX_SENTENCES_READ = 4  # per value a claim states: the sentences that could disagree the models read


@dataclass(frozen=True)
class Stated:
    """A value one source gives, and where that source came in the retrieved list."""

    source: str
    rank: int
    value: Value
    sentence: str  # the sentence that gives it
    written: frozenset[str] = frozenset()  # the content words of the chunk it is in
    compound: str = ""  # the hyphenated compound nearest before it in its sentence ("check-in")


def _topic(text: str) -> frozenset[str]:
    """What a sentence is about: its content words less the values and their units ("X400" stays)."""
    reading = read(text)
    units = {stem for v in reading.values for stem in content_words(v.written)}
    return frozenset(t for t in reading.content_words if not re.fullmatch(r"[\d.,]+", t) and t not in units)


def _same_thing(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared >= min(MIN_SHARED_TERMS, len(a), len(b)) > 0 and shared / min(len(a), len(b)) >= SAME_THING


@dataclass(frozen=True)
class _Sentence:
    topic: frozenset[str]
    values: tuple[Stated, ...]
    text: str


# For each sentence, whether it answers the question asked (None: unsure); all of them read at once.
Answers = Callable[[Sequence[str]], Sequence[bool | None]]


def _sentences(contexts: Sequence[RetrievedChunk]) -> list[_Sentence]:
    """The retrieved sentences that state a value, read once for all the claims of an answer."""
    out = []
    for rank, rc in enumerate(contexts):
        written = frozenset(content_words(rc.chunk.text))
        for sentence in chunk_sentences(rc.chunk.text):
            stated = tuple(
                Stated(rc.chunk.source, rank, v, sentence.text, written, _compound_before(sentence.text, v))
                for v in read(sentence.text).values
                if v.measure not in _NO_SLOT
            )
            if stated:
                out.append(_Sentence(_topic(sentence.text), stated, sentence.text))
    return out


def disagreement(claim: str, contexts: Sequence[RetrievedChunk], judge: Judge | None = None) -> str:
    """ "sources disagree: ..." when the retrieved sources give different values for what `claim`
    states a value of (confirmed by `judge` where given); "" when they agree or the claim states no
    value."""
    return _disagreement(claim, _sentences(contexts), None, judge)


def _claimed(claim: str) -> list[Value]:
    """The values a claim states that sources can disagree about."""
    return [v for v in read(claim).values if v.measure not in _NO_SLOT]


def _disagreement(
    claim: str, sentences: list[_Sentence], answers: Answers | None, judge: Judge | None
) -> str:
    """The first disagreement about a value `claim` states among `sentences`: "sources disagree on the
    duration: 12 months (policy.pdf) vs 2-year (faq.html)"; between sentences about what the claim is
    about (`answers`, else their words), one the judge confirms, where given. The question's model and
    the judge read only the sentences a pair of values could come from, the cheap tests first."""
    claimed = _claimed(claim)
    topic = _topic(claim)
    if not claimed or not topic:
        return ""

    def about(among: Sequence[_Sentence]) -> list[bool]:
        # Where the question's model is unsure, the judge's counterfactual decides if there is one (it
        # reads "freeze your membership" as "a membership can be frozen"), else the words.
        said = answers([s.text for s in among]) if answers is not None else [None] * len(among)
        return [
            yes if yes is not None else judge is not None or _same_thing(topic, s.topic)
            for s, yes in zip(among, said)
        ]

    for said in claimed:
        of_it = [(s, v) for s in sentences for v in s.values if said.compatible(v.value)]
        stating = [(s, v) for s, v in of_it if _states(v.value, said)]
        others = [(s, v) for s, v in of_it if not _states(v.value, said) and not _within(v.value, said)]
        could = [(a, b) for _, a in stating for _, b in others if _could_differ(a, b)]
        if not could:
            continue
        # Whether a sentence stating the claim's value is about it matters only where that value could
        # pair with another, or shares a source with one (a source that states the claim's value about
        # its subject does not disagree with it): only those sentences are read.
        paired, their_sources = {a for a, _ in could}, {b.source for _, b in could}
        read_now = [(s, v) for s, v in stating if v in paired or v.source in their_sources]
        backing = [v for (_, v), yes in zip(read_now, about([s for s, _ in read_now])) if yes]
        backed_by = {v.source for v in backing}
        candidates = [
            (a, s, b) for a in backing for s, b in others if b.source not in backed_by and _could_differ(a, b)
        ]
        # The first few sentences that could disagree, in the order retrieved, are read by the models,
        # and each other value is put to the judge once, whichever backing value it pairs with.
        read_first = list(dict.fromkeys(s for _, s, _ in candidates))[:MAX_SENTENCES_READ]
        answering = {s for s, yes in zip(read_first, about(read_first)) if yes}
        confirmed = cache(lambda b, said=said: judge is None or _says_otherwise(judge, claim, said, b))
        pair = next(((a, b) for a, s, b in candidates if s in answering and confirmed(b)), None)
        if pair:
            first, second = sorted(pair, key=lambda v: v.rank)
            return (
                f"{CONFLICT_PREFIX}{_measure(first.value)}: {first.value.bounded or first.value.written} "
                f"({first.source}) vs {second.value.bounded or second.value.written} ({second.source})"
            )
    return ""


def _could_differ(a: Stated, b: Stated) -> bool:
    """Whether two values could be of one thing: of one measure, with a word next to both, and not each
    of its own compound of that word ("Check-in is from 3pm" and "Late check-out until 2pm" share
    "check": a hyphenated compound is one word)."""
    if not (a.value.near & b.value.near and a.value.compatible(b.value)):
        return False
    ours, theirs = a.compound, b.compound
    return not (ours and theirs and ours != theirs and set(ours.split("-")) & set(theirs.split("-")))


_COMPOUND = re.compile(r"\b[^\W\d_]+(?:-[^\W\d_]+)+\b")


def _compound_before(sentence: str, value: Value) -> str:
    """The hyphenated compound nearest before `value` in `sentence`, lower-cased ("check-in" for 3pm in
    "Check-in is from 3pm and check-out is by 11am"); "" where there is none."""
    found = _COMPOUND.findall(sentence, 0, value.quantity.start)
    return found[-1].lower() if found else ""


def _says_otherwise(judge: Judge, claim: str, said: Value, other: Stated) -> bool:
    """Whether `other` gives another value of what `claim` states `said` of: the claim with `other`'s
    value (and its bound) in the place of `said` follows from `other`'s sentence, the claim does not,
    each read up to the end of the value's clause; and `other`'s chunk writes the names that clause
    gives (a value of another plan or team is no other value of this one's)."""
    q = said.quantity
    start, end = (
        (said.bounded_at, said.bounded_at + len(said.bounded))
        if said.bounded
        else (q.start, max(q.end, q.unit_end))
    )
    clause = _up_to_its_clause(claim, end)
    if any(not written_in(name, other.written) for _, _, name in read(clause).named):
        return False  # of another thing (the judge reads an Off-Peak fee into a freeze fee's sentence)
    kinds = _kinds_named(clause)
    if kinds and not kinds <= {stem(w) for w in other.written}:
        return False  # of another kind: a late collection's charge is no late payment's
    instead = other.value.bounded or other.value.written
    swapped = claim[:start] + instead + claim[end:]
    claim_p, swapped_p = judge(
        [
            (other.sentence, clause),
            (other.sentence, _up_to_its_clause(swapped, start + len(instead))),
        ]
    )
    return follows_instead(claim_p, swapped_p)


def _kinds_named(clause: str) -> frozenset[str]:
    """The stems of the nouns that say what kind of thing `clause` gives a value of ("payment" in "A
    late payment charge of £10"), less the values' own words ("a 12 month contract")."""
    units = {stem(w) for v in read(clause).values for w in content_words(v.written)}
    return frozenset(stem(w) for noun in compound_nouns(clause) for w in content_words(noun)) - units


def _up_to_its_clause(claim: str, end: int) -> str:
    """`claim` up to the end of the clause holding what ends at `end`: the other source need not give
    the claim's other facts (", for a fee of 5 GBP a month") to give another value of the same thing."""
    cut = re.search(r"[,;:]\s", claim[end:])
    return claim if cut is None else claim[: end + cut.start()].rstrip() + "."


def _measure(value: Value) -> str:
    """What a value measures, as a reader names it: " on the duration", " on the amount in GBP"; "" for
    a count, whose unit names it ("3 rooms")."""
    named = {"duration": "the duration", "%": "the percentage", "time": "the time"}.get(value.measure)
    if named is None and value.measure.isupper():
        named = f"the amount in {value.measure}"
    return f" on {named}" if named else ""


def _states(value: Value, said: Value) -> bool:
    """Whether `value` gives the amount `said` does, as the same bound if either is one ("up to 7 kg"
    does not state "at least 7 kg")."""
    return value.same_amount(said) and not value.bounded_otherwise(said)


def _within(value: Value, said: Value) -> bool:
    """Whether one of the two is a bound the other's amount is within: "a download speed of at least
    250 Mbps" is no disagreement with "the download speed is 500 Mbps"."""
    return said.bound_holds(value) or value.bound_holds(said)


def flag_conflicts(
    results: Sequence[ClaimResult],
    contexts: Sequence[RetrievedChunk],
    answers: Answers | None = None,
    judge: Judge | None = None,
) -> list[ClaimResult]:
    """`results` with each disagreement recorded on its claim; a supported claim becomes partial.
    `answers(sentence)`: whether a retrieved sentence answers the question asked (None: unsure); one
    that does not cannot disagree with the answer. `judge`: the offline judge that confirms each
    disagreement the words find."""
    checked = [r.claim.checkable and r.verdict.verified and bool(_claimed(r.claim.text)) for r in results]
    if not any(checked):
        return list(results)  # no value to disagree about: the retrieved sentences are not read
    sentences = _sentences(contexts)
    asked = _remembered(answers) if answers is not None else None
    flagged = []
    for result, check in zip(results, checked):
        found = _disagreement(result.claim.text, sentences, asked, judge) if check else ""
        if found:
            result = replace(result, conflict=found, verdict=_at_most_partial(result.verdict, found))
        flagged.append(result)
    return flagged


def _remembered(answers: Answers) -> Answers:
    """`answers` reading each sentence once for all the claims of an answer."""
    known: dict[str, bool | None] = {}

    def asked(texts: Sequence[str]) -> list[bool | None]:
        new = [t for t in dict.fromkeys(texts) if t not in known]
        if new:
            known.update(zip(new, answers(new)))
        return [known[t] for t in texts]

    return asked


def _at_most_partial(verdict: Verdict, found: str) -> Verdict:
    if verdict.status is not ClaimStatus.SUPPORTED:
        return verdict
    return replace(verdict, status=ClaimStatus.PARTIAL, reason=f"{found}; {verdict.reason}")
