"""One answer's audit: its claims verified against what was retrieved, the sources that disagree
flagged, the answer scored and decided, as one Report."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from rrag.audit.languages import Unread
from rrag.audit.scoring import score
from rrag.backends.prompts import PROMPT_VERSION
from rrag.backends.question_passage import shared_model
from rrag.backends.structured import CallLog
from rrag.engine.stages import Stages, StageTimer, answer_relevance, not_checkable, verify_claims
from rrag.engine.streaming import ClaimProgress
from rrag.retrieval.injection import PlantedInstruction, review_reason
from rrag.retrieval.judged import Judged, answers_question
from rrag.types import Answer, Claim, ClaimResult, Report, RetrievedChunk
from rrag.verify.conflicts import flag_conflicts
from rrag.verify.nli import judge_pairs

# An audited answer's own claims retrieve their evidence too (`ReliableRAG.verify`): no gate, no reranking.
VERIFY_RETRIEVAL = "hybrid (vector + keyword), for the question and each claim; not reranked"


@dataclass(frozen=True)
class Answered:
    """What an audit reads: a question, its answer and the answer's claims, and what was retrieved."""

    question: str
    answer: Answer
    claims: list[Claim]
    notes: list[str]  # what the claim extractor and the index have to say
    contexts: list[RetrievedChunk]
    # The contexts with the instructions planted in them blanked, and those instructions: neither
    # evidence nor commands (rrag/retrieval/injection.py).
    defused: tuple[list[RetrievedChunk], list[PlantedInstruction]]
    mode: str  # "ask", or "verify" for an answer written elsewhere
    judged: Judged | None = None  # how `ask` retrieved, with each passage's P(answers)


def audit(
    stages: Stages,
    answered: Answered,
    timer: StageTimer,
    calls: CallLog,
    session_id: str,
    on_claim: ClaimProgress | None = None,
) -> Report:
    """The report on `answered`, unsaved; `timer` times its "verify" and "score" stages."""
    a, s = answered, stages.settings
    safe, planted = a.defused
    unread = Unread.of(a.question, a.answer.text, safe)  # text the rules cannot read: gated, and said
    with timer("verify"):
        checkable = [c for c in a.claims if c.checkable]
        verdicts = iter(verify_claims(stages.verifier, checkable, safe, a.question, on_claim))
        results = [ClaimResult(c, next(verdicts) if c.checkable else not_checkable(c)) for c in a.claims]
        answers = answers_question(shared_model(), a.question)
        results = flag_conflicts(results, unread.readable(safe), answers, judge_pairs)
    with timer("score"):
        unanswered = a.judged.review_reason() if a.judged else ""
        relevance = (
            answer_relevance(stages, a.question, a.answer, [r for r in results if r.claim.checkable], safe)
            if unread.relevance_readable
            else None
        )
        scored = score(
            results,
            a.answer,
            threshold=s.risk_threshold,
            strict=s.strict,
            off_topic="" if relevance is None or relevance.addressed else relevance.reason,
            concerns=[r for r in (review_reason(planted) if planted else "", unanswered) if r],
        )
    return Report(
        session_id=session_id,
        question=a.question,
        answer=a.answer.text,
        **scored.report_fields(),
        notes=a.notes,
        claims=results,
        contexts=a.contexts,
        timings_ms=timer.timings_ms,
        created_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        mode=a.mode,
        answer_backend=a.answer.backend,
        citation_mismatches=a.answer.citation_mismatches,
        threshold=s.risk_threshold,
        strict=s.strict,
        addresses_question=None if relevance is None else relevance.addressed,
        relevance_reason="" if relevance is None else relevance.reason,
        llm=calls.summary(stages.llm, PROMPT_VERSION),
        retrieval=a.judged.retrieval if a.judged else VERIFY_RETRIEVAL,
        closest_passage=a.judged.closest_note() if a.judged else "",
        checks_not_run=unread.checks_not_run(safe, answered_here=a.judged is not None),
    )
