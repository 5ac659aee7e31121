"""The negation rules: one side of a claim and its evidence negates what the other states plainly in
the same words (NEGATION); or a negation on one side only, about other words (NEGATED_EVIDENCE: no
evidence against the claim, a sign that tells a contradiction from an unsupported claim). And what of
each side a reason quotes."""

from __future__ import annotations

import re

from rrag.lang.en.modality import RULE_SYNONYMS
from rrag.lang.en.negation import (
    CONDITIONAL,
    NEGATIVE_PREFIXES,
    NEGATIVE_WORDS,
    NOT_FLIPPED,
    SELF_DENYING_VERBS,
)
from rrag.lang.en.wordnet import kind_of
from rrag.text import STOPWORDS, Negation, negates, split_sentences, stem, word_spans
from rrag.text.clauses import main_verbs, verb_starts
from rrag.text.reading import read
from rrag.types import ClaimStatus, Verdict
from rrag.verify.rules.base import NEVER, Comparison, window_rule
from rrag.verify.rules.compared import VERB_OF, Statement, coverage, share, weighted
from rrag.verify.rules.records import facts

NEGATION, NEGATED_EVIDENCE = "negation", "negated evidence"
CONTRADICTION_COVERAGE = 0.7  # negation and antonyms only contradict evidence about the same thing
SAME_CLAUSE = 0.6  # share of a negated clause's words the other side must hold for a negation mismatch
MIN_CLAUSE_TERMS = 3  # "it was not the most violent": too little said to be sure what is denied
MIN_SHORT_TERMS = 2  # ... unless the claim is the whole clause denied ("Cats are allowed")
SHORT_DENIED = 0.5  # share of the evidence's words (less amounts) a short claim must deny to contradict it
SAME_CLAUSE_BACK = 0.5  # share of the claim's words a negated evidence clause must hold
_NEGATIVE_VERBS = frozenset(stem(w) for w in SELF_DENYING_VERBS)
# Words that say the same in rules and policies (rrag.lang.en.modality.RULE_SYNONYMS), by their first.
_SAME_AS = {stem(word): stem(group[0]) for group in RULE_SYNONYMS for word in group}
# An irregular form is its verb: "should not be drunk" denies "safe to drink". Not "know": "I didn't know
# he was called X" denies no "known as X".
_SAME_AS |= {form: verb for form, verb in VERB_OF.items() if verb != stem("know")}
# Words of denial a negator turns round: "not prohibited" says it is allowed.
_FLIPPED = NEGATIVE_WORDS - NOT_FLIPPED
# A negation that is one of two choices denies nothing: "at reduced or no cost", "little or no support".
_ALTERNATIVE = re.compile(r"\bor\s+$", re.IGNORECASE)
QUOTED_WORDS = 12  # a reason quotes a claim or evidence sentence up to this long, else the words around


def denied_words(c: Statement, e: Statement) -> tuple[str, str] | None:
    """A word one side denies and the other states, as (the claim's word, the evidence's word), stemmed:
    a negation on one side only (`_denial`), or a negator on one side of a word that itself denies,
    which the other side says with no negator (`_negated_denial`); the word stated may be one WordNet
    calls the denied word or a kind of it (`_in_kind`)."""
    found = _denied_words(c, e)
    if found is None and e.denies and not c.denies:
        # Only a claim stated plainly against denying evidence: a claim's own "I didn't think of" or
        # "didn't know" is mostly a turn of speech.
        found = next((words for said in _in_kind(e, c) if (words := _denied_words(said, e))), None)
    return found


def _in_kind(negated: Statement, plain: Statement) -> list[Statement]:
    """`plain` read with a word of it in place of a word `negated` denies, where WordNet calls the
    first the second or a kind of it: "The hotel welcomes pets" read as "The hotel accepts pets"
    against "does not accept pets", "serves beef" as "serves meat" against "does not serve meat".
    Every word of it so read must be in the clause of that denial."""
    written = {stem(w.text.lower()): w.text for w in read(negated.asserted).spans}
    readings = (
        (Statement.of(plain.text[: w.start] + written[t] + plain.text[w.end :]), n)
        for n in negated.negations
        for t in sorted(n.terms - plain.terms)
        if t in written
        for w in read(plain.text).spans
        if stem(w.text.lower()) in plain.terms - negated.terms and kind_of(w.text.lower(), written[t].lower())
    )
    return [said for said, n in readings if said.terms <= n.clause]


def _denied_words(c: Statement, e: Statement) -> tuple[str, str] | None:
    if not (c.denies or e.denies):
        return None
    if len(c.terms) < MIN_CLAUSE_TERMS:
        return _clause_denied(c, e)
    # The claim must say enough, and be about what the evidence is about (in either word of a rule).
    if _covered(c, e) < CONTRADICTION_COVERAGE:
        return None
    if c.denies == e.denies:
        return _negated_denial(c, e)
    negation = _denial(c, e)
    if negation is None:
        return None
    denied, plain = _denied_word(negation, e.plain if c.denies else c.plain)
    return (denied, plain) if c.denies else (plain, denied)


