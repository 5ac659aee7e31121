"""The judge's hard pairs: each edit changes what the sentence says the way its label claims, read off
the parse (training/hard_pairs.py). The sentences here are the test's own, not from any test set."""

import random
import re

import pytest

from rrag.text import split_sentences
from training import hard_pairs as hp


@pytest.fixture(scope="module")
def parse():
    return hp.nlp()


def test_roles_are_exchanged_between_subject_and_indirect_object(parse):
    doc = parse("The tenant pays the landlord a deposit.")
    assert hp.swap_roles(doc) == "The landlord pays the tenant a deposit."


def test_the_verb_agrees_with_its_new_subject(parse):
    assert hp.swap_roles(parse("The dogs chase the cat.")) == "The cat chases the dogs."


def test_acts_with_two_equal_sides_are_not_swapped(parse):
    assert hp.swap_roles(parse("Anna married Tom in Lisbon.")) is None


def test_passive_keeps_the_fact_and_its_swapped_twin_does_not(parse):
    doc = parse("The board approved the plan in May.")
    assert hp.passive(doc) == "The plan was approved by the board in May."
    assert hp.swapped_passive(doc) == "The board was approved by the plan in May."


def test_negation_goes_on_the_main_verb(parse):
    assert hp.negate(parse("The council approved the budget.")) == "The council did not approve the budget."
    assert hp.negate(parse("The museum is open on Mondays.")) == "The museum is not open on Mondays."
    assert hp.negate(parse("The museum is not open on Mondays.")) is None


def test_a_unit_is_converted_to_the_same_amount_or_a_wrong_one(parse):
    seconds = {"hours": 3600, "minutes": 60, "seconds": 1}
    doc = parse("The trip lasted 2 hours.")
    for seed in range(5):
        right = hp.convert_unit(doc, random.Random(seed), rightly=True)
        wrong = hp.convert_unit(doc, random.Random(seed), rightly=False)
        amount, unit = re.search(r"([\d,.]+) (\w+)", right).groups()
        assert float(amount.replace(",", "")) * seconds[unit] == 7200
        amount, unit = re.search(r"([\d,.]+) (\w+)", wrong).groups()
        assert float(amount.replace(",", "")) * seconds[unit] != 7200


def test_a_number_in_words_says_the_same_number(parse):
    said = hp.number_in_words(parse("The parcel weighs 6.5 kg."), random.Random(0))
    assert said == "The parcel weighs six and a half kg."


def test_a_changed_value_differs(parse):
    doc = parse("The library closes at 8 on Fridays in March.")
    for seed in range(10):
        changed = hp.change_value(doc, random.Random(seed))
        assert changed and changed != doc.text


def test_frames_state_or_withhold_the_sentence(parse):
    sentence = parse("The ferry leaves at noon.")
    rng = random.Random(0)
    for frames in (hp.UNASSERTED, hp.ASSERTED, hp.FALSIFIED):
        framed = hp.frame(sentence, "the sea is calm", frames, rng)
        assert "the ferry leaves at noon" in framed
        assert framed.endswith(".") and framed[0].isupper()


def test_each_edit_of_an_entailment_pair_has_its_kinds_label(parse):
    premise = parse("In 2019, the city council approved a budget of 3 million euros for the old harbour.")
    hypothesis = parse("The city council approved the budget in 2019.")
    made = list(hp.edits(premise, hypothesis, "the mayor resigned", random.Random(0)))
    kinds = {kind for kind, _, _ in made}
    assert {"roles", "passive", "value", "negation", "asserted", "condition_only"} <= kinds
    for kind, p, h in made:
        assert kind in hp.KINDS
        assert (p, h) != (premise.text, hypothesis.text)


def test_build_pairs_each_edit_with_its_unedited_twin():
    pairs = hp.build(60, seed=1)
    assert len(pairs) >= 50
    assert pairs[0]["kind"] == "twin" and pairs[0]["label"] == "entailment"
    for pair in pairs:
        assert pair["label"] == ("entailment" if pair["kind"] == "twin" else hp.KINDS[pair["kind"]])


def test_roles_of_a_progressive_clause_are_exchanged_with_its_auxiliary_agreeing(parse):
    assert (
        hp.swap_roles(parse("Two dogs are chasing a cat in the park."))
        == "A cat is chasing two dogs in the park."
    )


def test_structure_pairs_edit_a_premise_sentence_both_ways():
    pairs = hp.structure_pairs(40, seed=1)
    assert len(pairs) >= 30
    labels = {pair["kind"]: pair["label"] for pair in pairs}
    assert {"entailment", "not_entailment"} == set(labels.values())
    for pair in pairs:
        assert pair["label"] == hp.STRUCTURE[pair["kind"]]
        # an edit, never a copy of a sentence of the evidence (a part of one, as "the club resigned" of
        # "the president of the club resigned", is what some edits are)
        assert pair["hypothesis"] not in {s.text for s in split_sentences(pair["premise"])}
