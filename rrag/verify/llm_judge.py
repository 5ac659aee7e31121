"""The LLM judge: the last stage of the cascade, for the claims the offline stages are unsure of.

Its word is data, not a verdict: it must quote its evidence, and the quote is looked up in the chunks.
"Supported" or "partial" stands only when the quote is there, bears on the claim (rrag/verify/bearing.py)
and holds no hard evidence against it (another value, a negation); otherwise the judgement is "not
verified" and the offline verdict stands. Without a found quote, "contradicted" keeps half its
confidence: a judge may lower support on its word, never raise it. A failed or unusable reply is "not
verified".
"""

from __future__ import annotations

from collections.abc import Sequence

from rrag.backends.llm import LLM
from rrag.backends.prompts import JUDGE, Judgement
from rrag.errors import LLMError, LLMResponseError
from rrag.text import fuzzy_locate, locate
from rrag.types import Chunk, Claim, ClaimStatus, Evidence, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.bearing import unborne
from rrag.verify.evidence import evidence_at, not_verified, nothing_retrieved
from rrag.verify.lexical import LexicalVerifier

# How sure a verdict is when its quote was found in the chunks; an unverifiable quote halves it.
CONFIDENCE = {
    ClaimStatus.SUPPORTED: 0.85,
    ClaimStatus.CONTRADICTED: 0.85,
    ClaimStatus.UNSUPPORTED: 0.8,
    ClaimStatus.PARTIAL: 0.7,
}
SUPPORT_SCORE = {
    ClaimStatus.SUPPORTED: 0.9,
    ClaimStatus.PARTIAL: 0.5,
    ClaimStatus.UNSUPPORTED: 0.1,
    ClaimStatus.CONTRADICTED: 0.02,
}
QUOTE_MIN_RATIO = 0.9
UNFOUND_QUOTE_FACTOR = 0.5
RAISES_SUPPORT = (ClaimStatus.SUPPORTED, ClaimStatus.PARTIAL)


class LLMJudge(Verifier):
    """One request per claim, in order (a remote server's rate limit is the bottleneck, not us).
    When the server itself fails (down, timing out, rate-limiting), the claims left in the batch are
    not sent: each would wait out the same failure."""

    name = "llm"

    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        verdicts: list[Verdict] = []
        for claim in claims:
            try:
                verdicts.append(self._judge(claim, contexts, question))
            except LLMResponseError as exc:  # this claim's reply was unusable; the next may be fine
                verdicts.append(not_verified(self.name, f"the LLM judge failed ({exc})"))
            except LLMError as exc:
                left = len(claims) - len(verdicts)
                verdicts += [not_verified(self.name, f"the LLM judge failed ({exc})")] * left
                break
        return verdicts

    def _judge(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str) -> Verdict:
        if not contexts:
            return nothing_retrieved(self.name)
        prompted = JUDGE.run(self.llm, contexts, question=question, claim=claim.text)
        judgement = prompted.value
        evidence = _find_quote(judgement, prompted.passages, contexts)
        status = judgement.claim_status
        reason = judgement.reason or f"the LLM judged the claim {status.value}"
        if status in RAISES_SUPPORT:
            problem = _unbacked(claim, judgement, evidence, question)
            if problem:
                return not_verified(self.name, f"the LLM judge called the claim {status.value} but {problem}")
        confidence = CONFIDENCE[status]
        support = SUPPORT_SCORE[status]
        needs_quote = status is not ClaimStatus.UNSUPPORTED or bool(judgement.evidence_quote)
        if evidence is None and needs_quote:
            problem = (
                "gave no quote"
                if not judgement.evidence_quote
                else "quoted text that is not in the documents"
            )
            reason = f"{reason} (the judge {problem}, so this verdict is less certain)"
            confidence *= UNFOUND_QUOTE_FACTOR
            support = 0.5 + (support - 0.5) * UNFOUND_QUOTE_FACTOR
        return Verdict(status, confidence, self.name, reason, evidence, support_score=support)


def _unbacked(claim: Claim, judgement: Judgement, evidence: Evidence | None, question: str) -> str:
    """Why the judge's quote does not back a "supported" or "partial" verdict ("" when it does)."""
    if evidence is None:
        return "gave no quote" if not judgement.evidence_quote else "quoted text that is not in the documents"
    unrelated = unborne(claim, evidence, judgement.claim_status, question)  # rrag/verify/bearing.py
    if unrelated:
        return unrelated
    quoted = Chunk(evidence.chunk_id, "", evidence.source, evidence.quote, 0, len(evidence.quote))
    [(rule, against)] = LexicalVerifier().assess([claim], [RetrievedChunk(quoted, 1.0)])
    return f"its own quote holds evidence against it: {rule.reason}" if against else ""


def _find_quote(
    judgement: Judgement, shown: Sequence[RetrievedChunk], contexts: Sequence[RetrievedChunk]
) -> Evidence | None:
    """The judge's quote in the passage it named, else in any chunk; exact first, then near-exact.
    Looked up in the whole chunks (a passage shown cut short is a prefix of its chunk)."""
    quote = judgement.evidence_quote
    if not quote:
        return None
    named_id = shown[judgement.passage - 1].chunk.chunk_id if 1 <= judgement.passage <= len(shown) else None
    named = [rc for rc in contexts if rc.chunk.chunk_id == named_id]
    ordered = named + [rc for rc in contexts if rc.chunk.chunk_id != named_id]
    for rc in ordered:
        span = locate(quote, rc.chunk.text)
        if span:
            return evidence_at(rc.chunk, *span)
    for rc in ordered:
        near = fuzzy_locate(quote, rc.chunk.text, min_ratio=QUOTE_MIN_RATIO)
        if near:
            return evidence_at(rc.chunk, near[0], near[1])
    return None
