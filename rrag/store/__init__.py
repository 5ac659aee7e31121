"""Storage behind one class: documents, saved reports, the review audit trail, analytics, app settings."""

from rrag.store.store import REVIEW_OUTCOMES, ReviewRecord, SessionSummary, Store

__all__ = ["REVIEW_OUTCOMES", "ReviewRecord", "SessionSummary", "Store"]
