"""Edits read off a dependency parse (spaCy's en_core_web_sm): roles, voice, modifiers, negation."""

from __future__ import annotations

import random
import re
from functools import cache

import spacy
from lemminflect import getInflection
from spacy.tokens import Doc, Span, Token

from rrag.lang.en.parse import SPACY_MODEL
from training.synthetic import ANTONYMS

# Verbs whose passive or exchanged roles read as nonsense rather than as another fact.
STATIVE = frozenset("have get lack want need like cost weigh fit suit contain include own".split())
# Acts whose two sides can be exchanged without changing the fact ("met", "married").
SYMMETRIC = frozenset(
    "meet marry date divorce resemble equal match join fight battle wrestle hug kiss embrace "
    "face touch collide tie partner merge share talk chat argue".split()
)
QUANTIFIER_UP = {
    "some": "all",
    "several": "all",
    "a few": "most",
    "few": "many",
    "many": "all",
    "most": "all",
    "one": "every",
}
NEGATORS = frozenset({"not", "n't", "never", "no", "nobody", "nothing", "none", "neither", "nor"})


@cache
def nlp() -> spacy.Language:
    return spacy.load(SPACY_MODEL)


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def as_clause(span: Span | Doc) -> str:
    """A sentence as a clause inside another: no final stop, and a capital kept only on a name."""
    tokens = [t for t in span if not t.is_space]
    while tokens and tokens[-1].is_punct:
        tokens.pop()
    if not tokens:
        return ""
    first = tokens[0]
    text = "".join(t.text_with_ws for t in tokens).strip()
    keep = first.pos_ == "PROPN" or first.text == "I" or (len(first.text) > 1 and first.text.isupper())
    return text if keep else text[:1].lower() + text[1:]


def join(parts: list[str]) -> str:
    text = " ".join(p.strip() for p in parts if p.strip())
    text = re.sub(r"\s+([,.;:!?'])", r"\1", text)
    return sentence_case(text)


def _phrase(token: Token, at_start: bool) -> str:
    """A noun phrase's text, its first letter cased for where it goes."""
    text = "".join(t.text_with_ws for t in token.subtree).strip()
    first = next(iter(token.subtree))
    if at_start:
        return sentence_case(text)
    acronym = len(first.text) > 1 and first.text.isupper()
    if first.pos_ != "PROPN" and not acronym and first.i == 0:
        return text[:1].lower() + text[1:]
    return text


def _outside(doc: Doc, *tokens: Token) -> list[Token]:
    """The tokens of doc outside the subtrees of `tokens`."""
    inside = {t.i for token in tokens for t in token.subtree}
    return [t for t in doc if t.i not in inside]


def _plural(token: Token) -> bool:
    return token.tag_ in ("NNS", "NNPS") or any(c.dep_ == "cc" for c in token.children)


def _agree(verb: Token, subject: Token) -> str:
    """The verb's form for a new subject, where its tense shows number (present, 'was'/'were')."""
    if verb.lemma_ == "be" and verb.tag_ == "VBD":
        return "were" if _plural(subject) else "was"
    if verb.lemma_ == "be" and verb.tag_ in ("VBZ", "VBP"):
        return "are" if _plural(subject) else "is"
    if verb.tag_ in ("VBZ", "VBP"):
        form = getInflection(verb.lemma_, "VBP" if _plural(subject) else "VBZ")
        return form[0] if form else verb.text
    return verb.text


