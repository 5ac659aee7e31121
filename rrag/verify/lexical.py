"""The offline verifier until a trained model lands: evidence first, then the cheap signals that work.

For each claim the chunks' sentences (and pairs of adjacent sentences) are ranked by how much of the
claim they cover; the best one is the evidence. On it: content-word coverage, values and months
(another amount of the same measure, for the same thing under the same qualifiers, contradicts; a
missing one leaves the claim unsupported), negation, and the contrasts of rrag/verify/contrasts.py
(opposite words, modality, quantifiers, swapped names, roles and ordinals).

Hard evidence (HARD_EVIDENCE: a value clash, a negated word the other side states plainly, a
contrast) is read against the aligned evidence only, and a yes/no fact of a structured record
(rrag/verify/records.py) against the record, so that it can stand against any model
(rrag/verify/guarded.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from rrag.text import (
    MONTH_NAMES,
    PRONOUNS,
    Negation,
    Quantity,
    chunk_sentences,
    content_words,
    denies,
    has_digit,
    is_partitive,
    month_mentions,
    months,
    negation_count,
    negations,
    plain_words,
    quantities,
    same_amount,
    stem,
    word_spans,
    words,
)
from rrag.text.values import Value, clashes, misattributed, near_words, values
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify import contrasts, records
from rrag.verify.base import Verifier
from rrag.verify.contrasts import ENTITY, MODALITY, OPPOSITE, ORDER, QUANTIFIER, ROLE, contrast
from rrag.verify.evidence import evidence_at, not_verified, nothing_retrieved
from rrag.verify.records import facts, hours_clash, rating_clash, record_clash

SUPPORTED_COVERAGE = 0.8  # share of the claim's (weighted) content words the evidence must hold
PARTIAL_COVERAGE = 0.6  # below this the evidence is about something else
CONTRADICTION_COVERAGE = 0.7  # negation and antonyms only contradict evidence about the same thing
SAME_CLAUSE = 0.6  # share of a negated clause's words the other side must hold for a negation mismatch
MIN_CLAUSE_TERMS = 3  # "it was not the most violent": too little said to be sure what is denied
SAME_CLAUSE_BACK = 0.5  # share of the claim's words a negated evidence clause must hold
# Verbs that deny themselves: "has not stopped them" says they went on.
_NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")
_NEGATIVE_VERBS = frozenset(stem(w) for w in "stopped prevented failed avoided lacked refused denied".split())
SAME_TOPIC = 0.7  # share of the claim's non-number words the evidence must hold for a month clash
# ... for a value clash, where the words next to the two values must also meet ("Backups are taken
# every 8 hours" against "The backup job runs every 3 hours").
SAME_TOPIC_NEAR_VALUE = 0.5
NUMBER_WEIGHT = 2.0  # a number carries more of a claim's meaning than a word
TABLE_CELL_SEPARATOR = " | "  # how extracted tables separate cells
NAME = "lexical"
# The evidence against a claim that the rules can hold (see LexicalVerifier.assess).
VALUE, NEGATION, UNSTATED = "value", "negation", "unstated"
RECORD = "record"  # a yes/no fact of a structured record the claim says the opposite of (records.py)
# A contradiction no model may overrule.
HARD_EVIDENCE = frozenset({VALUE, NEGATION, OPPOSITE, MODALITY, QUANTIFIER, ENTITY, ROLE, ORDER, RECORD})
# A value the best window states only in a sentence about other things, while its sentence about the
# claim's subject gives a value of its own: the claim borrowed a value (see _borrowed).
BORROWED = "borrowed value"
NEGATED_EVIDENCE = "negated evidence"  # weak: a negation on one side only, not about the same words
# What states nothing a source could hold: an answer's preamble ("Based on the given passages, ..."),
# a leading hedge ("I'm not sure, but ...", "No, but ...", "Not really, ...": it negates nothing after
# it) and words of conversation ("Yes, like good riddance"). A claim is judged on the rest.
_PREAMBLE = re.compile(
    r"\W*(?:based on|according to|from|in)\s+(?:the\s+)?(?:given|provided|above|available|retrieved)?\s*"
    r"(?:passages?|context|documents?|information|texts?|sources?)\s*,",
    re.IGNORECASE,
)
_LEADING_CLAUSE = re.compile(r"\s*([^,.;:!?]{0,80}?)\s*(?:,|\bbut\b)", re.IGNORECASE)  # a hedge is short
_HEDGE_WORDS = frozenset(
    stem(w) for w in "im m know sure really think certain remember recall believe idea".split()
)
_HEDGE_MAX_WORDS = 6
_DISCOURSE_WORDS = frozenset(
    stem(w)
    for w in """yes yeah yep hi hello hey oh ok okay actually basically
    however moreover furthermore additionally indeed overall""".split()
)


def _asserted(text: str) -> str:
    """`text` less a leading preamble or hedge."""
    preamble = _PREAMBLE.match(text)
    if preamble:
        return text[preamble.end() :]
    lead = _LEADING_CLAUSE.match(text)
    return text[lead.end() :] if lead and _is_hedge(lead.group(1)) else text


def _is_hedge(clause: str) -> bool:
    return (
        len(words(clause)) <= _HEDGE_MAX_WORDS
        and set(content_words(clause)) <= _HEDGE_WORDS
        and negation_count(clause) > 0
    )


@dataclass(frozen=True)
class _Text:
    """What the verifier compares, computed once per claim and per evidence candidate. Ranking the
    candidates needs only the words (and the numbers of those whose words can still rank first); the
    rest is read on the few candidates that are compared further (most retrieved sentences are never
    the evidence)."""

    text: str
    asserted: str  # the text less a preamble or leading hedge
    terms: frozenset[str]  # stemmed content words
    numeric: frozenset[str]  # the terms with a digit, which weigh NUMBER_WEIGHT
    weight: float  # the terms' total weight, the denominator of coverage

    @classmethod
    def of(cls, text: str) -> _Text:
        asserted = _asserted(text)
        terms = frozenset(content_words(asserted)) - _DISCOURSE_WORDS
        numeric = frozenset(t for t in terms if has_digit(t))
        return cls(text, asserted, terms, numeric, len(terms) + (NUMBER_WEIGHT - 1) * len(numeric))

    @cached_property
    def numbers(self) -> tuple[Quantity, ...]:
        return quantities(self.text)

    @cached_property
    def topic(self) -> frozenset[str]:
        """The terms less numbers, their units and months: what the claim is about ("12 months" and
        "2 years" of a warranty are one topic)."""
        slots = {stem(w) for q in self.numbers for w in _PLAIN_WORD.findall(q.written(self.text).lower())}
        return frozenset(t for t in self.terms if not _is_slot(t) and t not in slots)

    @cached_property
    def stems(self) -> frozenset[str]:
        """Every word stemmed (a name the claim swaps must be in no retrieved text)."""
        return frozenset(stem(w) for w in words(self.text))

    @cached_property
    def values(self) -> tuple[Value, ...]:
        return values(self.text)

    @cached_property
    def loose(self) -> tuple[Quantity, ...]:
        """The numbers that name what they count loosely, if at all: with no unit ("Of 2,117
        passengers, 95 have ..." states "95 passengers"), or a part ("three of the attackers")."""
        return tuple(q for q in self.numbers if not q.unit or is_partitive(self.text, q))

    @cached_property
    def bare(self) -> tuple[tuple[float, frozenset[str]], ...]:
        """Each loose number, and the words near it."""
        return tuple((q.value, near_words(self.text, q)) for q in self.loose)

    @cached_property
    def months(self) -> frozenset[int]:
        return frozenset(months(self.text))

    @cached_property
    def negations(self) -> tuple[Negation, ...]:
        """Each negator with the terms it reaches ("not cover" -> cover)."""
        return tuple(negations(self.asserted))

    @cached_property
    def denies(self) -> bool:
        """A negator or negative word anywhere."""
        return denies(self.asserted)

    @cached_property
    def plain(self) -> frozenset[str]:
        """The terms that occur outside any negation."""
        return plain_words(self.asserted)


@dataclass(frozen=True)
class _Candidate:
    chunk: Chunk
    start: int
    end: int
    features: _Text
    sentences: int = 1  # a window of one sentence or of two adjacent ones


class LexicalVerifier(Verifier):
    name = NAME

    def __init__(self, read_records: bool = True) -> None:
        # The judge's features are the rules' reading of the sentence windows it reads; a record's
        # facts are decided before the judge is asked (guarded.py), so it reads none of them.
        self.read_records = read_records

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        return [verdict for verdict, _ in self.assess(claims, contexts)]

    def assess(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk]
    ) -> list[tuple[Verdict, str | None]]:
        """Each claim's verdict, and the evidence against the claim it rests on, if any: VALUE (a
        value clash), NEGATION (one side negates what the other states), OPPOSITE (an opposite
        word), RECORD (a fact of a structured record said the other way round), UNSTATED (a number
        the evidence never states) or NEGATED_EVIDENCE (a negation on one side only, about other
        words: the verdict stays the words', only a sign). Other verifiers use these as a veto
        (rrag/verify/guarded.py); HARD_EVIDENCE always wins."""
        chunks = tuple(rc.chunk for rc in contexts)
        return [
            (self.read_records and _against_record(claim.text, chunks)) or _assessed(claim.text, chunks)
            for claim in claims
        ]


