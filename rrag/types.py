"""Value types passed between pipeline stages, and the report every audited answer produces."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class ClaimStatus(str, Enum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    NOT_CHECKABLE = "not_checkable"  # states nothing checkable: a greeting, an opinion, a question
    NOT_VERIFIED = "not_verified"  # checkable, but no verifier could decide (deadline, failure)


HALLUCINATED = frozenset({ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED})


class Decision(str, Enum):
    PASS = "pass"
    TRIM = "trim"
    REFUSE = "refuse"


class Level(str, Enum):
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"


@dataclass(frozen=True)
class Chunk:
    """A piece of one document; `start`/`end` are offsets into the document's extracted text."""

    chunk_id: str
    doc_id: str
    source: str
    text: str
    start: int
    end: int
    page: int | None = None
    ordinal: int = 0
    version: int = 1  # which ingest of the document wrote it (see rrag/ingest/journal.py)
    # The ISO 639 code of its text's language, detected at ingest ("" where it could not be told); None
    # for a chunk indexed before languages were kept with chunks: read then (rrag/verify/language_gate.py).
    language: str | None = None


@dataclass(frozen=True)
class RetrievedChunk:
    chunk: Chunk
    score: float  # fused relevance in 0..1, higher is better
    vector_score: float = 0.0
    keyword_score: float = 0.0


@dataclass(frozen=True)
class Citation:
    """A span the answerer says it took from a chunk; `found` is whether it really is there."""

    chunk_id: str
    quote: str
    found: bool


@dataclass(frozen=True)
class Answer:
    text: str
    backend: str
    citations: tuple[Citation, ...] = ()
    refused: bool = False

    @property
    def citation_mismatches(self) -> int:
        return sum(not c.found for c in self.citations)


@dataclass(frozen=True)
class Claim:
    """An atomic statement of the answer; `start`/`end` locate it in the answer text."""

    text: str
    start: int
    end: int
    checkable: bool = True
    reason: str = ""  # why it is not checkable (greeting, question, refusal, opinion)


@dataclass(frozen=True)
class Evidence:
    """The quote that decided a verdict; `start`/`end` are offsets into the chunk's text."""

    chunk_id: str
    source: str
    quote: str
    start: int
    end: int
    page: int | None = None


@dataclass(frozen=True)
class ValueClash:
    """A value of the claim that the evidence gives differently ("10 working days" where the
    evidence says "5 working days"); `start`/`end` locate `claim_value` in the claim's text."""

    claim_value: str
    evidence_value: str
    start: int
    end: int

    def in_answer(self, claim: Claim) -> tuple[int, int] | None:
        """The clashing words' offsets in the answer; None where they are words the claim borrowed
        (a claim's text ends with its span of the answer, see RuleClaimExtractor)."""
        borrowed = len(claim.text) - (claim.end - claim.start)
        if borrowed < 0 or self.start < borrowed:
            return None
        return claim.start + self.start - borrowed, claim.start + self.end - borrowed


@dataclass(frozen=True)
class Verdict:
    status: ClaimStatus
    confidence: float  # 0..1, how sure the deciding verifier is of `status`
    verifier: str
    reason: str
    evidence: Evidence | None = None
    support_score: float | None = None  # probability the claim is supported, 0..1
    verified: bool = True  # False: no verifier could decide (see `reason`); never counts as supported
    clash: ValueClash | None = None  # the value the evidence gives differently, when that decided

    def __post_init__(self) -> None:
        if self.status is ClaimStatus.NOT_VERIFIED and self.verified:  # the two say the same: keep them so
            object.__setattr__(self, "verified", False)


