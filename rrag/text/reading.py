"""One reading of a text, shared by every reader: its words and tokens (with their lemmas, whether each
is written with a capital, whether a clause breaks before it), its content words and stems, its
numbers and values with their units and qualifiers, its months, its negations with what they reach,
and its names.

`read(text)` reads a text once and keeps the reading (rrag.text.caches): the rules, the judge's
features, the conflict detector and the relevance check ask it for the parts they need, and each part
is read on first use (most texts are asked for a few parts only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from rrag.lang.en.dates import MONTHS_IN_FULL, VERB_MONTHS, WEEKDAYS
from rrag.lang.en.function_words import STOPWORDS
from rrag.text import (
    Negation,
    Quantity,
    Span,
    content_words,
    denies,
    has_digit,
    months,
    negation_count,
    negations,
    plain_words,
    quantities,
    split_sentences,
    stem,
    values,
    word_spans,
    words,
)
from rrag.text.caches import per_text
from rrag.text.values import Value
from rrag.text.words import lemma

# Months and days are dates (read as values, and compared by the order rule), not names; "may" is a
# verb too.
CALENDAR_WORDS = frozenset(MONTHS_IN_FULL) - frozenset(VERB_MONTHS) | frozenset(WEEKDAYS)
_BREAK = re.compile(r"[,;:()\[\]{}\"!?]|\.\s")
_PLAIN_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Token:
    word: str  # lower case, apostrophes removed ("don't" -> "dont")
    lemma: str  # `rrag.text.words.lemma(word)`
    start: int
    end: int
    capital: bool  # written with a capital letter, or letters and digits: part of a name ("HX12")
    after_break: bool  # punctuation between it and the word before it: another clause or list item


Tokens = tuple[Token, ...]


class Reading:
    """A text, read once; each part is read on first use."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Lower-case word tokens (`rrag.text.words.words`)."""
        return words(self.text)

    @cached_property
    def spans(self) -> list[Span]:
        """The words with their offsets, as written."""
        return word_spans(self.text)

    @cached_property
    def tokens(self) -> Tokens:
        """Each word with its lemma, whether it is part of a name, and whether a clause breaks before it."""
        out: list[Token] = []
        for w in self.spans:
            low = w.text.lower().replace("'", "").replace("\u2019", "")
            code = w.text[0].isalpha() and has_digit(low)  # "HX12", not "1980s"
            camel = w.text[0].islower() and any(ch.isupper() for ch in w.text[1:])  # "iPhone", "eBay"
            capital = (w.text[0].isupper() or code or camel) and low not in CALENDAR_WORDS
            after_break = bool(out) and bool(_BREAK.search(self.text, out[-1].end, w.start))
            out.append(Token(low, lemma(low), w.start, w.end, capital, after_break))
        return tuple(out)

    @cached_property
    def content_words(self) -> tuple[str, ...]:
        """Stemmed words that carry meaning (`rrag.text.words.content_words`)."""
        return content_words(self.text)

    @cached_property
    def stems(self) -> frozenset[str]:
        """Every word stemmed."""
        return frozenset(stem(w) for w in self.words)

    @cached_property
    def quantities(self) -> tuple[Quantity, ...]:
        return quantities(self.text)

    @cached_property
    def numbers(self) -> frozenset[float]:
        """The values of its quantities, rounded to six places."""
        return frozenset(round(q.value, 6) for q in self.quantities)

    @cached_property
    def values(self) -> tuple[Value, ...]:
        return values(self.text)

    @cached_property
    def months(self) -> frozenset[int]:
        return frozenset(months(self.text))

    @cached_property
    def negations(self) -> tuple[Negation, ...]:
        """Each negator with the terms it reaches ("not cover" -> cover)."""
        return negations(self.text)

    @cached_property
    def negation_count(self) -> int:
        return negation_count(self.text)

    @cached_property
    def denies(self) -> bool:
        """A negator or negative word anywhere."""
        return denies(self.text)

    @cached_property
    def plain(self) -> frozenset[str]:
        """The stemmed content words that occur outside any negation."""
        return plain_words(self.text)

    @cached_property
    def names(self) -> tuple[tuple[int, int], ...]:
        """Runs of capitalised words or codes, numbers after them ("Orbit 7", "United States", "U.S."):
        (first token, after the last). A sentence's first word is a name only with another after it or
        as a code (without a tagger, "Lyon is ..." cannot be told from "Keep ...")."""
        tokens = self.tokens
        runs, i = [], 0
        while i < len(tokens):
            if not (tokens[i].capital and tokens[i].word not in STOPWORDS):
                i += 1
                continue
            j = i + 1
            while (
                j < len(tokens)
                and not tokens[j].after_break
                and (tokens[j].capital or tokens[j].word.isdigit())
            ):
                j += 1
            if i > 0 or j - i > 1 or has_digit(tokens[i].word):
                runs.append((i, j))
            i = j
        return tuple(runs)

    @cached_property
    def named(self) -> tuple[tuple[int, int, str], ...]:
        """Each of `names` as (start, end, the name as written)."""
        spans = [(self.tokens[a].start, self.tokens[b - 1].end) for a, b in self.names]
        return tuple((start, end, self.text[start:end]) for start, end in spans)

    @cached_property
    def capitalised(self) -> frozenset[str]:
        """Capitalised words not at a sentence start, lower-cased: a cheap stand-in for named entities
        (the judge's features; `names` are the rules')."""
        found: set[str] = set()
        for sentence in split_sentences(self.text):
            tokens = _PLAIN_WORD.findall(sentence.text)
            found.update(t.lower() for t in tokens[1:] if t[:1].isupper() and t.lower() not in STOPWORDS)
        return frozenset(found)


@per_text(maxsize=8192)  # the same retrieved sentences are read for claim after claim
def read(text: str) -> Reading:
    """`text`'s reading, kept."""
    return Reading(text)