@lru_cache(maxsize=1024)
def _against_record(text: str, chunks: tuple[Chunk, ...]) -> tuple[Verdict, str] | None:
    texts = tuple(chunk.text for chunk in chunks)
    record = record_clash(text, texts) or hours_clash(text, texts) or rating_clash(text, texts)
    if record is None:
        return None
    chunk = chunks[record.text]
    reason = (
        f"the record says {chunk.text[record.start : record.end]!r} where the claim says {record.claim!r}"
    )
    evidence = evidence_at(chunk, record.start, record.end)
    return Verdict(ClaimStatus.CONTRADICTED, 0.8, NAME, reason, evidence, support_score=0.05), RECORD


# The model reads the rules' verdict on each claim sentence as a feature and the guard as a veto: the
# same sentence against the same chunks, judged once (a verdict depends on the claim's text only).
@lru_cache(maxsize=1024)
def _assessed(text: str, chunks: tuple[Chunk, ...]) -> tuple[Verdict, str | None]:
    candidates = [candidate for chunk in chunks for candidate in _chunk_candidates(chunk)]
    if not candidates:
        return nothing_retrieved(NAME), None
    c = _Text.of(text)
    if not c.terms:
        return not_verified(NAME, "the claim has no content words to compare"), None
    best = _best(c, candidates)
    conflict = _conflict(text, c, best, candidates)
    if conflict:
        return conflict
    # A negation on one side only, about other words: no evidence against the claim (the verdict is
    # the words'), but a sign that tells a contradiction from an unsupported claim (guarded.py).
    weak = (
        NEGATED_EVIDENCE
        if c.denies != best.features.denies
        and _coverage(c, best.features) >= CONTRADICTION_COVERAGE
        and not facts(best.features.text)  # a record's keys: the record rule reads them
        else None
    )
    return _by_coverage(text, c, best), weak


