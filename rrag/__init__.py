"""Reliable RAG: answers from your documents, with every claim checked against them.

The public surface is `__all__`. `ReliableRAG` is imported lazily so that light commands
(`python -m rrag eval`) do not load the vector index.
"""

import typing

from rrag.engine.access import Permission, UserEngine
from rrag.errors import RRAGError
from rrag.settings import RISK_PRESETS, Settings
from rrag.types import ClaimStatus, Decision, IngestResult, Level, Report

if typing.TYPE_CHECKING:
    from rrag.engine.pipeline import ReliableRAG

__all__ = [
    "RISK_PRESETS",
    "ClaimStatus",
    "Decision",
    "IngestResult",
    "Level",
    "Permission",
    "RRAGError",
    "ReliableRAG",
    "Report",
    "Settings",
    "UserEngine",
]


def __getattr__(name: str) -> typing.Any:
    if name == "ReliableRAG":
        from rrag.engine.pipeline import ReliableRAG

        globals()[name] = ReliableRAG  # loaded once; later lookups find it in the module
        return ReliableRAG
    raise AttributeError(f"module 'rrag' has no attribute {name!r}")
