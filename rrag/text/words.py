"""Words: the one word tokenizer, stopwords, stems, content words and negators."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from rrag.text.normalise import normalize


class Span(NamedTuple):
    """A piece of a text; `text == source[start:end]`."""

    text: str
    start: int
    end: int


STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto over under about
    as than that this these those there here it its it's is are was were be been being am do does did
    doing have has had having i me my we our you your he him his she her they them their what which
    who whom whose when where why how many much all any both each every few more most other some such only
    own same so too very s t can will just should would could may might must shall also per via up out off
    again further once whether while during before after above below between through until against
    according based says said states stated document documents text""".split()
)
NEGATORS = frozenset(
    """not no never none nobody nothing neither nor nowhere cannot without cant dont doesnt didnt
    isnt arent wasnt werent wont wouldnt shouldnt couldnt hasnt havent hadnt mustnt neednt""".split()
)
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


@lru_cache(maxsize=4096)  # the verifiers read the same sentences and windows several times
def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens; contractions keep their apostrophe removed ("don't" -> "dont")."""
    return tuple(w.replace("'", "") for w in _WORD.findall(normalize(text)))


@lru_cache(maxsize=65536)  # a corpus has far fewer distinct words than word occurrences
def stem(word: str) -> str:
    """A light suffix stripper: enough to match "days"/"day", "required"/"requires"."""
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl, min_len in (
        ("ies", "y", 5),
        ("sses", "ss", 5),
        ("ing", "", 6),
        ("ed", "", 5),
        ("es", "", 5),
        ("s", "", 4),
    ):
        if word.endswith(suffix) and len(word) >= min_len and not (suffix == "s" and word.endswith("ss")):
            word = word[: len(word) - len(suffix)] + repl
            break
    while word.endswith("e") and len(word) > 4:  # "employee", "employees" -> "employ"
        word = word[:-1]
    return word


@lru_cache(maxsize=4096)
def content_words(text: str) -> tuple[str, ...]:
    """Stemmed words that carry meaning: no stopwords, no negators (negation is checked apart)."""
    return tuple(stem(w) for w in words(text) if w not in STOPWORDS and w not in NEGATORS)


def negation_count(text: str) -> int:
    """How many negation cues `text` has; contractions count ("don't" is "dont" after `words`)."""
    return sum(1 for w in words(text) if w in NEGATORS)


# ---------------------------------------------------------------------------------------------
# Numbers and dates


def word_spans(text: str) -> list[Span]:
    """The word tokens of `words(text)`, in the original text with offsets."""
    return [Span(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
