"""Contrasts of one word or phrase in the same statement: an opposite word, what a thing is made with
and without, another modality, free against a price."""

from __future__ import annotations

from typing import NamedTuple

from rrag.lang.en.dates import UNTIL
from rrag.lang.en.function_words import STOPWORDS
from rrag.lang.en.lexicon import (
    ANTONYMS,
    COMPARATIVES,
    DAY_A_MONTH,
    DIRECTIONS,
    EVENT_ORDER,
    HAVING,
    OPEN_QUESTION,
    PASSIVE,
    PAYING,
    PHRASES,
    PRICE_NOUNS,
    PRICED,
    SAID_WITH,
)
from rrag.lang.en.modality import (
    ALLOWED,
    FORBIDDEN,
    MODAL_CUES,
    NOT_REQUIRED,
    OBLIGED,
    RULE_WORDS,
    SKIPPED_AFTER_MODAL,
)
from rrag.lang.en.negation import NEGATIVE_PREFIXES, NEGATORS, NOT_DENIED
from rrag.lang.en.units import CURRENCY_CODES
from rrag.text import negates, stem
from rrag.text.caches import per_text
from rrag.text.clauses import refers_back
from rrag.text.quantities import TIME_OF_DAY
from rrag.text.reading import Token, Tokens, read
from rrag.text.values import said_free
from rrag.text.words import NOT_CONTENT, cancelled, lemma
from rrag.verify.rules.base import Contrast, Pair, sentence_rule
from rrag.verify.rules.contrasts.base import (
    MODALITY,
    OPPOSITE,
    content_tokens,
    in_order,
    neighbour,
    quote,
    same_statement,
    unpack,
)

# ------------------------------------------------------------------------------------------------
# Opposite words: "rose" / "fell", "before" / "after", "at most" / "minimum" (rrag.lang.en.lexicon:
# ANTONYMS, and PHRASES read as the word they mean), by their stems.

_COMPARED = frozenset(lemma(word) for pair in COMPARATIVES for word in pair)  # "than" turns them round
_WEEKLY = lemma("weekly")  # "every Sunday" is weekly, and "the first Sunday of each month" one of them
# Opening hours say the same either way round ("open until 5 pm" is "closes at 5 pm", "open from 9am to
# 5pm" is "closed from 5pm to 9am"): open and closed are opposites only where no time is given.
_OPEN_CLOSED = frozenset({lemma("open"), lemma("closed")})
_DIRECTIONS = frozenset(lemma(w) for w in DIRECTIONS)
_EVENT_ORDER = frozenset(lemma(w) for w in EVENT_ORDER)
OPPOSITES: dict[str, set[str]] = {}
for _a, _b in ANTONYMS:
    OPPOSITES.setdefault(lemma(_a), set()).add(lemma(_b))
    OPPOSITES.setdefault(lemma(_b), set()).add(lemma(_a))
# A word a prefix denies is the opposite of the word: "unlocked" / "locked", "inconsistent" /
# "consistent", "non-refundable" / "refundable" (`_denied_roots`).
_MIN_ROOT = 4  # letters of the word denied: not "under" / "der"
_NOT_DENIED = frozenset(lemma(w) for w in NOT_DENIED)
_DENIED = "not "  # marks the root a prefix denies, as `_words_of` writes it; no stem has a space


@per_text(maxsize=4096)  # the same evidence sentences are read for claim after claim
def _words_of(text: str) -> tuple[tuple[str, int, int], ...]:
    """(lemma, first token, after last) of each token of `text` (`rrag.text.read`), each phrase of
    `PHRASES`, and each word a prefix denies (`_denied_roots`). A bound of a value ("below 25 °C") is a
    value's (rrag.text.values)."""
    tokens = read(text).tokens
    denied = _denied_roots(text, tokens)
    # The root of "non-refundable" is no word of its own
    roots = {start + 1 for _, start, end in denied if end - start == 2}
    out = [(t.lemma, i, i + 1) for i, t in enumerate(tokens) if i not in roots] + denied
    words = [t.word for t in tokens]
    present = set(words)
    for phrase, meaning in PHRASES.items():
        if phrase[0] not in present:
            continue  # most phrases: the sentence is not read for them word by word
        out += [
            (lemma(meaning), i, i + len(phrase))
            for i in range(len(words))
            if tuple(words[i : i + len(phrase)]) == phrase
        ]
    return tuple(out)


