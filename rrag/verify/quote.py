"""The first stage: a claim that is quoted (exactly or nearly) from a chunk is supported."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rrag.lang.en.function_words import ALTERNATIVE_NEXT, CLAUSE_START, CONDITION_FOLLOWS, CONDITION_OPENS
from rrag.lang.en.negation import NEGATORS
from rrag.text import fuzzy_locate, locate, months, normalize, quantities, stem, words
from rrag.types import Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.evidence import evidence_at, not_verified

NEAR_EXACT_RATIO = 0.92
MIN_FUZZY_CHARS = 25  # below this a fuzzy ratio says little: short claims must match exactly


class QuoteVerifier(Verifier):
    """Exact (ignoring case, whitespace and punctuation) or near-exact quote of the claim in a chunk
    -> supported. A near-exact match must keep every word of the claim (up to inflection), its numbers,
    months and negations: "25 days" and "26 days" differ by one character. Anything else: unsure,
    so the verdict is "not verified" and the next stage decides."""

    name = "quote"

    def __init__(self, *, min_ratio: float = NEAR_EXACT_RATIO) -> None:
        self.min_ratio = min_ratio

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        vocabularies = [_stems(rc.chunk.text) for rc in contexts]  # once for the whole batch
        return [self._match(claim, contexts, vocabularies) for claim in claims]

    def _match(
        self, claim: Claim, contexts: Sequence[RetrievedChunk], vocabularies: list[frozenset[str]]
    ) -> Verdict:
        best: tuple[float, RetrievedChunk, int, int] | None = None
        claim_stems = _stems(claim.text)
        fuzzy_allowed = len(normalize(claim.text, punctuation=False)) >= MIN_FUZZY_CHARS
        for rc, vocabulary in zip(contexts, vocabularies):
            if not claim_stems <= vocabulary:
                continue  # a quote, even a near one, uses no word the chunk lacks (see _same_facts)
            text = rc.chunk.text
            exact = locate(claim.text, text)
            if exact and _stands_alone(text, *exact):
                best = (1.0, rc, *exact)
                break
            near = fuzzy_locate(claim.text, text, min_ratio=self.min_ratio) if fuzzy_allowed else None
            if (
                near
                and (best is None or near[2] > best[0])
                and _same_facts(claim.text, text[near[0] : near[1]])
                and _stands_alone(text, near[0], near[1])
            ):
                best = (near[2], rc, near[0], near[1])
        if best is None:
            return not_verified(
                self.name, "no exact or near-exact quote of the claim in the retrieved chunks"
            )
        ratio, rc, start, end = best
        how = "quoted exactly" if ratio == 1.0 else f"quoted nearly exactly (similarity {ratio:.2f})"
        return Verdict(
            ClaimStatus.SUPPORTED,
            confidence=0.99 if ratio == 1.0 else ratio,
            verifier=self.name,
            reason=f"the claim is {how} from {rc.chunk.source}",
            evidence=evidence_at(rc.chunk, start, end),
            support_score=ratio,
        )


_CLAUSE_END = re.compile(r"^\s*(?:$|[.,;:!?()\[\]\"'\n])")


def _stands_alone(text: str, start: int, end: int) -> bool:
    """A quote must be whole clauses of the chunk, asserted by their sentence: "employees receive 25
    days" inside "Full-time employees receive 25 days" or "No employees receive 25 days" drops what
    qualifies or denies it, "the lawyer left" after "If the doctor arrived," or before "if the doctor
    arrived" the condition, and either side of an "or" the other alternative."""
    sentence_start = max(text.rfind(end_mark, 0, start) for end_mark in ".!?\n") + 1
    return bool(
        CLAUSE_START.search(text[max(0, start - 20) : start])
        and _CLAUSE_END.match(text[end : end + 5])
        and not ALTERNATIVE_NEXT.match(text, end)
        and not CONDITION_FOLLOWS.match(text, end)
        and not (start > sentence_start and CONDITION_OPENS.match(text, sentence_start, start))
    )


def _same_facts(claim: str, span: str) -> bool:
    """A near-exact match may differ in inflection and punctuation, not in a word ("before"/"after")
    nor in the order of its words ("the employee reimburses the employer" has the same words as "the
    employer reimburses the employee")."""
    return (
        _stems(claim) <= _stems(span)
        and _in_order(_stem_sequence(claim), _stem_sequence(span))
        and sorted(q.value for q in quantities(claim)) == sorted(q.value for q in quantities(span))
        and months(claim) == months(span)
        and _negators(claim) == _negators(span)
    )


def _negators(text: str) -> list[str]:
    """Every negator as written, a bound's too: "Bags may weigh more than 23 kg" drops the "No" of
    "No bag may weigh more than 23 kg", which makes the bound an upper one."""
    return sorted(w for w in words(text) if w in NEGATORS)


def _stem_sequence(text: str) -> list[str]:
    return [stem(w) for w in normalize(text, punctuation=False).split()]


def _in_order(claim: list[str], span: list[str]) -> bool:
    """Whether the claim's words occur in the span in the claim's order (other words between them)."""
    rest = iter(span)
    return all(word in rest for word in claim)


def _stems(text: str) -> frozenset[str]:
    # The normalisation `locate` matches on, so that a claim's "[1]" or "don't" counts as it does there.
    return frozenset(stem(w) for w in normalize(text, punctuation=False).split())
