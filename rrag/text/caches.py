"""What is kept of each text read: a reading is computed once per text and kept (`per_text`), and
`clear_caches` forgets every one of them, wherever it was kept (the benchmark measures verification on
cold caches). Memos of single words (a stem) and loaded data (WordNet, the judge) are not readings of a
text and stay."""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, lru_cache
from typing import Any, TypeVar

from rrag.lang.detect import detect_language

T = TypeVar("T")
_KEPT: list[_lru_cache_wrapper[Any]] = []


def per_text(maxsize: int) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """`functools.lru_cache(maxsize)`, forgotten by `clear_caches`."""

    def keep(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
        cached = lru_cache(maxsize=maxsize)(function)
        _KEPT.append(cached)
        return cached

    return keep


def clear_caches() -> None:
    """Forget what was read from each text, by every reader and rule loaded, and each text's language
    (kept by the language data, which reads no code of the engine)."""
    for cached in (*_KEPT, detect_language):
        cached.cache_clear()
