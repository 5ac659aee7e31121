"""The engine entry point: ingest documents, answer questions, audit every claim, save the report."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from rrag.backends.embedding import get_embedder
from rrag.backends.llm import OpenAIChatLLM, TextSink, llm_deadline
from rrag.backends.prompts import ConnectionCheck, check_connection
from rrag.backends.question_passage import shared_model
from rrag.backends.structured import CallLog, known_modes, learn_modes, logging_calls
from rrag.engine.audited import Answered, audit
from rrag.engine.records import Records
from rrag.engine.stages import (
    Stages,
    StageTimer,
    Written,
    merge_contexts,
    other_storage,
)
from rrag.engine.streaming import AnswerStream, ClaimProgress, Clock, Progress
from rrag.errors import ConfigError, InputError, LLMError, RRAGError
from rrag.ingest.service import Ingestor
from rrag.ingest.sources import SourceFile, collect
from rrag.locks import PresenceLock
from rrag.private import make_private
from rrag.registry import require_llm
from rrag.retrieval.gate import FIRST_STAGE_DEPTH
from rrag.retrieval.hybrid import backfill_keywords
from rrag.retrieval.index import ChunkIndex
from rrag.retrieval.injection import defuse
from rrag.retrieval.judged import judge, rerank
from rrag.settings import Settings
from rrag.store import PendingSession, Store
from rrag.text import clean
from rrag.types import (
    Answer,
    Chunk,
    DocumentInfo,
    IngestResult,
    Report,
    RetrievedChunk,
)

PRESENCE_LOCK = "engine.lock"  # in data_dir: held shared by every process with the folder open
MAX_QUESTION_CHARS = 2000  # longer is a pasted document, not a question; retrieval would be noise
OUTPUT_MODES_KEY = "llm_output_modes"  # app setting: the output mode each server and model accepted
NOT_ANSWERED = "I cannot answer this from the indexed documents: no passage found answers the question."


class ReliableRAG(Records):
    """Facade over the pipeline stages; one instance per process (the UI caches it)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self._running: set[str] = set()  # sessions this process is answering now
        self._kept_modes: dict[str, Any] = {}
        self._swap = threading.Lock()  # a question takes the stages while configure() cannot swap them
        self._open_storage()
        self._backends = Stages.build(self.settings, self.index, self.store)

    def _open_storage(self) -> None:
        make_private(self.settings.data_dir)
        self.store = Store(self.settings)
        self.index = ChunkIndex(self.settings, get_embedder())
        self._ingestor = Ingestor(self.settings, self.index, self.store)
        self._presence: PresenceLock | None = None
        self._repaired_on_open: list[IngestResult] = []
        self._unrepaired: list[str] = []  # what the repair on open could not finish, for storage_notes
        self._backfilled = 0  # documents of an earlier release whose keyword rows were made on open
        if self.store.read_only is not None:
            return  # nothing can be repaired or written there (rrag/store/health.py)
        self._presence = PresenceLock(self.settings.data_dir / PRESENCE_LOCK)
        if self.store.damage is None:  # a damaged database is not written to (rrag/store/health.py)
            try:  # whatever a crash or a failed write left, the folder opens (issue 46)
                self._unrepaired = self._ingestor.repair().problems  # see rrag/ingest/journal.py
                self._backfilled = backfill_keywords(self.store, self.index)
                learn_modes(self.store.get_app_settings().get(OUTPUT_MODES_KEY))
                self._repaired_on_open = self._repair_if_alone(self._presence)
            except (RRAGError, OSError) as exc:
                self._unrepaired.append(str(exc) if isinstance(exc, RRAGError) else f"{exc.strerror or exc}")

    def _repair_if_alone(self, presence: PresenceLock) -> list[IngestResult]:
        """Remove what no document accounts for and re-index the documents the index lacks from their
        kept originals, where that is safe: the database and the index are this machine's own (no
        database URL, no Chroma server) and no other process has the data folder open. Otherwise
        `missing_from_index` reports them."""
        if self.settings.database_url or self.settings.chroma_host:
            return []
        with presence.alone() as alone:
            if not alone:
                return []
            self._ingestor.sweep()
            return self.repair_index()

    def _keep_modes(self) -> None:
        """Keep the output modes learned in the store: a restart need not negotiate them again."""
        known = known_modes()
        if known and known != self._kept_modes:
            with suppress(RRAGError):  # not kept (a damaged store): negotiated again after a restart
                self.store.save_app_settings({OUTPUT_MODES_KEY: known})
                self._kept_modes = known

    def configure(self, settings: Settings) -> None:
        """Switch parameters or backends, all or nothing: on error the engine keeps its old settings."""
        if other_storage(settings, self.settings):
            replacement = ReliableRAG(settings)  # another database or index: open it before closing ours
            self.close()
            self.__dict__.update(replacement.__dict__)
            return
        replaced = Stages.build(settings, self.index, self.store)
        with self._swap:
            replaced, self._backends = self._backends, replaced
        self.settings = settings
        self._ingestor = Ingestor(settings, self.index, self.store)
        replaced.retire()  # its LLM client closes once the questions still using it are done

    def close(self) -> None:
        self.store.close()
        self._backends.retire()
        if self._presence is not None:
            self._presence.close()

    # -- documents ---------------------------------------------------------------------------------

    def ingest(
        self, paths: Sequence[Path], *, progress: Callable[[int, int, str], None] | None = None
    ) -> list[IngestResult]:
        """Index files and folders; each document is known by its path relative to what was named.
        `progress(files done, files in all, the file just done)` after each file."""
        results = []
        for total, source, result in self.ingest_each(paths):
            results.append(result)
            if progress:
                progress(len(results), total, source)
        return results

    def ingest_each(self, paths: Sequence[Path]) -> Iterator[tuple[int, str, IngestResult]]:
        """`ingest`, one file at a time: (files in all, the file's name, its result) as each is done,
        so that a caller can show progress and knows what was done if it stops early."""
        self.store.require_writable("add documents")  # every file would fail alike
        items = collect([Path(path) for path in paths])
        for item in items:
            if isinstance(item, SourceFile):
                yield len(items), item.source, self._ingestor.ingest_file(item.path, item.source)
            else:
                yield len(items), item.source, item

    def ingest_bytes(self, name: str, data: bytes) -> IngestResult:
        self.store.require_writable("add the document")
        return self._ingestor.ingest_bytes(name, data)

    def documents(self) -> list[DocumentInfo]:
        return self.store.list_documents()

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.index.get_chunks(doc_id)

    def delete_document(self, doc_id: str) -> list[IngestResult]:
        """Delete a document; returns the documents whose near-duplicate chunks it held and got back."""
        return self._ingestor.delete(doc_id)

    def reindex(self, doc_id: str) -> IngestResult:
        return self._ingestor.reindex(doc_id)

    def missing_from_index(self) -> list[DocumentInfo]:
        """Listed documents whose chunks the index lacks, all or some: a lost, replaced or damaged
        index. Answers then miss their text; `repair_index` re-indexes them from the kept originals."""
        if self.index.count() >= self.store.listed_chunks():
            return []  # the common case, asked on every answer: two counts, no list, no query per document
        return [
            d
            for d in self.store.list_documents()
            if d.chunks and len(self.index.chunk_versions(d.doc_id)) < d.chunks
        ]

    def repair_index(self, *, progress: Callable[[int, int, str], None] | None = None) -> list[IngestResult]:
        """Re-index every document `missing_from_index` names from its kept original."""
        missing = self.missing_from_index()
        results = []
        for done, info in enumerate(missing):
            if progress:
                progress(done, len(missing), info.source)
            results.append(self._ingestor.reindex(info.doc_id))
        if progress:
            progress(len(missing), len(missing), "")
        return results

    # -- questions ---------------------------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        settings: Settings | None = None,
        progress: Progress | None = None,
        session_id: str | None = None,
        on_text: TextSink | None = None,
        on_claim: ClaimProgress | None = None,
    ) -> Report:
        """Retrieve, answer, then audit the answer claim by claim. `settings`: this question's own
        choices (threshold, backends, ...); the engine's settings stay as they are. `session_id`: the
        id to save the report under, chosen by a caller that must find it again after a reload.
        `on_text`: the answer's words as they are written (an LLM's as it streams them, the extractive
        answer in one piece); the audit always runs on the whole answer. `on_claim(done, total)` after
        each claim is verified."""
        timer = StageTimer(progress)
        with self._pending(question, "ask", session_id) as session_id:
            with (
                self._stages(settings) as stages,  # after the pending row: building stages may load models
                llm_deadline(stages.settings.llm_deadline_s),
                logging_calls() as calls,
            ):
                return self._ask(stages, question, timer, session_id, calls, on_text, on_claim)

    def ask_stream(
        self,
        question: str,
        *,
        settings: Settings | None = None,
        progress: Progress | None = None,
        session_id: str | None = None,
        on_claim: ClaimProgress | None = None,
        clock: Clock | None = None,
    ) -> AnswerStream:
        """`ask`, run while the returned stream is iterated: it yields the answer's words as they are
        written, calls `progress`, `on_claim` and `clock(seconds)` in the iterating thread, and holds
        the report when done (rrag/engine/streaming.py)."""

        def work(on_text: TextSink, stage: Progress, claim: ClaimProgress) -> Report:
            return self.ask(
                question,
                settings=settings,
                progress=stage,
                session_id=session_id,
                on_text=on_text,
                on_claim=claim,
            )

        return AnswerStream(work, progress=progress, on_claim=on_claim, clock=clock)

    def _ask(
        self,
        stages: Stages,
        question: str,
        timer: StageTimer,
        session_id: str,
        calls: CallLog,
        on_text: TextSink | None,
        on_claim: ClaimProgress | None,
    ) -> Report:
        question = clean(question)  # as the documents were stored: see rrag.text.clean
        with timer("retrieve"):
            judged = judge(
                shared_model(), stages.retriever, question, stages.settings.top_k, self.retrieval_gate()
            )
        contexts = judged.contexts
        defused = defuse(contexts)  # once: the answerer and the verifiers see the same blanked text
        with timer("answer"):
            written = Written(on_text)
            answer = (
                stages.answerer.answer(question, defused[0], written if on_text else None)
                if judged.answered
                else Answer(NOT_ANSWERED, stages.answerer.name, refused=True)
            )
            if on_text and not written.any:  # an answer not written over time comes in one piece
                on_text(answer.text)
        with timer("claims"):
            claims, notes = stages.extractor.claims_of(answer.text, question)
        answered = Answered(question, answer, claims, notes, contexts, defused, "ask", judged)
        return self._saved(stages, answered, timer, calls, session_id, on_claim)

    def verify(
        self,
        question: str,
        answer: str,
        *,
        settings: Settings | None = None,
        progress: Progress | None = None,
        session_id: str | None = None,
        on_claim: ClaimProgress | None = None,
    ) -> Report:
        """Audit an answer written elsewhere against the indexed documents (the rest as for `ask`)."""
        timer = StageTimer(progress)
        with self._pending(question, "verify", session_id) as session_id:
            with (
                self._stages(settings) as stages,
                llm_deadline(stages.settings.llm_deadline_s),
                logging_calls() as calls,
            ):
                return self._verify(stages, question, answer, timer, session_id, calls, on_claim)

    def _verify(
        self,
        stages: Stages,
        question: str,
        answer: str,
        timer: StageTimer,
        session_id: str,
        calls: CallLog,
        on_claim: ClaimProgress | None,
    ) -> Report:
        question = clean(question)
        with timer("claims"):
            claims, notes = stages.extractor.claims_of(answer, question)
        with timer("retrieve"):
            # Each claim retrieves its own evidence too: an external answer may state facts the
            # question alone would not retrieve.
            queries = [question] + [c.text for c in claims if c.checkable]
            contexts = merge_contexts(stages.retriever.retrieve_many(queries))
        external = Answer(text=answer, backend="external")
        answered = Answered(question, external, claims, notes, contexts, defuse(contexts), "verify")
        return self._saved(stages, answered, timer, calls, session_id, on_claim)

    def storage_notes(self) -> list[str]:
        """What the checks on open did or found that a user should know, besides damage and documents
        still missing from the index: a read-only data folder, documents read again or re-indexed on
        open."""
        notes = []
        if self.store.read_only is not None:
            notes.append(
                f"The data folder {self.store.read_only} is read-only: documents, answers and reviews "
                "can be read, nothing can be added or changed."
            )
        if self._unrepaired:
            notes.append(
                "What an earlier ingest or delete left could not all be repaired on open ("
                + "; ".join(self._unrepaired[:3])
                + ("..." if len(self._unrepaired) > 3 else "")
                + "). Everything else can be used; the next open tries again."
            )
        if self._backfilled:
            notes.append(
                f"{self._backfilled} document(s) indexed by an earlier release were read again on open, "
                "once, for keyword search and each sentence's vector."
            )
        repaired = [r for r in self._repaired_on_open if r.ok]
        if repaired:
            notes.append(
                f"{len(repaired)} document(s) the index lacked were re-indexed from the kept originals "
                f"on open ({', '.join(r.source for r in repaired[:5])}{'...' if len(repaired) > 5 else ''})."
            )
        return notes

    def _index_notes(self) -> list[str]:
        missing = self.missing_from_index()
        if not missing:
            return []
        return [
            f"{len(missing)} listed document(s) are missing from the index ({missing[0].source}...), so "
            "their text could not be found: run `python -m rrag repair` to re-index them from the kept "
            "originals."
        ]

    def interrupted_sessions(self) -> list[PendingSession]:
        """Questions whose answer never came (a reload, a closed tab, a crash), newest first."""
        return [
            p for p in self.store.pending_sessions() if p.session_id not in self._running and not p.failure
        ]

    def failed_sessions(self) -> list[PendingSession]:
        """Questions that failed because the LLM server did (down, timing out, unusable replies), with
        the reason the user was shown, newest first."""
        return [p for p in self.store.pending_sessions() if p.failure]

    def first_stage(self, question: str, depth: int = FIRST_STAGE_DEPTH) -> list[RetrievedChunk]:
        """The first stage's `depth` best candidates for `question`, before any reranking."""
        with self._stages(None) as stages:
            return stages.retriever.retrieve(clean(question), depth)

    def rerank(self, question: str, candidates: list[RetrievedChunk]) -> list[RetrievedChunk]:
        """`candidates` in the order the question-passage model puts them for `question`."""
        return rerank(shared_model(), clean(question), candidates)

    @contextmanager
    def _pending(self, question: str, mode: str, session_id: str | None) -> Iterator[str]:
        """The question is saved as pending before any work and removed with its report, so one that is
        never answered stays on record as interrupted. A failure of the LLM server is kept as a failed
        session with its reason; any other error the caller reports (a bad setting) is not kept."""
        if len(question) > MAX_QUESTION_CHARS:
            raise InputError(
                f"The question has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}. "
                "Ask about one thing at a time, or add long text as a document."
            )
        session_id = session_id or uuid.uuid4().hex
        self.store.save_pending(session_id, question, mode)
        self._running.add(session_id)
        try:
            yield session_id
        except RRAGError as exc:
            with suppress(RRAGError):  # the original error is the one to report
                if isinstance(exc, LLMError):
                    self.store.fail_pending(session_id, str(exc))
                else:
                    self.store.drop_pending(session_id)
            raise
        finally:
            self._running.discard(session_id)
            self._keep_modes()

    @contextmanager
    def _stages(self, settings: Settings | None) -> Iterator[Stages]:
        """The stages for one call. Taken once, so a `configure` from another thread (the engine is
        shared by every browser tab) cannot mix two configurations within one question; stages built
        for this call's own `settings` are closed after it."""
        with self._swap:
            current = self._backends
            current.users.enter()
        try:
            if settings is None or settings == current.settings:
                yield current
                return
            if other_storage(settings, current.settings):
                raise ConfigError(
                    "a question's settings cannot switch the database or index; use configure()"
                )
            own = Stages.build(settings, self.index, self.store)
            try:
                yield own
            finally:
                own.retire()
        finally:
            current.users.leave()

    def _saved(
        self,
        stages: Stages,
        answered: Answered,
        timer: StageTimer,
        calls: CallLog,
        session_id: str,
        on_claim: ClaimProgress | None,
    ) -> Report:
        """`answered` audited, with what the index has to say, and saved."""
        answered = replace(answered, notes=answered.notes + self._index_notes())
        report = audit(stages, answered, timer, calls, session_id, on_claim)
        with timer("save"):
            self.store.save_report(report)
        return report

    def test_llm_connection(self, settings: Settings | None = None) -> ConnectionCheck:
        """Make the pipeline's structured request to the LLM of `settings` (default: the engine's own),
        negotiating the output mode afresh, without changing the engine."""
        try:
            if settings is None:
                with self._stages(None) as stages, llm_deadline(self.settings.llm_deadline_s):
                    return check_connection(require_llm(stages.llm, "Testing the connection"))
            llm = OpenAIChatLLM(settings)
            try:
                with llm_deadline(settings.llm_deadline_s):
                    return check_connection(llm)
            finally:
                llm.close()
        finally:
            self._keep_modes()
