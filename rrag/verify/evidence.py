"""Helpers every verifier shares: evidence spans inside chunks and the verdicts that are not decisions."""

from __future__ import annotations

from rrag.types import Chunk, ClaimStatus, Evidence, Verdict

NOT_VERIFIED = "not verified: "


def evidence_at(chunk: Chunk, start: int, end: int) -> Evidence:
    """Evidence for `chunk.text[start:end]`, with offsets into the chunk and the chunk's source."""
    return Evidence(chunk.chunk_id, chunk.source, chunk.text[start:end], start, end, chunk.page)


def not_verified(verifier: str, reason: str) -> Verdict:
    """No decision: never counts as supported, nor as a hallucination."""
    text = reason if reason.startswith(NOT_VERIFIED) else NOT_VERIFIED + reason
    return Verdict(ClaimStatus.NOT_VERIFIED, 0.0, verifier, text, verified=False)


def nothing_retrieved(verifier: str) -> Verdict:
    """With no context at all, a claim is unsupported: there is nothing in the corpus behind it."""
    return Verdict(
        ClaimStatus.UNSUPPORTED,
        0.9,
        verifier,
        "nothing relevant was retrieved from the documents",
        support_score=0.0,
    )
