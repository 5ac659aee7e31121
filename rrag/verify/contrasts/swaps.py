"""Another thing in the same slot: a common noun the claim puts where the evidence sentence has
another of the same kind ("The plant needs full shade" / "full sun", "The fund invests in European
bonds" / "in European shares", "The active ingredient is paracetamol" / "is cetirizine").

Without a tagger or a model of meaning, WordNet 3.0 tells such a swap from a paraphrase
(related.json.gz, written by training/wordnet.py): the two words are nouns of one kind, a few steps
below the same more general thing, and neither is a synonym, a more general word, a part or another
relative of the other ("the hotel's guests" for its "visitors", "the fee" for "the charge"). A word
WordNet does not know (a drug, a product) in the slot of another counts as another thing, unless it
may be the other misspelt.
"""

from __future__ import annotations

import gzip
import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from rrag.text.words import NOT_CONTENT
from rrag.verify.contrasts.base import SWAP, Contrast, Tokens, _content, _neighbour

# Steps up to the nearest more general thing both words are kinds of. Of the one-word swaps of two
# nouns in the training pairs that no relation of WordNet explains, those within 4 steps are 0.7 %
# entailments (28 of 3,868); "sun" / "shade" and "director" / "actor" are 4 steps apart.
KIND_STEPS = 4
_MIN_LETTERS = 3
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


class _WordNet:
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
def _wordnet() -> _WordNet:
    with gzip.open(Path(__file__).with_name("related.json.gz")) as data:
        return _WordNet(json.load(data))


@lru_cache(maxsize=4096)
def another_thing(word: str, other: str) -> bool:
    """Whether `word` names another thing than `other` of the same kind: two nouns that WordNet
    relates only through a more general thing within KIND_STEPS steps of each; or a word it does
    not know where the other is a noun or unknown too, neither part of the other nor the other
    misspelt."""
    wordnet = _wordnet()
    ours, theirs = wordnet.synsets(word), wordnet.synsets(other)
    if not ours:
        return (
            len(word) > 4
            and (not theirs or wordnet.noun(other))
            and word not in other
            and other not in word
            and not _misspelt(word, other)
        )
    if not (theirs and wordnet.noun(word) and wordnet.noun(other)):
        return False
    if ours & theirs:
        return False  # synonyms
    if any(n in theirs for s in ours for n in wordnet.neighbours[s]) or any(
        n in ours for s in theirs for n in wordnet.neighbours[s]
    ):
        return False  # a part, a member, a word derived from the other, a similar one
    up, their_up = wordnet.steps_up(ours), wordnet.steps_up(theirs)
    if up.keys() & theirs or their_up.keys() & ours:
        return False  # one is a kind of the other
    common = up.keys() & their_up.keys()
    return min((max(up[s], their_up[s]) for s in common), default=KIND_STEPS + 1) <= KIND_STEPS


def _misspelt(word: str, other: str) -> bool:
    """Whether one word may be the other misspelt: the same first three letters and length within
    two, or one letter apart."""
    if word[:3] == other[:3] and abs(len(word) - len(other)) <= 2:
        return True
    return len(word) == len(other) and sum(a != b for a, b in zip(word, other)) <= 1


def _swap(claim: str, c: Tokens, evidence: str, e: Tokens, retrieved: frozenset[str]) -> Contrast | None:
    """A word of the claim no retrieved text states, between the same words as another thing of
    the evidence sentence, every other content word of the claim the evidence's own."""
    e_stems = {t.stem for t in e}
    c_stems = {t.stem for t in _content(c)}
    for i, t in enumerate(c):
        if not _a_thing(claim, c, i) or t.stem in e_stems or t.stem in retrieved:
            continue
        if not c_stems - {t.stem} <= e_stems or len(c_stems) < 2:
            continue
        sides, after = _sides(c, i), _preposition_before(c, i)
        if sides == (_EDGE, _EDGE):
            continue
        for j, u in enumerate(e):
            if (
                _a_thing(evidence, e, j)
                and u.stem not in c_stems
                and _same_slot(sides, after, _sides(e, j), _preposition_before(e, j))
                and another_thing(t.word, u.word)
            ):
                return Contrast(SWAP, claim[t.start : t.end], evidence[u.start : u.end])
    return None


_EDGE, _BREAK = "", " "  # no content word before (after) a word in its sentence, or in its clause only
# Words before a verb, not a thing: "would love to", "I love".
_BEFORE_A_VERB = frozenset(
    "to would will can could may might must shall should i we you they dont doesnt didnt".split()
)


def _same_slot(ours: tuple[str, str], before: str, theirs: tuple[str, str], their_before: str) -> bool:
    """The same content words on both sides; or the same words after, and the same preposition
    before: "Serve the stew with rice." / "The stew is served with noodles."."""
    return ours == theirs or (ours[1] == theirs[1] and before == their_before != "")


_PREPOSITIONS = frozenset("with on in at for by to from as of into onto via without".split())
_DETERMINERS = frozenset("the a an his her its their our your my this that these those".split())


def _preposition_before(tokens: Tokens, at: int) -> str:
    """The preposition of the noun phrase of token `at` ("with rice", "in the garage"), if any."""
    i = at - 1
    while i >= 0 and tokens[i].word in _DETERMINERS and not tokens[i + 1].after_break:
        i -= 1
    found = i >= 0 and not tokens[i + 1].after_break and tokens[i].word in _PREPOSITIONS
    return tokens[i].word if found else ""


def _sides(tokens: Tokens, at: int) -> tuple[str, str]:
    """The content words next to token `at` in its clause; at a clause's edge, whether the sentence
    ends there too (a word before a comma is not one at the end: "19 chromosome pairs, which ...")."""

    def side(step: int) -> str:
        found = _neighbour(tokens, at, step)
        if found is not None:
            return found
        rest = tokens[at + 1 :] if step > 0 else tokens[:at]
        return _BREAK if any(t.word not in NOT_CONTENT for t in rest) else _EDGE

    return side(-1), side(1)


# Words of things so general that another thing is a kind of them, whatever WordNet's senses.
_GENERAL = frozenset(
    "thing things something stuff item items object objects people person persons human humans "
    "individual individuals someone place places area areas".split()
)


def _a_thing(text: str, tokens: Tokens, at: int) -> bool:
    """Whether token `at` may name a thing: a word of letters, not a name nor a general word, no word
    before a verb just before it, no field name ("genre: ...")."""
    t = tokens[at]
    return (
        len(t.word) >= _MIN_LETTERS
        and t.word not in _GENERAL
        and t.word.isalpha()
        and t.word not in NOT_CONTENT
        and not t.capital
        and not (at > 0 and tokens[at - 1].word in _BEFORE_A_VERB)
        and not text[t.end :].lstrip().startswith(":")
    )
