"""Scoring and the decision: rates, levels, trimming, strict mode, review flags, explicit non-results."""

from __future__ import annotations

import pytest

from rrag.answer.answerers import REFUSAL
from rrag.audit.scoring import (
    LOW_CAVEAT,
    NO_CLAIMS_CAVEAT,
    NOT_VERIFIED_KEY,
    NOTHING_SUPPORTED,
    PARTIAL_CAVEAT,
    Scored,
    score,
)
from rrag.types import Answer, Citation, Claim, ClaimResult, ClaimStatus, Decision, Level, Verdict

S, P, U, C, N = (
    ClaimStatus.SUPPORTED,
    ClaimStatus.PARTIAL,
    ClaimStatus.UNSUPPORTED,
    ClaimStatus.CONTRADICTED,
    ClaimStatus.NOT_CHECKABLE,
)


def audit(
    parts: list[tuple[str, ClaimStatus | None]],
    *,
    threshold: float = 0.2,
    strict: bool = False,
    citations: tuple[Citation, ...] = (),
    refused: bool = False,
    text: str | None = None,
) -> tuple[str, Scored]:
    """Score an answer made of `parts`, in this order in `text` (by default the parts joined by spaces);
    status None is a claim no verifier decided."""
    text = " ".join(p for p, _ in parts) if text is None else text
    results, pos = [], 0
    for part, status in parts:
        start = text.index(part, pos)
        pos = start + len(part)
        if status is None:
            verdict = Verdict(N, 0.0, "llm", "not verified: the LLM judge failed (timeout)", verified=False)
        else:
            verdict = Verdict(status, 0.9, "lexical", "test")
        results.append(ClaimResult(Claim(part, start, pos, checkable=status is not N), verdict))
    answer = Answer(text, "extractive", citations, refused=refused)
    return text, score(results, answer, threshold=threshold, strict=strict)


def test_a_fully_supported_answer_passes() -> None:
    text, scored = audit([("Hello!", N), ("Fees are $5.", S), ("Refunds take 30 days.", S)])
    assert (scored.decision, scored.level, scored.reliability, scored.hallucination_rate) == (
        Decision.PASS,
        Level.HIGH,
        1.0,
        0.0,
    )
    assert scored.final_answer == text and scored.caveat == ""
    assert not scored.needs_review and scored.review_reasons == ()
    assert scored.verified and scored.not_verified_reason == ""
    assert scored.status_counts == {
        "supported": 2,
        "partial": 0,
        "unsupported": 0,
        "contradicted": 0,
        "not_checkable": 1,
        NOT_VERIFIED_KEY: 0,
    }


def test_medium_trims_the_unsupported_claims_and_says_so() -> None:
    _, scored = audit([("A is 1.", S), ("B is 2.", S), ("C is 3.", S), ("D is 4.", S), ("E is 5.", U)])
    assert (scored.decision, scored.level, scored.reliability, scored.hallucination_rate) == (
        Decision.TRIM,
        Level.MEDIUM,
        0.8,
        0.2,
    )
    assert scored.final_answer == "A is 1. B is 2. C is 3. D is 4."
    assert "1 removed" in scored.caveat
    assert not scored.needs_review  # 20% is not above the 20% threshold, and nothing is contradicted


def test_trimming_a_clause_keeps_a_readable_sentence() -> None:
    _, scored = audit(
        [
            ("Hi!", N),
            ("fees are $5,", U),
            ("and refunds take 30 days.", S),
            ("Staff get 25 days,", S),
            ("and parents get 16 weeks.", S),
            ("Passwords need 14 characters.", S),
        ]
    )
    assert scored.level is Level.MEDIUM  # 4 of 5
    assert scored.final_answer == (
        "Hi! Refunds take 30 days. Staff get 25 days, and parents get 16 weeks. Passwords need 14 characters."
    )


def test_low_keeps_only_the_supported_facts() -> None:
    _, scored = audit([("Fees are $5.", U), ("Refunds take 30 days.", S), ("Staff get a car.", C)])
    assert (scored.decision, scored.level) == (Decision.TRIM, Level.LOW)
    assert scored.final_answer == "Refunds take 30 days." and scored.caveat == LOW_CAVEAT
    assert scored.needs_review
    assert scored.review_reasons == (
        "1 claim(s) contradicted by the documents",
        "hallucination rate 67% is above the 20% threshold",
        "reliability is LOW (33%)",
    )


