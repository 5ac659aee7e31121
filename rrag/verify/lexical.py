"""The rules alone as a verifier: evidence first, then the rules in their order.

For each claim the chunks' sentences (and pairs of adjacent sentences) are ranked by how much of the
claim they cover; the best one is the evidence. The rules of rrag/verify/rules/ are asked in their
order: those that read the retrieved records first (`read_records`), then those that read the aligned
window and its sentences (values and months, negation, the contrasts of words, names and
quantifiers); the first that finds evidence decides, else the share of the claim's words the evidence
states does (supported, partial, unsupported).

A contradiction is read against the aligned evidence only, and a yes/no fact of a structured record
against the record, so that where a rule was measured precise enough (`rrag.verify.rules.HARD_EVIDENCE`)
it can stand against any model (rrag/verify/guarded.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from rrag.lang.en.table_rows import CELL_SEPARATOR
from rrag.text import Quantity, sentence_windows, words
from rrag.text.caches import per_text
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.evidence import evidence_at, not_verified, nothing_retrieved
from rrag.verify.rules import RULES
from rrag.verify.rules.base import NAME, RECORDS, Comparison, RecordClash, Rule, first_finding
from rrag.verify.rules.compared import (
    Statement,
    Window,
    coverage,
    has_value,
    names_every_row,
    of_the_named_row,
    share,
    weighted,
)


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
        """Each claim's verdict, and the kind of evidence against the claim it rests on, if any: the
        kind of the rule that found it (`RULES`). A verdict of the words rests on none. Other
        verifiers use these as a veto (rrag/verify/guarded.py); hard evidence always wins."""
        return [(verdict, rule.kind if rule else None) for verdict, rule in self.decided(claims, contexts)]

    def decided(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk]
    ) -> list[tuple[Verdict, Rule | None]]:
        """Each claim's verdict, and the rule that decided it, if any (`assess` names its kind only)."""
        chunks = tuple(rc.chunk for rc in contexts)
        return [
            (self.read_records and _against_record(claim.text, chunks)) or assessed(claim.text, chunks)
            for claim in claims
        ]


@per_text(maxsize=1024)
def _against_record(text: str, chunks: tuple[Chunk, ...]) -> tuple[Verdict, Rule] | None:
    """The verdict of the first record rule that finds the claim said otherwise than a record."""
    texts = tuple(chunk.text for chunk in chunks)
    for rule in RULES.of(RECORDS):
        record = cast("RecordClash | None", rule.detect(text, texts))
        if record is not None:
            chunk = chunks[record.text]
            said = chunk.text[record.start : record.end]
            reason = f"the record says {said!r} where the claim says {record.claim!r}"
            evidence = evidence_at(chunk, record.start, record.end)
            return Verdict(ClaimStatus.CONTRADICTED, 0.8, NAME, reason, evidence, support_score=0.05), rule
    return None


# The model reads the rules' verdict on each claim sentence as a feature and the guard as a veto: the
# same sentence against the same chunks, judged once (a verdict depends on the claim's text only).
@per_text(maxsize=1024)
def assessed(text: str, chunks: tuple[Chunk, ...]) -> tuple[Verdict, Rule | None]:
    """The rules' verdict on one claim sentence against `chunks`, and the rule that decided it."""
    found = compared(text, chunks)
    return (found, None) if isinstance(found, Verdict) else first_finding(found)


@per_text(maxsize=1024)  # read by the verdict, and by each rule alone where their precision is measured
def compared(text: str, chunks: tuple[Chunk, ...]) -> Comparison | Verdict:
    """One claim sentence against its best window of `chunks`, which the window and sentence rules
    read; or, where there is nothing to compare, the verdict that says so."""
    candidates = [candidate for chunk in chunks for candidate in _chunk_candidates(chunk)]
    if not candidates:
        return nothing_retrieved(NAME)
    c = Statement.of(text)
    if not c.terms:
        return not_verified(NAME, "the claim has no content words to compare")
    return Comparison(text, c, _best(c, candidates), candidates)


