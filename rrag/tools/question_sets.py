"""Question-set runs: ask a set of questions through the whole pipeline and measure the answers.

A question set is a CSV or JSONL file with a `question` and, optionally, a `reference` answer, the
`expected_source` document, whether the documents answer it (`answerable`, true or false) and whether
its answer meets a real disagreement between sources (`expected_conflict`). With the last two, a run
also counts right answers refused, unanswerable questions answered, false and found conflicts.
Each question goes through `ReliableRAG.ask` (so its report is saved as a session like any other);
the run keeps one outcome per question and a summary (faithfulness,
answer relevance, refusal rate, hallucination rate), and is saved so that two runs can be compared.
The Evaluate page and `python -m rrag evaluate FILE --fail-above 0.10` both use this module.

Not to be confused with `rrag.tools.verifier_eval` (`python -m rrag eval`), which measures the verifier
alone on labelled claim data.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from rrag.errors import AccessDeniedError, QuestionSetError, RRAGError
from rrag.retrieval.gate import (
    RECALL_DEPTHS,
    RERANK_CANDIDATES,
    gate_from,
    mean_reciprocal_rank,
    recall_at,
    source_rank,
)
from rrag.text import content_words
from rrag.types import ClaimStatus, Decision, Report

if TYPE_CHECKING:
    from rrag.engine.user import Engine

SUFFIXES = (".csv", ".jsonl")
MAX_QUESTIONS = 1000  # a run asks every question in turn: a bigger set belongs in several runs
# Column names accepted for the optional fields, first one canonical.
_REFERENCE_NAMES = ("reference", "reference_answer", "answer", "ground_truth")
_SOURCE_NAMES = ("expected_source", "source")
_FLAGS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
_CHECKED = (ClaimStatus.SUPPORTED, ClaimStatus.PARTIAL, ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED)
_HALLUCINATED = (ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED)

Progress = Callable[[int, int, str], None]  # (questions done, total, the question now asked)


@dataclass(frozen=True)
class QuestionItem:
    question: str
    reference: str = ""
    expected_source: str = ""
    answerable: bool | None = None  # None: the set does not say
    expected_conflict: bool | None = None


@dataclass(frozen=True)
class QuestionOutcome:
    """One question's result: the figures of its report, or the error that stopped it."""

    question: str
    reference: str = ""
    expected_source: str = ""
    session_id: str | None = None  # the saved report, for History and the Evaluate page
    decision: str | None = None
    level: str | None = None
    final_answer: str = ""
    faithfulness: float | None = None  # the report's reliability: supported (+ half partial) share
    hallucination_rate: float | None = None
    answer_relevance: float | None = None
    source_found: bool | None = None  # None when no source was expected
    source_cited: bool | None = None  # the evidence of a delivered claim is in the expected source
    answerable: bool | None = None
    expected_conflict: bool | None = None
    conflicts: int = 0  # claims whose sources disagree (Report.source_conflicts)
    off_target: bool = False  # delivered, but flagged as not answering the question
    needs_review: bool = False  # flagged for a reviewer (Report.needs_review)
    # The expected source's rank among the first stage's candidates, and after reranking them (None:
    # not among them, or no source expected).
    first_stage_rank: int | None = None
    reranked_rank: int | None = None
    checked_claims: int = 0
    hallucinated_claims: int = 0
    verified: bool = True
    error: str = ""

    @property
    def refused(self) -> bool:
        return self.decision == Decision.REFUSE.value