@dataclass(frozen=True)
class Correction:
    """A reviewer's status for one claim, from the latest review that changed it; `original` is the
    verifier's verdict it overrides (kept beside it, never rewritten)."""

    status: ClaimStatus
    reviewer: str
    corrected_at: str  # ISO 8601, UTC
    review_id: int
    note: str = ""
    original: Verdict | None = None
    evidence: Evidence | None = None  # a passage of the retrieved set the reviewer chose instead

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "reviewer": self.reviewer,
            "corrected_at": self.corrected_at,
            "review_id": self.review_id,
            "note": self.note,
            "original": None if self.original is None else _verdict_dict(self.original),
            "evidence": None if self.evidence is None else asdict(self.evidence),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Correction:
        original = data.get("original")
        return cls(
            status=ClaimStatus(data["status"]),
            reviewer=data["reviewer"],
            corrected_at=data["corrected_at"],
            review_id=data["review_id"],
            note=data.get("note", ""),
            original=None if original is None else _verdict_from_dict(original),
            evidence=Evidence(**data["evidence"]) if data.get("evidence") else None,
        )


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    verdict: Verdict  # a reviewer's correction, when there is one (see `correction`)
    correction: Correction | None = None
    conflict: str = ""  # "sources disagree: 12 months (policy.pdf) vs 2 years (faq.html)", or ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.claim.text,
            "start": self.claim.start,
            "end": self.claim.end,
            "checkable": self.claim.checkable,
            **_verdict_dict(self.verdict),
            "correction": None if self.correction is None else self.correction.to_dict(),
            "conflict": self.conflict,
        }


def _verdict_dict(v: Verdict) -> dict[str, Any]:
    return {
        "status": v.status.value,
        "confidence": round(v.confidence, 4),
        "verifier": v.verifier,
        "reason": v.reason,
        "verified": v.verified,
        "support_score": None if v.support_score is None else round(v.support_score, 4),
        "evidence": None if v.evidence is None else asdict(v.evidence),
        "clash": None if v.clash is None else asdict(v.clash),
    }


def _verdict_from_dict(data: dict[str, Any]) -> Verdict:
    status, verified = ClaimStatus(data["status"]), data.get("verified", True)
    if status is ClaimStatus.NOT_CHECKABLE and not verified:  # saved before NOT_VERIFIED was its own state
        status = ClaimStatus.NOT_VERIFIED
    return Verdict(
        status=status,
        confidence=data["confidence"],
        verifier=data["verifier"],
        reason=data["reason"],
        evidence=Evidence(**data["evidence"]) if data.get("evidence") else None,
        support_score=data.get("support_score"),
        verified=verified,
        clash=ValueClash(**data["clash"]) if data.get("clash") else None,
    )


@dataclass
class Report:
    """The audited answer: what the API returns, the CLI prints and the store saves."""

    session_id: str
    question: str
    answer: str
    final_answer: str
    decision: Decision
    level: Level | None  # None when nothing was checkable or nothing could be verified
    reliability: float | None
    hallucination_rate: float | None
    needs_review: bool
    status_counts: dict[str, int]
    claims: list[ClaimResult]
    contexts: list[RetrievedChunk]
    timings_ms: dict[str, float]
    created_at: str  # ISO 8601, UTC
    mode: str = "ask"  # "ask" (answered here) or "verify" (answer written elsewhere)
    answer_backend: str = ""
    citation_mismatches: int = 0
    verified: bool = True  # False when any checkable claim could not be verified
    not_verified_reason: str = ""
    caveat: str = ""
    threshold: float = 0.0
    strict: bool = False
    review_reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # how the audit ran, e.g. a fallback to the rule splitter
    addresses_question: bool | None = None  # the answer-relevance check; None when it did not run
    relevance_reason: str = ""  # why the answer does not address the question
    llm: dict[str, Any] = field(default_factory=dict)  # provenance: server, models, prompt version, tokens
    retrieval: str = ""  # how the contexts were chosen: first stage, reranked or not, and why
    closest_passage: str = ""  # where nothing retrieved answers the question: the passage that came closest
    # Checks that did not run, or ran on part of the text, and why: "Answer-relevance check: the
    # question is in German; ..." (text in a language the rules do not read, rrag/audit/languages.py)
    checks_not_run: list[str] = field(default_factory=list)

    @property
    def source_conflicts(self) -> int:
        """Claims whose retrieved sources disagree about the value they state."""
        return sum(bool(c.conflict) for c in self.claims)

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "question": self.question,
            "answer": self.answer,
            "final_answer": self.final_answer,
            "decision": self.decision.value,
            "level": None if self.level is None else self.level.value,
            "reliability": self.reliability,
            "hallucination_rate": self.hallucination_rate,
            "needs_review": self.needs_review,
            "review_reasons": list(self.review_reasons),
            "notes": list(self.notes),
            "status_counts": dict(self.status_counts),
            "claims": [c.to_dict() for c in self.claims],
            "contexts": [_context_dict(c) for c in self.contexts],
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "created_at": self.created_at,
            "mode": self.mode,
            "answer_backend": self.answer_backend,
            "citation_mismatches": self.citation_mismatches,
            "verified": self.verified,
            "not_verified_reason": self.not_verified_reason,
            "caveat": self.caveat,
            "threshold": self.threshold,
            "strict": self.strict,
            "addresses_question": self.addresses_question,
            "relevance_reason": self.relevance_reason,
            "llm": dict(self.llm),
            "retrieval": self.retrieval,
            "closest_passage": self.closest_passage,
            "checks_not_run": list(self.checks_not_run),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        claims = [
            ClaimResult(
                Claim(c["text"], c["start"], c["end"], _checkable(c)),
                _verdict_from_dict(c),
                Correction.from_dict(c["correction"]) if c.get("correction") else None,
                conflict=c.get("conflict", ""),
            )
            for c in data["claims"]
        ]
        contexts = [
            RetrievedChunk(
                Chunk(
                    **{
                        k: c[k]
                        for k in ("chunk_id", "doc_id", "source", "text", "start", "end", "page", "ordinal")
                    },
                    language=c.get("language"),  # kept since chunks keep their language
                ),
                score=c["score"],
                vector_score=c.get("vector_score", 0.0),
                keyword_score=c.get("keyword_score", 0.0),
            )
            for c in data["contexts"]
        ]
        simple = {
            k: data[k]
            for k in (
                "session_id",
                "question",
                "answer",
                "final_answer",
                "reliability",
                "hallucination_rate",
                "needs_review",
                "status_counts",
                "timings_ms",
                "created_at",
                "mode",
                "answer_backend",
                "citation_mismatches",
                "verified",
                "not_verified_reason",
                "caveat",
                "threshold",
                "strict",
                "review_reasons",
                "notes",
                "addresses_question",
                "relevance_reason",
                "llm",
                "retrieval",
                "closest_passage",
                "checks_not_run",
            )
            if k in data
        }
        return cls(
            decision=Decision(data["decision"]),
            level=Level(data["level"]) if data.get("level") else None,
            claims=claims,
            contexts=contexts,
            **simple,
        )


