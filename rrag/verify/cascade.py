"""The verification cascade: cheap stages first, each later stage only for the claims still unsure.

    quote (exact / near-exact)  ->  nli (offline model)  ->  llm (judge, when configured)

The offline stages read English only: each is wrapped in the language gate (rrag/verify/language_gate.py),
which leaves a claim or passages in another language "not verified" for the next stage.

A verdict is accepted when `accept` says it is confident enough; otherwise the next stage runs. When
the last stages fail (an LLM timeout), the latest offline verdict stands and its reason says so;
only a claim no stage could decide is "not verified".

Evidence first: a later stage may lower an unsure verdict, but never lift a "contradicted" one (a
value clash, a negation found by an earlier stage): evidence against a claim outweighs any word for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rrag.backends.llm import LLM, OpenAIChatLLM
from rrag.errors import ConfigError, RRAGError
from rrag.settings import Settings
from rrag.types import Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.evidence import NOT_VERIFIED, not_verified
from rrag.verify.language_gate import LanguageGate
from rrag.verify.registry import VERIFIERS

ACCEPT_CONFIDENCE = 0.75


def confident(verdict: Verdict) -> bool:
    return verdict.verified and verdict.confidence >= ACCEPT_CONFIDENCE


class CascadeVerifier(Verifier):
    name = "cascade"

    def __init__(self, stages: Sequence[Verifier], *, accept: Callable[[Verdict], bool] = confident) -> None:
        if not stages:
            raise ConfigError("the verifier cascade needs at least one stage")
        self.stages = list(stages)
        self.accept = accept

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        decided: dict[int, Verdict] = {
            i: Verdict(ClaimStatus.NOT_CHECKABLE, 1.0, "claims", c.reason or "not a factual statement")
            for i, c in enumerate(claims)
            if not c.checkable
        }
        kept: dict[int, Verdict] = {}  # the latest verdict that was made, though not confidently
        failures: dict[int, list[str]] = {}  # stages after `kept` that could not decide
        pending = [i for i in range(len(claims)) if i not in decided]
        for stage in self.stages:
            if not pending:
                break
            verdicts = self._run(stage, [claims[i] for i in pending], contexts, question)
            unsure = []
            for i, verdict in zip(pending, verdicts):
                before = kept.get(i)
                if verdict.verified and before is not None and _lifts(before, verdict):
                    decided[i] = _stands_against(before, verdict)
                    continue
                if verdict.verified and self.accept(verdict):
                    decided[i] = verdict
                    continue
                if verdict.verified:
                    kept[i], failures[i] = verdict, []
                else:
                    failures.setdefault(i, []).append(verdict.reason.removeprefix(NOT_VERIFIED))
                unsure.append(i)
            pending = unsure
        for i in pending:
            decided[i] = _settle(kept.get(i), failures.get(i, []), self.stages[-1].name)
        return [decided[i] for i in range(len(claims))]

    @staticmethod
    def _run(
        stage: Verifier, claims: list[Claim], contexts: Sequence[RetrievedChunk], question: str
    ) -> list[Verdict]:
        try:
            return stage.verify_many(claims, contexts, question)
        except RRAGError as exc:  # a stage that breaks (missing model files) leaves its claims undecided
            return [not_verified(stage.name, f"the {stage.name} verifier failed ({exc})")] * len(claims)


def _lifts(before: Verdict, after: Verdict) -> bool:
    return before.status is ClaimStatus.CONTRADICTED and after.status is not ClaimStatus.CONTRADICTED


def _stands_against(against: Verdict, overruled: Verdict) -> Verdict:
    return replace(
        against,
        reason=f"{against.reason}. The {overruled.verifier} stage called it "
        f"{overruled.status.value}, but the evidence against the claim stands",
    )


def _settle(kept: Verdict | None, failures: list[str], last_stage: str) -> Verdict:
    if kept is None:
        return not_verified(last_stage, _joined(failures) or "no verifier could decide")
    if not failures:
        return kept
    return replace(
        kept,
        reason=f"{kept.reason}. A later stage could not check it ({_joined(failures)}); "
        f"this {kept.verifier} verdict stands",
    )


def _joined(failures: list[str]) -> str:
    return "; ".join(dict.fromkeys(failures))  # two offline stages gated alike say it once


def _stage(name: str, settings: Settings, llm: LLM | None) -> Verifier:
    stage = VERIFIERS.create(name, settings, llm)
    return stage if name == "llm" else LanguageGate(stage)  # the LLM reads any language; the rest English


def build_verifier(settings: Settings, llm: LLM | None = None) -> Verifier:
    """The cascade named by `settings.verifiers`, in that order (rrag/verify/registry.py), each offline
    stage behind the language gate. The LLM judge joins only when an LLM is given or configured; a
    cascade left with no stage at all is a configuration error."""
    if llm is None and settings.llm_configured and "llm" in settings.verifiers:
        llm = OpenAIChatLLM(settings)
    stages = [_stage(name, settings, llm) for name in settings.verifiers if name != "llm" or llm]
    if not stages:
        raise ConfigError(
            "the LLM verifier needs an LLM: set RRAG_LLM_BASE_URL and RRAG_LLM_MODEL, "
            "or add an offline verifier (quote, nli)"
        )
    return CascadeVerifier(stages)