@dataclass(frozen=True)
class RunSummary:
    """Aggregates over a run. A figure nothing measured is None, never 0."""

    questions: int
    errors: int = 0
    refused: int = 0
    not_verified: int = 0
    checked_claims: int = 0
    hallucinated_claims: int = 0
    faithfulness: float | None = None
    answer_relevance: float | None = None
    relevance_measured: int = 0
    refusal_rate: float | None = None
    hallucination_rate: float | None = None  # hallucinated / checked claims over every verified answer
    source_hit_rate: float | None = None
    sources_expected: int = 0
    source_cited_rate: float | None = None  # answers whose evidence comes from the expected source
    # With `answerable` marked: right answers refused (target 0) and unanswerable questions answered.
    answerable: int = 0
    answerable_refused: int = 0
    answerable_refusal_rate: float | None = None
    unanswerable: int = 0
    unanswerable_answered: int = 0
    # Of those, answered without a flag for review, which nobody would look at (None: a run saved
    # before this was counted).
    unanswerable_unflagged: int | None = None
    # With `expected_conflict` marked: conflicts reported where none is expected, and real ones found.
    false_conflicts: int = 0
    conflicts_expected: int = 0
    conflicts_found: int = 0
    # Delivered answers flagged as not answering the question, among the answerable ones (target 0).
    answerable_off_target: int = 0
    # With `expected_source`: the first stage's recall@5, @20 and @50, and MRR before and after
    # reranking (rrag/retrieval/gate.py); the recall the gate reads, and whether it passed (that
    # recall, and reranking not lowering the MRR).
    recall_at_5: float | None = None
    recall_at_20: float | None = None
    recall_at_50: float | None = None
    mrr_first_stage: float | None = None
    mrr_reranked: float | None = None
    gate_recall: float | None = None  # recall@RERANK_CANDIDATES: what the gate is decided on
    gate_passed: bool | None = None


@dataclass(frozen=True)
class QuestionSetRun:
    run_id: str
    name: str
    created_at: str  # ISO 8601, UTC
    summary: RunSummary
    outcomes: list[QuestionOutcome] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QuestionSetRun:
        return cls(
            run_id=data["run_id"],
            name=data["name"],
            created_at=data["created_at"],
            summary=_known(RunSummary, data["summary"]),
            outcomes=[_known(QuestionOutcome, o) for o in data.get("outcomes", [])],
        )


# -- reading a question set --------------------------------------------------------------------------