def _checkable(claim: dict[str, Any]) -> bool:
    """Saved since NOT_VERIFIED, else read from the status: only NOT_CHECKABLE ones state nothing
    checkable (a claim no verifier decided was saved as not_checkable with verified=false)."""
    if "checkable" in claim:
        return bool(claim["checkable"])
    return claim["status"] != ClaimStatus.NOT_CHECKABLE.value or not claim.get("verified", True)


def _context_dict(rc: RetrievedChunk) -> dict[str, Any]:
    return {
        **asdict(rc.chunk),
        "score": round(rc.score, 4),
        "vector_score": round(rc.vector_score, 4),
        "keyword_score": round(rc.keyword_score, 4),
    }


@dataclass(frozen=True)
class IngestResult:
    """What happened to one file; `error` is set instead of raising so other files go on."""

    source: str
    doc_id: str | None = None
    # added | replaced | duplicate (every chunk already indexed) | unchanged | skipped (a symlink) | failed
    status: str = "added"
    chunks_added: int = 0
    duplicates_dropped: int = 0
    pages: int | None = None
    error: str | None = None
    already_in: dict[str, int] = field(default_factory=dict)  # source -> passages dropped as copies of it

    @property
    def copies_note(self) -> str:
        """ "2 passages already in policy.pdf" for each document that held dropped text; "" for none."""
        return "; ".join(
            f"{n} passage{'s' if n != 1 else ''} already in {source}" for source, n in self.already_in.items()
        )

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class DocumentInfo:
    doc_id: str
    source: str
    sha256: str
    size_bytes: int
    chunks: int
    duplicates_dropped: int
    created_at: str
    # What makes two files the same document: the path relative to the folder the user named (the
    # file name when a file is named), or "sha256:<hash>" for uploaded bytes. "" means the source.
    identity: str = ""
    version: int = 1  # the ingest whose chunks are in the index; each re-ingest adds one
    # ISO 639 code of the language its text is written in (rrag/lang/detect.py), "" where it could not
    # be told: too little text, or indexed before languages were detected (re-indexing detects it).
    language: str = ""
