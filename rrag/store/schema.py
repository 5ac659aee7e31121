"""ORM models of the store. Chunks live in Chroma; this database keeps the registry and the audit trail.

Times are naive UTC `DateTime` columns so that date filters compare correctly on every backend;
document times stay the ISO strings the ingester wrote, because nothing filters on them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def to_db_time(moment: datetime) -> datetime:
    """A naive UTC datetime for a column; a naive input is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment
    return moment.astimezone(UTC).replace(tzinfo=None)


def from_db_time(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat()


def utcnow() -> datetime:
    return to_db_time(datetime.now(UTC))


# ready: consistent. pending: `pending_version` is being written. cleanup: `version` was just
# committed and chunks of older versions may remain. deleting: the document is being removed.
DOCUMENT_STATES = ("ready", "pending", "cleanup", "deleting")


class Base(DeclarativeBase):
    pass


class SchemaVersion(Base):
    """One row per migration applied, so reopening a database applies only what is new."""

    __tablename__ = "schema_version"

    version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(200))
    applied_at: Mapped[datetime] = mapped_column(DateTime)


class DocumentRow(Base):
    """The registry, and the write-ahead record of ingest (rrag/ingest/journal.py).

    A row is written `pending` before any chunk of a new version reaches the index, and commits that
    version once all its chunks are there; only committed versions (`version` > 0) are listed.
    """

    __tablename__ = "documents"

    doc_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    # One row per identity: the registry answers "is this file indexed, and which version?".
    identity: Mapped[str] = mapped_column(Text, unique=True)
    source: Mapped[str] = mapped_column(Text, index=True)  # what the user sees: a relative path or name
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    chunks: Mapped[int] = mapped_column(Integer)
    duplicates_dropped: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)  # committed version; 0 = none yet
    language: Mapped[str] = mapped_column(String(35), default="", server_default="")  # migration 14
    state: Mapped[str] = mapped_column(String(20), default="ready")  # see DOCUMENT_STATES
    pending_version: Mapped[int | None] = mapped_column(Integer)
    writer: Mapped[str | None] = mapped_column(String(300))  # "host:pid" of the process in a busy state
    state_since: Mapped[datetime | None] = mapped_column(DateTime)


class SessionRow(Base):
    """A saved report. `report_json` is the exact report; the other columns exist to filter and sort."""

    __tablename__ = "sessions"

    session_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    question: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(Text)
    final_answer: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(20))
    decision: Mapped[str] = mapped_column(String(20), index=True)
    level: Mapped[str | None] = mapped_column(String(20), index=True)
    reliability: Mapped[float | None] = mapped_column(Float)
    hallucination_rate: Mapped[float | None] = mapped_column(Float)
    needs_review: Mapped[bool] = mapped_column(Boolean)
    verified: Mapped[bool] = mapped_column(Boolean)
    review_reasons: Mapped[list[str]] = mapped_column(JSON)
    status_counts: Mapped[dict[str, int]] = mapped_column(JSON)
    claims_total: Mapped[int] = mapped_column(Integer)
    contradicted: Mapped[int] = mapped_column(Integer)
    citation_mismatches: Mapped[int] = mapped_column(Integer)
    flagged: Mapped[bool] = mapped_column(Boolean, index=True)
    report_json: Mapped[str] = mapped_column(Text)
    source_conflicts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # migration 6

    claims: Mapped[list[ClaimRow]] = relationship(back_populates="session", order_by="ClaimRow.claim_index")
    reviews: Mapped[list[ReviewRow]] = relationship(back_populates="session", order_by="ReviewRow.review_id")


class ClaimRow(Base):
    __tablename__ = "claims"
    __table_args__ = (UniqueConstraint("session_id", "claim_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.session_id"), index=True)
    claim_index: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    checkable: Mapped[bool] = mapped_column(Boolean)

    session: Mapped[SessionRow] = relationship(back_populates="claims")
    verdict: Mapped[VerdictRow] = relationship(back_populates="claim")


class VerdictRow(Base):
    """The verifier's original verdict on one claim; reviewer overrides live in review_changes."""

    __tablename__ = "verdicts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    claim_id: Mapped[int] = mapped_column(ForeignKey("claims.id"), unique=True)
    status: Mapped[str] = mapped_column(String(20), index=True)
    confidence: Mapped[float] = mapped_column(Float)
    verifier: Mapped[str] = mapped_column(String(50))
    reason: Mapped[str] = mapped_column(Text)
    verified: Mapped[bool] = mapped_column(Boolean)
    support_score: Mapped[float | None] = mapped_column(Float)
    evidence_chunk_id: Mapped[str | None] = mapped_column(String(200))
    evidence_source: Mapped[str | None] = mapped_column(Text)
    evidence_quote: Mapped[str | None] = mapped_column(Text)
    evidence_start: Mapped[int | None] = mapped_column(Integer)
    evidence_end: Mapped[int | None] = mapped_column(Integer)
    evidence_page: Mapped[int | None] = mapped_column(Integer)

    claim: Mapped[ClaimRow] = relationship(back_populates="verdict")


class ReviewRow(Base):
    """Audit trail: rows are only ever inserted (database triggers refuse UPDATE and DELETE)."""

    __tablename__ = "reviews"

    review_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.session_id"), index=True)
    reviewer: Mapped[str] = mapped_column(String(200))
    outcome: Mapped[str] = mapped_column(String(20))
    note: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)

    session: Mapped[SessionRow] = relationship(back_populates="reviews")
    changes: Mapped[list[ReviewChangeRow]] = relationship(
        back_populates="review", order_by="ReviewChangeRow.id"
    )


class ReviewChangeRow(Base):
    __tablename__ = "review_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    review_id: Mapped[int] = mapped_column(ForeignKey("reviews.review_id"), index=True)
    claim_index: Mapped[int] = mapped_column(Integer)
    old_status: Mapped[str] = mapped_column(String(20))
    new_status: Mapped[str] = mapped_column(String(20))
    # JSON of the Evidence a reviewer put in place of the verifier's (a passage of the retrieved set)
    evidence: Mapped[str | None] = mapped_column(Text, nullable=True)

    review: Mapped[ReviewRow] = relationship(back_populates="changes")


class PendingRow(Base):
    """A question being answered: saved before the work starts, removed when its report is saved. One
    left behind was interrupted (a reload, a closed tab, a crash) and is kept to say so."""

    __tablename__ = "pending_sessions"

    session_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    question: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(20))
    failure: Mapped[str | None] = mapped_column(Text)  # why it failed (the LLM server's error), if it did


class EndedSignInRow(Base):
    """A sign-in its user ended: the session cookie it was given is refused from then on, wherever a
    copy of it turns up (rrag.engine.access.sign_in_key; the claims themselves are not kept)."""

    __tablename__ = "ended_sign_ins"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    ended_at: Mapped[datetime] = mapped_column(DateTime, index=True)


class AppSettingRow(Base):
    __tablename__ = "app_settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)


class QuestionSetRunRow(Base):
    """One run of a question set through the pipeline (`rrag.tools.question_sets`): its summary for
    listing and comparing, and the per-question outcomes, each naming the saved session that holds
    its report."""

    __tablename__ = "question_set_runs"

    run_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    summary: Mapped[Any] = mapped_column(JSON)
    outcomes: Mapped[Any] = mapped_column(JSON)
