"""A question answered in a worker thread, the answer's words yielded as the LLM writes them.

`ReliableRAG.ask_stream` returns an `AnswerStream`: iterate it for the answer's text (Streamlit's
`st.write_stream` takes it as it is). The whole question (retrieval, answer, audit, save) runs while it
is iterated, and the stage, claim and clock callbacks are called in the iterating thread: a Streamlit
page may draw only from its own. After the iteration `report` is the saved report; the question's
error is raised from the iteration. A caller that stops iterating early (a page rerun) stops the
question at its next step: it stays pending, so History lists it as interrupted.
"""

from __future__ import annotations

import contextvars
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from rrag.backends.llm import TextSink
from rrag.types import Report

Progress = Callable[[str], None]  # the stage that starts: retrieve, answer, claims, verify, ...
ClaimProgress = Callable[[int, int], None]  # claims verified so far, claims to verify
Clock = Callable[[float], None]  # seconds since the question began
Work = Callable[[TextSink, Progress, ClaimProgress], Report]

CLOCK_S = 0.5  # how often the clock callback is called, text or not


class Stopped(Exception):  # noqa: N818 - not an error: no RRAGError, so the pending row is kept
    """The caller stopped iterating: the question stops where it is."""


class AnswerStream:
    def __init__(
        self,
        work: Work,
        *,
        progress: Progress | None = None,
        on_claim: ClaimProgress | None = None,
        clock: Clock | None = None,
    ) -> None:
        self._work = work
        self._handlers: dict[str, Callable[..., None] | None] = {"stage": progress, "claim": on_claim}
        self._clock = clock
        self.report: Report | None = None

    def result(self) -> Report:
        """The saved report, once the stream was read to its end (the iteration raises the question's
        error, so a stream read to its end has one)."""
        if self.report is None:
            raise RuntimeError("the answer stream was not read to its end")  # the caller's mistake
        return self.report

    def __iter__(self) -> Iterator[str]:
        events: queue.Queue[tuple[str, tuple[Any, ...]]] = queue.Queue()
        stop = threading.Event()

        def sender(kind: str) -> Callable[..., None]:
            def send(*value: Any) -> None:
                if stop.is_set():
                    raise Stopped("the caller stopped reading the answer")
                events.put((kind, value))

            return send

        def work() -> None:
            try:
                events.put(("done", (self._work(sender("text"), sender("stage"), sender("claim")),)))
            except BaseException as exc:  # noqa: BLE001 - handed to the iterating thread, raised there
                events.put(("error", (exc,)))

        began = ticked = time.monotonic()
        worker = threading.Thread(target=contextvars.copy_context().run, args=(work,), daemon=True)
        worker.start()
        try:
            while True:
                try:
                    kind, value = events.get(timeout=CLOCK_S)
                except queue.Empty:
                    kind, value = "", ()
                if self._clock and time.monotonic() - ticked >= CLOCK_S:
                    ticked = time.monotonic()
                    self._clock(ticked - began)
                if kind == "text":
                    yield value[0]
                elif kind == "error":
                    raise value[0]
                elif kind == "done":
                    self.report = value[0]
                    return
                elif kind and (handler := self._handlers[kind]) is not None:
                    handler(*value)
        finally:
            stop.set()