def _by_coverage(text: str, c: _Text, best: _Candidate) -> Verdict:
    e = best.features
    coverage = _coverage(c, e)
    evidence = evidence_at(best.chunk, best.start, best.end)
    absent = _absent_words(text, c, e)
    if coverage >= SUPPORTED_COVERAGE:
        confidence = 0.6 + 0.35 * (coverage - SUPPORTED_COVERAGE) / (1 - SUPPORTED_COVERAGE)
        extra = f"; not in it: {absent}" if absent else ""
        return Verdict(
            ClaimStatus.SUPPORTED,
            confidence,
            NAME,
            f"the evidence states the claim's facts{extra}",
            evidence,
            support_score=coverage,
        )
    if coverage >= PARTIAL_COVERAGE:
        return Verdict(
            ClaimStatus.PARTIAL,
            0.5,
            NAME,
            f"the evidence states part of the claim; not in it: {absent}",
            evidence,
            support_score=coverage,
        )
    confidence = 0.6 + 0.35 * (PARTIAL_COVERAGE - coverage) / PARTIAL_COVERAGE
    return Verdict(
        ClaimStatus.UNSUPPORTED,
        confidence,
        NAME,
        f"no retrieved text states it; not found: {absent}",
        evidence,
        support_score=coverage / 2,
    )


