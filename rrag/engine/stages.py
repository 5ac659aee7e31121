"""The stages one question runs on (the backends its settings choose), who is using them, and the
steps between them that are not a stage of their own: verifying with progress, answer relevance, timing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from rrag.answer.answerers import ANSWERERS, Answerer
from rrag.audit.claims import CLAIM_EXTRACTORS, ClaimExtractor
from rrag.audit.relevance import Relevance, assess, judge
from rrag.backends.llm import LLM, OpenAIChatLLM, TextSink
from rrag.engine.streaming import ClaimProgress, Progress
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store
from rrag.text.sentences import heading_over
from rrag.types import Answer, Claim, ClaimResult, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.cascade import build_verifier

# Changing any of these means another database or index: everything is rebuilt.
STORAGE_FIELDS = ("data_dir", "database_url", "chroma_host", "chroma_port", "collection")


@dataclass(frozen=True)
class Stages:
    """The stages chosen by the settings; built in one go so a bad choice changes nothing."""

    settings: Settings
    llm: LLM | None
    retriever: HybridRetriever
    answerer: Answerer
    extractor: ClaimExtractor
    verifier: Verifier
    users: StageUsers = field(default_factory=lambda: StageUsers(), compare=False, repr=False)

    def retire(self) -> None:
        """No new question takes these stages: close the LLM client once the last one is done."""
        self.users.retire(self.llm.close if self.llm is not None else lambda: None)

    @classmethod
    def build(cls, settings: Settings, index: ChunkIndex, store: Store) -> Stages:
        llm = OpenAIChatLLM(settings) if settings.llm_configured else None
        return cls(
            settings,
            llm,
            HybridRetriever(index, store, settings),
            ANSWERERS.create(settings.answerer, settings, llm),
            CLAIM_EXTRACTORS.create(settings.claim_extractor, settings, llm),
            build_verifier(settings, llm),
        )


class StageUsers:
    """How many calls use one set of stages, and what to do when it is retired and the last is done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0
        self._on_idle: Callable[[], None] | None = None

    def enter(self) -> None:
        with self._lock:
            self._count += 1

    def leave(self) -> None:
        with self._lock:
            self._count -= 1
            self._run_if_idle()

    def retire(self, on_idle: Callable[[], None]) -> None:
        with self._lock:
            self._on_idle = on_idle
            self._run_if_idle()

    def _run_if_idle(self) -> None:
        if self._count == 0 and self._on_idle is not None:
            on_idle, self._on_idle = self._on_idle, None
            on_idle()


def other_storage(a: Settings, b: Settings) -> bool:
    return any(getattr(a, f) != getattr(b, f) for f in STORAGE_FIELDS)


def answer_relevance(
    stages: Stages,
    question: str,
    answer: Answer,
    checkable: list[ClaimResult],
    contexts: Sequence[RetrievedChunk] = (),
) -> Relevance | None:
    """Whether the answer addresses the question: by rules, then (with an LLM judge configured) by the
    LLM, which may only lower the rules' result. None for a refusal or an answer with no verified claim
    (it is refused or withheld anyway). The headings the claims' evidence sits under in `contexts`
    say what they are about: each read at its evidence's end, since the evidence may open with the
    heading itself (an FAQ's question read with its answer)."""
    if answer.refused or not any(r.verdict.verified for r in checkable):
        return None
    chunks = {c.chunk.chunk_id: c.chunk.text for c in contexts}
    headings = [
        heading_over(chunks[e.chunk_id], e.end)
        for r in checkable
        if (e := r.verdict.evidence) is not None and e.chunk_id in chunks
    ]
    documents: dict[str, list[str]] = {}
    for c in contexts:
        documents.setdefault(c.chunk.doc_id, []).append(c.chunk.text)
    offline = assess(
        question, [r.claim.text for r in checkable], headings, ["\n\n".join(t) for t in documents.values()]
    )
    if stages.llm is not None and "llm" in stages.settings.verifiers:
        return judge(stages.llm, question, answer.text, offline)
    return offline


def verify_claims(
    verifier: Verifier,
    claims: list[Claim],
    contexts: list[RetrievedChunk],
    question: str,
    on_claim: ClaimProgress | None,
) -> list[Verdict]:
    """The claims' verdicts: in one batch, or, for a caller showing progress, one claim at a time
    (each claim is judged on its own either way; a batch only shares the model's work)."""
    if on_claim is None:
        return verifier.verify_many(claims, contexts, question) if claims else []
    verdicts: list[Verdict] = []
    on_claim(0, len(claims))
    for claim in claims:
        verdicts += verifier.verify_many([claim], contexts, question)
        on_claim(len(verdicts), len(claims))
    return verdicts


class Written:
    """Passes an answer's words on, noting whether any came."""

    def __init__(self, sink: TextSink | None) -> None:
        self._sink = sink
        self.any = False

    def __call__(self, text: str) -> None:
        if text and self._sink:
            self.any = True
            self._sink(text)


def not_checkable(claim: Claim) -> Verdict:
    return Verdict(
        status=ClaimStatus.NOT_CHECKABLE,
        confidence=1.0,
        verifier="claims",
        reason=claim.reason or "not a factual statement",
    )


def merge_contexts(batches: Iterable[list[RetrievedChunk]]) -> list[RetrievedChunk]:
    best: dict[str, RetrievedChunk] = {}
    for batch in batches:
        for rc in batch:
            kept = best.get(rc.chunk.chunk_id)
            if kept is None or rc.score > kept.score:
                best[rc.chunk.chunk_id] = rc
    return sorted(best.values(), key=lambda rc: rc.score, reverse=True)


class StageTimer:
    """Reports each stage to the progress callback as it starts and records its duration."""

    def __init__(self, progress: Progress | None) -> None:
        self._progress = progress
        self.timings_ms: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        if self._progress:
            self._progress(stage)
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings_ms[stage] = self.timings_ms.get(stage, 0.0) + (time.perf_counter() - start) * 1000
