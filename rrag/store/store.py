"""The Store: the document registry (rrag/store/documents.py), saved reports, the review audit trail,
analytics and app settings. One engine per Store, shared by threads (Streamlit keeps one in
`st.cache_resource`); every public method runs in its own short transaction (rrag/store/base.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, delete, or_, select, update
from sqlalchemy.orm import defer, selectinload

from rrag.errors import NotFoundError, StoreError
from rrag.redact import looks_secret, redact_urls
from rrag.settings import TOKEN_COUNT_FIELDS
from rrag.store.base import get_row
from rrag.store.documents import DocumentStore
from rrag.store.records import (
    REVIEW_OUTCOMES,
    PendingSession,
    ReviewRecord,
    SavedSummary,
    claim_records,
    latest_corrections,
    parse_overrides,
    pending_session,
    plain,
    review_record,
    review_status,
    saved_report,
    session_row,
    severity,
    summary,
)
from rrag.store.schema import (
    AppSettingRow,
    ClaimRow,
    EndedSignInRow,
    PendingRow,
    QuestionSetRunRow,
    ReviewChangeRow,
    ReviewRow,
    SessionRow,
    from_db_time,
    to_db_time,
    utcnow,
)
from rrag.types import ClaimStatus, Correction, Evidence, Report

# Streamlit's sign-in cookie lives 30 days: an ended sign-in older than that cannot come back.
SIGN_IN_COOKIE_LIFETIME = timedelta(days=31)
# Escalated answers wait for someone else, so they stay in the default review queue.
_PENDING_REVIEW = ("open", "escalated")
# Loads what `latest_corrections` reads in two queries, however many reviews a session has.
_WITH_CORRECTIONS = selectinload(SessionRow.reviews).selectinload(ReviewRow.changes)


class Store(DocumentStore):
    # -- sessions (saved reports) ------------------------------------------------------------------

    def save_report(self, report: Report) -> None:
        """Save the report, its claims and their verdicts in one transaction; a session is saved once."""
        row = session_row(report)
        with self._write("save the report") as s:
            if s.get(SessionRow, report.session_id) is not None:
                raise StoreError(
                    f"Session {report.session_id!r} is already saved; reports are never rewritten"
                )
            s.add(row)
            s.execute(delete(PendingRow).where(PendingRow.session_id == report.session_id))

    def save_pending(self, session_id: str, question: str, mode: str) -> None:
        """Record a question before it is answered; `save_report` of the same session removes it."""
        with self._write("save the question") as s:
            s.add(PendingRow(session_id=session_id, created_at=utcnow(), question=question, mode=mode))

    def drop_pending(self, session_id: str) -> None:
        """Forget a pending question whose answer failed with an error (the user saw the error)."""
        with self._write("forget the question") as s:
            s.execute(delete(PendingRow).where(PendingRow.session_id == session_id))

    def fail_pending(self, session_id: str, reason: str) -> None:
        """Keep a pending question as failed, with the reason the user was shown (already redacted)."""
        with self._write("record the failed question") as s:
            s.execute(
                update(PendingRow).where(PendingRow.session_id == session_id).values(failure=reason[:2000])
            )

    def pending_sessions(self) -> list[PendingSession]:
        """Questions without a saved report, newest first."""
        query = select(PendingRow).order_by(PendingRow.created_at.desc(), PendingRow.session_id)
        with self._read("read the unanswered questions") as s:
            return [pending_session(r) for r in s.scalars(query)]

    def get_report(self, session_id: str) -> Report:
        """The report exactly as the verifier wrote it (reviews are kept beside it: `corrections`)."""
        with self._read("read the report") as s:
            return saved_report(get_row(s, SessionRow, session_id, "session"))

    def find_session(self, question: str, mode: str, answer: str | None = None) -> str | None:
        """The newest saved session of exactly this question in this mode (and, given, this audited
        answer), or None."""
        query = select(SessionRow.session_id).where(SessionRow.question == question, SessionRow.mode == mode)
        if answer is not None:
            query = query.where(SessionRow.answer == answer)
        with self._read("find the session") as s:
            return s.scalar(query.order_by(SessionRow.created_at.desc()).limit(1))

    def list_sessions(
        self,
        *,
        search: str | None = None,
        level: str | None = None,
        decision: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        flagged_only: bool = False,
        limit: int | None = 1000,
    ) -> list[SavedSummary]:
        """Newest first. `search` matches question or answer text (case-insensitive, taken literally).
        `level` and `decision` select the sessions saved with them and every session a review corrected,
        whose scores as corrected are the engine's to compute (`rrag.audit.corrections`)."""
        query = select(SessionRow).order_by(SessionRow.created_at.desc(), SessionRow.session_id)
        if search:
            pattern = f"%{_escape_like(search)}%"
            query = query.where(
                or_(
                    SessionRow.question.ilike(pattern, escape="\\"),
                    SessionRow.answer.ilike(pattern, escape="\\"),
                )
            )
        corrected = SessionRow.reviews.any(ReviewRow.changes.any())
        if level:
            query = query.where(or_(SessionRow.level == plain(level).upper(), corrected))
        if decision:
            query = query.where(or_(SessionRow.decision == plain(decision).lower(), corrected))
        if since is not None:
            query = query.where(SessionRow.created_at >= to_db_time(since))
        if until is not None:
            query = query.where(SessionRow.created_at <= to_db_time(until))
        if flagged_only:
            query = query.where(SessionRow.flagged)
        if limit is not None:
            query = query.limit(max(limit, 0))
        with self._read("list the sessions") as s:
            return [summary(row) for row in s.scalars(_for_summaries(query))]

    def review_queue(self, *, include_reviewed: bool = False) -> list[SavedSummary]:
        """Flagged sessions, most severe first: contradictions, then LOW, then MEDIUM, then by hallucination
        rate. By default only those still waiting: not reviewed yet, or escalated."""
        query = select(SessionRow).where(SessionRow.flagged).order_by(SessionRow.created_at.desc())
        with self._read("read the review queue") as s:
            rows = [
                r
                for r in s.scalars(_for_summaries(query))
                if include_reviewed or review_status(r) in _PENDING_REVIEW
            ]
            return [summary(r) for r in sorted(rows, key=severity)]

    # -- reviews (append-only audit trail) -----------------------------------------------------------

    def add_review(
        self,
        session_id: str,
        *,
        reviewer: str,
        outcome: str,
        note: str = "",
        claim_overrides: Mapping[int, ClaimStatus] | None = None,
        evidence_overrides: Mapping[int, Evidence] | None = None,
    ) -> ReviewRecord:
        """Record a reviewer's decision; overrides that change nothing are not recorded as changes.
        `evidence_overrides`: claim index -> the passage that is the claim's evidence instead (the
        engine checks it is one the answer retrieved)."""
        reviewer = reviewer.strip()
        if not reviewer:
            raise StoreError("A review needs the reviewer's name")
        if outcome not in REVIEW_OUTCOMES:
            raise StoreError(f"Review outcome must be one of {REVIEW_OUTCOMES}, not {outcome!r}")
        overrides = parse_overrides(claim_overrides or {})
        with self._write("save the review") as s:
            session = get_row(s, SessionRow, session_id, "session", _WITH_CORRECTIONS)
            current = {c.claim_index: c.verdict.status for c in session.claims}
            current |= {index: c.status.value for index, c in latest_corrections(session).items()}
            evidence = dict(evidence_overrides or {})
            overrides = {i: overrides.get(i, current.get(i, "")) for i in {*overrides, *evidence}}
            missing = sorted(set(overrides) - set(current))
            if missing:
                raise NotFoundError(f"Session {session_id!r} has no claim with index {missing}")
            review = ReviewRow(
                session_id=session_id, reviewer=reviewer, outcome=outcome, note=note, created_at=utcnow()
            )
            review.changes = [
                ReviewChangeRow(
                    claim_index=index,
                    old_status=current[index],
                    new_status=status,
                    evidence=json.dumps(asdict(evidence[index])) if index in evidence else None,
                )
                for index, status in sorted(overrides.items())
                if current[index] != status or index in evidence
            ]
            s.add(review)
            s.flush()
            return review_record(review)

    def reviews(self, session_id: str) -> list[ReviewRecord]:
        """The audit trail of one session, oldest first."""
        with self._read("read the reviews") as s:
            get_row(s, SessionRow, session_id, "session")
            query = (
                select(ReviewRow)
                .where(ReviewRow.session_id == session_id)
                .order_by(ReviewRow.review_id)
                .options(selectinload(ReviewRow.changes))
            )
            return [review_record(r) for r in s.scalars(query)]

    def corrections(self, session_id: str) -> dict[int, Correction]:
        """The latest reviewer status of each claim a review changed, by claim index."""
        with self._read("read the corrections") as s:
            return latest_corrections(get_row(s, SessionRow, session_id, "session", _WITH_CORRECTIONS))

    # -- analytics ---------------------------------------------------------------------------------

    def session_records(self) -> list[SavedSummary]:
        """Every session as the lists show it, oldest first."""
        query = select(SessionRow).order_by(SessionRow.created_at, SessionRow.session_id)
        with self._read("read the sessions") as s:
            return [summary(r) for r in s.scalars(_for_summaries(query))]

    def claim_records(self) -> list[dict[str, Any]]:
        """One record per claim (CLAIM_COLUMNS), with the verifier's status and the status after reviewer
        overrides, oldest session first."""
        query = select(SessionRow).options(
            defer(SessionRow.report_json),
            selectinload(SessionRow.claims).selectinload(ClaimRow.verdict),
            _WITH_CORRECTIONS,
        )
        with self._read("read the claims") as s:
            rows = [record for session in s.scalars(query) for record in claim_records(session)]
        return sorted(rows, key=lambda r: (r["created_at"], r["session_id"], r["claim_index"]))

    # -- question-set runs (rrag.tools.question_sets) ------------------------------------------------

    def save_question_set_run(
        self, run_id: str, name: str, created_at: datetime, summary: Mapping[str, Any], outcomes: list[Any]
    ) -> None:
        """Save a run once: its summary and its per-question outcomes (plain JSON data)."""
        with self._write("save the question-set run") as s:
            s.add(
                QuestionSetRunRow(
                    run_id=run_id,
                    name=name,
                    created_at=to_db_time(created_at),
                    summary=dict(summary),
                    outcomes=outcomes,
                )
            )

    def list_question_set_runs(self) -> list[dict[str, Any]]:
        """Saved runs, newest first: run_id, name, created_at (ISO, UTC) and summary; no outcomes."""
        query = (
            select(QuestionSetRunRow)
            .options(defer(QuestionSetRunRow.outcomes))
            .order_by(QuestionSetRunRow.created_at.desc(), QuestionSetRunRow.run_id)
        )
        with self._read("list the question-set runs") as s:
            return [
                {
                    "run_id": r.run_id,
                    "name": r.name,
                    "created_at": from_db_time(r.created_at),
                    "summary": r.summary,
                }
                for r in s.scalars(query)
            ]

    def get_question_set_run(self, run_id: str) -> dict[str, Any]:
        with self._read("read the question-set run") as s:
            row = get_row(s, QuestionSetRunRow, run_id, "question-set run")
            return {
                "run_id": row.run_id,
                "name": row.name,
                "created_at": from_db_time(row.created_at),
                "summary": row.summary,
                "outcomes": row.outcomes,
            }

    # -- app settings (never secrets) --------------------------------------------------------------

    # -- sign-ins ended by their users (ui/auth.py) ---------------------------------------------------

    def end_sign_in(self, key: str) -> None:
        """Record that the sign-in `key` names was ended; those older than any cookie are forgotten."""
        now = utcnow()
        with self._write("record the sign-out") as s:
            s.execute(delete(EndedSignInRow).where(EndedSignInRow.ended_at < now - SIGN_IN_COOKIE_LIFETIME))
            s.merge(EndedSignInRow(key=key, ended_at=now))

    def sign_in_ended(self, key: str) -> bool:
        with self._read("check the sign-in") as s:
            return s.get(EndedSignInRow, key) is not None

    def get_app_settings(self) -> dict[str, Any]:
        with self._read("read the app settings") as s:
            return {row.key: row.value for row in s.scalars(select(AppSettingRow))}

    def save_app_settings(self, values: Mapping[str, Any]) -> None:
        """Merge `values` into the saved settings. Secret-looking names are refused (keys stay in the env),
        but for the token counts, which must be whole numbers; URLs are saved without their credentials."""
        refused = sorted(
            str(k) for k, v in values.items() if not (isinstance(k, str) and k.strip()) or _secret(k, v)
        )
        if refused:
            raise StoreError(
                f"Refused to save settings {refused}: names must be non-empty and secrets (keys, tokens, "
                "passwords) are never stored; set them in the environment"
            )
        try:
            json.dumps(dict(values), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"Settings values must be plain JSON data: {exc}") from exc
        with self._write("save the app settings") as s:
            for key, value in values.items():
                s.merge(AppSettingRow(key=key, value=redact_urls(value) if isinstance(value, str) else value))


def _for_summaries(query: Select[SessionRow]) -> Select[SessionRow]:
    # Summaries need the reviews (review status, corrections); the report JSON only once corrected.
    return query.options(defer(SessionRow.report_json), _WITH_CORRECTIONS)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _secret(name: str, value: Any) -> bool:
    """Whether a setting may hold a credential: a secret-looking name, unless it is a token count
    holding a number (a string there could be a key)."""
    if name in TOKEN_COUNT_FIELDS:
        return not (isinstance(value, int) and not isinstance(value, bool))
    return looks_secret(name)
