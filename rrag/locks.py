"""Locks between the processes of one machine: `flock` on a file beside what they guard.

The kernel releases them when their holder exits, even on `kill -9`, so a crash never leaves one stuck.
"""

from __future__ import annotations

import fcntl
import os
import weakref
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


class PresenceLock:
    """Held shared by every process that has a folder open, from `__init__` to `close`, so one of them
    can tell whether it is alone (`alone`) before work that no other process may run beside it."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        # An engine never closed (tests, a crashed page) releases it when collected, without a warning.
        self.close = weakref.finalize(self, os.close, self._fd)
        fcntl.flock(self._fd, fcntl.LOCK_SH)  # waits while another process works alone

    @contextmanager
    def alone(self) -> Iterator[bool]:
        """True, holding the lock exclusively for the block, when no other process holds it; else False
        at once (never waits)."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fcntl.flock(self._fd, fcntl.LOCK_SH)  # a failed conversion may have dropped the shared lock
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_SH)
