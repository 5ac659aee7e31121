"""Reliable RAG: answers from your documents, with every claim checked against them.

The public surface is `__all__`. The engine (`ReliableRAG`, `UserEngine`) is imported lazily so that
light commands (`python -m rrag eval`) do not load the vector index.
"""

import importlib
import typing

from rrag.engine.access import Permission
from rrag.errors import RRAGError
from rrag.settings import RISK_PRESETS, Settings
from rrag.types import ClaimStatus, Decision, IngestResult, Level, Report

if typing.TYPE_CHECKING:
    from rrag.engine.pipeline import ReliableRAG
    from rrag.engine.user import UserEngine

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

_LAZY = {"ReliableRAG": "rrag.engine.pipeline", "UserEngine": "rrag.engine.user"}  # name: its module


def __getattr__(name: str) -> typing.Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'rrag' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # loaded once; later lookups find it in the module
    return value