FEES = [("Adult members are charged:", N), ("25p per item per day", S), ("at most £6 per item", S)]


def test_low_keeps_a_kept_item_of_a_list_under_its_lead_in() -> None:
    parts = [*FEES[:2], ("£30 for a lost item", C), ("a joining fee", U)]
    text = "\n- ".join(p for p, _ in parts)
    _, scored = audit(parts, text=text)
    assert scored.level is Level.LOW
    assert scored.final_answer == "Adult members are charged:\n- 25p per item per day"


def test_trimming_an_item_keeps_the_rest_of_the_list_a_list() -> None:
    parts = [*FEES, ("£30 for a lost item", U), ("nothing for juniors", S), ("no fee to join", S)]
    text = "\n- ".join(p for p, _ in parts)
    _, scored = audit(parts, text=text)
    assert (scored.decision, scored.level) == (Decision.TRIM, Level.MEDIUM)
    assert scored.final_answer == (
        "Adult members are charged:\n- 25p per item per day\n- at most £6 per item\n- nothing for juniors"
        "\n- no fee to join"
    )


def test_a_lead_in_whose_every_item_is_trimmed_goes_with_them() -> None:
    parts = [("Fees are $5.", S), ("Refunds take 30 days.", S), ("Staff get 25 days.", S)]
    parts.append(("Parents get:", N))
    text = " ".join(p for p, _ in parts) + "\n1. a car\n2. a boat\n\nPasswords need 14 characters."
    parts += [("a car", U), ("a boat", U), ("Passwords need 14 characters.", S)]
    _, scored = audit(parts, text=text)
    assert (scored.decision, scored.level) == (Decision.TRIM, Level.MEDIUM)
    assert scored.final_answer == (
        "Fees are $5. Refunds take 30 days. Staff get 25 days. Passwords need 14 characters."
    )


def test_low_with_nothing_supported_refuses() -> None:
    _, scored = audit([("Fees are $5.", U), ("Staff get a car.", P)])
    assert (scored.decision, scored.level, scored.final_answer) == (
        Decision.REFUSE,
        Level.LOW,
        NOTHING_SUPPORTED,
    )
    assert scored.reliability == 0.25 and scored.hallucination_rate == 0.5


def test_a_contradiction_needs_review_even_when_the_level_is_high() -> None:
    parts: list[tuple[str, ClaimStatus | None]] = [(f"Fact {i} holds.", S) for i in range(9)] + [
        ("Staff get a car.", C)
    ]
    text, scored = audit(parts, threshold=0.3)
    assert (scored.decision, scored.level, scored.final_answer) == (Decision.PASS, Level.HIGH, text)
    assert scored.caveat == (
        "Kept, though the documents do not support it (10% is within the 30% allowed): “Staff get a car”."
    )  # what passes unsupported is never passed silently
    assert scored.needs_review and scored.review_reasons == ("1 claim(s) contradicted by the documents",)


@pytest.mark.parametrize(
    ("supported", "level"), [(17, Level.HIGH), (16, Level.MEDIUM), (13, Level.MEDIUM), (12, Level.LOW)]
)
def test_level_boundaries(supported: int, level: Level) -> None:
    parts: list[tuple[str, ClaimStatus | None]] = [
        (f"Fact {i} holds.", S if i < supported else U) for i in range(20)
    ]
    assert audit(parts, threshold=1.0)[1].level is level


def test_the_threshold_decides_whether_a_high_answer_passes_as_written() -> None:
    parts: list[tuple[str, ClaimStatus | None]] = [(f"Fact {i} holds.", S) for i in range(9)] + [
        ("Staff get a car.", U)
    ]
    by_preset = {threshold: audit(parts, threshold=threshold)[1] for threshold in (0.05, 0.2, 0.3)}
    assert all(s.level is Level.HIGH and s.hallucination_rate == 0.1 for s in by_preset.values())
    high_risk = by_preset[0.05]
    assert high_risk.decision is Decision.TRIM and "Staff get a car" not in high_risk.final_answer
    assert "1 removed" in high_risk.caveat
    assert high_risk.review_reasons == ("hallucination rate 10% is above the 5% threshold",)
    assert by_preset[0.2].decision is by_preset[0.3].decision is Decision.PASS
    assert not by_preset[0.2].needs_review


