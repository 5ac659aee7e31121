"""Verifier names -> factories: the cascade's stages (`RRAG_VERIFIERS`) and `rrag eval --verifier`
read this one table, so "nli" is the same verifier in the app and in its measurement.

Factories import their module when called, so that `rrag eval --verifier lexical` never loads the
model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rrag.registry import Registry, require_llm
from rrag.settings import Settings
from rrag.verify.base import Verifier

if TYPE_CHECKING:
    from rrag.backends.llm import LLM


def _quote(settings: Settings, llm: LLM | None) -> Verifier:
    from rrag.verify.quote import QuoteVerifier

    return QuoteVerifier()


def _model(settings: Settings, llm: LLM | None) -> Verifier:
    from rrag.verify.nli import NLIVerifier

    return NLIVerifier(settings)


def _lexical(settings: Settings, llm: LLM | None) -> Verifier:
    from rrag.verify.lexical import LexicalVerifier

    return LexicalVerifier()


def _guarded_model(settings: Settings, llm: LLM | None) -> Verifier:
    # The trained model, with the values and names it confirms both ways (rrag/verify/counterfactual.py),
    # vetoed by the rules' hard evidence (rrag/verify/guarded.py; figures in docs/verifier.md).
    from rrag.verify.guarded import GuardedVerifier
    from rrag.verify.nli import NLIVerifier

    return GuardedVerifier(NLIVerifier(settings, counterfactual=True))


def _llm_judge(settings: Settings, llm: LLM | None) -> Verifier:
    from rrag.verify.llm_judge import LLMJudge

    return LLMJudge(require_llm(llm, "The LLM verifier"))


VERIFIERS: Registry[Verifier] = Registry(
    "verifier",
    {
        "quote": _quote,
        "nli": _guarded_model,  # the app's offline stage
        "llm": _llm_judge,
        "model": _model,  # the model alone, without the rules (for measuring it)
        "lexical": _lexical,  # the rules alone
    },
)
