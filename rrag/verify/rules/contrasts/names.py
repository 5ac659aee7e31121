"""Contrasts of who and which: another name in the same slot, another doer of the same act, another
ordinal, month or weekday in the same slot, the same words with the roles exchanged."""

from __future__ import annotations

from rrag.lang.en.dates import BEFORE_A_TIME, SEASONS, WEEKDAYS
from rrag.lang.en.function_words import ARTICLES, BE, PRONOUNS
from rrag.lang.en.lexicon import (
    COLOURS,
    FROM_BEFORE,
    KIND_WORDS,
    MATERIALS,
    NOT_SUPERLATIVE,
    ORDERED_BETWEEN,
    PASSIVE,
    SYMMETRIC,
    TO_BETWEEN,
)
from rrag.lang.en.negation import NEGATORS
from rrag.lang.en.numerals import ORDINALS
from rrag.text.reading import CALENDAR_WORDS, Tokens
from rrag.text.words import has_digit
from rrag.verify.rules.base import ALWAYS, Contrast, Pair, sentence_rule
from rrag.verify.rules.contrasts.base import (
    ENTITY,
    ORDER,
    ROLE,
    SWAP,
    content_tokens,
    neighbour,
    same_statement,
    unpack,
)

# ------------------------------------------------------------------------------------------------
# Names in the same slot: another person, place or model where the evidence names its own.


# Another thing, not hard evidence: it always overrules the model's yes (the judge supports "with tea"
# against "with coffee"; docs/verifier.md).
@sentence_rule(SWAP, 710, overrules_below=ALWAYS)
def named_elsewhere(pair: Pair) -> Contrast | None:
    """The evidence sentence word for word but for its name, which the claim replaces with one the
    retrieved text names elsewhere, of something else: "The head office moved to Leeds in 2015"
    against "Its head office moved to Manchester in 2015", Leeds being where the company was
    founded. Not where a sentence of the window names it in the same slot ("offices in Manchester. It
    opened another office in Leeds"). Another thing (SWAP), not hard evidence: a slot may hold several
    names. Not in a negation or a condition, which turn the
    swap round ("Dominique does not live in Spain" / "... in Europe")."""
    claim, c, evidence, e = unpack(pair)
    if any(t.word in NEGATORS or t.word == "if" for t in c + e):
        return None
    found = entity(pair._replace(retrieved=frozenset()))
    if found is None:
        return None
    ours, theirs = _tokens_of(claim, found.claim, c), _tokens_of(evidence, found.evidence, e)
    if {t.lemma for t in content_tokens(c)} - {t.lemma for t in ours} != {
        t.lemma for t in content_tokens(e)
    } - {t.lemma for t in theirs}:
        return None
    at = c.index(ours[0])
    slot = (neighbour(c, at, -1), neighbour(c, at + len(ours) - 1, 1))
    for tokens in (sentence.tokens for sentence in pair.window):
        stems = [t.lemma for t in tokens]
        for i in range(len(tokens) - len(ours) + 1):
            if stems[i : i + len(ours)] == [t.lemma for t in ours]:
                here = (neighbour(tokens, i, -1), neighbour(tokens, i + len(ours) - 1, 1))
                if any(a is not None and a == b for a, b in zip(slot, here)):
                    return None  # named in the same slot there
    return Contrast(SWAP, found.claim, found.evidence)


def _tokens_of(text: str, part: str, tokens: Tokens) -> Tokens:
    """The tokens of `part`, where it first is in `text`."""
    start = text.find(part)
    return tuple(t for t in tokens if start <= t.start < start + len(part))


@sentence_rule(ENTITY, 470)
def entity(pair: Pair) -> Contrast | None:
    """Another name in the slot of the evidence's, one the retrieved text never names."""
    claim, c, evidence, e = unpack(pair)
    retrieved = pair.retrieved
    if claim.isupper():
        return None  # "I WISH I COULD": capitals that name nothing
    e_stems = {t.lemma for t in e}
    c_stems = {t.lemma for t in c}
    for start, end in pair.claim.names:
        run = c[start:end]
        if all(t.lemma in e_stems or t.lemma in retrieved for t in run):
            continue  # named there, if in other words ("Kansas's")
        names = frozenset(t.lemma for t in run)
        if not same_statement(c, e, names):
            continue  # the rest of the claim must be the evidence's own words
        all_held = {t.lemma for t in content_tokens(c)} - names <= e_stems
        before, after = neighbour(c, start, -1), neighbour(c, end - 1, 1)
        for e_start, e_end in pair.evidence.names:
            other = e[e_start:e_end]
            if not _other_name(run, other, c_stems):
                continue
            # The same slot: the same words on each side of both names, in the same clause; or the
            # doer, first in an active claim and after "by" in a passive evidence sentence ("Ann
            # Lee wrote the guide" / "the guide was written by Tom Ray").
            slot = all_held and (before, after) == (neighbour(e, e_start, -1), neighbour(e, e_end - 1, 1))
            # ... a doer that ends the sentence, or one followed by more words where the two names
            # differ in their last word ("Tomas Ruiz signed the lease on behalf of ..." / "... signed
            # by Tomas Reyes on behalf of ...")
            doer = (
                _opens(c, start) and _after_by(e, e_start) and (e_end == len(e) or _last_differs(run, other))
            )
            if (slot and (before, after) != (None, None)) or (doer and _voices_differ(claim, evidence)):
                return Contrast(
                    ENTITY, claim[run[0].start : run[-1].end], evidence[other[0].start : other[-1].end]
                )
    return None


