"""What a claim says against its aligned evidence sentence in the same words, besides values and
negation: an opposite word ("rose" / "fell"), another modality ("may share" where the evidence says
"must never share"), another quantifier ("some patients" / "none of the patients"), another name in
the same slot ("written by Ann Lee" / "by Tom Ray"), another doer of the same act ("approved by the
Operations Director" / "the staff team must approve"), the same words with the roles exchanged ("the
seller pays the buyer" / "the buyer pays the seller"), another ordinal, month or weekday in the same
slot ("the third floor" / "the second floor").

Each detector asks that the claim is otherwise the evidence's own statement (its other words are
the evidence's) and names what it found on both sides, so that the verdict can quote them. Each is
hard evidence (rrag/verify/lexical.py), so each is kept only as precise as the dev data showed it
(docs/verifier.md). They read one sentence of evidence at a time: in a window of two, a name of one
sentence is in no slot of the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rrag.text import STOPWORDS, split_sentences, stem, word_spans
from rrag.text.words import NEGATORS, PRONOUNS, has_digit

OPPOSITE, MODALITY, QUANTIFIER, ENTITY, ROLE = "opposite", "modality", "quantifier", "entity", "role"
ORDER = "order"  # another ordinal, month or weekday in the same slot
SAME_STATEMENT = 0.75  # share of the claim's other words the evidence sentence must hold
_BE = ("is", "are", "was", "were", "be", "been", "being")
_PASSIVE = re.compile(rf"\b(?:{'|'.join(_BE)})\s+(?:\w+\s+)?\w+(?:ed|en)\b", re.IGNORECASE)
MIN_OTHER_TERMS = 1  # a claim with nothing but the word it changes states nothing to compare


# Months and days are dates (values and `_order`), not names.
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_CALENDAR_WORDS = frozenset(
    "january february march april june july august september october november december".split() + _WEEKDAYS
)


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
        capital = (w.text[0].isupper() or code) and low not in _CALENDAR_WORDS
        after_break = bool(out) and bool(_BREAK.search(text, out[-1].end, w.start))
        out.append(_Token(low, _stem(low), w.start, w.end, capital, after_break))
    return tuple(out)


def clear_caches() -> None:
    """Forget the tokens of the sentences read (rrag.verify.lexical.clear_caches)."""
    _tokens.cache_clear()


# Irregular past forms, so that "Ann Lee wrote the guide" is read against "written by Tom Ray".
_IRREGULAR = {
    form: verb
    for verb, forms in {
        "write": "wrote written",
        "pay": "paid",
        "build": "built",
        "make": "made",
        "sell": "sold",
        "buy": "bought",
        "hold": "held",
        "keep": "kept",
        "send": "sent",
        "spend": "spent",
        "teach": "taught",
        "tell": "told",
        "find": "found",
        "give": "gave given",
        "take": "took taken",
        "choose": "chose chosen",
        "draw": "drew drawn",
        "win": "won",
        "begin": "began begun",
        "bring": "brought",
        "lead": "led",
        "run": "ran",
        "sing": "sang sung",
        "speak": "spoke spoken",
        "drive": "drove driven",
        "grow": "grew grown",
        "know": "knew known",
        "throw": "threw thrown",
        "break": "broke broken",
        "steal": "stole stolen",
        "fight": "fought",
        "catch": "caught",
        "feed": "fed",
        "leave": "left",
        "lose": "lost",
        "meet": "met",
    }.items()
    for form in forms.split()
}


def _stem(word: str) -> str:
    """`stem` twice: "bookings" and "booking" are both "book" (once, "booking" and "book")."""
    return stem(stem(_IRREGULAR.get(word, word)))


def _content(tokens: Tokens) -> Tokens:
    return tuple(t for t in tokens if t.word not in STOPWORDS and t.word not in NEGATORS)


def contrast(claim: str, evidence: str, retrieved: frozenset[str] = frozenset()) -> Contrast | None:
    """The first contrast between `claim` and a sentence of `evidence`, if any. `retrieved`: the
    stems of every retrieved text (a name stated anywhere there is no swapped name)."""
    c = _tokens(claim)
    retrieved = frozenset(stem(s) for s in retrieved)  # as `_stem` writes them
    for sentence in split_sentences(evidence):
        e = _tokens(sentence.text)
        found = (
            _opposite(claim, c, sentence.text, e)
            or _modality(claim, c, sentence.text, e)
            or _quantifier(claim, c, sentence.text, e)
            or _entity(claim, c, sentence.text, e, retrieved)
            or _doer(claim, c, sentence.text, e)
            or _order(claim, c, sentence.text, e)
            or _role(claim, c, sentence.text, e)
        )
        if found:
            return found
    return None


def _same_statement(claim: Tokens, evidence: Tokens, leave_out: frozenset[str]) -> bool:
    """Whether the evidence holds most of the claim's content words other than `leave_out`."""
    terms = {t.stem for t in _content(claim)} - leave_out
    held = terms & {t.stem for t in _content(evidence)}
    return len(terms) >= MIN_OTHER_TERMS and len(held) >= SAME_STATEMENT * len(terms)