def _clause_denied(c: Statement, e: Statement) -> tuple[str, str] | None:
    """A short claim, stated plainly, that is a clause the evidence denies, every word the negation
    reaches among the claim's: "Cats are allowed" against "Dogs are welcome, but cats are not allowed"
    (not "There were negative reviews" against "I don't understand the negative reviews")."""
    # One negation in a plain statement: not "not saying she's not beautiful", "if Nancy is not a pirate".
    if len(c.terms) < MIN_SHORT_TERMS or CONDITIONAL.search(c.text + " " + e.text):
        return None
    if c.denies:  # ... and the other way round: "The coat is not waterproof" / "The coat is waterproof"
        if len(c.negations) != 1 or e.denies:
            return None
        (n,) = c.negations
        # The evidence says that, and little else but an amount ("waterproof to 50 metres") or a
        # condition ("Returns are accepted within 30 days of purchase")
        rest = e.topic | (e.terms & c.terms)
        said = n.terms and n.terms <= e.plain and c.terms <= e.terms and share(rest, c.terms) >= SHORT_DENIED
        return (word := min(n.terms), word) if said else None
    if len(e.negations) != 1:
        return None
    (n,) = e.negations
    return (word := min(n.terms), word) if n.terms <= c.plain and c.terms <= n.clause else None


def _negated_denial(c: Statement, e: Statement) -> tuple[str, str] | None:
    """ "Not prohibited" against "prohibited", "did not fail" against "failed": both sides deny, one of
    them the other's word of denial."""
    for negated, other in ((c, e), (e, c)):
        said = _by_canonical(_unnegated_denials(other))
        other_terms = _canonical(other.terms)
        for n in negated.negations:
            hit = sorted(t for t in n.terms if _SAME_AS.get(t, t) in said)
            if hit and _in_clause_of(n, other_terms):
                theirs = said[_SAME_AS.get(hit[0], hit[0])]
                return (hit[0], theirs) if negated is c else (theirs, hit[0])
    return None


def _unnegated_denials(t: Statement) -> frozenset[str]:
    """The words of denial ("prohibited", "failed") `t` says with no negator anywhere before them: a
    negation's reach is no sure guide here ("it can't, realistically, be stopped", "never been
    knocked out or stopped")."""
    tokens = read(t.asserted).words
    first_negator = next((i for i in range(len(tokens)) if negates(tokens, i)), len(tokens))
    return frozenset(stem(w) for w in tokens[:first_negator] if w in _FLIPPED)


def _denial(c: Statement, e: Statement) -> Negation | None:
    """The negation of the side that denies that reaches a word the other side states plainly, in a
    clause most of whose words the other side has. The claim must say enough to be sure what it says
    ("there were negative reviews" is no statement about "I don't understand the negative reviews");
    where the evidence denies, its clause must hold most of the claim (not a "don't" of the next
    sentence); where the claim denies, the evidence must state every word it denies ("was not allowed
    to return" says nothing against "wanted to return"). "Has not stopped" denies nothing."""
    negated, other = (c, e) if c.denies else (e, c)
    plain, other_terms = _canonical(other.plain), _canonical(other.terms)
    return next(
        (
            n
            for n in negated.negations
            if _canonical(_used_alike(n, negated, other)) & plain
            and not n.terms & _NEGATIVE_VERBS
            and not _ALTERNATIVE.search(negated.asserted, 0, n.start)
            and not _negated_by_prefix(n.terms, other.terms)
            # The evidence's "but not X" after a list says its clause of X alone: the claim names none
            # of the list ("It connects over Wi-Fi and USB, but not Bluetooth")
            and (_in_clause_of(n, other_terms) or (n.elided and negated is e))
            and (_canonical(n.terms) <= plain if c.denies else share(c.terms, n.clause) >= SAME_CLAUSE_BACK)
        ),
        None,
    )


def _used_alike(n: Negation, negated: Statement, other: Statement) -> frozenset[str]:
    """Of the words a negation denies, those the other side does not say only as another part of
    speech: "does not cover cash" denies the verb, and "Our goods cover pays up to £50,000" says the
    noun (the parse's reading, asked only where a denial is near)."""
    text = negated.asserted
    starts = verb_starts(text)
    verbs = _canonical(
        frozenset(stem(w.text) for w in word_spans(text) if n.start <= w.start < n.end and w.start in starts)
    )
    if not _canonical(n.terms) & verbs:
        return n.terms
    theirs = _canonical(frozenset(stem(v) for v in main_verbs(other.asserted)))
    return frozenset(t for t in n.terms if _SAME_AS.get(t, t) not in verbs or _SAME_AS.get(t, t) in theirs)


def _in_clause_of(n: Negation, other_terms: frozenset[str]) -> bool:
    """Whether the clause `n` is in says enough, most of it in the other side's words (`other_terms`,
    read by `_canonical`)."""
    return len(n.clause) >= MIN_CLAUSE_TERMS and share(_canonical(n.clause), other_terms) >= SAME_CLAUSE


