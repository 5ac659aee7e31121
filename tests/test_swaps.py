# ruff: noqa: E501  (tables of sentence pairs: one pair reads best on one line)
"""Another thing in the evidence's slot (issue 23): "The plant needs full shade" where the document
says "full sun". WordNet tells such a swap from the same thing in other words; it holds
near-synonyms apart too ("firm" / "company"), so the rules read the swap as leaving a claim
unsupported, and never contradict it on its own.

Whether a swap overrules the model's yes is measured (issue 43 item 3, precision.json): too few fires
on text the team did not write to be trusted, so today it is a sign the judge's combiner reads, and a
model that accepts every claim keeps its yes.
"""

from __future__ import annotations

import pytest

from rrag.lang.en.wordnet import kind_of
from rrag.types import ClaimStatus
from rrag.verify.rules import HARD_EVIDENCE, RULES
from rrag.verify.rules.contrasts import SWAP, contrast
from rrag.verify.rules.contrasts.swaps import another_thing
from tests.fake_judges import Rejects
from tests.test_contrasts import guarded, read

# (evidence, claim, the evidence's thing, the claim's)
SWAPS = [
    ("The plant needs full sun.", "The plant needs full shade.", "sun", "shade"),
    (
        "The film won the award for best director.",
        "The film won the award for best actor.",
        "director",
        "actor",
    ),
    (
        "The fund invests mainly in European shares.",
        "The fund invests mainly in European bonds.",
        "shares",
        "bonds",
    ),
    (
        "The landlord is responsible for repairs.",
        "The tenant is responsible for repairs.",
        "landlord",
        "tenant",
    ),
    ("Breakfast is served with coffee.", "Breakfast is served with tea.", "coffee", "tea"),
    # a word WordNet does not know, in the slot of another
    (
        "The active ingredient in Norvalex is cetirizine.",
        "The active ingredient in Norvalex is paracetamol.",
        "cetirizine",
        "paracetamol",
    ),
    # the same words after, and the same preposition before, in a sentence said the other way round
    ("Serve the lamb stew with rice.", "The lamb stew is served with potatoes.", "rice", "potatoes"),
]

# The same thing in other words, or another word for a part or a kind of it: nothing against them.
CONTROLS = [
    ("The shop opens at 9 am.", "The store opens at 9 am."),  # synonyms
    ("Children under 12 must be accompanied.", "Kids under 12 must be accompanied."),
    ("Park the car in the garage.", "Park the vehicle in the garage."),  # a more general word
    ("A late fee applies.", "A late charge applies."),
    ("The hotel's visitors may use the pool.", "The hotel's guests may use the pool."),  # a kind of the other
    ("The museum displays paintings.", "The museum displays paintings and sculptures."),  # more words
    ("The leak was found in the kitchen.", "The leak was found in the kitchen sink."),
    ("The plant stands in full sun.", "The plant grows in full sun."),  # verbs, not things
    ("I would enjoy a walk in the woodland.", "I would love a walk in the woodland."),
    (
        "genre: Superhero introduction: Batman Begins is a 2005 film.",
        "It is a superhero movie.",
    ),  # a field name
    (
        "The pig has 19 chromosome pairs, which vary in length.",
        "The pig has 19 chromosome cells.",
    ),  # a clause goes on
    (
        "The cavity makes the ground collapse.",
        "The cavity makes the overground collapse.",
    ),  # a part of the other word
    ("The tablets contain lactose.", "The tabelts contain lactose."),  # the other misspelt
    (
        "Breakfast is served with coffee and tea.",
        "Breakfast is served with tea.",
    ),  # the evidence names it too
]


def rule_kind(evidence: str, claim: str, *more: str) -> str | None:
    return read(evidence, claim, *more)[1]


@pytest.mark.parametrize(("evidence", "claim", "theirs", "ours"), SWAPS)
def test_the_rules_read_another_thing_in_the_slot_as_unsupported(
    evidence: str, claim: str, theirs: str, ours: str
) -> None:
    verdict, kind = read(evidence, claim)
    assert kind == SWAP and verdict.status is ClaimStatus.UNSUPPORTED
    assert verdict.verifier == "lexical"
    assert f"the evidence says {theirs!r} where the claim says {ours!r}" == verdict.reason
    assert verdict.evidence is not None and theirs in verdict.evidence.quote


