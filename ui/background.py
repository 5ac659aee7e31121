"""A question set asked on a thread of its own. Any rerun of the page (a file chosen, a click) stops
the page's script; a run asked inside it was abandoned half-way with nothing saved. On its own thread
the run goes on, and the page only reads how far it got."""

from __future__ import annotations

import threading

from rrag import UserEngine
from rrag.tools.question_sets import QuestionItem, run_question_set


class BackgroundRun:
    def __init__(self, rag: UserEngine, items: list[QuestionItem], name: str) -> None:
        self.name = name
        self.done, self.total, self.question = 0, len(items), ""
        self.run_id: str | None = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._work, args=(rag, items), name="rrag-run", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout_s: float) -> None:
        self._thread.join(timeout_s)

    def _work(self, rag: UserEngine, items: list[QuestionItem]) -> None:
        try:
            self.run_id = run_question_set(rag, items, name=self.name, progress=self._progress).run_id
        except Exception as exc:  # noqa: BLE001 - no caller on this thread: the page shows it
            self.error = f"{type(exc).__name__}: {exc}"

    def _progress(self, done: int, total: int, question: str) -> None:
        self.done, self.total, self.question = done, total, question