# ------------------------------------------------------------------------------------------------
# Opposite words: "rose" / "fell", "before" / "after", "at most" / "minimum".

_ANTONYMS = [
    ("mandatory", "optional"),
    ("required", "optional"),
    ("required", "forbidden"),
    ("allowed", "prohibited"),
    ("allowed", "forbidden"),
    ("permitted", "prohibited"),
    ("permitted", "forbidden"),
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("increases", "decreases"),
    ("raise", "lower"),
    ("rise", "fall"),
    ("rises", "falls"),
    ("rose", "fell"),
    ("risen", "fallen"),
    ("rising", "falling"),
    ("minimum", "maximum"),
    ("included", "excluded"),
    ("paid", "unpaid"),
    ("before", "after"),
    ("inside", "outside"),
    ("indoors", "outdoors"),
    ("accepted", "rejected"),
    ("approved", "rejected"),
    ("internal", "external"),
    ("public", "private"),
    ("always", "never"),
    ("encrypted", "unencrypted"),
    ("eligible", "ineligible"),
    ("full", "part"),
]
OPPOSITES: dict[str, set[str]] = {}
for _a, _b in _ANTONYMS:
    OPPOSITES.setdefault(_stem(_a), set()).add(_stem(_b))
    OPPOSITES.setdefault(_stem(_b), set()).add(_stem(_a))
# Phrases read as the word they mean: "at least 6 nights" is a minimum of 6.
_PHRASES = {("at", "least"): "minimum", ("no", "less", "than"): "minimum", ("at", "most"): "maximum"}
_PHRASES |= {("no", "more", "than"): "maximum", ("up", "to"): "maximum", ("prior", "to"): "before"}


def _words_of(tokens: Tokens) -> list[tuple[str, int, int]]:
    """(stem, first token, after last) of each word and each phrase of `_PHRASES`."""
    out = [(t.stem, i, i + 1) for i, t in enumerate(tokens)]
    words = [t.word for t in tokens]
    for phrase, meaning in _PHRASES.items():
        out += [
            (_stem(meaning), i, i + len(phrase))
            for i in range(len(words))
            if tuple(words[i : i + len(phrase)]) == phrase
        ]
    return out