def _best(c: Statement, candidates: list[Window]) -> Window:
    """The candidate of the highest `_rank`, the first of them in the retrieved order. A rank is the
    coverage plus at most the two bonuses: candidates are ranked from the best coverage down, and
    those that could not reach the best rank so far even with both bonuses are never read for their
    numbers (the same one as ranking them all, at a fraction of the cost)."""
    candidates = [candidates[i] for i in of_the_named_row(c, [cand.statement for cand in candidates])]
    covered = sorted(
        ((coverage(c, cand.statement), i) for i, cand in enumerate(candidates)), key=lambda ci: -ci[0]
    )
    first = covered[0][1]
    best = (_rank(c, candidates[first].statement), -first)  # (rank, -position): ties go to the first
    for covers, i in covered[1:]:
        if covers + AGREEING_BONUS + SAME_SLOT_BONUS < best[0][0] - 1e-6:
            break
        best = max(best, (_rank(c, candidates[i].statement), -i))
    chosen = candidates[-best[1]]
    if not c.numeric or _about(c, chosen.statement):
        return chosen
    # A window that agrees on the claim's number but not on what it is of ("the monthly price is £5"
    # of a static IP address, for "Monthly prices rise by £5 each April") is no evidence about the
    # claim: the sentence that says all the claim is about is ("rise by £3 each April"), whatever its
    # value. The value rules then compare the two, and still find the claim's value wherever it is
    # stated of the same thing.
    about = [i for i, cand in enumerate(candidates) if cand.sentences == 1 and _about(c, cand.statement)]
    if not about:
        return chosen
    return candidates[max(about, key=lambda i: (_rank(c, candidates[i].statement), -i))]


def _about(claim: Statement, evidence: Statement) -> bool:
    """Whether `evidence` states everything `claim` is about (its terms less its values and months)."""
    return bool(claim.topic) and share(claim.topic, evidence.topic) == 1


@per_text(maxsize=1024)  # the same chunks come back for question after question
def _chunk_candidates(chunk: Chunk) -> tuple[Window, ...]:
    """Each sentence of the chunk, and each pair of adjacent sentences (a claim may join two). A
    table row ("Berlin | €48") is read with its table's header row, though the evidence is the row."""
    out = []
    header: str | None = None
    for span, sentences in sentence_windows(chunk.text):
        if sentences == 2:
            out.append(Window(chunk, span.start, span.end, Statement.of(span.text), sentences=2))
            continue
        is_row = CELL_SEPARATOR in span.text
        header = (header or span.text) if is_row else None
        read_as = span.text if header in (None, span.text) else f"{header}\n{span.text}"
        out.append(Window(chunk, span.start, span.end, Statement.of(read_as)))
    return tuple(out)


AGREEING_BONUS, SAME_SLOT_BONUS = 0.1, 0.05  # at most, added to the coverage by `_rank`


def _rank(claim: Statement, evidence: Statement) -> tuple[float, bool, int]:
    # The claim's terms the evidence has, a number's only where the evidence states its amount of the
    # same thing ("£500" is not the "500" of "£2,500", nor the "£500" a treatment costs for "claim up
    # to £500 for a single item"); matching amounts, then a value in the claim's slot (same unit),
    # break near-ties; then a table row the claim names ("Electric cars need a deposit of £250": the
    # Electric row, not "An electric car returned below 50% is charged £35"), then the shorter
    # span wins (a sentence over a pair).
    elsewhere = _of_something_else(claim, evidence)
    agreeing = [q for q in claim.numbers if q not in elsewhere and has_value(evidence.numbers, q)]
    unmatched = _terms_of(claim.text, claim.numbers) - _terms_of(claim.text, agreeing)
    slots = max(len(claim.numbers), 1)
    same_slot = (
        sum(any(q.unit and q.measure[0] == n.measure[0] for n in evidence.numbers) for q in claim.numbers)
        / slots
    )
    rank = (
        weighted(claim, claim.terms & evidence.terms - unmatched)
        + AGREEING_BONUS * len(agreeing) / slots
        + SAME_SLOT_BONUS * same_slot
    )
    return round(rank, 6), names_every_row(evidence.rows, claim.terms), -len(evidence.text)


def _terms_of(text: str, numbers: Sequence[Quantity]) -> frozenset[str]:
    return frozenset(t for q in numbers for t in words(text[q.start : q.end]))


def _of_something_else(claim: Statement, evidence: Statement) -> list[Quantity]:
    """The claim's amounts that the evidence gives, each only where the words next to it and the
    claim's meet neither's sentence. Where either has no such words, nothing tells them apart."""
    if not claim.numeric & evidence.terms:
        return []  # no number in common (most windows): nothing to tell apart
    out = []
    for said in claim.values:
        given = [found for found in evidence.values if said.same_amount(found)]
        if (
            said.near
            and given
            and all(
                found.near and not (said.near & found.words or found.near & said.words) for found in given
            )
        ):
            out.append(said.quantity)
    return out
