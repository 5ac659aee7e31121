"""Reliable RAG: answers from your documents, with every claim checked against them.

The public surface is `__all__`: the engine, the records its calls return, the names of its choices and
its errors; pages import from here. The engine (`ReliableRAG`, `UserEngine`), the store's records and
retrieval's `RERANK_CANDIDATES` are imported lazily so that light commands (`python -m rrag eval`) load
neither the vector index nor the database, and the store nothing above it.
"""

import importlib
import typing

from rrag.engine.access import Permission
from rrag.errors import NotFoundError, QuestionSetError, RRAGError
from rrag.settings import ANSWERERS, CLAIM_EXTRACTORS, RISK_PRESETS, VERIFIER_STAGES, Settings
from rrag.types import Chunk, ClaimStatus, Decision, DocumentInfo, IngestResult, Level, Report

if typing.TYPE_CHECKING:
    from rrag.engine.pipeline import ReliableRAG
    from rrag.engine.user import UserEngine
    from rrag.ingest.extract import supported_suffixes
    from rrag.retrieval.gate import RERANK_CANDIDATES
    from rrag.store import REVIEW_OUTCOMES, PendingSession, ReviewRecord, SessionSummary

__all__ = [
    "ANSWERERS",
    "CLAIM_EXTRACTORS",
    "RERANK_CANDIDATES",
    "REVIEW_OUTCOMES",
    "RISK_PRESETS",
    "VERIFIER_STAGES",
    "Chunk",
    "ClaimStatus",
    "Decision",
    "DocumentInfo",
    "IngestResult",
    "Level",
    "NotFoundError",
    "PendingSession",
    "Permission",
    "QuestionSetError",
    "RRAGError",
    "ReliableRAG",
    "Report",
    "ReviewRecord",
    "SessionSummary",
    "Settings",
    "UserEngine",
    "supported_suffixes",
]

_LAZY = {  # name: its module, loaded on first use (the store loads SQLAlchemy, the engine the index)
    "ReliableRAG": "rrag.engine.pipeline",
    "UserEngine": "rrag.engine.user",
    "supported_suffixes": "rrag.ingest.extract",
    "RERANK_CANDIDATES": "rrag.retrieval.gate",
    "REVIEW_OUTCOMES": "rrag.store",
    "PendingSession": "rrag.store",
    "ReviewRecord": "rrag.store",
    "SessionSummary": "rrag.store",
}


def __getattr__(name: str) -> typing.Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'rrag' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # loaded once; later lookups find it in the module
    return value