def _clause_parts(doc: Doc, dative: bool = False) -> tuple[Token, Token, Token] | None:
    """(verb, subject, object) of a plain active main clause with noun-phrase subject and object;
    with `dative`, the indirect object where there is one ('pays the landlord a deposit')."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    progressive = root is not None and root.tag_ == "VBG" and _be(root) is not None  # "is holding"
    if root is None or root.pos_ != "VERB" or (root.tag_ not in ("VBD", "VBZ", "VBP") and not progressive):
        return None
    if root.lemma_ in STATIVE or any(t.lower_ in NEGATORS for t in doc):
        return None
    if any(c.dep_ == "prt" for c in root.children):  # 'put out': the particle would be left behind
        return None
    subject = next((c for c in root.children if c.dep_ == "nsubj"), None)
    objects = [c for c in root.children if c.dep_ == "dobj" or (dative and c.dep_ == "dative")]
    objects.sort(key=lambda c: c.dep_ != "dative")
    obj = objects[0] if objects else None
    if subject is None or obj is None or subject.pos_ == "PRON" or obj.pos_ == "PRON":
        return None
    if next(iter(subject.subtree)).i != 0 or obj.i < root.i:
        return None
    return root, subject, obj


def _be(verb: Token) -> Token | None:
    """The 'is' / 'are' / 'was' / 'were' before a verb in -ing, if any."""
    return next((c for c in verb.children if c.dep_ == "aux" and c.lemma_ == "be" and c.i < verb.i), None)


def swap_roles(doc: Doc) -> str | None:
    """'The tenant pays the landlord a deposit' -> 'The landlord pays the tenant a deposit'."""
    parts = _clause_parts(doc, dative=True)
    if parts is None or parts[0].lemma_ in SYMMETRIC:
        return None
    verb, subject, obj = parts
    agreeing = _be(verb) or verb  # the word whose form shows the subject's number
    sub_ids = {t.i for t in subject.subtree}
    obj_ids = {t.i for t in obj.subtree}
    out: list[str] = []
    for t in doc:
        if t.i == subject.left_edge.i:
            out.append(_phrase(obj, at_start=True))
        elif t.i == obj.left_edge.i:
            out.append(_phrase(subject, at_start=False))
        elif t.i == agreeing.i:
            out.append(_agree(agreeing, obj))
        elif t.i not in sub_ids and t.i not in obj_ids:
            out.append(t.text)
    return join(out)


def _passive_parts(doc: Doc, swap: bool) -> str | None:
    parts = _clause_parts(doc)
    if (
        parts is None
        or parts[0].tag_ not in ("VBD", "VBZ", "VBP")
        or any(c.dep_ in ("aux", "dative", "prt") for c in parts[0].children)
    ):
        return None
    verb, subject, obj = parts
    participle = getInflection(verb.lemma_, "VBN")
    if not participle:
        return None
    new_subject, agent = (subject, obj) if swap else (obj, subject)
    plural = _plural(new_subject)
    be = ("were" if plural else "was") if verb.tag_ == "VBD" else ("are" if plural else "is")
    rest = [t.text for t in _outside(doc, subject, obj) if t.i != verb.i]
    return join([_phrase(new_subject, True), be, participle[0], "by", _phrase(agent, False), *rest])


def passive(doc: Doc) -> str | None:
    """'The board approved the plan' -> 'The plan was approved by the board'."""
    return _passive_parts(doc, swap=False)


def swapped_passive(doc: Doc) -> str | None:
    """'The board approved the plan' -> 'The board was approved by the plan'."""
    return _passive_parts(doc, swap=True)


def modifier_noun_as_subject(doc: Doc) -> str | None:
    """The noun of the subject's modifier made the subject: 'The mayor of the town resigned' -> 'The
    town resigned'; 'The man who hired the guide left' -> 'The guide left'."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subject = root and next((c for c in root.children if c.dep_ == "nsubj"), None)
    if root is None or subject is None or root.pos_ not in ("VERB", "AUX"):
        return None
    inner = [
        grandchild
        for child in subject.children
        if child.dep_ in ("prep", "relcl")
        for grandchild in child.children
        if grandchild.dep_ in ("pobj", "dobj", "nsubj") and grandchild.pos_ in ("NOUN", "PROPN")
    ]
    if not inner or next(iter(subject.subtree)).i != 0:
        return None
    noun = inner[0]
    phrase = "".join(t.text_with_ws for t in noun.subtree if t.dep_ not in ("prep", "relcl")).strip()
    rest = [t.text if t.i != root.i else _agree(root, noun) for t in doc if t.i > subject.right_edge.i]
    return join([sentence_case(phrase), *rest])


