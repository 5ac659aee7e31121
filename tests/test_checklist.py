"""The behavioural checklist: what its template split generates, how both splits are counted, and
`python -m rrag checklist` (the paraphrase split's generator: tests/test_paraphrase_split.py)."""

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
from rrag.tools import checklist, paraphrase_split
from rrag.tools.checklist import TARGETS, capabilities, default_offline_verifier, generate
from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, INVENTED, NOT_VERIFIED, Pair, PairResult
from rrag.tools.checklist_rates import OVERALL, meets_targets, summarise
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
        _result(INVENTED, "partial", "quantifier"),
        _result(INVENTED, "supported", "quantifier"),
        _result(INVENTED, NOT_VERIFIED, "quantifier"),
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
    assert negation.share("invented_never_supported") is None
    assert summary["quantifier"].share("invented_never_supported") == 2 / 3
    assert summary[OVERALL].share("faithful_supported") == 0.5
    assert (summary[OVERALL].invented, summary[OVERALL].not_verified) == (3, 1)


def test_meets_targets_on_each_target_and_never_passes_without_verification() -> None:
    perfect = [_result(CONTRADICTION, "contradicted")] * 40 + [_result(FAITHFUL, "supported")] * 10
    assert meets_targets(perfect, TARGETS) == dict.fromkeys(
        ("never_supported", "contradicted", "faithful_supported", "all_verified"), True
    )
    # one contradiction in 40 called supported (97.5 %) still meets; two (95 %) does not
    one_slip = perfect[1:] + [_result(CONTRADICTION, "supported")]
    assert meets_targets(one_slip, TARGETS)["never_supported"]
    two_slips = perfect[2:] + [_result(CONTRADICTION, "supported")] * 2
    assert not meets_targets(two_slips, TARGETS)["never_supported"]
    # flagging everything: every contradiction caught, every control lost
    flag_all = [_result(CONTRADICTION, "contradicted")] * 40 + [_result(FAITHFUL, "contradicted")] * 10
    assert (
        meets_targets(flag_all, TARGETS)["contradicted"]
        and not meets_targets(flag_all, TARGETS)["faithful_supported"]
    )
    # a verifier that could not run says "not verified", never supported: that must not pass
    broken = [_result(CONTRADICTION, NOT_VERIFIED)] * 40 + [_result(FAITHFUL, "supported")] * 10
    assert (
        meets_targets(broken, TARGETS)["never_supported"]
        and not meets_targets(broken, TARGETS)["all_verified"]
    )
    assert not any(meets_targets([], TARGETS).values())


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


def _hans_sample(path: Path) -> Path:
    """Six rows in HANS's format, written here (not HANS rows): a verdict each way per heuristic."""
    rows = [
        ("lexical_overlap", "The baker thanked the driver.", "The driver thanked the baker.", "unsupported"),
        (
            "lexical_overlap",
            "The baker thanked the driver.",
            "The driver was thanked by the baker.",
            "supported",
        ),
        ("subsequence", "Once the choir sang, the guests sat down.", "The guests sat down.", "supported"),
        ("subsequence", "The nurse who met the porter laughed.", "The porter laughed.", "unsupported"),
        ("constituent", "Perhaps the mayor resigned.", "The mayor resigned.", "unsupported"),
        ("constituent", "Clearly the mayor resigned.", "The mayor resigned.", "supported"),
    ]
    path.write_text(
        "".join(
            json.dumps({"id": f"h{i}", "context": c, "claim": h, "label": label, "heuristic": heuristic})
            + "\n"
            for i, (heuristic, c, h, label) in enumerate(rows)
        ),
        encoding="utf-8",
    )
    return path


def test_cli_prints_both_splits_side_by_side_and_hans_per_heuristic(tmp_path: Path) -> None:
    out = tmp_path / "checklist.json"
    run = _run_cli(
        "--capability", "role_swap", "--hans", str(_hans_sample(tmp_path / "hans.jsonl")), "--json", str(out)
    )
    assert run.returncode == 0, run.stderr
    template = [p for p in generate() if p.capability == "role_swap"]
    paraphrase = [p for p in paraphrase_split.generate() if p.capability == "role_swap"]
    splits, hans = run.stdout.split("\nHANS (")
    lines = splits.splitlines()
    assert any("template split" in line and "paraphrase split" in line for line in lines)
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.strip()}
    # per split: pairs, never supported, contradicted, invented never supported, controls supported
    assert rows["role_swap"][0] == str(len(template)) and rows["role_swap"][5] == str(len(paraphrase))
    assert rows["role_swap"][3] == "-" and rows["role_swap"][8].endswith("%")  # the templates invent nothing
    assert not any(line.startswith("negation") for line in lines)
    for split in ("template", "paraphrase"):
        for label in (
            "contradiction pairs never labelled supported",
            "contradiction pairs labelled contradicted",
            "faithful controls labelled supported",
            "every claim verified",
        ):
            assert any(f"{split} split: {label}" in line and line[:4] in ("PASS", "FAIL") for line in lines)
    assert rows["target"] == [">=97%", ">=85%", ">=90%", ">=90%", ">=70%", ">=90%"]
    hans_rows = {line.split()[0]: line.split()[1:] for line in hans.splitlines() if line.strip()}
    for heuristic in ("lexical_overlap", "subsequence", "constituent"):
        assert hans_rows[heuristic][0] == "1" and hans_rows[heuristic][2] == "1", hans_rows[heuristic]
    assert hans_rows["target"] == [">=70%", ">=90%"]
    verdicts = [line for line in hans.splitlines() if line[:4] in ("PASS", "FAIL")]
    assert [line.split()[1] for line in verdicts] == ["non-entailment", "entailment"]
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in document["splits"]["template"]["pairs"]] == [p.id for p in template]
    assert [r["id"] for r in document["splits"]["paraphrase"]["pairs"]] == [p.id for p in paraphrase]
    statuses = {"supported", "partial", "unsupported", "contradicted", "not_checkable", NOT_VERIFIED}
    for split in document["splits"].values():
        assert all(r["status"] in statuses and r["capability"] == "role_swap" for r in split["pairs"])
        assert set(split["met"]) == {"never_supported", "contradicted", "faithful_supported", "all_verified"}
    assert document["splits"]["paraphrase"]["rates"][OVERALL]["pairs"] == len(paraphrase)
    assert {h: r["non_entailment"] + r["entailment"] for h, r in document["hans"]["rates"].items()} == {
        "lexical_overlap": 2,
        "subsequence": 2,
        "constituent": 2,
    }


def test_cli_runs_a_capability_of_the_paraphrase_split_alone_with_a_registry_verifier() -> None:
    run = _run_cli("--capability", "condition", "--verifier", "lexical", "--no-hans")
    assert run.returncode == 0, run.stderr
    assert "verifier lexical" in run.stdout and "HANS" not in run.stdout
    rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.strip()}
    condition = [p for p in paraphrase_split.generate() if p.capability == "condition"]
    assert rows["condition"][:5] == ["-"] * 5 and rows["condition"][5] == str(len(condition))


def test_cli_refuses_an_unknown_capability_and_a_missing_hans_file(tmp_path: Path) -> None:
    run = _run_cli("--capability", "telepathy")
    assert run.returncode == 2
    assert (
        "unknown capability telepathy" in run.stderr
        and "negation" in run.stderr
        and "condition" in run.stderr
    )
    run = _run_cli("--capability", "negation", "--hans", str(tmp_path / "none.jsonl"))
    assert run.returncode == 2 and "no HANS file" in run.stderr