def _stated_elsewhere(value: Value, sentences: Sequence[_Text]) -> bool:
    """Whether the retrieved text states `value` somewhere, in its measure under compatible qualifiers
    (and not in a table row about another thing) with a word next to it that is next to the claim's
    (not "three people" rescued for "three people" killed), or as a loose number next to such a word:
    then another value in the best window (which may be about something else) is no clash. Read in
    single sentences (`_single`): a window of two states what its sentences do, and is not parsed
    again."""
    return any(
        value.compatible(o) and o.holds(value) and not value.of_another_row(o) and o.near & value.near
        for sentence in sentences
        for o in sentence.values
    ) or any(  # "Three of the attackers were killed" states "killed three militants"
        amount == value.quantity.value and near & value.near
        for sentence in sentences
        for amount, near in sentence.bare
    )


def _conflict(
    text: str, c: _Text, best: _Candidate, candidates: Sequence[_Candidate] = ()
) -> tuple[Verdict, str] | None:
    e = best.features
    coverage = _coverage(c, e)
    single = _single(candidates)  # what the retrieved text states elsewhere

    def verdict(
        status: ClaimStatus, confidence: float, support: float, reason: str, clash: ValueClash | None = None
    ) -> Verdict:
        evidence = evidence_at(best.chunk, best.start, best.end)
        return Verdict(status, confidence, NAME, reason, evidence, support_score=support, clash=clash)

    def clashing(clash: ValueClash, confidence: float) -> tuple[Verdict, str]:
        reason = f"the evidence says {clash.evidence_value!r} where the claim says {clash.claim_value!r}"
        return verdict(ClaimStatus.CONTRADICTED, confidence, 0.05, reason, clash), VALUE

    # Another amount of the same measure, under the same qualifiers, contradicts when the rest of the
    # claim is what the evidence is about.
    topic = _share(c.topic, e.topic)
    about_the_same = topic >= SAME_TOPIC
    stated = {v.quantity.end for v in c.values if any(o.holds(v) or v.holds(o) for o in e.values)}  # ranges
    missing = [q for q in c.numbers if not _has_value(e.numbers, q) and q.end not in stated]
    # A value of the evidence's sentence that the claim gives to another of its qualifiers ("adults
    # take 17 mg" where 17 mg is for children) is a clash, though the amount is stated there.
    misplaced = [
        (said, found)
        for said, found in misattributed(c.values, e.values)
        if _same_subject(c, topic, said, found)
    ]
    aligned = misplaced or [
        (said, found)
        for said, found in clashes(c.values, e.values)
        if _same_subject(c, topic, said, found)
        and not _has_value(e.loose, said.quantity)
        and not _stated_elsewhere(said, single)
    ]

    if aligned:
        said, found = aligned[0]
        # Quoted with their qualifiers where those told the evidence's values apart ("2.9 kg when full",
        # not the "1.2 kg when empty" beside it).
        told_apart = any(o.measure == found.measure and o.qualifiers != found.qualifiers for o in e.values)
        ours, theirs = (said.qualified, found.qualified) if told_apart else (said.written, found.written)
        start = said.quantity.start
        end = max(said.quantity.end, said.quantity.unit_end, _end_of(text, ours, start))
        return clashing(ValueClash(ours, theirs, start, end), 0.8)
    month_clash = about_the_same and c.months - e.months and e.months - c.months
    if month_clash and not c.months <= frozenset().union(*(s.months for s in single)):
        said_month = next(m for m in month_mentions(text) if m[0] not in e.months)
        found_month = next(m for m in month_mentions(e.text) if m[0] not in c.months)
        _, start, end = said_month
        return clashing(
            ValueClash(text[start:end], e.text[found_month[1] : found_month[2]], start, end), 0.75
        )
    # One side negates what the other, with no negation of its own, states plainly in the same words
    # ("may not bring food" / "food may be brought"). A "not" about another word, or negations on both
    # sides, is no evidence: of 52 dev claims the rules contradicted for a "not" in the evidence, 36
    # were supported. A record's keys are no plain statements ("Pool": false states no pool): the
    # record rule reads them.
    denial = _denial(c, e) if c.denies != e.denies and not facts(e.text) else None
    if coverage >= CONTRADICTION_COVERAGE and denial:
        term = min(denial.terms & (e.plain if c.denies else c.plain))
        reason = f"the evidence says {_phrase(e.text, term)!r} where the claim says {_phrase(text, term)!r}"
        return verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, reason), NEGATION
    retrieved = frozenset().union(*(s.stems for s in single))
    against = contrast(text, e.text, retrieved)
    if against:
        reason = f"the evidence says {against.evidence!r} where the claim says {against.claim!r}"
        return verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, reason), against.kind
    borrowed = _borrowed(c, best, candidates)
    if borrowed:
        said, other = borrowed
        said_where = _phrase(other.text, said.written.split()[0].lower())
        reason = f"the evidence gives {said.written!r} of something else: {said_where!r}"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason), BORROWED
    if missing or c.months - e.months:
        what = ", ".join(repr(text[q.start : q.end]) for q in missing) or "the month"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, f"the evidence does not state {what}"), UNSTATED
    return None


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


