"""Saved sessions, reviews and app settings: the pages' way to the store, as the engine's methods."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rrag.audit.corrections import (
    retrieved_evidence,
    reviewed_queue,
    reviewed_records,
    reviewed_report,
    reviewed_sessions,
)
from rrag.retrieval.gate import RecallGate, gate_of, with_gate
from rrag.settings import Settings
from rrag.store import PendingSession, ReviewRecord, SessionSummary, Store
from rrag.types import ClaimStatus, Decision, Level, Report


class Records:
    """What the engine (rrag.engine.pipeline.ReliableRAG) keeps: each read as of its latest review."""

    store: Store
    settings: Settings

    def pending_sessions(self) -> list[PendingSession]:
        """Every question without a saved report, this process's running ones included, newest first."""
        return self.store.pending_sessions()

    def find_session(self, question: str, mode: str, answer: str | None = None) -> str | None:
        """The newest saved session of exactly this question in this mode (and audited answer), or None."""
        return self.store.find_session(question, mode, answer)

    def require_sound_storage(self) -> None:
        """Raise StoreDamagedError, with its recovery hint, if the database failed its check on open."""
        self.store.require_sound()

    def report(self, session_id: str) -> Report:
        """The saved report as of its latest review (reviewers' corrections are the truth of record)."""
        return reviewed_report(self.store, session_id)

    def sessions(
        self,
        *,
        search: str | None = None,
        level: Level | str | None = None,
        decision: Decision | str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        flagged_only: bool = False,
        limit: int = 1000,
    ) -> list[SessionSummary]:
        """Saved sessions, newest first, as of their latest review (`search` in the question or answer,
        `level` and `decision` as corrected, `since` and `until` the time saved)."""
        return reviewed_sessions(
            self.store,
            search=search,
            level=level,
            decision=decision,
            since=since,
            until=until,
            flagged_only=flagged_only,
            limit=limit,
        )

    def review_queue(self, *, include_reviewed: bool = False) -> list[SessionSummary]:
        return reviewed_queue(self.store, include_reviewed=include_reviewed)

    def add_review(
        self,
        session_id: str,
        *,
        reviewer: str,
        outcome: str,
        note: str = "",
        claim_overrides: Mapping[int, ClaimStatus] | None = None,
        evidence_passages: Mapping[int, str] | None = None,
    ) -> ReviewRecord:
        """Record a reviewer's verdict (`outcome` one of `REVIEW_OUTCOMES`; `claim_overrides` by claim
        index); `evidence_passages`: claim index -> the id of a passage the answer retrieved, the claim's
        evidence from now on."""
        evidence_overrides = None
        if evidence_passages:
            report = self.store.get_report(session_id)
            evidence_overrides = {
                index: retrieved_evidence(report, chunk_id) for index, chunk_id in evidence_passages.items()
            }
        return self.store.add_review(
            session_id,
            reviewer=reviewer,
            outcome=outcome,
            note=note,
            claim_overrides=claim_overrides,
            evidence_overrides=evidence_overrides,
        )

    def reviews(self, session_id: str) -> list[ReviewRecord]:
        """The audit trail of one session, oldest first."""
        return self.store.reviews(session_id)

    def saved_settings(self) -> dict[str, Any]:
        return self.store.get_app_settings()

    def save_settings(self, values: Mapping[str, Any]) -> None:
        self.store.save_app_settings(values)

    def has_sessions(self) -> bool:
        return bool(self.store.list_sessions(limit=1))

    def question_set_runs(self) -> list[dict[str, Any]]:
        """Saved question-set runs, newest first, without their outcomes."""
        return self.store.list_question_set_runs()

    def question_set_run(self, run_id: str) -> dict[str, Any]:
        return self.store.get_question_set_run(run_id)

    def save_question_set_run(
        self, run_id: str, name: str, created_at: datetime, summary: Mapping[str, Any], outcomes: list[Any]
    ) -> None:
        self.store.save_question_set_run(run_id, name, created_at, summary, outcomes)

    def end_sign_in(self, key: str) -> None:
        """Refuse the sign-in `key` names (rrag.engine.access.sign_in_key) from now on, in every process."""
        self.store.end_sign_in(key)

    def sign_in_ended(self, key: str) -> bool:
        return self.store.sign_in_ended(key)

    def retrieval_gate(self) -> RecallGate | None:
        """This corpus's recall gate as the last question set with expected sources measured it."""
        return gate_of(self.settings.collection, self.store.get_app_settings())

    def save_retrieval_gate(self, gate: RecallGate) -> None:
        self.store.save_app_settings(with_gate(self.settings.collection, self.store.get_app_settings(), gate))

    def session_records(self) -> list[SessionSummary]:
        """Every session as the lists show it, for analytics."""
        return reviewed_records(self.store)

    def claim_records(self) -> list[dict[str, Any]]:
        """Every claim with the verifier's status and the status after reviewer overrides, for analytics."""
        return self.store.claim_records()
