"""What an audit could not read, and so which of its checks did not run: the rules, the judge and the
relevance check read English only (rrag/lang/detect.py). The claims themselves are gated where they are
verified (rrag/verify/language_gate.py); this is the account the report gives of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rrag.lang.detect import ENGLISH, foreign_language, language_name, names_of
from rrag.types import RetrievedChunk
from rrag.verify.language_gate import READS, foreign_passage

SOURCES_NAMED = 3  # a long list of documents says no more than its first few


@dataclass(frozen=True)
class Unread:
    """The languages the rules cannot read in an audit's question, answer and passages ("" if none)."""

    question: str
    answer: str
    passages: dict[str, str]  # chunk id -> its language, for the passages in one the rules cannot read

    @classmethod
    def of(cls, question: str, answer: str, contexts: Sequence[RetrievedChunk]) -> Unread:
        languages = {rc.chunk.chunk_id: foreign_passage(rc.chunk) for rc in contexts}
        return cls(
            foreign_language(question),
            foreign_language(answer),
            {chunk_id: language for chunk_id, language in languages.items() if language},
        )

    def readable(self, contexts: Sequence[RetrievedChunk]) -> list[RetrievedChunk]:
        """The passages the rules can read (all of them, for an answer they cannot)."""
        return [] if self.answer else [rc for rc in contexts if rc.chunk.chunk_id not in self.passages]

    @property
    def relevance_readable(self) -> bool:
        return not (self.question or self.answer)

    def checks_not_run(self, contexts: Sequence[RetrievedChunk], *, answered_here: bool) -> list[str]:
        """One line per check that did not run, or ran on part of the text, and why; `answered_here`:
        the question was answered here, so its passages were to be judged (rrag/retrieval/judged.py)."""
        checks = []
        if self.question and answered_here:
            checks.append(
                f"Whether a passage answers the question (the question-passage model): the question is in "
                f"{language_name(self.question)}; the model reads {language_name(ENGLISH)} only."
            )
        unread = []
        if self.answer:
            unread.append(f"the answer is in {language_name(self.answer)}")
        if self.passages:
            sources = [rc.chunk.source for rc in contexts if rc.chunk.chunk_id in self.passages]
            sources = list(dict.fromkeys(sources))
            named = ", ".join(sources[:SOURCES_NAMED]) + (", ..." if len(sources) > SOURCES_NAMED else "")
            unread.append(f"the passages in {names_of(self.passages.values())} ({named}) were not read")
        if unread:
            why = f"{', and '.join(unread)}; {READS}."
            checks.append(f"Claim verification by the rules and the judge: {why}")
            checks.append(f"Source-conflict check: {why}")
        if not self.relevance_readable:
            which = "question" if self.question else "answer"
            checks.append(
                f"Answer-relevance check: the {which} is in {language_name(self.question or self.answer)}; "
                f"its rules read {language_name(ENGLISH)} only."
            )
        return checks