def _denied_roots(text: str, tokens: Tokens) -> list[tuple[str, int, int]]:
    """(`_DENIED` and the stem of the root, first token, after last) of each word a prefix denies:
    "unlocked", and "non-refundable" (two tokens, or "non - refundable")."""
    out = []
    for i, t in enumerate(tokens):
        if t.word == "non" and i + 1 < len(tokens) and text[t.end : tokens[i + 1].start].strip() == "-":
            out.append((_DENIED + tokens[i + 1].lemma, i, i + 2))
            continue
        prefix = next((p for p in NEGATIVE_PREFIXES if t.word.startswith(p)), None)
        root = t.word[len(prefix) :] if prefix else ""
        if len(root) >= _MIN_ROOT and root.isalpha() and root not in STOPWORDS and t.lemma not in _NOT_DENIED:
            out.append((_DENIED + lemma(root), i, i + 1))
    return out


def _opposites_of(word: str) -> set[str]:
    """The stems of `_words_of` that say the opposite of `word`, one of them: its pairs of `OPPOSITES`,
    and the word with its root denied ("unlocked" of "locked", "locked" of "unlocked")."""
    root = word.removeprefix(_DENIED)
    return OPPOSITES.get(word, set()) | {root if root != word else _DENIED + word}


@sentence_rule(OPPOSITE, 400)
def opposite(pair: Pair) -> Contrast | None:
    """A word opposite to the evidence's in the same place, or all else the same: "prices rose by 5%"
    / "prices fell by 5%"."""
    claim, c, evidence, e = unpack(pair)
    if any(t.word in OPEN_QUESTION for t in c + e):
        return None
    ours, theirs = _words_of(claim), _words_of(evidence)
    our_stems, their_stems = {w for w, _, _ in ours}, {w for w, _, _ in theirs}
    for word, start, end in ours:
        opposed = _opposites_of(word)
        for w, e_start, e_end in theirs:
            if w not in opposed or w in our_stems or word in their_stems:
                continue
            if {word, w} == _OPEN_CLOSED and (_gives_hours(claim, c) or _gives_hours(evidence, e)):
                continue
            if {word, w} <= _COMPARED and any(t.word == "than" for t in c + e):
                continue
            if word == DAY_A_MONTH and w == _WEEKLY:
                continue  # "the first Sunday of each month" is one of "every Sunday"
            if _negated(claim, c[start]) != _negated(evidence, e[e_start]):
                continue  # "not permitted" is "prohibited"
            if word in _EVENT_ORDER and (
                refers_back(claim, c[start].start) or refers_back(evidence, e[e_start].start)
            ):
                continue  # "...; after that" orders what was said before, whatever words follow
            # The two words, and the phrases that say them ("at least").
            leave_out = frozenset({word, w} | {t.lemma for t in c[start:end] + e[e_start:e_end]})
            rest = {t.lemma for t in content_tokens(c)} - leave_out
            # In the same place ("prices rose by" / "prices fell by"; "a variable rate" / "a fixed
            # interest rate", of the same head), or all else equal.
            slot = any(
                mine is not None and mine == theirs
                for mine, theirs in (
                    (neighbour(c, start, -1, True), neighbour(e, e_start, -1, True)),
                    (neighbour(c, end - 1, 1, True), neighbour(e, e_end - 1, 1, True)),
                    (_head_after(c, end), _head_after(e, e_end)),
                )
            )
            # All else the same words, in the same order, or turned round by a passive on one side
            # ("blood pressure is increased by X" / "X decreases blood pressure").
            ours_rest, theirs_rest = in_order(c, leave_out), in_order(e, leave_out)
            turned = bool(PASSIVE.search(claim)) != bool(PASSIVE.search(evidence))
            same = ours_rest == theirs_rest or (turned and sorted(ours_rest) == sorted(theirs_rest))
            if word in _DIRECTIONS and (_of_after(c, end) or _of_after(e, e_end)):
                # A relation turns round with its arguments: "A lies north of B" is "B lies south of A"
                opposed_here = ours_rest == theirs_rest and bool(rest)
            else:
                opposed_here = (slot and same_statement(c, e, leave_out)) or (same and bool(rest))
            if opposed_here:
                return Contrast(OPPOSITE, quote(claim, c, start, end), quote(evidence, e, e_start, e_end))
    return None


def _of_after(tokens: Tokens, at: int) -> bool:
    return at < len(tokens) and tokens[at].word == "of"


def _head_after(tokens: Tokens, at: int) -> str | None:
    """The stem of the last of the content words that follow token `at` with no break or other word
    between them: the noun an adjective is of ("interest rate" of "fixed interest rate")."""
    head = None
    while at < len(tokens) and not tokens[at].after_break and tokens[at].word not in STOPWORDS:
        head, at = tokens[at].lemma, at + 1
    return head