def _single(candidates: Sequence[_Candidate]) -> list[_Text]:
    """The candidates' single sentences: what the retrieved text states, each sentence read once."""
    return [cand.features for cand in candidates if cand.sentences == 1]


def _best(c: _Text, candidates: list[_Candidate]) -> _Candidate:
    """The candidate of the highest `_rank`, the first of them in the retrieved order. A rank is the
    coverage plus at most the two bonuses: candidates are ranked from the best coverage down, and
    those that could not reach the best rank so far even with both bonuses are never read for their
    numbers (the same one as ranking them all, at a fraction of the cost)."""
    covered = sorted(
        ((_coverage(c, cand.features), i) for i, cand in enumerate(candidates)), key=lambda ci: -ci[0]
    )
    first = covered[0][1]
    best = (_rank(c, candidates[first].features), -first)  # (rank, -position): ties go to the first
    for coverage, i in covered[1:]:
        if coverage + AGREEING_BONUS + SAME_SLOT_BONUS < best[0][0] - 1e-6:
            break
        best = max(best, (_rank(c, candidates[i].features), -i))
    return candidates[-best[1]]


@lru_cache(maxsize=1024)  # the same chunks come back for question after question
def _chunk_candidates(chunk: Chunk) -> tuple[_Candidate, ...]:
    """Each sentence of the chunk, and each pair of adjacent sentences (a claim may join two). A
    table row ("Berlin | €48") is read with its table's header row, though the evidence is the row."""
    out = []
    text = chunk.text
    spans = chunk_sentences(text)
    header: str | None = None
    for i, span in enumerate(spans):
        is_row = TABLE_CELL_SEPARATOR in span.text
        header = (header or span.text) if is_row else None
        read_as = span.text if header in (None, span.text) else f"{header}\n{span.text}"
        out.append(_Candidate(chunk, span.start, span.end, _Text.of(read_as)))
        if i + 1 < len(spans):
            end = spans[i + 1].end
            out.append(_Candidate(chunk, span.start, end, _Text.of(text[span.start : end]), sentences=2))
    return tuple(out)


def clear_caches() -> None:
    """Forget the rules' work on chunks and claims (see rrag.verify.nli.clear_caches)."""
    _assessed.cache_clear()
    _against_record.cache_clear()
    _chunk_candidates.cache_clear()
    contrasts.clear_caches()
    records.clear_caches()


_MONTH_STEMS = frozenset(stem(m) for m in MONTH_NAMES)
_PREFIXES = frozenset({"pre", "re", "sub", "over", "under", "co"})
MIN_PREFIXED_BASE = 4
QUOTED_WORDS = 12  # a reason quotes a claim or evidence sentence up to this long, else the words around
_PLAIN_WORD = re.compile(r"[^\W_]+")


def _is_slot(term: str) -> bool:
    return term in _MONTH_STEMS or has_digit(term)


def _share(terms: frozenset[str], evidence: frozenset[str]) -> float:
    """Share of `terms` in `evidence`, a word matching the same word with a prefix ("preheat")."""
    unmatched = terms - evidence
    found = len(terms) - len(unmatched)
    found += sum(any(_prefixed(t, e) or _prefixed(e, t) for e in evidence) for t in unmatched)
    return found / len(terms) if terms else 0.0


def _prefixed(word: str, base: str) -> bool:
    return len(base) >= MIN_PREFIXED_BASE and word.endswith(base) and word[: -len(base)] in _PREFIXES


def _coverage(claim: _Text, evidence: _Text) -> float:
    """The weighted share of the claim's terms the evidence has (asked of every retrieved sentence)."""
    if not claim.weight:
        return 0.0
    shared = claim.terms & evidence.terms
    return (len(shared) + (NUMBER_WEIGHT - 1) * len(shared & claim.numeric)) / claim.weight


