"""What every detector of rrag.verify.contrasts shares: the kinds of contrast and the `Contrast` each
finds, a sentence read as tokens (stems that read irregular past forms as their verb), and what each
asks of a claim against an evidence sentence (that it is otherwise the same statement)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rrag.lang.en.dates import MONTHS_IN_FULL, VERB_MONTHS, WEEKDAYS
from rrag.lang.en.lexicon import IRREGULAR_FORMS
from rrag.text import stem, word_spans
from rrag.text.words import NOT_CONTENT, has_digit

OPPOSITE, MODALITY, QUANTIFIER, ENTITY, ROLE = "opposite", "modality", "quantifier", "entity", "role"
ORDER = "order"  # another ordinal, month or weekday in the same slot
# Another thing of the same kind in the same slot ("with tea" / "with coffee"): no contradiction by
# construction, since WordNet's kinds hold near-synonyms too ("the firm" / "the company").
SWAP = "another thing"
SAME_STATEMENT = 0.75  # share of the claim's other words the evidence sentence must hold
MIN_OTHER_TERMS = 1  # a claim with nothing but the word it changes states nothing to compare


# Months and days are dates (values and `_order`), not names; not "may", a verb too.
_CALENDAR_WORDS = frozenset(MONTHS_IN_FULL) - frozenset(VERB_MONTHS) | frozenset(WEEKDAYS)


@dataclass(frozen=True)
class Contrast:
    """One detector's finding: its kind, and the words of each side that say it."""

    kind: str
    claim: str
    evidence: str


@dataclass(frozen=True)
class _Token:
    word: str  # lower case, apostrophes removed ("don't" -> "dont")
    stem: str
    start: int
    end: int
    capital: bool  # written with a capital letter, or letters and digits: part of a name ("HX12")
    after_break: bool  # punctuation between it and the word before it: another clause or list item


Tokens = tuple[_Token, ...]
_BREAK = re.compile(r"[,;:()\[\]{}\"!?]|\.\s")


@lru_cache(maxsize=4096)  # the same evidence sentences are read for claim after claim
def _tokens(text: str) -> Tokens:
    out: list[_Token] = []
    for w in word_spans(text):
        low = w.text.lower().replace("'", "").replace("\u2019", "")
        code = w.text[0].isalpha() and has_digit(low)  # "HX12", not "1980s"
        camel = w.text[0].islower() and any(ch.isupper() for ch in w.text[1:])  # "iPhone", "eBay"
        capital = (w.text[0].isupper() or code or camel) and low not in _CALENDAR_WORDS
        after_break = bool(out) and bool(_BREAK.search(text, out[-1].end, w.start))
        out.append(_Token(low, _stem(low), w.start, w.end, capital, after_break))
    return tuple(out)


def _stem(word: str) -> str:
    """`stem` twice: "bookings" and "booking" are both "book" (once, "booking" and "book"); an
    irregular form is its verb's."""
    return stem(stem(IRREGULAR_FORMS.get(word, word)))


def _content(tokens: Tokens) -> Tokens:
    return tuple(t for t in tokens if t.word not in NOT_CONTENT)


def _same_statement(claim: Tokens, evidence: Tokens, leave_out: frozenset[str]) -> bool:
    """Whether the evidence holds most of the claim's content words other than `leave_out`."""
    terms = {t.stem for t in _content(claim)} - leave_out
    held = terms & {t.stem for t in _content(evidence)}
    return len(terms) >= MIN_OTHER_TERMS and len(held) >= SAME_STATEMENT * len(terms)


def _neighbour(tokens: Tokens, at: int, step: int, past_adverbs: bool = False) -> str | None:
    """The stem of the nearest content word before (step -1) or after (step 1) token `at` in its
    clause; None at the clause's edge. With `past_adverbs`, an adverb in "-ly" is passed over
    ("taught entirely online" / "taught in person")."""
    i = at
    while 0 <= i + step < len(tokens):
        if (tokens[i + 1] if step > 0 else tokens[i]).after_break:
            return None
        i += step
        word = tokens[i].word
        if past_adverbs and len(word) > 4 and word.endswith("ly"):
            continue
        if word not in NOT_CONTENT:
            return tokens[i].stem
    return None


def _in_order(tokens: Tokens, leave_out: frozenset[str]) -> list[str]:
    return [t.stem for t in _content(tokens) if t.stem not in leave_out]


def _quote(text: str, tokens: Tokens, start: int, end: int) -> str:
    """The words of `text` from token `start` up to (not including) token `end`."""
    end = min(end, len(tokens))
    return text[tokens[start].start : tokens[end - 1].end] if start < end else ""