def _negated(text: str, token: Token) -> bool:
    return any(n.start < token.start < n.end for n in read(text).negations)


def _gives_hours(text: str, tokens: Tokens) -> bool:
    return any(t.word in UNTIL for t in tokens) or any(q.unit == TIME_OF_DAY for q in read(text).quantities)


# What a thing is made with and without ("contains garlic" / "made without garlic"): the verbs that say
# so differ, so they are no words compared.
_SAID_WITH = frozenset(lemma(w) for w in SAID_WITH)


@sentence_rule(OPPOSITE, 410)
def with_and_without(pair: Pair) -> Contrast | None:
    """A thing one side says is in something and the other says it is without; not where a side says
    both ("with or without sugar")."""
    claim, c, evidence, e = unpack(pair)
    ours_lacked, theirs_lacked = _lacked(claim, c), _lacked(evidence, e)
    if not (ours_lacked or theirs_lacked):
        return None  # most sentence pairs
    ours, theirs = (_had(c), ours_lacked), (_had(e), theirs_lacked)
    for has, lacks in ((0, 1), (1, 0)):
        for thing in ours[has].keys() & theirs[lacks].keys():
            if thing in ours[lacks] or thing in theirs[has]:
                continue  # "with or without sugar"
            if same_statement(c, e, _SAID_WITH | {thing}):
                return Contrast(
                    OPPOSITE, quote(claim, c, *ours[has][thing]), quote(evidence, e, *theirs[lacks][thing])
                )
    return None


def _had(tokens: Tokens) -> dict[str, tuple[int, int]]:
    """The thing after each word of having ("contains garlic"), and the tokens that say it; not "has
    no glasses", "with no rope"."""
    out = {}
    for i, t in enumerate(tokens):
        if t.word in HAVING:
            thing = _nextcontent_tokens(tokens, i + 1)
            if thing is not None and not any(u.word in NEGATORS for u in tokens[i + 1 : thing]):
                out[tokens[thing].lemma] = (i, thing + 1)
    return out


def _lacked(text: str, tokens: Tokens) -> dict[str, tuple[int, int]]:
    """The thing after "without" or "free of", or before "-free" ("gluten-free"), and its tokens; not
    after a "without" a negation cancels ("no room without a kettle")."""
    out = {}
    written = [t.word for t in tokens]
    for i, t in enumerate(tokens):
        free_of = t.word == "free" and i + 1 < len(tokens) and tokens[i + 1].word == "of"
        if (t.word == "without" and not cancelled(written, i)) or free_of:
            thing = _nextcontent_tokens(tokens, i + 2 if free_of else i + 1)
            if thing is not None:
                out[tokens[thing].lemma] = (i, thing + 1)
        elif t.word == "free" and i > 0 and text[tokens[i - 1].end : t.start] == "-":
            out[tokens[i - 1].lemma] = (i - 1, i + 1)
    return out


def _nextcontent_tokens(tokens: Tokens, start: int) -> int | None:
    """The first content word from token `start` on, in its clause."""
    for i in range(start, min(start + 3, len(tokens))):
        if i > start and tokens[i].after_break:
            return None
        if tokens[i].word not in NOT_CONTENT:
            return i
    return None


# ------------------------------------------------------------------------------------------------
# Modality: what must, may, must not or need not be done.

_MODAL_CLASHES = {
    frozenset({FORBIDDEN, ALLOWED}),
    frozenset({FORBIDDEN, OBLIGED}),
    frozenset({OBLIGED, NOT_REQUIRED}),
}
_MODAL_WORDS = frozenset(
    stem(w) for _, cues in MODAL_CUES for cue in cues.split("|") for w in cue.split()
) | frozenset(stem(w) for w in RULE_WORDS)


def _modal_cues(tokens: Tokens) -> list[tuple[str, int, int]]:
    """(class, first token, token after the cue) of each modal cue, longest cues first."""
    words = [t.word for t in tokens]
    out: list[tuple[str, int, int]] = []
    taken: set[int] = set()
    for cls, cues in MODAL_CUES:
        for cue in sorted(cues.split("|"), key=lambda c: -len(c.split())):
            parts = cue.split()
            for i in range(len(words) - len(parts) + 1):
                if words[i : i + len(parts)] == parts and not taken & set(range(i, i + len(parts))):
                    if parts == ["may"] and tokens[i].capital and i > 0:
                        continue  # "in May 2020"
                    out.append((cls, i, i + len(parts)))
                    taken |= set(range(i, i + len(parts)))
    return out


