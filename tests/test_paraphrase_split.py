"""The checklist's paraphrase split: what its generator makes, that its claims reword their evidence,
and that it stays apart from the template split."""

from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from rrag.tools import (
    checklist,
    checklist_templates,
    paraphrase_scenes_amounts,
    paraphrase_scenes_meaning,
    paraphrase_scenes_time,
    paraphrase_split,
)
from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, INVENTED, Pair
from rrag.tools.paraphrase_kit import (
    FIRMS,
    PEOPLE,
    TEAMS,
    TOWNS,
    Scene,
    amount_words,
    celsius,
    draft,
    fahrenheit,
    ordinal,
    words,
    year_words,
)
from rrag.tools.paraphrase_split import DISTRACTORS, SCENES, capabilities, generate

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "eval"
# A claim repeats its evidence's phrasing when more than half of its word pairs are the evidence's,
# or when it copies a run of more than five words. A bound of one half leaves the words a faithful
# claim must keep (names, the noun it is about, "the landlord", "the city marathon") and still
# asks for most of the wording to be new; five words let a long noun phrase with its preposition
# recur ("in the horse riding trial") but not a clause. The template split, for comparison, has a
# median of 60 % of its claims' word pairs in their evidence, and a fifth of its pairs copy five words.
MAX_SHARED_WORD_PAIRS = 0.5
MAX_SHARED_RUN = 5


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    return generate()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:[.,'][a-z0-9]+)*", text.lower())


def shared_word_pairs(claim: str, evidence: str) -> float:
    """The share of the claim's adjacent word pairs that occur in the evidence."""
    c, e = _words(claim), _words(evidence)
    bigrams = list(zip(c, c[1:]))
    found = set(zip(e, e[1:]))
    return sum(b in found for b in bigrams) / max(len(bigrams), 1)


def longest_shared_run(claim: str, evidence: str) -> int:
    """The most consecutive words the claim and the evidence have in common."""
    c, e = _words(claim), _words(evidence)
    best = 0
    for i in range(len(c)):
        for j in range(len(e)):
            k = 0
            while i + k < len(c) and j + k < len(e) and c[i + k] == e[j + k]:
                k += 1
            best = max(best, k)
    return best


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def test_the_overlap_measures_on_a_copy_a_paraphrase_and_a_swap() -> None:
    evidence = "The tenant pays the landlord a deposit of two months' rent."
    assert shared_word_pairs(evidence, evidence) == 1.0
    assert longest_shared_run(evidence, evidence) == len(_words(evidence))
    paraphrase = "A deposit worth two months of rent goes from the tenant to the landlord."
    assert shared_word_pairs(paraphrase, evidence) <= MAX_SHARED_WORD_PAIRS
    assert longest_shared_run(paraphrase, evidence) == 2  # "a deposit", "two months", "the landlord"
    assert shared_word_pairs("The landlord pays the tenant a deposit.", evidence) == 4 / 6


def test_several_hundred_pairs_over_many_capabilities_and_everyday_domains(pairs: list[Pair]) -> None:
    assert len(pairs) >= 600
    assert len(capabilities()) >= 15
    assert len({p.domain for p in pairs}) >= 12
    assert {p.domain for p in pairs} >= {
        "recipes",
        "leases",
        "travel",
        "sports",
        "health",
        "finance",
        "schools",
    }


def test_every_capability_has_controls_contradictions_and_invented_facts(pairs: list[Pair]) -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    domains: dict[str, set[str]] = defaultdict(set)
    for p in pairs:
        kinds[p.capability].add(p.kind)
        domains[p.capability].add(p.domain)
    assert list(kinds) == capabilities()
    for capability, found in kinds.items():
        assert found == {FAITHFUL, CONTRADICTION, INVENTED}, capability
        assert len(domains[capability]) >= 3, capability


def test_most_capabilities_are_the_template_splits_so_the_two_print_side_by_side() -> None:
    shared = set(capabilities()) & set(checklist.capabilities())
    assert len(shared) >= 14, shared


def test_every_scene_draws_distinct_evidence_more_than_once(pairs: list[Pair]) -> None:
    evidence: dict[tuple[str, str], set[str]] = defaultdict(set)
    for p in pairs:
        evidence[p.capability, p.id.split("-")[1]].add(p.evidence)
    assert set(evidence) == {(s.capability, s.name) for s in SCENES}
    assert all(len(drawn) >= 2 for drawn in evidence.values()), evidence


def test_no_claim_repeats_its_evidences_phrasing(pairs: list[Pair]) -> None:
    for p in pairs:
        claim = " ".join(_words(p.claim))
        assert claim not in " ".join(_words(p.evidence)), p
        assert claim not in {" ".join(_words(s)) for s in _sentences(p.evidence)}, p
        assert shared_word_pairs(p.claim, p.evidence) <= MAX_SHARED_WORD_PAIRS, p
        assert longest_shared_run(p.claim, p.evidence) <= MAX_SHARED_RUN, p


def test_pairs_are_distinct_and_ids_unique(pairs: list[Pair]) -> None:
    assert len({(p.evidence, p.claim) for p in pairs}) == len(pairs)
    assert len({p.id for p in pairs}) == len(pairs)
    for p in pairs:  # a claim is never said of its evidence twice, as two kinds
        assert p.claim != p.evidence


def test_the_same_seed_gives_the_same_pairs_and_another_seed_other_values() -> None:
    assert generate(seed=5) == generate(seed=5)
    assert generate(seed=5) != generate(seed=6)
    assert [p.id for p in generate(seed=5, fills=2)] == [p.id for p in generate(seed=6, fills=2)]


def test_a_new_scene_leaves_the_other_scenes_pairs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    before = generate()
    added = Scene(
        "negation",
        "gardening",
        "hedge",
        lambda rng: draft(f"The hedge is {rng.randint(2, 9)} m tall.", ["x"], ["y"], ["z"]),
    )
    monkeypatch.setattr(paraphrase_split, "SCENES", [added, *SCENES])
    after = generate()
    assert after[len(after) - len(before) :] == before and len(after) > len(before)


def test_distractors_hold_no_number_and_no_negation() -> None:
    for distractor in DISTRACTORS:
        assert not any(ch.isdigit() for ch in distractor), distractor
        assert not set(_words(distractor)) & {"not", "never", "no", "none", "nobody"}, distractor


def test_numbers_are_said_in_words_and_units_converted() -> None:
    assert amount_words(6.5) == "six and a half"
    assert amount_words(4.25) == "four and a quarter"
    assert amount_words(0.75) == "three quarters"
    with pytest.raises(ValueError):
        amount_words(2.3)
    assert words(1500) == "one thousand five hundred" and words(21) == "twenty-one"
    assert ordinal(23) == "twenty-third" and year_words(1964) == "nineteen sixty-four"
    assert celsius(350) == 177 and celsius(212) == 100
    assert fahrenheit(38) == "100.4 degrees Fahrenheit" and fahrenheit(40) == "104 degrees Fahrenheit"


def test_the_split_shares_no_sentence_and_no_name_with_the_template_split(pairs: list[Pair]) -> None:
    template = checklist.generate()
    template_sentences = {s for p in template for s in (*_sentences(p.evidence), p.claim)}
    ours = {s for p in pairs for s in (*_sentences(p.evidence), p.claim)}
    assert not ours & template_sentences, sorted(ours & template_sentences)[:5]
    template_text = "\n".join(f"{p.evidence}\n{p.claim}" for p in template)
    names = [*PEOPLE, *TOWNS, *FIRMS, *(team.removeprefix("the ") for team in TEAMS)]
    assert [name for name in names if name in template_text] == []


def _strings_in_lists(module: object) -> set[str]:
    """The string constants of every list and tuple written in a module's source: its choices."""
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    return {
        element.value.lower()
        for node in ast.walk(tree)
        if isinstance(node, ast.List | ast.Tuple)
        for element in node.elts
        if isinstance(element, ast.Constant) and isinstance(element.value, str)
    }


def test_no_fill_value_of_the_template_split_is_reused() -> None:
    template_values = set()
    for template in checklist_templates.TEMPLATES:
        for slot in template.slots.values():
            for value in [] if callable(slot) else slot:
                template_values.update(v.lower() for v in ([value] if isinstance(value, str) else value))
    modules = (paraphrase_scenes_amounts, paraphrase_scenes_time, paraphrase_scenes_meaning)
    ours = set().union(
        *(_strings_in_lists(m) for m in modules), (v.lower() for v in [*PEOPLE, *TOWNS, *FIRMS, *TEAMS])
    )
    # how often and how many are the language's, not a vocabulary: "twice", "three times", "six"
    counting = {"twice"} | {words(n) for n in range(100)} | {f"{words(n)} times" for n in range(2, 10)}
    assert sorted(ours & template_values - counting) == []


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/eval is not present in this checkout")
def test_no_sentence_is_copied_from_the_dev_data_or_hans(pairs: list[Pair]) -> None:
    texts = []
    for path in [*sorted((SHARED / "dev").glob("*.jsonl")), SHARED / "stress" / "hans.jsonl"]:
        for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else []:
            if line.strip():
                row = json.loads(line)
                texts += [row["context"], row["claim"]]
    data = "\n".join(texts)
    generated = {s for p in pairs for s in (*_sentences(p.evidence), p.claim)}
    copied = sorted(s for s in generated if s in data)
    assert not copied, copied[:5]