def drop_modifier(doc: Doc) -> str | None:
    """A restrictive modifier dropped (entailed where no negation or quantifier reverses it): 'The old
    bridge over the river was closed in May' -> 'The bridge over the river was closed in May'."""
    if any(t.lower_ in NEGATORS or t.lower_ in ("every", "all", "each", "few", "only") for t in doc):
        return None
    droppable = [
        t
        for t in doc
        if (t.dep_ == "amod" and t.head.pos_ == "NOUN" and t.i < t.head.i)
        or (t.dep_ == "prep" and t.head.dep_ in ("nsubj", "dobj") and t.head.pos_ == "NOUN")
    ]
    if not droppable:
        return None
    token = droppable[0]
    gone = {t.i for t in token.subtree}
    return join([t.text for t in doc if t.i not in gone])


def drop_clause(doc: Doc) -> str | None:
    """A relative clause of the subject or object dropped: 'The man who hired the guide left early' ->
    'The man left early' (entailed, as a restrictive modifier is)."""
    if any(t.lower_ in NEGATORS or t.lower_ in ("every", "all", "each", "few", "only") for t in doc):
        return None
    clause = next((t for t in doc if t.dep_ == "relcl" and t.head.dep_ in ("nsubj", "dobj", "pobj")), None)
    if clause is None:
        return None
    gone = {t.i for t in clause.subtree}
    kept = [t for t in doc if t.i not in gone]
    return join(
        [t.text for i, t in enumerate(kept) if not (t.text == "," and i and kept[i - 1].i + 1 != t.i)]
    )


def drop_conjunct(doc: Doc) -> str | None:
    """One of two subjects or objects joined by 'and' dropped: 'Anna and Tom painted the fence' -> 'Tom
    painted the fence' (entailed where the act is each one's, not a joint one)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_ in SYMMETRIC or any(t.lower_ in NEGATORS for t in doc):
        return None
    for head in (c for c in root.children if c.dep_ in ("nsubj", "dobj")):
        conj = next((c for c in head.children if c.dep_ == "conj"), None)
        cc = next((c for c in head.children if c.dep_ == "cc" and c.lower_ == "and"), None)
        if conj is None or cc is None or any(c.dep_ == "conj" for c in conj.children):
            continue
        # keep the second: the first word and everything up to the 'and' go
        first = {t.i for t in head.subtree} - {t.i for t in conj.subtree}
        kept = [t for t in doc if t.i not in first]
        text = join([t.text for t in kept])
        if head.dep_ == "nsubj":
            verb = _be(root) or root
            if verb.tag_ in ("VBZ", "VBP") or (verb.lemma_ == "be" and verb.tag_ == "VBD"):
                text = join([_agree(verb, conj) if t.i == verb.i else t.text for t in kept])
        return text
    return None


def active(doc: Doc) -> str | None:
    """A passive clause said actively: 'The plan was approved by the board' -> 'The board approved the
    plan' (entailed)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ != "VBN" or any(t.lower_ in NEGATORS for t in doc):
        return None
    subject = next((c for c in root.children if c.dep_ == "nsubjpass"), None)
    aux = next((c for c in root.children if c.dep_ == "auxpass"), None)
    agent = next((c for c in root.children if c.dep_ == "agent"), None)
    by = next((c for c in agent.children if c.dep_ == "pobj"), None) if agent is not None else None
    if subject is None or aux is None or by is None or subject.pos_ == "PRON" or by.pos_ == "PRON":
        return None
    if next(iter(subject.subtree)).i != 0 or aux.lower_ not in ("is", "are", "was", "were"):
        return None
    tense = "VBD" if aux.lower_ in ("was", "were") else ("VBP" if _plural(by) else "VBZ")
    form = getInflection(root.lemma_, tense)
    if not form:
        return None
    rest = [t.text for t in _outside(doc, subject, agent) if t.i not in (aux.i, root.i)]
    return join([_phrase(by, True), form[0], _phrase(subject, False), *rest])


