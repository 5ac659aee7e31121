"""What the rules read of WordNet 3.0 (WORDNET-LICENSE): its single-word antonyms (antonyms.tsv) and,
from related.json.gz, each word's synsets by part of speech, how often each was tagged as which part
of speech, and how the synsets relate (a synset's hypernyms and its other neighbours), loaded once,
on first use (0.2 s, 65 MB). Both files are written by training/wordnet.py."""

from __future__ import annotations

import gzip
import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

ANTONYM_PAIRS = [
    (a, b)
    for a, b in (
        line.split("\t") for line in Path(__file__).with_name("antonyms.tsv").read_text().splitlines()
    )
]
KIND_OF_STEPS = 1  # hypernym steps from a word up to a word it is a kind of ("beef" -> "meat")
# Words the exception lists do not give as another's form, but that are: "people" are persons
# ("people" / "children" would be two kinds of group).
_NOUN_FORMS = {"people": ["person"]}
# Suffixes of inflected forms and what they stand for, by part of speech (WordNet's "morphy").
_SUFFIXES = {
    "noun": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
             ("men", "man"), ("ies", "y")],
    "verb": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
             ("ing", "")],
    "adj": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "adv": [],
}  # fmt: skip
_NOUN_SHARE = 0.5  # a word is a noun where it was tagged a noun at least half as often as otherwise


class WordNet:
    """WordNet's lemmas, their synsets (numbered, nouns first), how the synsets relate, and how
    often each lemma was tagged as each part of speech."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.nouns: int = data["nouns"]
        self.lemmas: dict[str, list[int]] = data["lemmas"]
        self.hypernyms: list[list[int]] = data["hypernyms"]
        self.neighbours: list[list[int]] = data["neighbours"]
        self.tagged: dict[str, list[int]] = data["tagged"]
        self.forms: dict[str, dict[str, list[str]]] = data["forms"]
        self.forms["noun"] |= _NOUN_FORMS

    def bases(self, word: str, pos: str) -> set[str]:
        """The lemmas `word` may be a form of as part of speech `pos`."""
        bases = {word, *self.forms[pos].get(word, ())}
        for suffix, base in _SUFFIXES[pos]:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                bases.add(word[: len(word) - len(suffix)] + base)
                if suffix in ("ed", "ing") and word[-len(suffix) - 1] == word[-len(suffix) - 2]:
                    bases.add(word[: -len(suffix) - 1])  # "stopped", "stopping"
        return {b for b in bases if b in self.lemmas}

    def synsets(self, word: str) -> frozenset[int]:
        """The synsets of every lemma `word` may be a form of."""
        return frozenset(s for pos in _SUFFIXES for b in self.bases(word, pos) for s in self.lemmas[b])

    def noun(self, word: str) -> bool:
        """Whether `word` is mostly a noun: a form of a noun lemma, tagged a noun at least _NOUN_SHARE
        as often as any other part of speech a lemma of it was ("shares", not "stands"; "seen" is
        no noun's form); untagged, with no other part of speech."""
        noun = self.bases(word, "noun")
        if not any(s < self.nouns for b in noun for s in self.lemmas[b]):
            return False
        tags = [
            max((self.tagged.get(b, [0] * 4)[i] for b in self.bases(word, pos)), default=0)
            for i, pos in enumerate(_SUFFIXES)
        ]
        if not any(tags):
            return all(s < self.nouns for s in self.synsets(word))
        return tags[0] >= _NOUN_SHARE * max(tags[1:])

    def steps_up(self, synsets: frozenset[int]) -> dict[int, int]:
        """Each synset above (or among) `synsets`, and the fewest hypernym steps to it."""
        steps = dict.fromkeys(synsets, 0)
        frontier, step = list(synsets), 0
        while frontier:
            step += 1
            frontier = [h for s in frontier for h in self.hypernyms[s] if h not in steps]
            steps.update(dict.fromkeys(frontier, step))
        return steps


@cache
def wordnet() -> WordNet:
    with gzip.open(Path(__file__).with_name("related.json.gz")) as data:
        return WordNet(json.load(data))


@lru_cache(maxsize=4096)
def kind_of(word: str, other: str) -> bool:
    """Whether `word` says `other` or a kind of it, as another word: a synonym in some sense ("loans" /
    "lend"), or a hyponym within KIND_OF_STEPS ("welcomes" / "accept", "beef" / "meat"); not a form of
    the same word ("told" / "tell")."""
    if any(wordnet().bases(word, pos) & wordnet().bases(other, pos) for pos in _SUFFIXES):
        return False
    ours, theirs = wordnet().synsets(word), wordnet().synsets(other)
    if ours & theirs:
        return True
    up = wordnet().steps_up(ours)
    return any(up.get(s, KIND_OF_STEPS + 1) <= KIND_OF_STEPS for s in theirs)


_PEOPLE = ("person", "organization")  # what a word of people is a kind of: "treasurer", "committee"


@lru_cache(maxsize=4096)
def of_people(word: str) -> bool:
    """Whether `word` is mostly a noun and one of its senses is a kind of person or of organisation
    ("treasurer", "residents", "committee", "staff"), however many hypernym steps up."""
    net = wordnet()
    if not net.noun(word):
        return False
    senses = frozenset(s for s in net.synsets(word) if s < net.nouns)
    people = {s for lemma in _PEOPLE for s in net.synsets(lemma) if s < net.nouns}
    return not people.isdisjoint(net.steps_up(senses))
