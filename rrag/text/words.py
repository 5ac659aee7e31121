"""Words: the one word tokenizer, stems, content words, and negations with what they reach."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import takewhile
from typing import NamedTuple

from rrag.lang.en.function_words import STOPWORDS
from rrag.lang.en.lexicon import IRREGULAR_FORMS, PRICED
from rrag.lang.en.negation import (
    AROUND_AUXILIARY,
    AUXILIARIES,
    AUXILIARY,
    CANCEL_REACH,
    CLAUSE_JOINS,
    FRONTED_PHRASE,
    NEGATED_CLAUSE_BREAK,
    NEGATING_DETERMINERS,
    NEGATION_SCOPE_BREAK,
    NEGATIVE_WORDS,
    NEGATORS,
    SUBJECT_NEGATORS,
    VERB_NEGATORS,
)
from rrag.lang.en.numerals import (
    AGE_COMPARATIVES,
    BOUND_COMPARATIVES,
    BOUND_PREPOSITIONS,
    BOUND_VERBS,
    CARDINALS,
)
from rrag.text.caches import per_text
from rrag.text.normalise import normalize


class Span(NamedTuple):
    """A piece of a text; `text == source[start:end]`."""

    text: str
    start: int
    end: int


_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")


@per_text(maxsize=4096)  # the verifiers read the same sentences and windows several times
def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens; contractions keep their apostrophe removed ("don't" -> "dont")."""
    normalized = normalize(text)
    found = _WORD.findall(normalized)
    if "'" not in normalized and "\u2019" not in normalized:
        return tuple(found)  # most texts: no apostrophe to take out of any word
    return tuple(w.replace("'", "").replace("\u2019", "") for w in found)


