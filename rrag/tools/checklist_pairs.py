"""What both splits of the checklist are made of: a pair (evidence, claim, what the claim is) and the
verdict the verifier gave it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rrag.types import ClaimStatus

CONTRADICTION = "contradiction"  # false by the evidence: should be contradicted
FAITHFUL = "faithful"  # a control, true by the evidence: should be supported
INVENTED = "invented"  # a plausible fact the evidence never states: should not be supported
NOT_VERIFIED = "not_verified"
EXPECTED = {
    CONTRADICTION: ClaimStatus.CONTRADICTED.value,
    FAITHFUL: ClaimStatus.SUPPORTED.value,
    INVENTED: ClaimStatus.UNSUPPORTED.value,
}


@dataclass(frozen=True)
class Pair:
    id: str
    capability: str
    domain: str
    kind: str  # CONTRADICTION, FAITHFUL or INVENTED
    evidence: str
    claim: str
    distractor: str

    @property
    def expected(self) -> str:
        return EXPECTED[self.kind]


@dataclass(frozen=True)
class PairResult:
    pair: Pair
    status: str  # the verdict's status, or NOT_VERIFIED when no stage could decide
    verifier: str
    confidence: float
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self.pair) | {
            "expected": self.pair.expected,
            "status": self.status,
            "verifier": self.verifier,
            "confidence": round(self.confidence, 4),
            "reason": self.reason,
        }
