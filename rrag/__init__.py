"""Reliable RAG: answers from your documents, with every claim checked against them.

The public surface is `__all__`. `ReliableRAG` is imported lazily so that light commands
(`python -m rrag eval`) do not load the vector index.
"""

from typing import TYPE_CHECKING, Any

from rrag.errors import RRAGError
from rrag.settings import RISK_PRESETS, Settings
from rrag.types import ClaimStatus, Decision, IngestResult, Level, Report

if TYPE_CHECKING:
    from rrag.pipeline import ReliableRAG

__all__ = [
    "RISK_PRESETS",
    "ClaimStatus",
    "Decision",
    "IngestResult",
    "Level",
    "RRAGError",
    "ReliableRAG",
    "Report",
    "Settings",
]


def __getattr__(name: str) -> Any:
    if name == "ReliableRAG":
        from rrag.pipeline import ReliableRAG

        return ReliableRAG
    raise AttributeError(f"module 'rrag' has no attribute {name!r}")
