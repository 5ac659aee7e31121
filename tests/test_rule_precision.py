"""`python -m rrag rules`: each rule's fires and precision, counted alone and first in the order, on a
hand-made fixture (not dev, HANS or checklist text); and the registry's record of the measure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rrag.tools import checklist, paraphrase_split
from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, INVENTED
from rrag.tools.cli import main
from rrag.tools.rule_precision import (
    DEV_SETS,
    HANS,
    MIN_FIRES,
    PARAPHRASE,
    TEMPLATE,
    Fires,
    Item,
    fired,
    split_items,
    tally,
    verdict,
)
from rrag.tools.verifier_eval import context_chunks
from rrag.verify.rules import RULES
from rrag.verify.rules.base import MEASURED

# (evidence, claim, not supported): written here
DEPOSIT = ("The deposit is $500.", "The deposit is $600.", True)
FEE = ("The fee is $20 per month.", "The fee is $25 per month.", False)  # labelled supported all the same
HOURS = ("The museum opens at 9 am. It closes at 5 pm.", "The museum opens at 9 am. It closes at 6 pm.", True)
LIBRARY = ("The library is open on Monday.", "The library is not open on Monday.", True)
CAFE = ("The museum opens at 9 am.", "The café sells cakes.", True)  # no rule finds anything


def _item(case: tuple[str, str, bool], source: str = DEV_SETS, contradicted: bool | None = None) -> Item:
    evidence, claim, not_supported = case
    return Item(source, "fixture", claim, tuple(context_chunks(evidence, 1000)), not_supported, contradicted)


def test_precision_is_the_share_of_the_claims_fired_on_that_are_not_supported() -> None:
    counts = tally([_item(DEPOSIT, contradicted=True), _item(FEE, contradicted=False), _item(CAFE)])
    value = counts.of("value_clash", [DEV_SETS])
    assert (value.alone.claims, value.alone.not_supported, value.alone.precision) == (2, 1, 0.5)
    assert value.first.precision == 0.5
    assert value.alone.contradicted_share == 0.5  # of the two fires on claims labelled either way
    assert counts.claims[DEV_SETS].claims == 3  # the claim no rule fires on counts among the claims only
    assert counts.of("negated", [DEV_SETS]).alone.claims == 0
    assert counts.of("negated", [DEV_SETS]).alone.precision is None


def test_a_claim_is_fired_on_when_any_of_its_sentences_is() -> None:
    alone, first = fired(_item(HOURS))
    assert "value_clash" in alone and "value_clash" in first  # "6 pm" of its second sentence, against "5 pm"


def test_alone_counts_a_rule_the_order_pre_empts_first_counts_the_one_that_decides() -> None:
    """The value clash (rank 210) decides before the unstated number (800) is asked; a negation (300)
    before the negated evidence (900)."""
    counts = tally([_item(DEPOSIT), _item(LIBRARY)])
    assert counts.of("unstated", [DEV_SETS]).alone.claims == 1
    assert counts.of("unstated", [DEV_SETS]).first.claims == 0
    assert counts.of("value_clash", [DEV_SETS]).first.claims == 1
    assert counts.of("negated_elsewhere", [DEV_SETS]).alone.claims == 1
    assert counts.of("negated_elsewhere", [DEV_SETS]).first.claims == 0
    assert counts.of("negated", [DEV_SETS]).first.claims == 1


def test_the_template_split_is_kept_out_of_the_pooled_figure() -> None:
    counts = tally([_item(DEPOSIT), _item(DEPOSIT, HANS), _item(FEE, TEMPLATE), _item(FEE, PARAPHRASE)])
    pooled = counts.pooled("value_clash").alone
    assert (pooled.claims, pooled.not_supported) == (3, 2)


@pytest.mark.parametrize(
    ("claims", "not_supported", "expected"),
    [
        (MIN_FIRES, MIN_FIRES, "hard ok"),
        (100, 97, "hard ok"),
        (100, 96, "below 97%"),
        (MIN_FIRES - 1, MIN_FIRES - 1, "too few fires"),
    ],
)
def test_the_verdict_asks_97_percent_of_enough_fires(claims: int, not_supported: int, expected: str) -> None:
    assert verdict(Fires(claims, not_supported)) == expected


def _rows(path: Path, rows: list[tuple[str, str, str]], heuristic: str = "") -> None:
    path.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "context": c, "claim": h, "label": label, "heuristic": heuristic})
            + "\n"
            for i, (c, h, label) in enumerate(rows)
        ),
        encoding="utf-8",
    )


def test_cli_prints_a_row_per_rule_by_rank_and_writes_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    _rows(dev / "leases.jsonl", [(DEPOSIT[0], DEPOSIT[1], "contradicted"), (FEE[0], FEE[1], "supported")])
    _rows(dev / "notices.jsonl", [(LIBRARY[0], LIBRARY[1], "unsupported")])
    hans = tmp_path / "hans.jsonl"
    swapped = ("The baker thanked the driver.", "The driver thanked the baker.", "unsupported")
    _rows(hans, [swapped], "lexical_overlap")
    out = tmp_path / "rules.json"
    args = ["rules", "--dev", str(dev), "--hans", str(hans), "--sample", "2", "--json", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(printed) if line.startswith("rank"))
    table = printed[header + 1 :]
    assert [line.split()[1] for line in table] == [rule.name for rule in RULES]
    assert [int(line.split()[0]) for line in table] == sorted(rule.rank for rule in RULES)
    assert all(sum(v in line for v in ("hard ok", "below 97%", "too few fires")) == 1 for line in table)
    value = next(line.split() for line in table if line.split()[1] == "value_clash")
    assert value[6:9] == ["2/2", "50.0/50.0", "50.0"]  # dev: fires alone/first, precision, contradicted
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [r["rule"] for r in document["rules"]] == [rule.name for rule in RULES]
    assert document["claims"][DEV_SETS]["claims"] == 3 and document["claims"][HANS]["claims"] == 1
    assert document["claims"][PARAPHRASE]["claims"] == document["claims"][TEMPLATE]["claims"] == 2
    entry = next(r for r in document["rules"] if r["rule"] == "value_clash")
    assert entry["sources"][DEV_SETS]["by_subset"]["leases"]["alone"]["precision"] == 0.5


def test_cli_refuses_to_record_a_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = MEASURED.read_bytes()
    assert main(["rules", "--sample", "1", "--write"]) == 2
    assert "leave out --sample" in capsys.readouterr().err
    assert MEASURED.read_bytes() == before


def test_the_registry_holds_the_measure_of_every_rule_it_registers() -> None:
    """Each registered rule's precision is the one `rrag rules --write` recorded, and no record is of a
    rule no longer registered: a rule added, renamed or removed is measured again."""
    recorded = json.loads(MEASURED.read_text(encoding="utf-8"))["rules"]
    assert set(recorded) == {rule.name for rule in RULES}
    for rule in RULES:
        assert rule.precision == recorded[rule.name]["precision"]
        fires = recorded[rule.name]["fires"]
        assert (rule.precision is None) == (fires == 0), rule.name
        assert rule.precision is None or 0 <= rule.precision <= 1


def test_a_split_pair_is_not_supported_unless_it_is_a_faithful_control() -> None:
    pairs = paraphrase_split.generate()
    kinds = {pair.kind: pair for pair in pairs}
    items = {item.claim: item for item in split_items(PARAPHRASE, list(kinds.values()))}
    for kind, pair in kinds.items():
        item = items[pair.claim]
        assert list(item.contexts) == checklist.pair_contexts(pair)  # as `rrag checklist` retrieves it
        assert (item.not_supported, item.contradicted) == {
            FAITHFUL: (False, False),
            CONTRADICTION: (True, True),
            INVENTED: (True, False),
        }[kind]
