"""Storage behind one class: documents, saved reports, the review audit trail, analytics, app settings."""

from rrag.store.records import CLAIM_COLUMNS, REVIEW_OUTCOMES, PendingSession, ReviewRecord, SessionSummary
from rrag.store.store import Store

__all__ = ["CLAIM_COLUMNS", "REVIEW_OUTCOMES", "PendingSession", "ReviewRecord", "SessionSummary", "Store"]
