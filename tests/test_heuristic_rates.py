"""Rates per heuristic of a stress test (HANS's format), counted on a hand-made fixture."""

from __future__ import annotations

from rrag.tools.heuristic_rates import HeuristicRates, by_heuristic, format_heuristics, meets_targets

# (heuristic, gold label, verdict status): written here, not HANS rows
JUDGED = [
    ("constituent", "supported", "supported"),  # entailment, right
    ("constituent", "unsupported", "supported"),  # non-entailment called supported: wrong
    ("lexical_overlap", "supported", "supported"),  # right
    ("lexical_overlap", "supported", "partial"),  # an entailment not called supported: wrong
    ("lexical_overlap", "unsupported", "contradicted"),  # right
    ("lexical_overlap", "unsupported", "unsupported"),  # right
    ("lexical_overlap", "unsupported", "not_verified"),  # not labelled supported: right
    ("lexical_overlap", "unsupported", "supported"),  # wrong
    ("word_order", "contradicted", "partial"),  # another heuristic, another non-entailed label: right
    ("subsequence", "unsupported", "unsupported"),  # right; no entailed row
]


def test_counts_each_side_per_heuristic_in_hans_order_then_as_first_seen() -> None:
    rates = by_heuristic(JUDGED)
    assert list(rates) == ["lexical_overlap", "subsequence", "constituent", "word_order"]
    assert rates["lexical_overlap"] == HeuristicRates(
        entailment=2, entailment_right=1, non_entailment=4, non_entailment_right=3
    )
    assert rates["lexical_overlap"].share("entailment") == 0.5
    assert rates["lexical_overlap"].share("non_entailment") == 0.75
    assert rates["constituent"] == HeuristicRates(1, 1, 1, 0)
    assert rates["subsequence"].share("entailment") is None
    assert rates["word_order"] == HeuristicRates(0, 0, 1, 1)


def test_targets_hold_only_when_every_heuristic_meets_them() -> None:
    good = HeuristicRates(entailment=10, entailment_right=9, non_entailment=10, non_entailment_right=7)
    weak = HeuristicRates(entailment=10, entailment_right=10, non_entailment=10, non_entailment_right=6)
    assert meets_targets({"a": good}) == {"non_entailment": True, "entailment": True}
    assert meets_targets({"a": good, "b": weak}) == {"non_entailment": False, "entailment": True}
    assert meets_targets({}) == {"non_entailment": False, "entailment": False}
    # a heuristic with no entailed rows cannot show that side met
    assert not meets_targets({"a": good, "b": HeuristicRates(0, 0, 5, 5)})["entailment"]


def test_the_table_names_each_heuristic_its_shares_and_the_lowest_one() -> None:
    table = format_heuristics(by_heuristic(JUDGED))
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines() if line.strip()}
    assert rows["lexical_overlap"] == ["4", "75.0%", "2", "50.0%"]
    assert rows["subsequence"] == ["1", "100.0%", "0", "-"]
    assert rows["constituent"] == ["1", "0.0%", "1", "100.0%"]
    assert "FAIL  non-entailment judged right >= 70% in every heuristic: lowest 0.0% (constituent)" in table
    assert "FAIL  entailment judged right >= 90% in every heuristic: lowest 50.0% (lexical_overlap)" in table
    tied = format_heuristics({"a": HeuristicRates(1, 1, 1, 0), "b": HeuristicRates(1, 1, 1, 0)})
    assert "lowest 0.0% (a, b)" in tied and "PASS  entailment judged right >= 90% in every heuristic" in tied
