"""Models that stand in for the judge under the rules' guard (rrag/verify/guarded.py), as subclasses of
the real base. Under `SureYes` the guard returns the rules' verdict only where their kind was measured
precise enough to overrule a model (`RULES.trusted`, precision.json); under `Rejects` the rules'
contradiction is what explains the model's no, quoting both sides."""

from __future__ import annotations

from collections.abc import Sequence

from rrag.types import Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier


class Certain(Verifier):
    """A model that says the same of every claim, as surely as a model can, and records what it was
    asked."""

    status = ClaimStatus.SUPPORTED
    support = 0.99  # its P(supported)

    def __init__(self) -> None:
        self.asked: list[str] = []

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        self.asked.append(claim.text)
        reason = f"surely {self.status.value}"
        return Verdict(self.status, 0.99, self.name, reason, support_score=self.support)


class SureYes(Certain):
    name = "sure-yes"


class Rejects(Certain):
    name = "rejects"
    status = ClaimStatus.UNSUPPORTED
    support = 0.01
