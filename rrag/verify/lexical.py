"""The offline verifier until a trained model lands: evidence first, then the cheap signals that work.

For each claim the chunks' sentences (and pairs of adjacent sentences) are ranked by how much of the
claim they cover; the best one is the evidence. On it: content-word coverage, values and months
(another amount of the same measure, for the same thing under the same qualifiers, contradicts; a
missing one leaves the claim unsupported), negation, and the contrasts of rrag/verify/contrasts/
(opposite words, modality, quantifiers, swapped names, roles and ordinals).

Hard evidence (HARD_EVIDENCE: a value clash, a negated word the other side states plainly, a
contrast) is read against the aligned evidence only, and a yes/no fact of a structured record
(rrag/verify/records.py) against the record, so that it can stand against any model
(rrag/verify/guarded.py).

A text is read once (rrag/verify/compared.py), less its preamble or hedge (asserted.py); the readings
of value clashes and borrowed values are in values_clash.py, those of negations in denial.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rrag.lang.en.table_rows import CELL_SEPARATOR
from rrag.text import chunk_sentences, month_mentions, stem, words
from rrag.text.quantities import FRACTION, every_unit, is_measured
from rrag.text.values import clashes, misattributed, of_something_else, reversed_bounds
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify import contrasts, records
from rrag.verify.base import Verifier
from rrag.verify.compared import _Candidate, _coverage, _has_value, _share, _single, _stated, _Text, _weighted
from rrag.verify.contrasts import ENTITY, MODALITY, OPPOSITE, ORDER, QUANTIFIER, ROLE, SWAP, contrast
from rrag.verify.denial import CONTRADICTION_COVERAGE, _phrase, denied_words
from rrag.verify.evidence import evidence_at, not_verified, nothing_retrieved
from rrag.verify.records import facts, hours_clash, rating_clash, record_clash
from rrag.verify.values_clash import (
    SAME_TOPIC,
    _borrowed,
    _denied,
    _end_of,
    _same_subject,
    _stated_elsewhere,
)

SUPPORTED_COVERAGE = 0.8  # share of the claim's (weighted) content words the evidence must hold
PARTIAL_COVERAGE = 0.6  # below this the evidence is about something else
NAME = "lexical"
# The evidence against a claim that the rules can hold (see LexicalVerifier.assess).
VALUE, NEGATION, UNSTATED = "value", "negation", "unstated"
RECORD = "record"  # a yes/no fact of a structured record the claim says the opposite of (records.py)
# A contradiction no model may overrule.
HARD_EVIDENCE = frozenset({VALUE, NEGATION, OPPOSITE, MODALITY, QUANTIFIER, ENTITY, ROLE, ORDER, RECORD})
# A value the best window states only of other things: under another qualifier ("1.2 kg when empty"
# for "1.2 kg when full"), or in a sentence about something else while its sentence about the claim's
# subject gives a value of its own (see _borrowed). The claim borrowed a value.
BORROWED = "borrowed value"
NEGATED_EVIDENCE = "negated evidence"  # weak: a negation on one side only, not about the same words


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
        the evidence never states), SWAP (another thing of the same kind in the evidence's slot) or
        NEGATED_EVIDENCE (a negation on one side only, about other
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
    stated = _stated(c, e)
    coverage = _weighted(c, stated)
    evidence = evidence_at(best.chunk, best.start, best.end)
    absent = _absent_words(text, c.terms - stated)
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


def _conflict(
    text: str, c: _Text, best: _Candidate, candidates: Sequence[_Candidate] = ()
) -> tuple[Verdict, str] | None:
    e = best.features
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
    # The same amount of the same thing, bounded the other way: "under 18" where the evidence says
    # "at least 18".
    flipped = [
        (said, found)
        for said, found in reversed_bounds(c.values, e.values)
        if _same_subject(c, topic, said, found)
    ]
    if flipped:
        said, found = flipped[0]
        start = said.bounded_at
        return clashing(ValueClash(said.bounded, found.bounded, start, start + len(said.bounded)), 0.8)
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
        if not _has_value(e.numbers, q)
        and q.end not in stated
        and q.unit != FRACTION
        and not (q.value == 1 and q.unit in e.terms)
        and not every_unit(text, q)
    ]
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
        and not _stated_elsewhere(said, single, found)
        and _denied(text, said) == _denied(e.text, found)
    ]

    if aligned:
        # The pair that shares most qualifiers ("£32 per year" / "£320 per year", not "£32 per month"),
        # then whose words next to the values meet most ("net sales of $1.5 billion" / "of $1.8
        # billion", not the prior year's earnings of another sentence)
        said, found = max(
            aligned,
            key=lambda pair: (
                len(pair[0].qualifiers & pair[1].qualifiers),
                _share(pair[0].near, pair[1].near),
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
        return clashing(ValueClash(ours, theirs, start, end), 0.8)
    unstated_months = c.months_unstated_by(e)
    month_clash = about_the_same and unstated_months and e.months - c.months
    if month_clash and not c.months <= frozenset().union(*(s.months for s in single)):
        said_month = next(m for m in month_mentions(text) if m[0] in unstated_months)
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
    denied = None if facts(e.text) else denied_words(c, e)
    if denied:
        ours, theirs = denied
        quoted = _phrase(e.text, theirs), _phrase(text, ours)
        reason = "the evidence says {!r} where the claim says {!r}".format(*quoted)
        return verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, reason), NEGATION
    retrieved = frozenset().union(*(s.stems for s in single))
    against = contrast(text, e.text, retrieved)
    said_otherwise = (
        f"the evidence says {against.evidence!r} where the claim says {against.claim!r}" if against else ""
    )
    if against and against.kind != SWAP:
        return verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, said_otherwise), against.kind
    qualified_otherwise = [
        (said, found)
        for said, found in of_something_else(c.values, e.values)
        if _same_subject(c, topic, said, found) and not _stated_elsewhere(said, single)
    ]
    if qualified_otherwise:
        said, found = qualified_otherwise[0]
        reason = f"the evidence gives {said.written!r} only as {found.qualified!r}, not {said.qualified!r}"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason), BORROWED
    borrowed = _borrowed(c, best, candidates)
    if borrowed:
        said, other = borrowed
        said_where = _phrase(other.text, said.written.split()[0].lower())
        reason = f"the evidence gives {said.written!r} of something else: {said_where!r}"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason), BORROWED
    if against:  # another thing of the same kind: unsupported, not contradicted (contrasts.SWAP)
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, said_otherwise), SWAP
    if missing or unstated_months:
        # An amount quoted with its unit ("5 euros"), a count as its number (a count's "unit" may be
        # any next word: "27 German")
        what = ", ".join(repr(q.written(text) if is_measured(q) else text[q.start : q.end]) for q in missing)
        what = what or "the month"
        return verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, f"the evidence does not state {what}"), UNSTATED
    return None


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
        is_row = CELL_SEPARATOR in span.text
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


def _absent_words(text: str, absent: frozenset[str]) -> str:
    """The claim's own words (not stems) of the `absent` terms, for the reason a user reads."""
    shown = list(dict.fromkeys(w for w in words(text) if stem(w) in absent))
    return ", ".join(repr(w) for w in shown[:5])
