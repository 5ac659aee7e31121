"""The behavioural checklist: what it generates, how it counts, and `python -m rrag checklist`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from rrag.settings import Settings
from rrag.tools import checklist
from rrag.tools.checklist import (
    CONTRADICTION,
    FAITHFUL,
    NOT_VERIFIED,
    OVERALL,
    Pair,
    PairResult,
    capabilities,
    default_offline_verifier,
    generate,
    meets_targets,
    summarise,
)
from rrag.tools.checklist_templates import Template

DEV = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "dev"


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    return generate()


def test_at_least_600_pairs_over_12_capabilities_and_6_domains(pairs: list[Pair]) -> None:
    assert len(pairs) >= 600
    assert len({p.capability for p in pairs}) >= 12
    assert {p.domain for p in pairs} >= {"policies", "manuals", "prices", "medicine", "recipes", "history"}


def test_every_capability_has_contradictions_and_faithful_controls_in_several_domains(
    pairs: list[Pair],
) -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    domains: dict[str, set[str]] = defaultdict(set)
    for p in pairs:
        kinds[p.capability].add(p.kind)
        domains[p.capability].add(p.domain)
    assert set(kinds) == set(capabilities())
    for capability in capabilities():
        assert kinds[capability] == {CONTRADICTION, FAITHFUL}, capability
        assert len(domains[capability]) >= 3, capability


UNFILLED = re.compile(r"\{[A-Za-z_][\w\[\]]*\}")  # a slot left as written: "{place}", "{v[a]}"


def test_pairs_are_minimal_distinct_and_fully_filled(pairs: list[Pair]) -> None:
    assert len({(p.evidence, p.claim) for p in pairs}) == len(pairs)
    assert len({p.id for p in pairs}) == len(pairs)
    for p in pairs:
        assert not UNFILLED.search(p.evidence + p.claim), p  # a record's JSON braces are its own
        if p.kind == CONTRADICTION:
            assert p.claim != p.evidence, p  # a contradiction always changes the sentence
        assert not set(p.distractor.split()) & {"not", "never", "no"}, p.distractor
        assert not any(ch.isdigit() for ch in p.distractor), p.distractor


def test_the_same_seed_gives_the_same_pairs_and_another_seed_others() -> None:
    assert generate(seed=7) == generate(seed=7)
    assert generate(seed=7) != generate(seed=8)
    assert [p.id for p in generate(seed=7)] == [p.id for p in generate(seed=8)]  # same templates, other fills


def test_a_new_template_leaves_the_other_templates_pairs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def sentences(pairs: list[Pair]) -> list[tuple[str, str, str]]:
        return [(p.evidence, p.claim, p.distractor) for p in pairs]

    before = sentences(generate())
    added = Template("negation", "manuals", "The {part} is not {state}.", ("The {part} is {state}.",), (),
                     {"part": ["lid", "hose"], "state": ["washable", "included"]})  # fmt: skip
    monkeypatch.setattr(checklist, "TEMPLATES", [added, *checklist.TEMPLATES])
    after = sentences(generate())
    assert after[len(after) - len(before) :] == before and len(after) > len(before)


@pytest.mark.skipif(not DEV.is_dir(), reason="../shared/eval/dev is not present in this checkout")
def test_no_generated_sentence_is_copied_from_the_dev_data(pairs: list[Pair]) -> None:
    texts = []
    for path in sorted(DEV.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                texts += [row["context"], row["claim"]]
    dev = "\n".join(texts)
    generated = {p.evidence for p in pairs} | {p.claim for p in pairs}
    copied = sorted(t for t in generated if t in dev)
    assert not copied, copied[:5]


def _result(kind: str, status: str, capability: str = "negation") -> PairResult:
    pair = Pair(
        f"{capability}-{kind}-{status}", capability, "policies", kind, "evidence.", "claim.", "other."
    )
    return PairResult(pair, status, "nli", 0.9, "")


def test_rates_count_never_supported_contradicted_and_supported_controls() -> None:
    results = [
        _result(CONTRADICTION, "contradicted"),
        _result(CONTRADICTION, "unsupported"),
        _result(CONTRADICTION, "supported"),
        _result(CONTRADICTION, "partial"),
        _result(FAITHFUL, "supported"),
        _result(FAITHFUL, "partial", "quantifier"),
    ]
    summary = summarise(results)
    assert list(summary) == ["negation", "quantifier", OVERALL]
    negation = summary["negation"]
    assert (negation.contradictions, negation.faithful) == (4, 1)
    assert negation.share("never_supported") == 0.75
    assert negation.share("contradicted") == 0.25
    assert negation.share("faithful_supported") == 1.0
    assert summary["quantifier"].share("faithful_supported") == 0.0
    assert summary["quantifier"].share("contradicted") is None
    assert summary[OVERALL].share("faithful_supported") == 0.5


def test_meets_targets_on_each_target_and_never_passes_without_verification() -> None:
    perfect = [_result(CONTRADICTION, "contradicted")] * 40 + [_result(FAITHFUL, "supported")] * 10
    assert meets_targets(perfect) == dict.fromkeys(
        ("never_supported", "contradicted", "faithful_supported", "all_verified"), True
    )
    # one contradiction in 40 called supported (97.5 %) still meets; two (95 %) does not
    one_slip = perfect[1:] + [_result(CONTRADICTION, "supported")]
    assert meets_targets(one_slip)["never_supported"]
    two_slips = perfect[2:] + [_result(CONTRADICTION, "supported")] * 2
    assert not meets_targets(two_slips)["never_supported"]
    # flagging everything: every contradiction caught, every control lost
    flag_all = [_result(CONTRADICTION, "contradicted")] * 40 + [_result(FAITHFUL, "contradicted")] * 10
    assert meets_targets(flag_all)["contradicted"] and not meets_targets(flag_all)["faithful_supported"]
    # a verifier that could not run says "not verified", never supported: that must not pass
    broken = [_result(CONTRADICTION, NOT_VERIFIED)] * 40 + [_result(FAITHFUL, "supported")] * 10
    assert meets_targets(broken)["never_supported"] and not meets_targets(broken)["all_verified"]
    assert not any(meets_targets([]).values())


def test_pairs_are_verified_by_the_default_offline_cascade_the_pipeline_builds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RRAG_LLM_BASE_URL", "http://127.0.0.1:9")  # a configured LLM must not join
    monkeypatch.setenv("RRAG_LLM_MODEL", "judge")
    verifier = default_offline_verifier()
    assert [stage.name for stage in verifier.stages] == [v for v in Settings().verifiers if v != "llm"]


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RRAG_") and k != "OPENAI_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "rrag", "checklist", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_cli_runs_one_capability_prints_the_table_and_writes_every_pair(tmp_path: Path) -> None:
    out = tmp_path / "checklist.json"
    run = _run_cli("--capability", "role_swap", "--json", str(out))
    assert run.returncode == 0, run.stderr
    expected = [p for p in generate() if p.capability == "role_swap"]
    lines = run.stdout.splitlines()
    row = ["role_swap", str(len({p.domain for p in expected})), str(len(expected))]
    assert any(line.split()[:3] == row for line in lines if line.strip())
    assert any(line.startswith(OVERALL) for line in lines)
    assert not any(line.startswith("negation") for line in lines)
    for label in (
        "never labelled supported",
        "labelled contradicted",
        "faithful controls labelled supported",
    ):
        assert any(label in line and line[:4] in ("PASS", "FAIL") for line in lines), label
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in document["pairs"]] == [p.id for p in expected]
    statuses = {"supported", "partial", "unsupported", "contradicted", "not_checkable", NOT_VERIFIED}
    assert all(r["status"] in statuses and r["capability"] == "role_swap" for r in document["pairs"])
    assert set(document["met"]) == {"never_supported", "contradicted", "faithful_supported", "all_verified"}
    assert document["rates"][OVERALL]["pairs"] == len(expected)


def test_cli_refuses_an_unknown_capability() -> None:
    run = _run_cli("--capability", "telepathy")
    assert run.returncode == 2
    assert "unknown capability telepathy" in run.stderr and "negation" in run.stderr
