"""Contrasts of how many: another quantifier of the same thing ("all rooms" / "none of the rooms"),
something other than what the evidence limits with "only", and "all" of what the evidence states of
only some."""

from __future__ import annotations

from rrag.lang.en.function_words import NO_LIMIT_BEFORE_ONLY, STOPWORDS
from rrag.lang.en.negation import NEGATORS
from rrag.lang.en.numerals import BOUND_AFTER_A_NOUN, BOUND_AFTER_AN_AMOUNT
from rrag.lang.en.quantifiers import (
    ALL,
    HALF,
    MOST,
    NONE,
    NOT_A_NOUN,
    ONLY,
    ONLY_A_CONDITION,
    PARTIAL,
    QUANTIFIER_CUES,
    SOME,
)
from rrag.text import stem
from rrag.text.caches import per_text
from rrag.text.reading import Tokens
from rrag.text.words import NOT_CONTENT, cancelled
from rrag.verify.rules.base import Contrast, Pair, sentence_rule
from rrag.verify.rules.contrasts.base import QUANTIFIER, in_order, neighbour, quote, same_statement, unpack

# claim's quantifier -> the evidence's quantifiers it contradicts
_QUANTIFIER_CLASHES = {
    ALL: {NONE, PARTIAL, MOST, HALF, ONLY},
    NONE: {ALL, SOME, PARTIAL, MOST, HALF},
    SOME: {NONE},
    PARTIAL: {ALL, NONE},
    MOST: {ALL, NONE, HALF},
    HALF: {ALL, NONE, MOST},
    ONLY: {ALL},
}
_QUANTIFIER_WORDS = frozenset(
    stem(w) for _, cues in QUANTIFIER_CUES for cue in cues.split("|") for w in cue.split()
)
_QUANTIFIER_STARTING: dict[str, list[tuple[str, list[str]]]] = {}  # first word -> (class, cue words)
for _cls, _cues in QUANTIFIER_CUES:
    for _cue in _cues.split("|"):
        _QUANTIFIER_STARTING.setdefault(_cue.split()[0], []).append((_cls, _cue.split()))


@per_text(maxsize=4096)  # an evidence sentence is read for claim after claim
def _quantifiers(tokens: Tokens) -> tuple[tuple[str, int, int], ...]:
    """The class of each quantifier of the sentence, and where it is; "some ... not" is partial."""
    words = [t.word for t in tokens]
    out = []
    i = 0
    while i < len(words):
        found = _quantifier_at(words, i)
        if found:
            out.append(found)
        i = found[2] if found else i + 1
    return tuple(out)


def _quantifier_at(words: list[str], i: int) -> tuple[str, int, int] | None:
    """The quantifier that starts at word `i`, if one does: (class, i, the word after it)."""
    for cls, parts in _QUANTIFIER_STARTING.get(words[i], ()):
        if words[i : i + len(parts)] != parts:
            continue
        after = words[i + len(parts)] if i + len(parts) < len(words) else ""
        if cls == NONE and parts == ["no"] and (after in NOT_A_NOUN or after in STOPWORDS or not after):
            continue  # "no longer", "No, ..."
        if parts == ["all"] and i and words[i - 1] == "of":
            continue  # "half of all students", "of all tests": no universal of its own
        if parts == ["only"] and (i or after in STOPWORDS or after.endswith("ly")):
            continue  # only "Only managers ...": "only recently", "is only for" limit no thing said
        if cls == SOME and any(w in NEGATORS for w in words[i + 1 :]):
            cls = PARTIAL  # "some dishes are not vegetarian"
        if cls == NONE and cancelled(words, i):
            cls = ALL  # "no room without air conditioning"
        return cls, i, i + len(parts)
    return None


def _quantified(tokens: Tokens, after: int) -> str | None:
    """The stem of the noun a quantifier is about: its first content word that is no number, in its
    clause ("above all, have fun" quantifies nothing)."""
    for t in tokens[after : after + 5]:
        if t.after_break:
            return None
        if t.word not in NOT_CONTENT and not t.word.isdigit():
            return t.lemma
    return None


@sentence_rule(QUANTIFIER, 430)
def quantifier(pair: Pair) -> Contrast | None:
    """Another quantifier of the same thing: "all rooms" / "none of the rooms"."""
    claim, c, evidence, e = unpack(pair)
    numbers = frozenset(t.lemma for t in c if t.word.isdigit())
    for cls, start, end in _quantifiers(c):
        noun = _quantified(c, end)
        for e_cls, e_start, e_end in _quantifiers(e):
            # Of the same thing ("all rooms" / "none of the rooms"); "only the lid" / "all parts" of
            # the parts there are, whatever it calls them.
            # ("only staff" / "all staff" is no clash: others may have it too)
            either = {cls, e_cls} == {ALL, ONLY}
            theirs = _quantified(e, e_end)
            same = noun is not None and noun == theirs if not either else noun != theirs
            leave_out = _QUANTIFIER_WORDS | numbers | ({noun} if either and noun else set())
            if e_cls in _QUANTIFIER_CLASHES[cls] and same and same_statement(c, e, frozenset(leave_out)):
                return Contrast(
                    QUANTIFIER, quote(claim, c, start, end + 1), quote(evidence, e, e_start, e_end + 1)
                )
    return None


