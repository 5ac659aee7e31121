"""Storage behind one class: documents, saved reports, the review audit trail, analytics, app settings."""

from rrag.store.store import Store

__all__ = ["Store"]