def test_a_swap_not_measured_precise_leaves_a_sure_yes_to_the_model() -> None:
    assert not RULES.policy(SWAP).hard and SWAP not in HARD_EVIDENCE and not RULES.trusted(SWAP)
    for evidence, claim, *_ in SWAPS:
        assert guarded(evidence, claim).verifier == "sure-yes", claim


@pytest.mark.parametrize(("evidence", "claim"), CONTROLS)
def test_the_same_thing_in_other_words_is_no_swap(evidence: str, claim: str) -> None:
    assert contrast(claim, evidence) is None
    assert rule_kind(evidence, claim) != SWAP


def test_a_thing_another_retrieved_text_names_is_no_swap() -> None:
    evidence, claim = "Breakfast is served with coffee.", "Breakfast is served with tea."
    verdict, kind = read(evidence, claim, "Tea is served all day in the lounge.")
    assert kind is None, verdict.reason  # nothing against it
    assert verdict.status not in (ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED), verdict.reason


HEAD_OFFICE = "The company was founded in Leeds in 1987. Its head office moved to Manchester in 2015."


def test_a_name_of_the_passage_said_of_something_else_in_the_evidence_sentence_is_a_swap() -> None:
    verdict, kind = read(HEAD_OFFICE, "The head office moved to Leeds in 2015.")
    assert kind == SWAP and verdict.status is ClaimStatus.UNSUPPORTED
    assert verdict.reason == "the evidence says 'Manchester' where the claim says 'Leeds'"


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (HEAD_OFFICE, "The company was founded in Leeds."),
        # named in the same slot by another sentence of the window
        (
            "The company has offices in Manchester. It opened another office in Leeds in 2019.",
            "The company has offices in Leeds.",
        ),
        # a negation turns the swap round: not living in Europe is not living in Spain
        ("Spain is in Europe. Dominique does not live in Europe.", "Dominique does not live in Spain."),
    ],
)
def test_a_name_said_in_the_same_slot_or_under_a_negation_is_no_swap(evidence: str, claim: str) -> None:
    assert rule_kind(evidence, claim) != SWAP


def test_a_contradiction_in_any_sentence_comes_before_a_swap() -> None:
    evidence = "The plant needs full sun. The plant is watered weekly."
    claim = "The plant is watered daily."  # "daily" / "weekly": opposite words, a contradiction
    verdict, kind = read(evidence, claim)
    assert kind is not None and RULES.policy(kind).hard and verdict.status is ClaimStatus.CONTRADICTED
    assert "'weekly' where the claim says 'daily'" in verdict.reason
    # ... and it explains a model's no, which the swap (unsupported) would not
    assert guarded(evidence, claim, model=Rejects()).status is ClaimStatus.CONTRADICTED


@pytest.mark.parametrize(
    ("word", "other", "expected"),
    [
        ("tea", "coffee", True),  # two drinks
        ("nurses", "doctors", True),
        ("shop", "store", False),  # synonyms
        ("physician", "doctor", False),
        ("vehicle", "car", False),  # the other's kind
        ("people", "children", False),  # "people" are persons, and children are persons
        ("stands", "benches", False),  # tagged a verb far more often than a noun
        ("seen", "point", False),  # no noun's form
        ("shade", "sun", True),
    ],
)
def test_wordnet_tells_another_thing_from_a_relative(word: str, other: str, expected: bool) -> None:
    assert another_thing(word, other) is expected


@pytest.mark.parametrize(
    ("word", "other", "expected"),
    [
        ("welcomes", "accept", True),  # a kind of accepting
        ("beef", "meat", True),
        ("loans", "lend", True),  # synonyms in one sense
        ("meat", "beef", False),  # the more general word is no kind of the other
        ("accepts", "welcome", False),
    ],
)
def test_wordnet_tells_a_kind_of_a_word(word: str, other: str, expected: bool) -> None:
    assert kind_of(word, other) is expected
