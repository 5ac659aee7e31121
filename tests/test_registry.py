"""One name -> factory registry per backend kind: the settings' choices, the pipeline, the cascade and
`rrag eval` read the same names."""

from __future__ import annotations

from typing import get_args

import pytest

from rrag.answer.answerers import ANSWERERS, ExtractiveAnswerer
from rrag.audit.claims import CLAIM_EXTRACTORS, RuleClaimExtractor
from rrag.errors import ConfigError
from rrag.settings import AnswererName, ClaimExtractorName, Settings, VerifierStageName
from rrag.tools.verifier_eval import make_verifier
from rrag.verify.cascade import build_verifier
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.language_gate import LanguageGate
from rrag.verify.nli import NLIVerifier
from rrag.verify.registry import VERIFIERS


def test_every_name_the_settings_accept_has_a_factory() -> None:
    assert set(get_args(AnswererName)) == set(ANSWERERS.names())
    assert set(get_args(ClaimExtractorName)) == set(CLAIM_EXTRACTORS.names())
    assert set(get_args(VerifierStageName)) <= set(VERIFIERS.names())


def test_a_name_means_the_same_verifier_in_the_cascade_and_in_rrag_eval(settings: Settings) -> None:
    gate = build_verifier(settings.replace(verifiers=("nli",))).stages[0]
    assert isinstance(gate, LanguageGate)  # the app's offline stages read English only
    in_app = gate.stage
    measured = make_verifier("nli", settings)
    assert type(in_app) is type(measured) is GuardedVerifier
    assert type(make_verifier("model", settings)) is NLIVerifier


def test_offline_backends_need_no_llm(settings: Settings) -> None:
    assert isinstance(CLAIM_EXTRACTORS.create("rules", settings), RuleClaimExtractor)
    assert isinstance(ANSWERERS.create("extractive", settings), ExtractiveAnswerer)


@pytest.mark.parametrize(
    ("registry", "name"), [(ANSWERERS, "openai"), (CLAIM_EXTRACTORS, "llm"), (VERIFIERS, "llm")]
)
def test_an_llm_backend_without_an_llm_says_how_to_configure_one(registry, name, settings: Settings) -> None:
    with pytest.raises(ConfigError, match="RRAG_LLM_BASE_URL"):
        registry.create(name, settings, None)


def test_an_unknown_name_lists_the_choices(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="unknown verifier 'astrology'; choose from quote, nli"):
        VERIFIERS.create("astrology", settings)