def _opposite(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    ours, theirs = _words_of(c), _words_of(e)
    our_stems, their_stems = {w for w, _, _ in ours}, {w for w, _, _ in theirs}
    for word, start, end in ours:
        for w, e_start, e_end in theirs:
            if w not in OPPOSITES.get(word, ()) or w in our_stems or word in their_stems:
                continue
            # The two words, and the phrases that say them ("at least").
            leave_out = frozenset({word, w} | {t.stem for t in c[start:end] + e[e_start:e_end]})
            rest = {t.stem for t in _content(c)} - leave_out
            # In the same place ("prices rose by" / "prices fell by"), or all else equal.
            slot = any(
                mine is not None and mine == _neighbour(e, at, step)
                for mine, at, step in (
                    (_neighbour(c, start, -1), e_start, -1),
                    (_neighbour(c, end - 1, 1), e_end - 1, 1),
                )
            )
            # All else the same words, in the same order, or turned round by a passive on one side
            # ("blood pressure is increased by X" / "X decreases blood pressure").
            ours_rest, theirs_rest = _in_order(c, leave_out), _in_order(e, leave_out)
            turned = bool(_PASSIVE.search(claim)) != bool(_PASSIVE.search(evidence))
            same = ours_rest == theirs_rest or (turned and sorted(ours_rest) == sorted(theirs_rest))
            if (slot and _same_statement(c, e, leave_out)) or (same and rest):
                return Contrast(OPPOSITE, _quote(claim, c, start, end), _quote(evidence, e, e_start, e_end))
    return None


def _in_order(tokens: Tokens, leave_out: frozenset[str]) -> list[str]:
    return [t.stem for t in _content(tokens) if t.stem not in leave_out]


# ------------------------------------------------------------------------------------------------
# Modality: what must, may, must not or need not be done.

FORBIDDEN, OBLIGED, ALLOWED, NOT_REQUIRED = "forbidden", "obliged", "allowed", "not required"
_MODAL_CLASHES = {
    frozenset({FORBIDDEN, ALLOWED}),
    frozenset({FORBIDDEN, OBLIGED}),
    frozenset({OBLIGED, NOT_REQUIRED}),
}
# Longest first: "must not" before "must". Each cue is a run of lower-case words.
_MODAL_CUES = [
    (FORBIDDEN, "must never|must not|mustnt|may not|may never|cannot|cant|can not|shall not|are not allowed"
     "|is not allowed|not allowed|never allowed|not permitted|never permitted|forbidden|prohibited|banned"),
    (NOT_REQUIRED, "do not need|does not need|did not need|dont need|doesnt need|didnt need|need not|neednt"
     "|do not have|does not have|dont have|doesnt have|not required|not necessary|not obliged|optional"),
    (OBLIGED, "must|have to|has to|had to|need to|needs to|required|mandatory|obliged|compulsory"),
    (ALLOWED, "may|can|could|allowed|permitted|free to"),
]  # fmt: skip
_MODAL_WORDS = frozenset(
    stem(w) for _, cues in _MODAL_CUES for cue in cues.split("|") for w in cue.split()
) | frozenset(stem(w) for w in ("need", "needs", "necessary", "allow", "permit", "require"))
_SKIPPED_AFTER_MODAL = frozenset({"be", "to", "been", "only", "also", "still", "always", "ever"})


def _modal_cues(tokens: Tokens) -> list[tuple[str, int, int]]:
    """(class, first token, token after the cue) of each modal cue, longest cues first."""
    words = [t.word for t in tokens]
    out: list[tuple[str, int, int]] = []
    taken: set[int] = set()
    for cls, cues in _MODAL_CUES:
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
        if t.word in _SKIPPED_AFTER_MODAL or t.word in NEGATORS:
            continue
        return t.stem if t.word not in STOPWORDS else None
    return None


def _modality(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    if not _same_statement(c, e, _MODAL_WORDS):
        return None
    for c_cls, c_start, c_end in _modal_cues(c):
        action = _action(c, c_end)
        for e_cls, e_start, e_end in _modal_cues(e):
            if frozenset({c_cls, e_cls}) in _MODAL_CLASHES and action and action == _action(e, e_end):
                return Contrast(
                    MODALITY, _quote(claim, c, c_start, c_end + 1), _quote(evidence, e, e_start, e_end + 1)
                )
    return None


# ------------------------------------------------------------------------------------------------
# Quantifiers: all, some, none, only.

ALL, NONE, SOME, PARTIAL, ONLY = "all", "none", "some", "partial", "only"
_QUANTIFIER_CUES = [
    (PARTIAL, "only some|only a few|not all|not every|a few|few|most"),
    (NONE, "none|no|nobody|nothing|not any"),
    (ONLY, "only the|the only"),
    (ALL, "all|every|each|whole|entire"),
    (SOME, "some|several|many"),
]
# claim's quantifier -> the evidence's quantifiers it contradicts
_QUANTIFIER_CLASHES = {
    ALL: {NONE, PARTIAL, ONLY},
    NONE: {ALL, SOME, PARTIAL},
    SOME: {NONE},
    PARTIAL: {ALL, NONE},
    ONLY: {ALL},
}
_QUANTIFIER_WORDS = frozenset(
    stem(w) for _, cues in _QUANTIFIER_CUES for cue in cues.split("|") for w in cue.split()
)
_QUANTIFIER_STARTING: dict[str, list[tuple[str, list[str]]]] = {}  # first word -> (class, cue words)
for _cls, _cues in _QUANTIFIER_CUES:
    for _cue in _cues.split("|"):
        _QUANTIFIER_STARTING.setdefault(_cue.split()[0], []).append((_cls, _cue.split()))
_NOT_A_NOUN = frozenset({"longer", "more", "less", "matter", "doubt", "one"})  # "no longer", "no one"


def _quantifiers(tokens: Tokens) -> list[tuple[str, int, int]]:
    """The class of each quantifier of the sentence, and where it is; "some ... not" is partial."""
    words = [t.word for t in tokens]
    out = []
    i = 0
    while i < len(words):
        found = _quantifier_at(words, i)
        if found:
            out.append(found)
        i = found[2] if found else i + 1
    return out


def _quantifier_at(words: list[str], i: int) -> tuple[str, int, int] | None:
    """The quantifier that starts at word `i`, if one does: (class, i, the word after it)."""
    for cls, parts in _QUANTIFIER_STARTING.get(words[i], ()):
        if words[i : i + len(parts)] != parts:
            continue
        after = words[i + len(parts)] if i + len(parts) < len(words) else ""
        if cls == NONE and parts == ["no"] and (after in _NOT_A_NOUN or after in STOPWORDS or not after):
            continue  # "no longer", "No, ..."
        if cls == SOME and any(w in NEGATORS for w in words[i + 1 :]):
            cls = PARTIAL  # "some dishes are not vegetarian"
        return cls, i, i + len(parts)
    return None


def _quantified(tokens: Tokens, after: int) -> str | None:
    """The stem of the noun a quantifier is about: its first content word that is no number, in its
    clause ("above all, have fun" quantifies nothing)."""
    for t in tokens[after : after + 5]:
        if t.after_break:
            return None
        if t.word not in STOPWORDS and t.word not in NEGATORS and not t.word.isdigit():
            return t.stem
    return None


def _quantifier(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    numbers = frozenset(t.stem for t in c if t.word.isdigit())
    for cls, start, end in _quantifiers(c):
        noun = _quantified(c, end)
        for e_cls, e_start, e_end in _quantifiers(e):
            # Of the same thing ("all rooms" / "none of the rooms"); "only the lid" / "all parts" of
            # the parts there are, whatever it calls them.
            either = {cls, e_cls} == {ALL, ONLY}
            same = (noun is not None and noun == _quantified(e, e_end)) or either
            leave_out = _QUANTIFIER_WORDS | numbers | ({noun} if either and noun else set())
            if e_cls in _QUANTIFIER_CLASHES[cls] and same and _same_statement(c, e, frozenset(leave_out)):
                return Contrast(
                    QUANTIFIER, _quote(claim, c, start, end + 1), _quote(evidence, e, e_start, e_end + 1)
                )
    return None


# ------------------------------------------------------------------------------------------------
# Names in the same slot: another person, place or model where the evidence names its own.


def _names(tokens: Tokens) -> list[tuple[int, int]]:
    """Runs of capitalised words or codes, numbers after them ("Orbit 7", "United States", "U.S."):
    (first, after last). A sentence's first word is a name only with another after it or as a code
    (without a tagger, "Lyon is ..." cannot be told from "Keep ...")."""
    runs, i = [], 0
    while i < len(tokens):
        if not (tokens[i].capital and tokens[i].word not in STOPWORDS):
            i += 1
            continue
        j = i + 1
        while (
            j < len(tokens) and not tokens[j].after_break and (tokens[j].capital or tokens[j].word.isdigit())
        ):
            j += 1
        if i > 0 or j - i > 1 or has_digit(tokens[i].word):
            runs.append((i, j))
        i = j
    return runs


def _entity(claim: str, c: Tokens, evidence: str, e: Tokens, retrieved: frozenset[str]) -> Contrast | None:
    if claim.isupper():
        return None  # "I WISH I COULD": capitals that name nothing
    e_stems = {t.stem for t in e}
    c_stems = {t.stem for t in c}
    for start, end in _names(c):
        run = c[start:end]
        if all(t.stem in e_stems or t.stem in retrieved for t in run):
            continue  # named there, if in other words ("Kansas's")
        names = frozenset(t.stem for t in run)
        if not _same_statement(c, e, names):
            continue  # the rest of the claim must be the evidence's own words
        all_held = {t.stem for t in _content(c)} - names <= e_stems
        before, after = _neighbour(c, start, -1), _neighbour(c, end - 1, 1)
        for e_start, e_end in _names(e):
            other = e[e_start:e_end]
            if not _other_name(run, other, c_stems):
                continue
            # The same slot: the same words on each side of both names, in the same clause; or the
            # doer, first in an active claim and after "by" in a passive evidence sentence ("Ann
            # Lee wrote the guide" / "the guide was written by Tom Ray").
            slot = all_held and (before, after) == (_neighbour(e, e_start, -1), _neighbour(e, e_end - 1, 1))
            doer = _opens(c, start) and _after_by(e, e_start) and e_end == len(e)
            if (slot and (before, after) != (None, None)) or (doer and _voices_differ(claim, evidence)):
                return Contrast(
                    ENTITY, claim[run[0].start : run[-1].end], evidence[other[0].start : other[-1].end]
                )
    return None


def _doer(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    """Another doer of the same act: "Refunds above 200 GBP must be approved by the Operations
    Director" / "The staff team must approve a refund above 200 GBP" (or "... be approved by the
    staff team"). Unlike `_entity` it needs no name on the claim's side, so it asks for the act
    itself instead: the evidence's participle with the claim's verb, the evidence's subject within
    the claim's object, and no word of the claim's doer anywhere in the evidence sentence."""
    if any(t.word in NEGATORS for t in c + e):
        return None  # "not approved by X" says nothing of who does approve
    c_stems, e_stems = {t.stem for t in c}, {t.stem for t in e}
    for act, done_to, doer in _passive_doers(e):
        if any(t.stem in c_stems for t in doer):
            continue  # the claim names the evidence's doer too ("... rescued by helicopter")
        for i in (i for i, t in enumerate(c) if t.stem == act and i > 0):
            ours, rest = _claim_doer(c, i)
            if (
                ours
                and not any(t.word in PRONOUNS or t.stem in e_stems for t in ours)
                and {t.stem for t in done_to} <= {t.stem for t in _content(rest)}
            ):
                return Contrast(
                    ENTITY, claim[ours[0].start : ours[-1].end], evidence[doer[0].start : doer[-1].end]
                )
    return None


def _passive_doers(e: Tokens) -> list[tuple[str, Tokens, Tokens]]:
    """(the act's stem, the content words it is done to, its doer) of each passive "... is approved
    by the X" in `e` whose doer ends the sentence, named or after an article ("by hand" is none)."""
    found = []
    for by in range(2, len(e) - 1):
        if e[by].word != "by" or not any(t.word in _BE for t in e[max(0, by - 3) : by - 1]):
            continue
        doer_end = next((k for k in range(by + 2, len(e)) if e[k].after_break), len(e))
        doer, done_to = _content(e[by + 1 : doer_end]), _content(e[: by - 1])
        if doer and done_to and doer_end == len(e) and (e[by + 1].word in _ARTICLES or doer[0].capital):
            found.append((e[by - 1].stem, done_to, doer))
    return found


def _claim_doer(c: Tokens, verb: int) -> tuple[Tokens, Tokens]:
    """The claim's doer of the verb at `verb` and the words the act is done to: after its "by" in a
    passive ("... must be approved by the staff team"), or opening the clause in an active one."""
    if c[verb - 1].word in _BE or (verb > 1 and c[verb - 2].word in _BE):
        if verb + 1 >= len(c) or c[verb + 1].word != "by":
            return (), ()
        end = next((k for k in range(verb + 3, len(c)) if c[k].after_break), len(c))
        return _content(c[verb + 2 : end]), c[:verb]
    if any(t.after_break for t in c[1 : verb + 1]):
        return (), ()
    return _content(c[:verb]), c[verb + 1 :]


# Words of a closed class whose members exclude each other in one slot: "the first floor" is not "the
# fourth floor", "from July 1857" not "from September 1857" (though September comes later in it).
_ORDINALS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
)
_CLOSED_CLASSES = [_ORDINALS, _CALENDAR_WORDS - frozenset(_WEEKDAYS), frozenset(_WEEKDAYS)]


def _order(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    claim_words, evidence_words = {t.word for t in c}, {u.word for u in e}
    for i, t in enumerate(c):
        kind = next((k for k in _CLOSED_CLASSES if t.word in k), None)
        if kind is None or not _same_statement(c, e, frozenset(x.stem for x in c if x.word in kind)):
            continue
        sides = (_neighbour(c, i, -1), _neighbour(c, i, 1))
        for j, u in enumerate(e):
            if u.word not in kind or u.word in claim_words:
                continue
            theirs = (_neighbour(e, j, -1), _neighbour(e, j, 1))
            # An ordinal is of the noun after it wherever the sentence puts it ("The first president
            # ... was Ada" / "Ada was the seventh president"), where the evidence has no claim's ordinal.
            of_the_same_noun = kind is _ORDINALS and t.word not in evidence_words and sides[1] == theirs[1]
            if sides == theirs != (None, None) or (of_the_same_noun and theirs[1] is not None):
                return Contrast(ORDER, claim[t.start : t.end], evidence[u.start : u.end])
    return None


def _other_name(ours: Tokens, theirs: Tokens, claim: set[str]) -> bool:
    """Whether `theirs` names another thing than `ours`: no word of it in the claim, or, for a model,
    another number ("TX-350" / "TX-200"); and neither is the other written short."""
    shared = {t.stem for t in ours} & {t.stem for t in theirs}
    if shared:
        differing = [t for t in ours + theirs if t.stem not in shared]
        return bool(differing) and all(has_digit(t.word) for t in differing)
    return not any(t.stem in claim for t in theirs) and not _alias(ours, theirs)


_ARTICLES = frozenset({"the", "a", "an"})


def _opens(tokens: Tokens, start: int) -> bool:
    """Whether the word at `start` opens the sentence, after an article at most ("The CFO ...")."""
    return all(t.word in _ARTICLES for t in tokens[:start])


def _after_by(tokens: Tokens, start: int) -> bool:
    """Whether "by" comes before the word at `start`, with an article at most between them."""
    i = start - 1
    while i >= 0 and tokens[i].word in _ARTICLES:
        i -= 1
    return i >= 0 and tokens[i].word == "by"


def _voices_differ(claim: str, evidence: str) -> bool:
    """Whether the evidence is passive and the claim active."""
    return bool(_PASSIVE.search(evidence)) and not _PASSIVE.search(claim)


def _alias(a: Tokens, b: Tokens) -> bool:
    """Whether one name may be the other written short: "US" for "United States", "U" for
    "University", "Ra" for "Ra's"."""
    initials = ("".join(t.word[0] for t in a), "".join(t.word[0] for t in b))
    joined = ("".join(t.word for t in a), "".join(t.word for t in b))
    return (
        joined[0] == initials[1]
        or joined[1] == initials[0]
        or joined[0].startswith(joined[1])
        or joined[1].startswith(joined[0])
    )


def _neighbour(tokens: Tokens, at: int, step: int) -> str | None:
    """The stem of the nearest content word before (step -1) or after (step 1) token `at` in its
    clause; None at the clause's edge."""
    i = at
    while 0 <= i + step < len(tokens):
        if (tokens[i + 1] if step > 0 else tokens[i]).after_break:
            return None
        i += step
        if tokens[i].word not in STOPWORDS and tokens[i].word not in NEGATORS:
            return tokens[i].stem
    return None


# ------------------------------------------------------------------------------------------------
# Roles: the same words, who does what to whom exchanged.

_SYMMETRIC = re.compile(r"\b(?:by|and|or|with|between|versus|vs|both)\b", re.IGNORECASE)
_ROLE_EXTRA_WORDS = 2  # content words the evidence sentence may have beyond the claim's


def _role(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    cc, ec = _content(c), _content(e)
    c_seq = [t.stem for t in cc]
    e_seq = [t.stem for t in ec if t.stem in set(c_seq)]
    if len(set(c_seq)) != len(c_seq) or set(e_seq) != set(c_seq) or len(e_seq) != len(c_seq):
        return None  # each word once on each side: the order is then who does what
    if len(ec) > len(cc) + _ROLE_EXTRA_WORDS:
        return None  # the evidence says more than the claim: not the same statement
    exchanged = _exchange(c_seq, e_seq)
    if exchanged is None:
        return None
    first, last = exchanged
    c_span = claim[cc[first].start : cc[last].end]
    e_start = next(t for t in ec if t.stem == e_seq[first]).start
    e_span = evidence[e_start : next(t for t in ec if t.stem == e_seq[last]).end]
    # "A and B met", "between A and B": no roles; a passive ("B is paid by A", "roaming is not
    # included in any plan") or a clause put first ("Before X, do Y") says the same thing.
    if _SYMMETRIC.search(c_span) or _SYMMETRIC.search(e_span):
        return None
    if bool(_PASSIVE.search(claim)) != bool(_PASSIVE.search(evidence)) or "," in c_span + e_span:
        return None
    return Contrast(ROLE, c_span, e_span)


def _exchange(ours: list[str], theirs: list[str]) -> tuple[int, int] | None:
    """Where `theirs` is `ours` with two runs of words exchanged around at least one word between
    them ("ward doctor inform nurse" / "nurse inform ward doctor"): the first and last word moved."""
    differ = [i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y]
    if not differ:
        return None
    first, last = differ[0], differ[-1]
    for a in range(1, last - first):
        for b in range(1, last - first - a + 1):
            middle = ours[first + a : last + 1 - b]
            if (
                middle
                and theirs[first : last + 1]
                == ours[last + 1 - b : last + 1] + middle + ours[first : first + a]
            ):
                return first, last
    return None


def _quote(text: str, tokens: Tokens, start: int, end: int) -> str:
    """The words of `text` from token `start` up to (not including) token `end`."""
    end = min(end, len(tokens))
    return text[tokens[start].start : tokens[end - 1].end] if start < end else ""