AGREEING_BONUS, SAME_SLOT_BONUS = 0.1, 0.05  # at most, added to the coverage by `_rank`


def _rank(claim: _Text, evidence: _Text) -> tuple[float, float]:
    # Matching numbers, then a value in the claim's slot (same unit), break near-ties; then the
    # shorter span wins (a sentence over a pair).
    slots = max(len(claim.numbers), 1)
    agreeing = sum(_has_value(evidence.numbers, q) for q in claim.numbers) / slots
    same_slot = (
        sum(any(q.unit and q.measure[0] == n.measure[0] for n in evidence.numbers) for q in claim.numbers)
        / slots
    )
    rank = _coverage(claim, evidence) + AGREEING_BONUS * agreeing + SAME_SLOT_BONUS * same_slot
    return round(rank, 6), -len(evidence.text)


def _same_subject(c: _Text, topic: float, said: Value, found: Value) -> bool:
    """Whether two aligned values are of the same thing: the claim is at least half about what the
    evidence is about and the words next to the two values meet ("Retrieved January 15, 2022" is not
    the year of an appointment); a claim that is only its value ("Section 7") is about what its
    measure names."""
    if not c.topic:
        return True
    return topic >= SAME_TOPIC_NEAR_VALUE and _share(said.near, found.near) > 0


def _denial(c: _Text, e: _Text) -> Negation | None:
    """The negation of the side that denies that reaches a word the other side states plainly, in a
    clause most of whose words the other side has. The claim must say enough to be sure what it says
    ("there were negative reviews" is no statement about "I don't understand the negative reviews");
    where the evidence denies, its clause must hold most of the claim (not a "don't" of the next
    sentence); where the claim denies, the evidence must state every word it denies ("was not allowed
    to return" says nothing against "wanted to return"). "Has not stopped" denies nothing."""
    negated, other = (c, e) if c.denies else (e, c)
    if len(c.terms) < MIN_CLAUSE_TERMS:
        return None
    return next(
        (
            n
            for n in negated.negations
            if n.terms & other.plain
            and not n.terms & _NEGATIVE_VERBS
            and not _negated_by_prefix(n.terms, other.terms)
            and len(n.clause) >= MIN_CLAUSE_TERMS
            and _share(n.clause, other.terms) >= SAME_CLAUSE
            and (n.terms <= other.plain if c.denies else _share(c.terms, n.clause) >= SAME_CLAUSE_BACK)
        ),
        None,
    )


def _negated_by_prefix(terms: frozenset[str], other: frozenset[str]) -> bool:
    """Whether `other` says "unsuitable" or "disallowed" where a negation says "not suitable"."""
    return any(prefix + t in other for t in terms for prefix in _NEGATIVE_PREFIXES)


def _phrase(text: str, term: str) -> str:
    """What a reader needs to see of one side of a negation: the negation with the word before it and
    the words it reaches ("does not cover theft"), else the sentence that states `term` plainly (its
    words around `term` where it is long)."""
    spans = word_spans(text)
    for n in negations(text):
        if term in n.terms:
            before = [w for w in spans if w.end <= n.start][-1:]
            return text[before[0].start if before else n.start : n.end]
    if len(spans) <= QUOTED_WORDS:
        return text[spans[0].start : spans[-1].end] if spans else text
    at = next((i for i, w in enumerate(spans) if stem(w.text.lower().replace("'", "")) == term), 0)
    first = max(0, min(at - QUOTED_WORDS // 2, len(spans) - QUOTED_WORDS))
    return text[spans[first].start : spans[first + QUOTED_WORDS - 1].end]


def _end_of(text: str, written: str, start: int) -> int:
    """Where `written` (spaces normalised) ends in `text` from `start`; `start` if it is not there."""
    at = text.find(written, start)
    return at + len(written) if at == start else start


def _has_value(numbers: Sequence[Quantity], q: Quantity) -> bool:
    return any(same_amount(q, n) for n in numbers)


def _absent_words(text: str, claim: _Text, evidence: _Text) -> str:
    """The claim's own words (not stems) that the evidence lacks, for the reason a user reads."""
    absent = claim.terms - evidence.terms
    shown = list(dict.fromkeys(w for w in words(text) if stem(w) in absent))
    return ", ".join(repr(w) for w in shown[:5])