def word_spans(text: str) -> list[Span]:
    """The word tokens of `words(text)`, in the original text with offsets."""
    return [Span(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


@lru_cache(maxsize=65536)  # a corpus has far fewer distinct words than word occurrences
def stem(word: str) -> str:
    """A light suffix stripper: enough to match "days"/"day", "required"/"requires"."""
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl, min_len in (
        ("ies", "y", 5),
        ("ied", "y", 5),  # "applied" is "apply"
        ("sses", "ss", 5),
        ("ing", "", 6),
        ("ed", "", 5),
        ("es", "", 5),
        ("s", "", 4),
    ):
        if word.endswith(suffix) and len(word) >= min_len and not (suffix == "s" and word.endswith("ss")):
            word = word[: len(word) - len(suffix)] + repl
            break
    while word.endswith("e") and len(word) > 3:  # "employee(s)" -> "employ"; "fare(s)" -> "far", one word
        word = word[:-1]
    return word


def lemma(word: str) -> str:
    """`stem` twice, an irregular form as its verb's: "bookings" and "booking" are both "book" (`stem`
    once: "booking" and "book"), "wrote" is "write"'s. The contrasts compare tokens by it (a word and
    its other forms in the same slot); the other rules compare `stem`s, as they were measured."""
    return stem(stem(IRREGULAR_FORMS.get(word, word)))


@lru_cache(maxsize=65536)  # asked of every term of every window the rules compare
def has_digit(word: str) -> bool:
    """Whether a word has a digit ("12", "hx12", "1980s"): a number or a code, not a plain word."""
    return any(ch.isdigit() for ch in word)


NOT_CONTENT = STOPWORDS | NEGATORS  # words no content word is: negation is checked apart
# A number in words is its digits ("two eggs" says what "2 eggs" does); not "one", also a pronoun.
_AS_DIGITS = {w: str(n) for w, n in CARDINALS.items() if n != 1}


@per_text(maxsize=4096)
def content_words(text: str) -> tuple[str, ...]:
    """Stemmed words that carry meaning, a number in words as its digits: no stopwords, no negators
    (negation is checked apart)."""
    return tuple([_AS_DIGITS.get(w) or stem(w) for w in words(text) if w not in NOT_CONTENT])


def named_as_a_kind(text: str, subject: Collection[str], terms: Collection[str]) -> bool:
    """Whether `text` names `subject` (content words) only after a word that makes it a kind of it, one
    of no `terms` (what a claim or a question says): "Out-of-hours consultations" for a consultation.
    A number's unit is its measure, no kind ("a 2-year warranty" is a warranty)."""
    said = words(text)
    before = [
        said[i - 1]
        for i in range(1, len(said))
        if _term(said[i]) in subject
        and _term(said[i - 1]) not in subject
        and not (i >= 2 and has_digit(said[i - 2]))
    ]
    return bool(before) and all(_term(w) and _term(w) not in terms for w in before)


def _term(word: str) -> str:
    """`word` as a content word, or "" for a function word."""
    return next(iter(content_words(word)), "")


def negation_count(text: str) -> int:
    """How many negation cues `text` has; contractions count ("don't" is "dont" after `words`), and a
    hyphened "-free" ("interest-free")."""
    tokens = words(text)
    return sum(1 for i in range(len(tokens)) if negates(tokens, i)) + len(_free_of(text))


def _free_of(text: str) -> list[Span]:
    """The words a hyphened "-free" after them denies: "interest-free" says "no interest", as
    "gluten-free", "duty-free" and "risk-free" do."""
    return [w for f in _HYPHENED_FREE.finditer(text) for w in word_spans(text[: f.start()])[-1:]]


_HYPHENED_FREE = re.compile(r"(?<=\w)-free\b", re.IGNORECASE)


def negates(tokens: Sequence[str], i: int) -> bool:
    """Whether token `i` of `tokens` (as `words` writes them) is a negator, not the "no" or "not" of
    a bound, nor the "nothing" of a price ("costs nothing" says free: rrag.verify.rules.contrasts reads
    it)."""
    if tokens[i] == "nothing" and i and tokens[i - 1] in PRICED:
        return False
    return tokens[i] in NEGATORS and not _turns_bound_round(tokens, i) and not cancelled(tokens, i)


def _turns_bound_round(tokens: Sequence[str], i: int) -> bool:
    """Whether negator `i` makes a bound the other bound rather than denying its clause, as
    rrag.text.values reads the bound: "no more than 3", "must not carry more than 2 bags" (at most 2),
    "No bag may weigh more than 23 kg" (every bag at most 23 kg; not "No one under 18 is admitted")."""
    word = tokens[i]
    if word == "no" and _is_bound(tokens, i + 1):
        return True
    if word in VERB_NEGATORS:
        return _is_bound(tokens, i + 1) or _is_bound(tokens, i + 2)
    if word not in SUBJECT_NEGATORS:
        return False
    clause = list(takewhile(lambda t: t not in CLAUSE_JOINS, tokens[i + 1 : i + 3 + 2 * AROUND_AUXILIARY]))
    auxiliary = next((k for k, t in enumerate(clause[: AROUND_AUXILIARY + 1]) if t in AUXILIARIES), None)
    return auxiliary is not None and any(
        _is_bound(tokens, i + 1 + k)
        for k in range(auxiliary + 1, min(len(clause), auxiliary + 2 + AROUND_AUXILIARY))
    )


def cancelled(tokens: Sequence[str], i: int) -> bool:
    """Whether negator `i` and a "without" in its clause cancel out: "There is no room without air
    conditioning" says every room has it, "You cannot enter without a ticket" that entering needs one;
    neither denies the room or the entering. The tokens have no punctuation: a clause ends at a
    joining word or CANCEL_REACH words on."""
    if tokens[i] == "without":
        before = takewhile(lambda t: t not in CLAUSE_JOINS, reversed(tokens[max(0, i - CANCEL_REACH) : i]))
        return any(t in NEGATORS and t != "without" for t in before)
    return "without" in takewhile(lambda t: t not in CLAUSE_JOINS, tokens[i + 1 : i + 1 + CANCEL_REACH])


_BOUND_BEFORE_A_NUMBER = BOUND_PREPOSITIONS | BOUND_VERBS
_COMPARED = BOUND_COMPARATIVES | AGE_COMPARATIVES  # "older than 79" too, as rrag.text.values reads it


def _is_bound(tokens: Sequence[str], i: int) -> bool:
    """Whether a bound starts at token `i`: a comparative and "than" ("more than", "older than"),
    or "under", "over", "above", "below" or "exceed" a number ("not under 70 kg", "not exceed 8 kg")."""
    if i + 1 >= len(tokens):
        return False
    after = tokens[i + 1]
    return (tokens[i] in _COMPARED and after == "than") or (
        tokens[i] in _BOUND_BEFORE_A_NUMBER and (after[0].isdigit() or after in CARDINALS)
    )


class Negation(NamedTuple):
    """A negator and what it negates: `start`..`end` from the negator to the last word in its scope."""

    start: int
    end: int
    terms: frozenset[str]  # the stemmed content words it negates
    clause: frozenset[str]  # the stemmed content words of the clause it is in
    elided: bool = False  # a "but not X" with no verb of its own: `clause` is the clause before it


# How many content words a negator reaches: "no overall charge" negates "overall" (the charge itself is
# there), "does not cover theft" negates the covering (and, less surely, the theft).
_DETERMINER_REACH, _NEGATOR_REACH = 1, 2
_BUT = re.compile(r"\sbut\s+$", re.IGNORECASE)
_ELIDED_WORDS = 2
_DENIAL_BEFORE, _DENIAL_AFTER = 4, 2  # how near a negator a word is too near to be stated plainly


@per_text(maxsize=4096)  # the rules read each evidence sentence for every claim
def denies(text: str) -> bool:
    """Whether `text` has a negator or a negative word ("avoid", "unclear") anywhere; not a hyphened
    "-free", which denies one word, not what the sentence says ("The bakery sells gluten-free bread"
    denies no selling)."""
    tokens = [_token(t.text) for t in word_spans(text)]
    return any(negates(tokens, i) or w in NEGATIVE_WORDS for i, w in enumerate(tokens))


@per_text(maxsize=4096)
def plain_words(text: str) -> frozenset[str]:
    """The stemmed content words of `text` that it states plainly: with no negator or negative word
    ("avoid", "unclear") within a few words of them ("WiFi: no", "don't allow the soil to dry")."""
    spans = word_spans(text)
    tokens = [_token(t.text) for t in spans]
    denials = [i for i, w in enumerate(tokens) if negates(tokens, i) or w in NEGATIVE_WORDS]
    freed = {w.start for w in _free_of(text)}
    return frozenset(
        stem(w)
        for i, w in enumerate(tokens)
        if w not in STOPWORDS
        and w not in NEGATORS
        and spans[i].start not in freed
        and not any(-_DENIAL_AFTER <= i - d <= _DENIAL_BEFORE for d in denials)
    )


def _elided(text: str, clause_start: int, negator: int, clause_end: int) -> bool:
    """Whether a negator opens a "but not X" or "but no X" of a word or two with no verb of its own,
    whose verb is then the clause's before ("covers parts but not labour", "a pool but no gym"; not
    "but no remake has been produced")."""
    if text[clause_start:negator].strip() or not _BUT.search(text, 0, negator):
        return False
    rest = text[negator:clause_end]
    return len(content_words(rest)) <= _ELIDED_WORDS and not AUXILIARY.search(rest)


def _token(word: str) -> str:
    """A token of `word_spans` as `words` writes it ("Don\u2019t" -> "dont")."""
    return word.lower().replace("'", "").replace("\u2019", "")


@per_text(maxsize=4096)
def negations(text: str) -> tuple[Negation, ...]:
    """Each negator of `text` ("not", "never", "no", "cannot", "doesn't", "without") with the content
    words it negates: the next one or two, within its clause. "not only" negates nothing."""
    tokens = word_spans(text)
    written = [_token(t.text) for t in tokens]
    freed = _free_of(text)
    of_a_free = {w.start for w in freed}  # "gluten" of "gluten-free": the compound's, not the clause's
    out = []
    for i, token in enumerate(tokens):
        word = written[i]
        if not negates(written, i):
            continue
        reach = _DETERMINER_REACH if word in NEGATING_DETERMINERS else _NEGATOR_REACH
        terms: list[str] = []
        end = token.end
        for j, nxt in enumerate(tokens[i + 1 :], i + 1):
            if len(terms) == reach or NEGATION_SCOPE_BREAK.search(text, end, nxt.start):
                break
            w = written[j]
            if (w == "only" and not terms) or _is_bound(written, j):
                terms = []  # "not only" negates nothing, "do not take more than 4" a bound (text.values)
                break
            if w == "longer" and word == "no" and not terms:
                reach = _NEGATOR_REACH  # "no longer offers X" denies the offering, as "not" would
                end = nxt.end
                continue
            if w not in NOT_CONTENT and nxt.start not in of_a_free:
                terms.append(stem(w))
            end = nxt.end
        if terms:
            breaks = _clause_breaks(text)
            start = max(b for b in breaks if b <= token.start)
            stop = min(b for b in breaks if b >= end)
            elided = _elided(text, start, token.start, stop)
            if elided:  # the clause before, past its comma and "but"
                start = max(
                    (b for b in breaks if b < start and content_words(text[b : token.start])), default=start
                )
            clause = frozenset(content_words(text[start:stop]))
            out.append(Negation(token.start, end, frozenset(terms), clause, elided))
    for free in freed:
        if denied := content_words(free.text):
            breaks = _clause_breaks(text)
            start = max(b for b in breaks if b <= free.start)
            stop = min(b for b in breaks if b >= free.end)
            clause = frozenset(content_words(text[start:stop]))
            out.append(Negation(free.start, free.end + len("-free"), frozenset(denied), clause))
    return tuple(sorted(out, key=lambda n: n.start))


def _clause_breaks(text: str) -> list[int]:
    """Where the clauses of `text` start and end, a fronted phrase's comma left out ("In the east wing,
    camping is not allowed")."""
    fronted = FRONTED_PHRASE.match(text)
    phrase_end = fronted.end() if fronted else -1
    return [0] + [m.end() for m in NEGATED_CLAUSE_BREAK.finditer(text) if m.end() != phrase_end] + [len(text)]
