"""A lock between the processes of one machine: an exclusive `flock` on a file beside what it guards.

The kernel releases it when its holder exits, even on `kill -9`, so a crash never leaves it stuck.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def process_lock(path: Path) -> Iterator[None]:
    """Hold the lock on `path` (created if missing) for the `with` block; waits for other holders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