def test_strict_mode_refuses_above_the_threshold() -> None:
    parts: list[tuple[str, ClaimStatus | None]] = [(f"Fact {i} holds.", S) for i in range(9)] + [
        ("Staff get a car.", U)
    ]
    _, strict = audit(parts, threshold=0.05, strict=True)
    assert strict.decision is Decision.REFUSE and strict.level is Level.HIGH
    assert strict.final_answer.startswith("This answer was withheld: 10% of its checkable statements")
    _, within = audit(parts, threshold=0.2, strict=True)
    assert within.decision is Decision.PASS


def test_only_partial_support_passes_with_a_caveat() -> None:
    text, scored = audit([("A is 1.", S), ("B is 2.", S), ("C is 3.", P)])
    assert (scored.decision, scored.level, scored.final_answer, scored.caveat) == (
        Decision.PASS,
        Level.MEDIUM,
        text,
        PARTIAL_CAVEAT,
    )


def test_no_checkable_claim_is_an_explicit_result_not_zero_percent() -> None:
    text, scored = audit([("Hello!", N), ("Anything else?", N)])
    assert (scored.level, scored.reliability, scored.hallucination_rate) == (None, None, None)
    assert (
        scored.decision is Decision.PASS and scored.final_answer == text and scored.caveat == NO_CLAIMS_CAVEAT
    )


def test_a_refused_answer_is_a_refusal() -> None:
    _, scored = audit([(REFUSAL, N)], refused=True)
    assert (scored.decision, scored.final_answer, scored.level, scored.hallucination_rate) == (
        Decision.REFUSE,
        REFUSAL,
        None,
        None,
    )


def test_nothing_verified_is_refused_and_explained() -> None:
    _, scored = audit([("Fees are $5.", None), ("Refunds take 30 days.", None)])
    assert (scored.decision, scored.level, scored.reliability, scored.hallucination_rate) == (
        Decision.REFUSE,
        None,
        None,
        None,
    )
    assert (
        not scored.verified and scored.not_verified_reason == "not verified: the LLM judge failed (timeout)"
    )
    assert scored.final_answer.startswith("This answer was withheld because it could not be verified")
    assert scored.status_counts[NOT_VERIFIED_KEY] == 2 and scored.status_counts["supported"] == 0
    assert scored.needs_review and "2 claim(s) could not be verified" in scored.review_reasons[0]


def test_unverified_claims_stay_out_of_the_rates() -> None:
    text, scored = audit([("A is 1.", S), ("B is 2.", S), ("C is 3.", S), ("D is 4.", None)])
    assert (scored.decision, scored.level, scored.reliability, scored.hallucination_rate) == (
        Decision.TRIM,
        Level.HIGH,
        1.0,
        0.0,
    )
    assert not scored.verified and scored.needs_review
    assert scored.final_answer == "A is 1. B is 2. C is 3."  # never passed as written
    assert scored.caveat.endswith("(1 removed). 1 of them could not be verified.")
    _, medium = audit([("A is 1.", S), ("B is 2.", S), ("C is 3.", U), ("D is 4.", None), ("E is 5.", S)])
    assert medium.level is Level.MEDIUM and medium.final_answer == "A is 1. B is 2. E is 5."
    assert medium.caveat.endswith("(2 removed). 1 of them could not be verified.")


def test_a_citation_mismatch_needs_review() -> None:
    citations = (Citation("c1", "Fees are $5.", found=True), Citation("c9", "made up", found=False))
    _, scored = audit([("Fees are $5.", S)], citations=citations)
    assert scored.decision is Decision.PASS and scored.needs_review
    assert scored.review_reasons == ("1 citation(s) not found in the cited chunk",)