def front_to_end(doc: Doc) -> str | None:
    """'In 2010, the club moved north.' -> 'The club moved north in 2010.' and back."""
    tokens = [t for t in doc if not t.is_space]
    if len(tokens) < 5:
        return None
    stop = tokens[-1].text if tokens[-1].is_punct else "."
    body = [t for t in tokens if not (t is tokens[-1] and t.is_punct)]
    first = body[0]
    if first.dep_ == "prep" and first.head.dep_ == "ROOT" and first.right_edge.i + 1 < len(body):
        if body[first.right_edge.i + 1].text == ",":
            moved = "".join(t.text_with_ws for t in first.subtree).strip()
            return join(
                [
                    as_clause(doc[first.right_edge.i + 2 : body[-1].i + 1]),
                    moved[:1].lower() + moved[1:] + stop,
                ]
            )
        return None
    last = body[-1]
    phrase = last
    while phrase.dep_ != "prep" and phrase.dep_ != "ROOT":
        phrase = phrase.head
    if phrase.dep_ != "prep" or phrase.head.dep_ != "ROOT" or phrase.i < phrase.head.i:
        return None
    if phrase.right_edge.i != last.i or phrase.left_edge.i <= 2:
        return None
    moved = "".join(t.text_with_ws for t in phrase.subtree).strip()
    rest = as_clause(doc[0 : phrase.left_edge.i])
    return join([sentence_case(moved) + ",", rest + stop])


def strengthen_quantifier(doc: Doc) -> str | None:
    """'Some of the rooms have a view' -> 'All of the rooms have a view'."""
    for t in doc:
        key = t.lower_
        if key in QUANTIFIER_UP and t.dep_ in ("det", "nsubj", "amod", "nummod") and key != "one":
            new = QUANTIFIER_UP[key]
            new = new.capitalize() if t.text[0].isupper() else new
            return join([new if x.i == t.i else x.text for x in doc])
    return None


ACTORS = frozenset({"PERSON", "ORG", "NORP", "GPE"})


def refuse(doc: Doc) -> str | None:
    """'The council approved the plan' -> 'The council refused to approve the plan', where the subject
    is someone who acts (a person, a body, a country)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ != "VBD" or root.pos_ != "VERB" or root.lemma_ in ("be", "have"):
        return None
    if any(c.dep_ in ("aux", "auxpass", "neg") for c in root.children):
        return None
    subject = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if subject is None or not (subject.ent_type_ in ACTORS or subject.lower_ in ("he", "she", "they")):
        return None
    verb = random.Random(root.i).choice(["refused to", "failed to", "declined to"])
    return join([f"{verb} {root.lemma_}" if t.i == root.i else t.text for t in doc])


def negate(doc: Doc) -> str | None:
    """The main verb negated: after its first auxiliary or 'be', else with 'do' ('did not sign')."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX") or any(t.lower_ in NEGATORS for t in doc):
        return None
    aux = [c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i < root.i]
    if aux:
        return join([f"{t.text} not" if t.i == aux[0].i else t.text for t in doc])
    if root.lemma_ == "be":
        return join([f"{t.text} not" if t.i == root.i else t.text for t in doc])
    do = {"VBD": "did", "VBZ": "does", "VBP": "do"}.get(root.tag_)
    if do is None:
        return None
    return join([f"{do} not {root.lemma_}" if t.i == root.i else t.text for t in doc])


def swap_name(doc: Doc, premise: Doc) -> str | None:
    """A name of the hypothesis replaced by another name of the same kind that the premise gives."""
    own = {e.text for e in doc.ents}
    for ent in doc.ents:
        if ent.label_ not in ("PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "WORK_OF_ART", "EVENT"):
            continue
        others = sorted({e.text for e in premise.ents if e.label_ == ent.label_} - own)
        if others:
            other = random.Random(ent.start).choice(others)
            return doc.text[: ent.start_char] + other + doc.text[ent.end_char :]
    return None


def antonym(text: str, rng: random.Random) -> str | None:
    words = [w for w in re.findall(r"[a-z]+", text) if w in ANTONYMS]
    if not words:
        return None
    word = rng.choice(words)
    return re.sub(rf"\b{word}\b", ANTONYMS[word], text, count=1)