def read_question_set(name: str, data: bytes) -> list[QuestionItem]:
    """Parse a CSV (with a header row) or JSONL question set; a bad row is named in the error."""
    suffix = PurePath(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise QuestionSetError(
            f"{name}: a question set is a .csv or .jsonl file, not {suffix or 'no extension'!r}"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise QuestionSetError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    rows = _csv_rows(name, text) if suffix == ".csv" else _jsonl_rows(name, text)
    items = [_item(name, where, row) for where, row in rows]
    if not items:
        raise QuestionSetError(f"{name}: no questions found")
    if len(items) > MAX_QUESTIONS:
        raise QuestionSetError(f"{name}: {len(items)} questions; at most {MAX_QUESTIONS} per run")
    return items


def _csv_rows(name: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    if "question" not in header:
        raise QuestionSetError(f"{name}: the first row must name the columns, one of them 'question'")
    reader.fieldnames = header
    try:
        return [
            (f"row {reader.line_num}", row) for row in reader if any((v or "").strip() for v in row.values())
        ]
    except csv.Error as exc:
        raise QuestionSetError(f"{name}: row {reader.line_num}: {exc}") from exc


def _jsonl_rows(name: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionSetError(f"{name}: line {number} is not JSON ({exc.msg})") from exc
        if not isinstance(row, dict):
            raise QuestionSetError(f'{name}: line {number} must be a JSON object with a "question"')
        rows.append((f"line {number}", {str(k).strip().lower(): v for k, v in row.items()}))
    return rows


def _item(name: str, where: str, row: dict[str, Any]) -> QuestionItem:
    def text(names: Sequence[str]) -> str:
        value = next((row[n] for n in names if row.get(n) not in (None, "")), "")
        if not isinstance(value, str):
            raise QuestionSetError(f"{name}: {where}: '{names[0]}' must be text")
        return value.strip()

    def flag(key: str) -> bool | None:
        value = row.get(key)
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _FLAGS:
            return _FLAGS[value.strip().lower()]
        raise QuestionSetError(f"{name}: {where}: '{key}' must be true or false, not {value!r}")

    question = text(("question",))
    if not question:
        raise QuestionSetError(f"{name}: {where} has no question")
    return QuestionItem(
        question, text(_REFERENCE_NAMES), text(_SOURCE_NAMES), flag("answerable"), flag("expected_conflict")
    )


# -- running and measuring --------------------------------------------------------------------------


def run_question_set(
    rag: Engine, items: Sequence[QuestionItem], *, name: str = "", progress: Progress | None = None
) -> QuestionSetRun:
    """Ask every question, measure each answer, summarise, and save the run. A question that fails
    (an LLM timeout, say) is recorded with its error; the others go on."""
    created = datetime.now(UTC)  # to the microsecond: two runs in one second keep their order
    name = name.strip() or f"run of {created:%Y-%m-%d %H:%M} UTC"
    # The retrieval is measured first, so that the answers below are reranked as its gate decides.
    ranks = {item.question: source_ranks(rag, item) for item in items if item.expected_source}
    gate = gate_from(list(ranks.values()), name, created.isoformat())
    if gate is not None:
        rag.save_retrieval_gate(gate)
    outcomes = []
    for done, item in enumerate(items):
        if progress:
            progress(done, len(items), item.question)
        try:
            outcome = measure(item, rag.ask(item.question))
            first_rank, reranked_rank = ranks.get(item.question, (None, None))
            outcomes.append(replace(outcome, first_stage_rank=first_rank, reranked_rank=reranked_rank))
        except AccessDeniedError:
            raise  # the same for every question: say so once, run nothing
        except RRAGError as exc:
            outcomes.append(
                QuestionOutcome(
                    item.question,
                    item.reference,
                    item.expected_source,
                    answerable=item.answerable,
                    expected_conflict=item.expected_conflict,
                    error=str(exc),
                )
            )
    if progress:
        progress(len(items), len(items), "")
    run = QuestionSetRun(
        run_id=uuid.uuid4().hex,
        name=name,
        created_at=created.isoformat(),
        summary=summarise(outcomes),
        outcomes=outcomes,
    )
    rag.save_question_set_run(
        run.run_id, run.name, created, asdict(run.summary), [asdict(o) for o in outcomes]
    )
    return run


def source_ranks(rag: Engine, item: QuestionItem) -> tuple[int | None, int | None]:
    """The expected source's rank among the first stage's candidates, and after the reranker has
    reordered the first RERANK_CANDIDATES of them."""
    candidates = rag.first_stage(item.question)
    reranked = rag.rerank(item.question, candidates[:RERANK_CANDIDATES]) + candidates[RERANK_CANDIDATES:]
    return source_rank(candidates, item.expected_source), source_rank(reranked, item.expected_source)


def measure(item: QuestionItem, report: Report) -> QuestionOutcome:
    counts = report.status_counts
    return QuestionOutcome(
        question=item.question,
        reference=item.reference,
        expected_source=item.expected_source,
        session_id=report.session_id,
        decision=report.decision.value,
        level=report.level.value if report.level else None,
        final_answer=report.final_answer,
        faithfulness=report.reliability,
        hallucination_rate=report.hallucination_rate,
        answer_relevance=answer_relevance(item, report),
        source_found=_source_found(item.expected_source, report) if item.expected_source else None,
        source_cited=_source_cited(item.expected_source, report) if item.expected_source else None,
        answerable=item.answerable,
        expected_conflict=item.expected_conflict,
        conflicts=report.source_conflicts,
        off_target=report.decision is not Decision.REFUSE and report.addresses_question is False,
        needs_review=report.needs_review,
        checked_claims=sum(counts.get(s.value, 0) for s in _CHECKED),
        hallucinated_claims=sum(counts.get(s.value, 0) for s in _HALLUCINATED),
        verified=report.verified,
    )


def answer_relevance(item: QuestionItem, report: Report) -> float | None:
    """How much of the reference answer the delivered answer gives: the share of the reference's
    content words (stemmed; numbers included) found in it. A refusal of a question that has a
    reference scores 0. None without a reference: nothing here says what the answer should be."""
    expected = set(content_words(item.reference))
    if not expected:
        return None
    if report.decision is Decision.REFUSE:
        return 0.0
    return len(expected & set(content_words(report.final_answer))) / len(expected)


def _source_found(expected: str, report: Report) -> bool:
    """Whether a retrieved passage comes from the expected document (matched by file name)."""
    return source_rank(report.contexts, expected) is not None


def _source_cited(expected: str, report: Report) -> bool:
    """Whether the answer was delivered with a claim whose evidence is in the expected document: the
    answer rests on it, not only a retrieved passage (a near-copy's would name the copy)."""
    wanted = PurePath(expected.strip()).name.lower()
    return report.decision is not Decision.REFUSE and any(
        r.verdict.evidence is not None
        and r.verdict.status in (ClaimStatus.SUPPORTED, ClaimStatus.PARTIAL)
        and PurePath(r.verdict.evidence.source).name.lower() == wanted
        for r in report.claims
    )


def summarise(outcomes: Sequence[QuestionOutcome]) -> RunSummary:
    """Every aggregate of a run, in one place. The hallucination rate is pooled over claims (as a
    report's own rate is), over every answer whose claims were all verified; unverified answers are
    counted apart, never as free of hallucination."""
    asked = [o for o in outcomes if not o.error]
    verified = [o for o in asked if o.verified]
    checked = sum(o.checked_claims for o in verified)
    hallucinated = sum(o.hallucinated_claims for o in verified)
    relevance = [o.answer_relevance for o in asked if o.answer_relevance is not None]
    sources = [o.source_found for o in asked if o.source_found is not None]
    answerable = [o for o in asked if o.answerable]
    unanswerable = [o for o in asked if o.answerable is False]
    conflicts_expected = [o for o in asked if o.expected_conflict]
    ranked = [o for o in asked if o.source_found is not None]
    first = [o.first_stage_rank for o in ranked]
    recall = {k: recall_at(first, k) for k in RECALL_DEPTHS}
    gate = gate_from([(o.first_stage_rank, o.reranked_rank) for o in ranked], "", "")
    return RunSummary(
        questions=len(outcomes),
        errors=len(outcomes) - len(asked),
        refused=sum(o.refused for o in asked),
        not_verified=len(asked) - len(verified),
        checked_claims=checked,
        hallucinated_claims=hallucinated,
        faithfulness=_mean([o.faithfulness for o in verified if o.faithfulness is not None]),
        answer_relevance=_mean(relevance),
        relevance_measured=len(relevance),
        refusal_rate=sum(o.refused for o in asked) / len(asked) if asked else None,
        hallucination_rate=hallucinated / checked if checked else None,
        source_hit_rate=_mean([float(found) for found in sources]),
        sources_expected=len(sources),
        source_cited_rate=_mean([float(o.source_cited) for o in asked if o.source_cited is not None]),
        answerable=len(answerable),
        answerable_refused=sum(o.refused for o in answerable),
        answerable_refusal_rate=_mean([float(o.refused) for o in answerable]),
        unanswerable=len(unanswerable),
        unanswerable_answered=sum(not o.refused for o in unanswerable),
        unanswerable_unflagged=sum(not o.refused and not o.needs_review for o in unanswerable),
        false_conflicts=sum(o.expected_conflict is False and o.conflicts > 0 for o in asked),
        conflicts_expected=len(conflicts_expected),
        conflicts_found=sum(o.conflicts > 0 for o in conflicts_expected),
        answerable_off_target=sum(o.off_target for o in answerable),
        recall_at_5=recall[5],
        recall_at_20=recall[20],
        recall_at_50=recall[50],
        mrr_first_stage=mean_reciprocal_rank(first),
        mrr_reranked=mean_reciprocal_rank([o.reranked_rank for o in ranked]),
        gate_recall=None if gate is None else gate.recall,
        gate_passed=None if gate is None else gate.passed,
    )


def gate_failures(summary: RunSummary, max_hallucination_rate: float) -> list[str]:
    """Why a run fails a CI gate on the hallucination rate; empty when it passes. A run that could
    not measure the rate (errors, unverified answers, nothing checked) fails: it proves nothing."""
    failures = []
    if summary.hallucination_rate is not None and summary.hallucination_rate > max_hallucination_rate:
        failures.append(
            f"the hallucination rate {summary.hallucination_rate:.1%} is above the bound "
            f"{max_hallucination_rate:.1%}"
        )
    if summary.hallucination_rate is None:
        failures.append("no claim was checked, so the hallucination rate is unknown")
    if summary.not_verified:
        failures.append(f"{summary.not_verified} answer(s) could not be verified")
    if summary.errors:
        failures.append(f"{summary.errors} question(s) failed with an error")
    return failures


# -- saved runs and comparison ----------------------------------------------------------------------


def saved_runs(rag: Engine) -> list[dict[str, Any]]:
    """Saved runs, newest first, without their outcomes: run_id, name, created_at, summary."""
    return rag.question_set_runs()


def load_run(rag: Engine, run_id: str) -> QuestionSetRun:
    return QuestionSetRun.from_dict(rag.question_set_run(run_id))


METRICS = (  # (summary field, label, higher is better, kind: a rate 0..1, a count, or a score 0..1)
    ("faithfulness", "Faithfulness", True, "rate"),
    ("answer_relevance", "Answer relevance", True, "rate"),
    ("refusal_rate", "Refusal rate", False, "rate"),
    ("hallucination_rate", "Hallucination rate", False, "rate"),
    ("source_hit_rate", "Expected source retrieved", True, "rate"),
    ("source_cited_rate", "Expected source cited", True, "rate"),
    ("answerable_refusal_rate", "Answerable questions refused", False, "rate"),
    ("unanswerable_answered", "Unanswerable questions answered", False, "count"),
    ("unanswerable_unflagged", "Of those, not flagged for review", False, "count"),
    ("answerable_off_target", "Answers flagged off-target", False, "count"),
    ("conflicts_found", "Real conflicts found", True, "count"),
    ("false_conflicts", "False conflicts", False, "count"),
    ("recall_at_5", "Recall@5, first stage", True, "rate"),
    ("recall_at_20", "Recall@20, first stage", True, "rate"),
    ("recall_at_50", "Recall@50, first stage", True, "rate"),
    ("mrr_first_stage", "MRR, first stage", True, "score"),
    ("mrr_reranked", "MRR, reranked", True, "score"),
)


NOT_COMPARABLE = "not comparable"


def different_questions(a: QuestionSetRun, b: QuestionSetRun) -> str:
    """Why two runs' rates cannot be compared ('' when they asked the same questions)."""
    in_a, in_b = {o.question for o in a.outcomes}, {o.question for o in b.outcomes}
    if in_a == in_b:
        return ""
    return (
        f"Run A and run B asked different questions ({len(in_a & in_b)} in common, {len(in_a - in_b)} only "
        f"in A, {len(in_b - in_a)} only in B): their rates measure different things, so neither is better. "
        "Compare two runs of the same question set."
    )


def compare_runs(a: QuestionSetRun, b: QuestionSetRun) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two runs side by side: one row per metric (A, B, change, better or worse), and one row per
    question either run asked (matched by its text), with each run's decision and rates. Runs of
    different questions have no change and no verdict: their rates measure different things."""
    in_a, in_b = {o.question: o for o in a.outcomes}, {o.question: o for o in b.outcomes}
    comparable = set(in_a) == set(in_b)
    metrics = []
    for name, label, higher_is_better, kind in METRICS:
        before, after = getattr(a.summary, name), getattr(b.summary, name)
        change = None if before is None or after is None or not comparable else after - before
        verdict = "" if not change else ("better" if (change > 0) == higher_is_better else "worse")
        verdict = verdict if comparable else NOT_COMPARABLE
        metrics.append(
            {"metric": label, "A": before, "B": after, "change": change, "verdict": verdict, "kind": kind}
        )
    rows = []
    for question in dict.fromkeys([*in_a, *in_b]):  # A's order, then what only B asked
        left, right = in_a.get(question), in_b.get(question)
        rows.append(
            {
                "question": question,
                "decision A": _decision(left),
                "decision B": _decision(right),
                "hallucination A": _figure(left, "hallucination_rate"),
                "hallucination B": _figure(right, "hallucination_rate"),
                "relevance A": _figure(left, "answer_relevance"),
                "relevance B": _figure(right, "answer_relevance"),
            }
        )
    return metrics, rows


def _decision(outcome: QuestionOutcome | None) -> str:
    if outcome is None:
        return "not asked"
    return "error" if outcome.error else outcome.decision or ""


def _figure(outcome: QuestionOutcome | None, name: str) -> float | None:
    return None if outcome is None else getattr(outcome, name)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _known(cls: type[Any], data: dict[str, Any]) -> Any:
    """Build a dataclass from saved data, ignoring fields a later version no longer has."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})
