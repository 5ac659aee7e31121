"""The engine entry point: ingest documents, answer questions, audit every claim, save the report."""

from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, Sequence

from rrag.answer import Answerer, ExtractiveAnswerer, LLMAnswerer
from rrag.claims import ClaimExtractor, LLMClaimExtractor, RuleClaimExtractor
from rrag.embedding import get_embedder
from rrag.errors import ConfigError
from rrag.index import ChunkIndex
from rrag.ingest.service import Ingestor
from rrag.llm import LLM, OpenAIChatLLM
from rrag.retrieve import HybridRetriever
from rrag.scoring import score
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import (
    Answer,
    Chunk,
    Claim,
    ClaimResult,
    ClaimStatus,
    DocumentInfo,
    IngestResult,
    Report,
    RetrievedChunk,
    Verdict,
)
from rrag.verify.base import Verifier
from rrag.verify.cascade import build_verifier

Progress = Callable[[str], None]

# Changing any of these means another database or index: everything is rebuilt.
_STORAGE_FIELDS = ("data_dir", "database_url", "chroma_host", "chroma_port", "collection")


class ReliableRAG:
    """Facade over the pipeline stages; one instance per process (the UI caches it)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self._open_storage()
        self._build_backends()

    def _open_storage(self) -> None:
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.settings)
        self.index = ChunkIndex(self.settings, get_embedder())
        self._ingestor = Ingestor(self.settings, self.index, self.store)

    def _build_backends(self) -> None:
        s = self.settings
        self._llm: LLM | None = OpenAIChatLLM(s) if s.llm_configured else None
        self._retriever = HybridRetriever(self.index, s)
        self._answerer = self._make_answerer()
        self._extractor = self._make_extractor()
        self._verifier: Verifier = build_verifier(s, self._llm)

    def _require_llm(self, what: str) -> LLM:
        if self._llm is None:
            raise ConfigError(f"{what} needs an LLM: set RRAG_LLM_BASE_URL and RRAG_LLM_MODEL")
        return self._llm

    def _make_answerer(self) -> Answerer:
        if self.settings.answerer == "openai":
            return LLMAnswerer(self._require_llm("The 'openai' answerer"))
        return ExtractiveAnswerer(get_embedder())

    def _make_extractor(self) -> ClaimExtractor:
        if self.settings.claim_extractor == "llm":
            return LLMClaimExtractor(self._require_llm("The LLM claim extractor"))
        return RuleClaimExtractor()

    def configure(self, settings: Settings) -> None:
        """Switch parameters or backends; storage is reopened only when it changed."""
        storage_changed = any(getattr(settings, f) != getattr(self.settings, f) for f in _STORAGE_FIELDS)
        self.settings = settings
        if storage_changed:
            self.close()
            self._open_storage()
        else:
            self._ingestor = Ingestor(settings, self.index, self.store)
        self._build_backends()

    def close(self) -> None:
        self.store.close()

    # -- documents ---------------------------------------------------------------------------------

    def ingest(
        self, paths: Sequence[Path], *, progress: Callable[[int, int, str], None] | None = None
    ) -> list[IngestResult]:
        results = []
        for done, path in enumerate(paths):
            if progress:
                progress(done, len(paths), Path(path).name)
            results.append(self._ingestor.ingest_file(Path(path)))
        if progress:
            progress(len(paths), len(paths), "")
        return results

    def ingest_bytes(self, name: str, data: bytes) -> IngestResult:
        return self._ingestor.ingest_bytes(name, data)

    def documents(self) -> list[DocumentInfo]:
        return self.store.list_documents()

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.index.get_chunks(doc_id)

    def delete_document(self, doc_id: str) -> None:
        self._ingestor.delete(doc_id)

    def reindex(self, doc_id: str) -> IngestResult:
        return self._ingestor.reindex(doc_id)

    # -- questions ---------------------------------------------------------------------------------

    def ask(self, question: str, *, progress: Progress | None = None) -> Report:
        """Retrieve, answer, then audit the answer claim by claim."""
        timer = _StageTimer(progress)
        with timer("retrieve"):
            contexts = self._retriever.retrieve(question)
        with timer("answer"):
            answer = self._answerer.answer(question, contexts)
        with timer("claims"):
            claims, notes = self._extractor.extract_with_notes(answer.text, question)
        return self._audit(question, answer, claims, notes, contexts, timer, mode="ask")

    def verify(self, question: str, answer: str, *, progress: Progress | None = None) -> Report:
        """Audit an answer written elsewhere against the indexed documents."""
        timer = _StageTimer(progress)
        with timer("claims"):
            claims, notes = self._extractor.extract_with_notes(answer, question)
        with timer("retrieve"):
            # Each claim retrieves its own evidence too: an external answer may state facts the
            # question alone would not retrieve.
            queries = [question] + [c.text for c in claims if c.checkable]
            contexts = _merge_contexts(self._retriever.retrieve(q) for q in queries if q.strip())
        return self._audit(
            question, Answer(text=answer, backend="external"), claims, notes, contexts, timer, mode="verify"
        )

    def _audit(
        self,
        question: str,
        answer: Answer,
        claims: list[Claim],
        notes: list[str],
        contexts: list[RetrievedChunk],
        timer: _StageTimer,
        *,
        mode: str,
    ) -> Report:
        with timer("verify"):
            results = self._verify_claims(claims, contexts, question)
        s = self.settings
        with timer("score"):
            scored = score(results, answer, threshold=s.risk_threshold, strict=s.strict)
        report = Report(
            session_id=uuid.uuid4().hex,
            question=question,
            answer=answer.text,
            final_answer=scored.final_answer,
            decision=scored.decision,
            level=scored.level,
            reliability=scored.reliability,
            hallucination_rate=scored.hallucination_rate,
            needs_review=scored.needs_review,
            review_reasons=list(scored.review_reasons),
            notes=notes,
            status_counts=dict(scored.status_counts),
            claims=results,
            contexts=contexts,
            timings_ms=timer.timings_ms,
            created_at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            mode=mode,
            answer_backend=answer.backend,
            citation_mismatches=answer.citation_mismatches,
            verified=scored.verified,
            not_verified_reason=scored.not_verified_reason,
            caveat=scored.caveat,
            threshold=s.risk_threshold,
            strict=s.strict,
        )
        with timer("save"):
            self.store.save_report(report)
        return report

    def _verify_claims(
        self, claims: list[Claim], contexts: list[RetrievedChunk], question: str
    ) -> list[ClaimResult]:
        checkable = [c for c in claims if c.checkable]
        verdicts = iter(self._verifier.verify_many(checkable, contexts, question) if checkable else [])
        return [
            ClaimResult(c, next(verdicts) if c.checkable else _not_checkable(c)) for c in claims
        ]

    def test_llm_connection(self) -> str:
        llm = self._require_llm("Testing the connection")
        return llm.complete([{"role": "user", "content": "Reply with the single word: ready"}])


def _not_checkable(claim: Claim) -> Verdict:
    return Verdict(
        status=ClaimStatus.NOT_CHECKABLE,
        confidence=1.0,
        verifier="claims",
        reason=claim.reason or "not a factual statement",
    )


def _merge_contexts(batches: Iterator[list[RetrievedChunk]] | Sequence[list[RetrievedChunk]]) -> list[RetrievedChunk]:
    best: dict[str, RetrievedChunk] = {}
    for batch in batches:
        for rc in batch:
            kept = best.get(rc.chunk.chunk_id)
            if kept is None or rc.score > kept.score:
                best[rc.chunk.chunk_id] = rc
    return sorted(best.values(), key=lambda rc: rc.score, reverse=True)


class _StageTimer:
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