def _action(tokens: Tokens, after: int) -> str | None:
    """The stem of the first content word after a modal cue: what is allowed or forbidden."""
    for t in tokens[after : after + 4]:
        if t.word in SKIPPED_AFTER_MODAL or t.word in NEGATORS:
            continue
        return t.lemma if t.word not in STOPWORDS else None
    return None


class _ModalReading(NamedTuple):
    modality: str
    start: int  # the cue's first token
    end: int  # the token after the words quoted for it
    action: str | None  # the stem of what is allowed, forbidden, required
    done: str | None = None  # what may be done without the action ("baked", without resting)


def _modal_readings(tokens: Tokens) -> list[_ModalReading]:
    """What each modal cue says. What may be done without doing something says that something is not
    required: "The dough can be baked without resting" says resting is not required, too."""
    out = []
    words = [t.word for t in tokens]
    for cls, start, end in _modal_cues(tokens):
        if cls == FORBIDDEN and any(
            w in NEGATORS and not negates(words, k) for k, w in enumerate(words[start:end], start)
        ):
            cls = ALLOWED  # "must not carry more than 2 bags" allows carrying, 2 at most (rrag.text.values)
        action = _action(tokens, end)
        out.append(_ModalReading(cls, start, end + 1, action))
        gerund = _done_without(tokens, end) if cls == ALLOWED else None
        if gerund is not None:
            out.append(_ModalReading(NOT_REQUIRED, start, gerund + 1, tokens[gerund].lemma, action))
    return out


def _done_without(tokens: Tokens, after: int) -> int | None:
    """The token of the "-ing" word just after "without" in the clause from token `after` on."""
    for i in range(after, len(tokens) - 1):
        if tokens[i + 1].after_break:
            return None
        if tokens[i].word == "without" and tokens[i + 1].word.endswith("ing"):
            return i + 1
    return None


@sentence_rule(MODALITY, 420)
def modality(pair: Pair) -> Contrast | None:
    """Another modality of the same action: "may share" / "must never share"."""
    claim, c, evidence, e = unpack(pair)
    without = any(t.word == "without" for t in c + e)
    if not without and not same_statement(c, e, _MODAL_WORDS):
        return None  # most sentence pairs: no statement of each other, and no cue read
    ours, theirs = _modal_readings(c), _modal_readings(e)
    # What is done without the action is no word of the statement compared ("baked", "must rest").
    done = frozenset(r.done for r in ours + theirs if r.done)
    if without and not same_statement(c, e, _MODAL_WORDS | done):
        return None
    for mine in ours:
        for other in theirs:
            clash = frozenset({mine.modality, other.modality}) in _MODAL_CLASHES
            if clash and mine.action and mine.action == other.action:
                ours_quoted, theirs_quoted = (
                    quote(claim, c, mine.start, mine.end),
                    quote(evidence, e, other.start, other.end),
                )
                return Contrast(MODALITY, ours_quoted, theirs_quoted)
    return None


# "costs", "is charged at", "pays a fare"
_PRICE_WORDS = {lemma(w) for w in PRICED} | {lemma(w) for w in PRICE_NOUNS}


@sentence_rule(OPPOSITE, 460)
def free_or_priced(pair: Pair) -> Contrast | None:
    """One side says a thing is free, the other gives its price or says it is paid for ("charges
    guests for parking", "must pay"), all else the same."""
    claim, c, evidence, e = unpack(pair)
    for free, f, priced, p, ours in ((claim, c, evidence, e, True), (evidence, e, claim, c, False)):
        said = said_free(free)
        if said is None or said_free(priced):
            continue
        price = next((q for q in read(priced).quantities if q.unit in CURRENCY_CODES and q.value > 0), None)
        if price is not None:
            paid: tuple[int, int] = (price.start, max(price.end, price.unit_end))
        else:
            paying = next((t for t in p if t.word in PAYING and not _negated(priced, t)), None)
            if paying is None:
                continue
            paid = (paying.start, paying.end)
        leave_out = {t.lemma for t in f if said.start() <= t.start < said.end()} | _PRICE_WORDS
        leave_out |= {t.lemma for t in p if paid[0] <= t.start < paid[1]}
        if same_statement(c, e, frozenset(leave_out)) and same_statement(e, c, frozenset(leave_out)):
            free_words, price_words = said.group(0), priced[paid[0] : paid[1]]
            return Contrast(OPPOSITE, *((free_words, price_words) if ours else (price_words, free_words)))
    return None
