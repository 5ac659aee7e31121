"""Progress of long CLI work on stderr: items done of all, chunks, rate and time left, and what was
done when it stopped. On a terminal the line is redrawn in place; elsewhere (a log, a pipe) each
update is a line of its own."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

BAR_WIDTH = 20


class ProgressLine:
    def __init__(
        self,
        unit: str,
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.unit = unit  # "files", "questions"
        self.stream = stream or sys.stderr
        self._clock = clock
        self._started = clock()
        self._in_place = self.stream.isatty()
        self.done = 0
        self.total = 0
        self.chunks: int | None = None

    def update(self, done: int, total: int, current: str = "", *, chunks: int | None = None) -> None:
        self.done, self.total, self.chunks = done, total, chunks
        elapsed = max(self._clock() - self._started, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if done else None
        filled = round(BAR_WIDTH * done / total) if total else BAR_WIDTH
        parts = [f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} {self.unit}"]
        if chunks is not None:
            parts.append(f"{chunks} chunks")
        parts.append(f"{rate:.1f} {self.unit}/s")
        parts.append(f"ETA {_duration(eta)}" if done < total else f"took {_duration(elapsed)}")
        if current:
            parts.append(current)
        line = ", ".join(parts)
        if self._in_place:
            end = "\n" if done >= total else ""
            self.stream.write(f"\r\x1b[2K{line[:200]}{end}")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def interrupted(self, what_was_done: str) -> None:
        """Say, after Ctrl-C, how far the work got."""
        if self._in_place:
            self.stream.write("\n")
        self.stream.write(
            f"interrupted after {_duration(self._clock() - self._started)}: {self.done} of {self.total} "
            f"{self.unit} done. {what_was_done}\n"
        )
        self.stream.flush()


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


class AskProgress:
    """One question's progress on stderr: each stage with the time so far, the answer's words as they
    are written, then the claims verified (redrawn in place on a terminal)."""

    def __init__(self, *, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream or sys.stderr
        self._clock = clock
        self._started = clock()
        self._in_place = self.stream.isatty()
        self._mid_line = False

    def stage(self, name: str) -> None:
        self._line(f"[{self._clock() - self._started:5.1f} s] {STAGE_WORDS.get(name, name)}")
        if name == "answer":
            self._write("answer: ")
            self._mid_line = True

    def text(self, piece: str) -> None:
        self._write(piece)
        self._mid_line = True

    def claim(self, done: int, total: int) -> None:
        line = f"[{self._clock() - self._started:5.1f} s] claims verified {done}/{total}"
        if self._in_place:
            self._write(f"\r\x1b[2K{line}")
            self._mid_line = done < total
            if not self._mid_line:
                self._write("\n")
        else:
            self._line(line)

    def _line(self, line: str) -> None:
        if self._mid_line:
            self._write("\n")
            self._mid_line = False
        self._write(line + "\n")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


STAGE_WORDS = {
    "retrieve": "retrieving passages",
    "answer": "writing the answer",
    "claims": "splitting the answer into claims",
    "verify": "verifying the claims",
    "score": "scoring",
    "save": "saving the session",
}