@sentence_rule(ENTITY, 480)
def doer(pair: Pair) -> Contrast | None:
    """Another doer of the same act: "Refunds above 200 GBP must be approved by the Operations
    Director" / "The staff team must approve a refund above 200 GBP" (or "... be approved by the
    staff team"). Unlike `entity` it needs no name on the claim's side, so it asks for the act
    itself instead: the evidence's participle with the claim's verb, the evidence's subject within
    the claim's object, and no word of the claim's doer anywhere in the evidence sentence."""
    claim, c, evidence, e = unpack(pair)
    if any(t.word in NEGATORS for t in c + e):
        return None  # "not approved by X" says nothing of who does approve
    c_stems, e_stems = {t.lemma for t in c}, {t.lemma for t in e}
    for act, done_to, doer in _passive_doers(e):
        if any(t.lemma in c_stems for t in doer):
            continue  # the claim names the evidence's doer too ("... rescued by helicopter")
        for i in (i for i, t in enumerate(c) if t.lemma == act and i > 0):
            ours, rest = _claim_doer(c, i)
            if (
                ours
                and not any(t.word in PRONOUNS or t.lemma in e_stems for t in ours)
                and {t.lemma for t in done_to} <= {t.lemma for t in content_tokens(rest)}
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
        if e[by].word != "by" or not any(t.word in BE for t in e[max(0, by - 3) : by - 1]):
            continue
        doer_end = next((k for k in range(by + 2, len(e)) if e[k].after_break), len(e))
        doer, done_to = content_tokens(e[by + 1 : doer_end]), content_tokens(e[: by - 1])
        if doer and done_to and doer_end == len(e) and (e[by + 1].word in ARTICLES or doer[0].capital):
            found.append((e[by - 1].lemma, done_to, doer))
    return found


def _claim_doer(c: Tokens, verb: int) -> tuple[Tokens, Tokens]:
    """The claim's doer of the verb at `verb` and the words the act is done to: after its "by" in a
    passive ("... must be approved by the staff team"), or opening the clause in an active one."""
    if c[verb - 1].word in BE or (verb > 1 and c[verb - 2].word in BE):
        if verb + 1 >= len(c) or c[verb + 1].word != "by":
            return (), ()
        end = next((k for k in range(verb + 3, len(c)) if c[k].after_break), len(c))
        return content_tokens(c[verb + 2 : end]), c[:verb]
    if any(t.after_break for t in c[1 : verb + 1]):
        return (), ()
    return content_tokens(c[:verb]), c[verb + 1 :]


# Words of a closed class whose members exclude each other in one slot: "the first floor" is not "the
# fourth floor", "from July 1857" not "from September 1857" (though September comes later in it),
# "in spring 2019" not "in autumn 2019", "a steel bridge" no "wooden bridge".
_PROPERTIES = (MATERIALS, COLOURS)  # of things, several of them in a sentence, each of its own thing
_CLOSED_CLASSES = [
    ORDINALS,
    CALENDAR_WORDS - frozenset(WEEKDAYS),
    frozenset(WEEKDAYS),
    SEASONS,
    MATERIALS,
    COLOURS,
]


@sentence_rule(ORDER, 490)
def order(pair: Pair) -> Contrast | None:
    """Another word of a closed class in the same slot ("the third floor" / "the second floor", "in
    spring" / "in autumn"), or a rank one side gives a superlative and the other does not."""
    claim, c, evidence, e = unpack(pair)
    ranked = _ranked(claim, c, evidence, e)
    if ranked:
        return ranked
    claim_words, evidence_words = {t.word for t in c}, {u.word for u in e}
    for i, t in enumerate(c):
        kind = next((k for k in _CLOSED_CLASSES if t.word in k), None)
        if kind is None or (kind in _PROPERTIES and t.word in evidence_words):
            continue  # a colour the evidence gives too ("the woman wearing red ... the other in blue")
        if not same_statement(c, e, frozenset(x.lemma for x in c if x.word in kind)):
            continue
        if kind is SEASONS and not _a_time(c, i):
            continue
        around = (neighbour(c, i, -1), neighbour(c, i, 1))
        for j, u in enumerate(e):
            if u.word not in kind or u.word in claim_words or (kind is SEASONS and not _a_time(e, j)):
                continue
            theirs = (neighbour(e, j, -1), neighbour(e, j, 1))
            # An ordinal is of the noun after it wherever the sentence puts it ("The first president
            # ... was Ada" / "Ada was the seventh president"), where the evidence has no claim's ordinal.
            of_the_same_noun = kind is ORDINALS and t.word not in evidence_words and around[1] == theirs[1]
            if around == theirs != (None, None) or (of_the_same_noun and theirs[1] is not None):
                return Contrast(ORDER, claim[t.start : t.end], evidence[u.start : u.end])
    return None


# Superlatives a rank can precede ("the second longest river"); "-est" words that are none are in
# rrag.lang.en.lexicon.NOT_SUPERLATIVE.


def _superlative(word: str) -> bool:
    return len(word) > 5 and word.endswith("est") and word not in NOT_SUPERLATIVE


def _ranked(claim: str, c: Tokens, evidence: str, e: Tokens) -> Contrast | None:
    """A rank one side gives a superlative of a noun and the other does not: "the second longest
    river" / "the longest river", either way round."""
    both = ((claim, c), (evidence, e))
    for (ranked_text, ranked), (plain_text, plain) in (both, both[::-1]):
        for i in range(len(ranked) - 1):
            rank, word = ranked[i], ranked[i + 1]
            if rank.word not in ORDINALS or not _superlative(word.word):
                continue
            if any(t.word == "the" and u.word == word.word for t, u in zip(ranked, ranked[1:])):
                continue  # it gives that superlative unranked too ("the highest ..., the third-highest ...")
            noun = neighbour(ranked, i + 1, 1)
            for j, u in enumerate(plain):
                plain_superlative = j > 0 and plain[j - 1].word == "the" and u.word == word.word
                if not (plain_superlative and noun is not None and neighbour(plain, j, 1) == noun):
                    continue
                if not same_statement(c, e, frozenset({rank.lemma})):
                    return None
                quotes = (ranked_text[rank.start : word.end], plain_text[u.start : u.end])
                return Contrast(ORDER, *(quotes if ranked is c else quotes[::-1]))
    return None


def _a_time(tokens: Tokens, at: int) -> bool:
    """Whether a word of time comes before token `at`, or before "the" before it ("in the spring"),
    and it is written small (the Summer Olympics are no time)."""
    before = at - 1 if at > 1 and tokens[at - 1].word == "the" else at
    return before > 0 and tokens[before - 1].word in BEFORE_A_TIME and not tokens[at].capital


def _other_name(ours: Tokens, theirs: Tokens, claim: set[str]) -> bool:
    """Whether `theirs` names another thing than `ours`: no word of it in the claim, or, for a model,
    another number ("TX-350" / "TX-200"); and neither is the other written short."""
    shared = {t.lemma for t in ours} & {t.lemma for t in theirs}
    if shared:
        differing = [t for t in ours + theirs if t.lemma not in shared]
        return bool(differing) and (all(has_digit(t.word) for t in differing) or _last_differs(ours, theirs))
    return not any(t.lemma in claim for t in theirs) and not _alias(ours, theirs)


def _last_differs(ours: Tokens, theirs: Tokens) -> bool:
    """Whether two names of as many words differ in their last word alone, and it names which one:
    "Anna Borg" / "Anna Berg", "New York" / "New Jersey"; not "Baker Street" / "Baker St"."""
    if len(ours) != len(theirs) or len(ours) < 2:
        return False
    if any(a.lemma != b.lemma for a, b in zip(ours[:-1], theirs[:-1])):
        return False
    last = (ours[-1].word, theirs[-1].word)
    return not (set(last) & KIND_WORDS) and not _alias(ours[-1:], theirs[-1:])


def _opens(tokens: Tokens, start: int) -> bool:
    """Whether the word at `start` opens the sentence, after an article at most ("The CFO ...")."""
    return all(t.word in ARTICLES for t in tokens[:start])


def _after_by(tokens: Tokens, start: int) -> bool:
    """Whether "by" comes before the word at `start`, with an article at most between them."""
    i = start - 1
    while i >= 0 and tokens[i].word in ARTICLES:
        i -= 1
    return i >= 0 and tokens[i].word == "by"


def _voices_differ(claim: str, evidence: str) -> bool:
    """Whether the evidence is passive and the claim active."""
    return bool(PASSIVE.search(evidence)) and not PASSIVE.search(claim)


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


# ------------------------------------------------------------------------------------------------
# Roles: the same words, who does what to whom exchanged.

_ROLE_EXTRA_WORDS = 2  # content words the evidence sentence may have beyond the claim's


@sentence_rule(ROLE, 500)
def role(pair: Pair) -> Contrast | None:
    """The same words with who does what to whom exchanged: "the seller pays the buyer" / "the buyer
    pays the seller"."""
    claim, c, evidence, e = unpack(pair)
    cc, ec = content_tokens(c), content_tokens(e)
    amounts = [sorted(t.lemma for t in tokens if has_digit(t.word)) for tokens in (cc, ec)]
    if amounts[0] and amounts[0] == amounts[1]:
        # The same amounts, each with its noun on either side of it ("a deposit of $2,000", "a $2,000
        # deposit"): who does what to whom is in the order of the other words.
        cc, ec = (tuple(t for t in tokens if not has_digit(t.word)) for tokens in (cc, ec))
    c_seq = [t.lemma for t in cc]
    e_seq = [t.lemma for t in ec if t.lemma in set(c_seq)]
    if len(set(c_seq)) != len(c_seq) or set(e_seq) != set(c_seq) or len(e_seq) != len(c_seq):
        return None  # each word once on each side: the order is then who does what
    if len(ec) > len(cc) + _ROLE_EXTRA_WORDS:
        return None  # the evidence says more than the claim: not the same statement
    exchanged = _exchange(c_seq, e_seq) or _ends_exchanged(claim, cc, c_seq, e_seq)
    if exchanged is None:
        return None
    first, last = exchanged
    kept = [w for w, theirs in zip(c_seq[first + 1 : last], e_seq[first + 1 : last]) if w == theirs]
    if kept and all(has_digit(w) for w in kept):
        return None  # an amount between them is no action ("members get 10%" / "books are 10% off")
    c_span = claim[cc[first].start : cc[last].end]
    e_start = next(t for t in ec if t.lemma == e_seq[first]).start
    e_span = evidence[e_start : next(t for t in ec if t.lemma == e_seq[last]).end]
    # "A and B met", "between A and B": no roles; a passive ("B is paid by A", "roaming is not
    # included in any plan") or a clause put first ("Before X, do Y") says the same thing.
    if SYMMETRIC.search(c_span) or SYMMETRIC.search(e_span):
        return None
    if bool(PASSIVE.search(claim)) != bool(PASSIVE.search(evidence)) or "," in c_span + e_span:
        return None
    return Contrast(ROLE, c_span, e_span)


def _ends_exchanged(text: str, tokens: Tokens, ours: list[str], theirs: list[str]) -> tuple[int, int] | None:
    """Where `theirs` is `ours` with the two ends of a way the claim names, one word each, exchanged:
    "moved from Monday to Wednesday" / "from Wednesday to Monday", or the two sides of an order or a
    comparison. Two words exchanged with no word between them name roles only so ("red blue" or
    "Monday, Wednesday" name none)."""
    for i, (a, b) in enumerate(zip(tokens, tokens[1:])):
        between = text[a.end : b.start]
        ends = (FROM_BEFORE.search(text, 0, a.start) and TO_BETWEEN.match(between)) or ORDERED_BETWEEN.match(
            between
        )
        if ends and _exchange(ours, theirs, between=0) == (i, i + 1):
            return i, i + 1
    return None


def _exchange(ours: list[str], theirs: list[str], between: int = 1) -> tuple[int, int] | None:
    """Where `theirs` is `ours` with two runs of words exchanged around at least `between` words
    between them ("ward doctor inform nurse" / "nurse inform ward doctor"): the first and last word
    moved."""
    differ = [i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y]
    if not differ:
        return None
    first, last = differ[0], differ[-1]
    for a in range(1, last - first + 1):
        for b in range(1, last - first - a + 2):
            middle = ours[first + a : last + 1 - b]
            if (
                len(middle) >= between
                and first + a <= last + 1 - b
                and theirs[first : last + 1]
                == ours[last + 1 - b : last + 1] + middle + ours[first : first + a]
            ):
                return first, last
    return None
