"""The synthetic errors the judge is adapted on: each one must really change what the sentence says."""

import random

from training.synthetic import change_number, near_misses, negate, perturbations, swap_name


def test_a_changed_number_differs_and_years_stay_plausible():
    rng = random.Random(0)
    for _ in range(20):
        changed = change_number("The plant opened in 1998 with 40 workers.", rng)
        assert changed != "The plant opened in 1998 with 40 workers."
        year = int(changed.split(" in ")[1][:4])
        assert 1995 <= year <= 2001


def test_a_name_is_swapped_for_another_name_of_the_evidence():
    changed = swap_name(
        "The plan was approved by Maria Lopez.", "Maria Lopez and Tom Baker met.", random.Random(0)
    )
    assert changed == "The plan was approved by Tom Baker."
    assert swap_name("The plan was approved.", "Tom Baker met.", random.Random(0)) is None


def test_negation_goes_after_the_first_auxiliary_once():
    assert negate("Staff are entitled to 25 days.") == "Staff are not entitled to 25 days."
    assert negate("Staff are not entitled to it.") is None
    assert negate("Staff enjoy it.") is None


def test_perturbations_label_what_they_make():
    made = dict(
        perturbations(
            "Revenue was 40 million in 2020, said Ann Lee.", "Ann Lee and Bo Chan spoke.", random.Random(3)
        )
    )
    assert set(made.values()) == {"contradiction", "not_entailment"}
    assert all("Revenue" in text for text in made)


def test_near_misses_come_in_twins_that_differ_only_by_the_change():
    nli = [
        {
            "premise": "The plant opened in 1998 with 40 workers. It was run by Maria Lopez until 2004.",
            "hypothesis": "The plant had 40 workers.",
            "label": "entailment",
        },
        {
            "premise": "Tom Baker founded the firm in 2001 in Leeds.",
            "hypothesis": "The firm is in Leeds.",
            "label": "entailment",
        },
        {"premise": "A dog runs.", "hypothesis": "A cat sleeps.", "label": "contradiction"},
    ] * 5
    pairs = near_misses(nli, 100, random.Random(1))
    assert pairs and len(pairs) % 2 == 0
    for kept, changed in zip(pairs[::2], pairs[1::2]):
        assert kept["premise"] == changed["premise"]
        assert kept["label"] == "entailment" and changed["label"] in ("contradiction", "not_entailment")
        assert kept["hypothesis"] != changed["hypothesis"]
        assert "cat" not in kept["hypothesis"]  # only entailed rows are perturbed
    # Values and names are changed where the sentence has them, not "not" added.
    assert not any(" not " in p["hypothesis"] for p in pairs)
    # Two-sentence premises also give copies of one of their sentences.
    copies = {"The plant opened in 1998 with 40 workers.", "It was run by Maria Lopez until 2004."}
    assert any(p["hypothesis"] in copies for p in pairs)
