"""Another thing in the same slot: a common noun the claim puts where the evidence sentence has
another of the same kind ("The plant needs full shade" / "full sun", "The fund invests in European
bonds" / "in European shares", "The active ingredient is paracetamol" / "is cetirizine").

Without a tagger or a model of meaning, WordNet 3.0 tells such a swap from a paraphrase
(rrag/lang/en/wordnet.py): the two words are nouns of one kind, a few steps
below the same more general thing, and neither is a synonym, a more general word, a part or another
relative of the other ("the hotel's guests" for its "visitors", "the fee" for "the charge"). A word
WordNet does not know (a drug, a product) in the slot of another counts as another thing, unless it
may be the other misspelt.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rrag.lang.en.function_words import BEFORE_A_VERB, NOUN_DETERMINERS, PREPOSITIONS
from rrag.lang.en.lexicon import GENERAL
from rrag.lang.en.wordnet import wordnet
from rrag.text.quantities import is_measured
from rrag.text.reading import Tokens, read
from rrag.text.words import NOT_CONTENT
from rrag.verify.rules.base import ALWAYS, Contrast, Pair, sentence_rule
from rrag.verify.rules.contrasts.base import SWAP, content_tokens, neighbour, unpack

# Steps up to the nearest more general thing both words are kinds of. Of the one-word swaps of two
# nouns in the training pairs that no relation of WordNet explains, those within 4 steps are 0.7 %
# entailments (28 of 3,868); "sun" / "shade" and "director" / "actor" are 4 steps apart.
KIND_STEPS = 4
_MIN_LETTERS = 3


@lru_cache(maxsize=4096)
def another_thing(word: str, other: str) -> bool:
    """Whether `word` names another thing than `other` of the same kind: two nouns that WordNet
    relates only through a more general thing within KIND_STEPS steps of each; or a word it does
    not know where the other is a noun or unknown too, neither part of the other nor the other
    misspelt."""
    words = wordnet()
    ours, theirs = words.synsets(word), words.synsets(other)
    if not ours:
        return (
            len(word) > 4
            and (not theirs or words.noun(other))
            and word not in other
            and other not in word
            and not _misspelt(word, other)
        )
    if not (theirs and words.noun(word) and words.noun(other)):
        return False
    if ours & theirs:
        return False  # synonyms
    if any(n in theirs for s in ours for n in words.neighbours[s]) or any(
        n in ours for s in theirs for n in words.neighbours[s]
    ):
        return False  # a part, a member, a word derived from the other, a similar one
    up, their_up = words.steps_up(ours), words.steps_up(theirs)
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


# Another thing in the evidence's slot: unsupported, not contradicted, since WordNet's kinds hold
# near-synonyms too. It always overrules the model's yes: the judge supports "with tea" against "with
# coffee" (docs/verifier.md).
@sentence_rule(SWAP, 700, overrules_below=ALWAYS)
def swap(pair: Pair) -> Contrast | None:
    """A word of the claim no retrieved text states, between the same words as another thing of
    the evidence sentence, every other content word of the claim the evidence's own."""
    claim, c, evidence, e = unpack(pair)
    retrieved = pair.retrieved
    e_stems = {t.lemma for t in e}
    c_stems = {t.lemma for t in content_tokens(c)}
    c_units, e_units = _units(claim), _units(evidence)
    for i, t in enumerate(c):
        if not _a_thing(claim, c, i) or t.lemma in e_stems or t.lemma in retrieved or t.start in c_units:
            continue
        if not c_stems - {t.lemma} <= e_stems or len(c_stems) < 2:
            continue
        sides, preposition = _sides(c, i), _preposition_before(c, i)
        if sides == (_EDGE, _EDGE):
            continue
        for j, u in enumerate(e):
            if (
                _a_thing(evidence, e, j)
                and u.start not in e_units
                and u.lemma not in c_stems
                and _same_slot(sides, preposition, _sides(e, j), _preposition_before(e, j))
                and another_thing(t.word, u.word)
            ):
                return Contrast(SWAP, claim[t.start : t.end], evidence[u.start : u.end])
    return None


def _units(text: str) -> set[int]:
    """Where the words of a measured amount's unit start ("5 euros", not the "stores" a count counts):
    a value's, compared as one."""
    return {
        m.start()
        for q in read(text).quantities
        if is_measured(q)
        for m in _WORD.finditer(text, q.end, max(q.end, q.unit_end))
    }


_WORD = re.compile(r"\w+")
_EDGE, _BREAK = "", " "  # no content word before (after) a word in its sentence, or in its clause only


def _same_slot(ours: tuple[str, str], before: str, theirs: tuple[str, str], their_before: str) -> bool:
    """The same content words on both sides; or the same words after, and the same preposition
    before: "Serve the stew with rice." / "The stew is served with noodles."."""
    return ours == theirs or (ours[1] == theirs[1] and before == their_before != "")


def _preposition_before(tokens: Tokens, at: int) -> str:
    """The preposition of the noun phrase of token `at` ("with rice", "in the garage"), if any."""
    i = at - 1
    while i >= 0 and tokens[i].word in NOUN_DETERMINERS and not tokens[i + 1].after_break:
        i -= 1
    found = i >= 0 and not tokens[i + 1].after_break and tokens[i].word in PREPOSITIONS
    return tokens[i].word if found else ""


def _sides(tokens: Tokens, at: int) -> tuple[str, str]:
    """The content words next to token `at` in its clause; at a clause's edge, whether the sentence
    ends there too (a word before a comma is not one at the end: "19 chromosome pairs, which ...")."""

    def side(step: int) -> str:
        found = neighbour(tokens, at, step)
        if found is not None:
            return found
        rest = tokens[at + 1 :] if step > 0 else tokens[:at]
        return _BREAK if any(t.word not in NOT_CONTENT for t in rest) else _EDGE

    return side(-1), side(1)


def _a_thing(text: str, tokens: Tokens, at: int) -> bool:
    """Whether token `at` may name a thing: a word of letters, not a name nor a general word, no word
    before a verb just before it, no field name ("genre: ...")."""
    t = tokens[at]
    return (
        len(t.word) >= _MIN_LETTERS
        and t.word not in GENERAL
        and t.word.isalpha()
        and t.word not in NOT_CONTENT
        and not t.capital
        and not (at > 0 and tokens[at - 1].word in BEFORE_A_VERB)
        and not text[t.end :].lstrip().startswith(":")
    )
