"""The verifier base class: judge one claim against the retrieved context."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from rrag.types import Claim, RetrievedChunk, Verdict


class Verifier(ABC):
    name: str = "base"

    @abstractmethod
    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        """Return a verdict with evidence from `contexts`; never raise for an ordinary claim."""

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        """Override to batch; the default checks one claim at a time."""
        return [self.verify(claim, contexts, question) for claim in claims]
