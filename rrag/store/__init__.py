"""Storage behind one class: documents, saved reports, the review audit trail, analytics, app settings."""

from rrag.store.records import REVIEW_OUTCOMES, PendingSession, ReviewRecord, SessionSummary
from rrag.store.store import Store

__all__ = ["REVIEW_OUTCOMES", "PendingSession", "ReviewRecord", "SessionSummary", "Store"]
