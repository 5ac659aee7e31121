"""Hand-built reports for the UI helper tests: one claim of every status, with hostile text in it."""

from __future__ import annotations

from rrag.types import (
    Chunk,
    Claim,
    ClaimResult,
    ClaimStatus,
    Decision,
    Evidence,
    Level,
    Report,
    RetrievedChunk,
    Verdict,
)

CHUNK_TEXT = (
    "Employees receive 25 days of annual leave. <script>alert('x')</script> Leave must be "
    "approved by a manager. The office is closed on public holidays."
)
ANSWER = (
    "Hello! Employees receive 30 days of annual leave. Leave must be approved by a manager. "
    "Staff also get a <b>free</b> car. The office is closed on public holidays."
)


def _claim(sentence: str, checkable: bool = True) -> Claim:
    start = ANSWER.index(sentence)
    return Claim(sentence, start, start + len(sentence), checkable)


def _evidence(quote: str) -> Evidence:
    start = CHUNK_TEXT.index(quote)
    return Evidence("c1", "handbook <b>.md", quote, start, start + len(quote), page=2)


def sample_report(**changes: object) -> Report:
    claims = [
        ClaimResult(
            _claim("Hello!", checkable=False), Verdict(ClaimStatus.NOT_CHECKABLE, 1.0, "claims", "greeting")
        ),
        ClaimResult(
            _claim("Employees receive 30 days of annual leave."),
            Verdict(
                ClaimStatus.CONTRADICTED,
                0.9,
                "nli",
                "the handbook says 25 days",
                _evidence("Employees receive 25 days of annual leave."),
            ),
        ),
        ClaimResult(
            _claim("Leave must be approved by a manager."),
            Verdict(
                ClaimStatus.SUPPORTED,
                0.99,
                "quote",
                "exact quote",
                _evidence("Leave must be approved by a manager."),
            ),
        ),
        ClaimResult(
            _claim("Staff also get a <b>free</b> car."),
            Verdict(ClaimStatus.UNSUPPORTED, 0.8, "nli", "no passage mentions a car <i>"),
        ),
        ClaimResult(
            _claim("The office is closed on public holidays."),
            Verdict(
                ClaimStatus.PARTIAL,
                0.6,
                "nli",
                "only part",
                _evidence("The office is closed on public holidays."),
            ),
        ),
    ]
    values: dict[str, object] = dict(
        session_id="0123456789abcdef",
        question="How much <em>leave</em> do we get?",
        answer=ANSWER,
        final_answer="Leave must be approved by a manager.",
        decision=Decision.TRIM,
        level=Level.MEDIUM,
        reliability=0.375,
        hallucination_rate=0.5,
        needs_review=True,
        status_counts={"supported": 1, "partial": 1, "unsupported": 1, "contradicted": 1, "not_checkable": 1},
        claims=claims,
        contexts=[
            RetrievedChunk(Chunk("c1", "d1", "handbook <b>.md", CHUNK_TEXT, 0, len(CHUNK_TEXT), 2), 0.8)
        ],
        timings_ms={"retrieve": 12.0, "verify": 30.5},
        created_at="2026-11-22T10:00:00+00:00",
        caveat="Some claims were removed: the documents do not support them.",
        review_reasons=["1 contradicted claim(s)"],
    )
    values.update(changes)
    return Report(**values)  # type: ignore[arg-type]