@sentence_rule(QUANTIFIER, 450)
def all_of_some(pair: Pair) -> Contrast | None:
    """ "All" of a thing the evidence states only of some of it, all else the same: "free on all
    orders" where it says "free on orders over £50" or "on international orders"."""
    claim, c, evidence, e = unpack(pair)
    universal = [(start, end) for cls, start, end in _quantifiers(c) if cls == ALL]
    if not universal or _quantifiers(e):
        return None
    claimed = {t.lemma for t in c}
    for start, end in universal:
        noun = _quantified(c, end)
        for j, t in enumerate(e):
            span = _restricted(e, j, claimed) if t.lemma == noun else None
            if span is None:
                continue
            restriction = {u.lemma for u in e[span[0] : span[1]] if u.lemma != noun}
            if restriction <= claimed:
                continue  # restricted alike ("every loan of 30 days or longer")
            leave_out = _QUANTIFIER_WORDS | restriction
            if in_order(c, leave_out) == in_order(e, leave_out):
                return Contrast(QUANTIFIER, quote(claim, c, start, end + 1), quote(evidence, e, *span))
    return None


def _restricted(e: Tokens, noun: int, claimed: set[str]) -> tuple[int, int] | None:
    """The tokens of the noun at `noun` and what restricts it, where a word the claim does not have
    does: one before it ("international orders"), a bound of an amount after it ("orders over £50"),
    or an amount bounded after it ("rentals of 7 days or more")."""
    before = e[noun - 1] if noun and not e[noun].after_break else None
    if before and before.word.isalpha() and before.word not in NOT_CONTENT and before.lemma not in claimed:
        return noun - 1, noun + 1
    of_amount = [u.word for u in e[noun + 1 : noun + 6]]
    if of_amount[:1] == ["of"] and len(of_amount) == 5 and of_amount[1].isdigit():
        bound = of_amount[3:]
        if bound[0] in ("or", "and") and bound[1] in BOUND_AFTER_AN_AMOUNT:
            return noun, noun + 6
    after = e[noun + 1 : noun + 5]
    if not (after and after[0].word in BOUND_AFTER_A_NOUN and not after[0].after_break):
        return None
    number = next((k for k, u in enumerate(after) if u.word.isdigit() and not u.after_break), None)
    if number is None:
        return None
    end = noun + 2 + number
    while end < min(len(e), noun + 4 + number) and e[end].word.isalpha() and e[end].lemma not in claimed:
        end += 1  # the amount's unit ("bags over 7 kg")
    return noun, end


@sentence_rule(QUANTIFIER, 440)
def other_than_only(pair: Pair) -> Contrast | None:
    """Something the retrieved text never names, in the place of what the evidence limits with "only":
    "approved for children" where it says "approved for adults only", "supports iPhone and Android"
    where it says "supports Android only". Not where the claim limits too."""
    claim, c, evidence, e = unpack(pair)
    if any(t.word == "only" for t in c):
        return None
    their_stems = {t.lemma for t in e}
    for i, token in enumerate(e):
        limited = _limited_by(e, i) if token.word == "only" else None
        if limited is None:
            continue
        # its place: the word before it, or after it where it starts its clause ("Only cash is accepted")
        step = -1 if neighbour(e, limited, -1) else 1
        place = neighbour(e, limited, step)
        if place is None:
            continue
        for k, other in enumerate(c):
            if (
                other.word in STOPWORDS
                or not other.word.isalpha()
                or other.lemma in their_stems
                or other.lemma in pair.retrieved
                or (k + 1 < len(c) and c[k + 1].lemma == e[limited].lemma)  # "paying members" are members
                or neighbour(c, k, step) != place
            ):
                continue
            # all else the same words in the same order
            leave_out = frozenset({other.lemma, e[limited].lemma})
            if in_order(c, leave_out) == in_order(e, leave_out):
                span = (i, limited + 1) if i < limited else (limited, i + 1)
                return Contrast(QUANTIFIER, quote(claim, c, k, k + 1), quote(evidence, e, *span))
    return None


def _limited_by(e: Tokens, only: int) -> int | None:
    """The token "only" at `only` limits: the content word after it in its clause ("only adults",
    "only for adults"), or the one before it where it ends its clause ("for adults only")."""
    if only and e[only - 1].word in NO_LIMIT_BEFORE_ONLY:
        return None
    if only + 1 == len(e) or e[only + 1].after_break:
        before = only - 1
        return before if before >= 0 and e[before].word not in STOPWORDS else None
    if e[only + 1].word in ONLY_A_CONDITION:
        return None
    for j in range(only + 1, min(only + 4, len(e))):
        if j > only + 1 and e[j].after_break:
            return None
        if e[j].word not in STOPWORDS:
            return j
    return None