def _covered(c: Statement, e: Statement) -> float:
    """The weighted share of the claim's terms the evidence has (`compared.coverage`), a synonym
    counting as the word: what the two sides are about, whichever word each uses for the rule."""
    same = _canonical(e.terms)
    return weighted(c, frozenset(t for t in c.terms if _SAME_AS.get(t, t) in same))


def _canonical(terms: frozenset[str]) -> frozenset[str]:
    return frozenset(_SAME_AS.get(t, t) for t in terms)


def _denied_word(n: Negation, plain: frozenset[str]) -> tuple[str, str]:
    """A word `n` denies that the other side states plainly, as each side writes it (stemmed): the
    same word, or its synonym ("allow" where the other side says "permitt")."""
    stated = _by_canonical(plain)
    denied = min(t for t in n.terms if _SAME_AS.get(t, t) in stated)
    return denied, denied if denied in plain else stated[_SAME_AS.get(denied, denied)]


def _by_canonical(terms: frozenset[str]) -> dict[str, str]:
    """Each term of `terms` under its `_canonical` form; of two with one form ("drink", "drank"), the
    first in alphabetical order, so that a reason quotes the same word on every run."""
    out: dict[str, str] = {}
    for t in sorted(terms):
        out.setdefault(_SAME_AS.get(t, t), t)
    return out


def _negated_by_prefix(terms: frozenset[str], other: frozenset[str]) -> bool:
    """Whether `other` says "unsuitable" or "disallowed" where a negation says "not suitable"."""
    return any(prefix + t in other for t in terms for prefix in NEGATIVE_PREFIXES)


def quoted_phrase(text: str, term: str) -> str:
    """What a reader needs to see of one side of a negation: the negation with the word before it and
    the words it reaches ("does not cover theft"), else the sentence that states `term` plainly (its
    words around `term` where it is long)."""
    spans = read(text).spans
    for n in read(text).negations:
        if term in n.terms:
            before = [w for w in spans if w.end <= n.start][-1:]
            return text[before[0].start if before else n.start : n.end]
    if len(spans) <= QUOTED_WORDS:
        return text[spans[0].start : spans[-1].end] if spans else text
    at = next((i for i, w in enumerate(spans) if stem(w.text.lower().replace("'", "")) == term), 0)
    first = max(0, min(at - QUOTED_WORDS // 2, len(spans) - QUOTED_WORDS))
    last = first + QUOTED_WORDS - 1
    while last > at and spans[last].text.lower() in STOPWORDS:
        last -= 1  # "... in the last 49 days", not "... 49 days of a"
    return text[spans[first].start : spans[last].end]


# ------------------------------------------------------------------------------------------------
# The rules


@window_rule(NEGATION, 300)
def negated(comparison: Comparison) -> Verdict | None:
    """One side negates what the other, with no negation of its own, states plainly in the same words
    ("may not bring food" / "food may be brought"). A "not" about another word, or negations on both
    sides, is no evidence: of 52 dev claims the rules contradicted for a "not" in the evidence, 36
    were supported. A record's keys are no plain statements ("Pool": false states no pool): the
    record rule reads them."""
    text, e = comparison.text, comparison.evidence
    denied = None if facts(e.text) else denied_words(comparison.claim, e)
    if not denied:
        return None
    ours, theirs = denied
    # "No set-up fee" is what "the set-up fee is £0" says; a question says neither.
    if _none_of(comparison.claim, ours) or _none_of(e, theirs) or _only_asked(e.text, theirs):
        return None
    quoted = quoted_phrase(e.text, theirs), quoted_phrase(text, ours)
    reason = "the evidence says {!r} where the claim says {!r}".format(*quoted)
    return comparison.verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, reason)


def _none_of(said: Statement, word: str) -> bool:
    """Whether `said` gives the amount of what `word` names as zero: an amount of none denies it."""
    return any(v.amount == 0 and word in v.near for v in said.values)


def _only_asked(text: str, word: str) -> bool:
    """Whether each sentence of `text` that says `word` is a question: "Is there a data cap?" (an FAQ's
    heading) states no data cap for "There is no data cap" to deny."""
    saying = [s.text for s in split_sentences(text) if word in read(s.text).stems]
    return bool(saying) and all(s.rstrip().endswith("?") for s in saying)


# A negation on one side only, about other words, never overrules a yes: it only tells a
# contradiction from an unsupported claim (rrag/verify/guarded.py).
@window_rule(NEGATED_EVIDENCE, 900, overrules_below=NEVER)
def negated_elsewhere(comparison: Comparison) -> Verdict | None:
    """A negation on one side only, about other words: no evidence against the claim (the verdict is
    the words'), but a sign."""
    c, e = comparison.claim, comparison.evidence
    if c.denies != e.denies and coverage(c, e) >= CONTRADICTION_COVERAGE and not facts(e.text):
        return comparison.by_words()  # a record's keys: the record rule reads them
    return None
