"""Does the answer answer the question? Every claim can be a faithful quote and the answer still miss
the point: asked for the X400's retail price, an extractive answer quoting its annual-service price is
supported claim by claim, and no verifier notices.

Offline, an answer addresses the question when
1. it shares some of the question's key terms (a quarter, at least one),
2. one of its sentences gives the kind of value the question asks for (a price question needs an
   amount of money, "how many days" a number of days, "how long" a number, "what percentage" a
   percentage), and
3. it names what the question qualifies the value with ("retail price": "retail").
With an LLM, a judged score can only lower this: the LLM's word never turns a miss into a hit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rrag.backends.llm import LLM
from rrag.backends.prompts import RELEVANCE
from rrag.errors import LLMError
from rrag.text import CURRENCY_CODES, content_words, quantities, stem, words

MIN_KEY_SHARE = 0.25  # lenient: "medical note" is answered by "medical certificate"
MIN_PREFIX = 4
MIN_JUDGED_SCORE = 0.5


class Kind(str, Enum):
    MONEY = "an amount of money"
    DURATION = "a duration"
    NUMBER = "a number"
    PERCENT = "a percentage"


_TIME_UNITS = {stem(u): u for u in "second minute hour day week month year".split()}
_TIME_UNITS |= {
    stem("working"): "day",
    stem("business"): "day",
}  # "10 working days": the unit is the word after
_MONEY_NOUNS = frozenset(stem(w) for w in "price cost fee fare charge".split())
_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[\w-]+\s*){1,3})", re.IGNORECASE)
_HOW_LONG = re.compile(r"\bhow\s+long\b|\bfor\s+how\s+long\b", re.IGNORECASE)
_PERCENT_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:percentage|percent|share)\b|\bhow\s+many\s+percent\b", re.IGNORECASE
)
_HOW_MUCH_MONEY = re.compile(r"\bhow\s+much\b[^?]*\b(?:cost|costs|charge|charged)\b", re.IGNORECASE)
# Words of asking, and words any answer from the corpus is about: not the thing asked about.
_ASKING = frozenset(
    stem(w)
    for w in (
        "get gets give gives need needs tell know explain describe happen happens long often exactly "
        "allowed possible someone anyone say says mention mentions policy policies company rule rules "
        "information details".split()
    )
)


@dataclass(frozen=True)
class Question:
    kind: Kind | None
    time_unit: str  # for "how many days": "day"
    qualifier: str  # the word that says which value: "retail" in "retail price"
    key_terms: frozenset[str]


@dataclass(frozen=True)
class Relevance:
    addressed: bool
    score: float  # 0..1, the answer's share of the question's key terms (or the LLM's score)
    reason: str  # why the answer does not address the question; "" when it does
    judged_by: str = "rules"


def analyse(question: str) -> Question:
    tokens = words(question)
    kind: Kind | None = None
    time_unit = ""
    qualifier = ""
    many = _HOW_MANY.search(question)
    if _PERCENT_ASKED.search(question):
        kind = Kind.PERCENT
    elif many:
        time_unit = next((_TIME_UNITS[stem(w)] for w in words(many.group(1)) if stem(w) in _TIME_UNITS), "")
        kind = Kind.DURATION if time_unit else Kind.NUMBER
    elif _HOW_LONG.search(question):
        kind = Kind.NUMBER  # a duration or a length ("how long must a password be")
    elif _HOW_MUCH_MONEY.search(question):
        return Question(Kind.MONEY, "", "", _key_terms(question))  # "cost" is the verb: no "X cost" noun
    for before, word in zip(tokens, tokens[1:]):
        if stem(word) in _MONEY_NOUNS:
            kind = kind or Kind.MONEY
            if content_words(before) and stem(before) not in _MONEY_NOUNS:
                qualifier = stem(before)
            break
    return Question(kind, time_unit, qualifier, _key_terms(question))


def _key_terms(question: str) -> frozenset[str]:
    """The question's content words, less asking words and numbers (a value asked about is not a topic)."""
    return frozenset(t for t in content_words(question) if not t.isdigit()) - _ASKING


def _said(term: str, said: set[str]) -> bool:
    """`term` or a word sharing its first letters: the light stemmer leaves "approver" and "approv",
    "sickness" and "sick" apart."""
    return term in said or any(
        min(len(term), len(w)) >= MIN_PREFIX and (w.startswith(term) or term.startswith(w)) for w in said
    )


def _has_kind(sentence: str, q: Question) -> bool:
    found = quantities(sentence)
    if q.kind is Kind.MONEY:
        return any(n.unit in CURRENCY_CODES for n in found)
    if q.kind is Kind.PERCENT:
        return any(n.unit == "%" for n in found)
    if q.kind is Kind.DURATION:
        units = {_TIME_UNITS.get(n.unit) for n in found} - {None}
        return bool(units) and (not q.time_unit or q.time_unit in units or _converts(q.time_unit, units))
    if q.kind is Kind.NUMBER:
        return bool(found)
    return True


def _converts(asked: str, given: set[str | None]) -> bool:
    """ "How many days" is answered by weeks too; not by hours or years."""
    near = {"day": {"week"}, "week": {"day", "month"}, "month": {"week", "year"}, "hour": {"minute", "day"}}
    return bool(near.get(asked, set()) & given)


def assess(question: str, sentences: Sequence[str]) -> Relevance:
    """Whether `sentences` (the answer's claims) address `question`, by the rules above."""
    q = analyse(question)
    if not q.key_terms and q.kind is None:
        return Relevance(True, 1.0, "")
    said = {t for s in sentences for t in content_words(s)}
    shared = sum(_said(t, said) for t in q.key_terms)
    share = shared / len(q.key_terms) if q.key_terms else 1.0
    if q.key_terms and (not shared or share < MIN_KEY_SHARE):
        return Relevance(False, round(share, 4), "the answer is about something else than what was asked")
    typed = [s for s in sentences if _has_kind(s, q)]
    if not typed:
        return Relevance(False, 0.0, f"the question asks for {_asked(q)}, which the answer does not give")
    if q.qualifier and not _said(q.qualifier, said):
        return Relevance(
            False, 0.0, f"the question asks about {_qualified(question, q)}; the answer gives another value"
        )
    return Relevance(True, round(share, 4), "")


def _asked(q: Question) -> str:
    if q.kind is Kind.DURATION and q.time_unit:
        return f"a number of {q.time_unit}s"
    return q.kind.value if q.kind else "something else"


def _qualified(question: str, q: Question) -> str:
    m = re.search(rf"\b(\w*{re.escape(q.qualifier)}\w*)\s+(\w+)", question, re.IGNORECASE)
    return f"the {m.group(1)} {m.group(2)}".lower() if m else f"the {q.qualifier} value"


def judge(llm: LLM, question: str, answer: str, offline: Relevance) -> Relevance:
    """The LLM's score, which may only lower the offline result; on failure the offline result stands."""
    if not offline.addressed:
        return offline
    try:
        judged = RELEVANCE.run(llm, question=question, answer=answer).value
    except LLMError:
        return offline
    if judged.score >= MIN_JUDGED_SCORE:
        return offline
    return Relevance(
        False,
        judged.score,
        judged.reason or "the LLM judged that the answer does not address the question",
        judged_by="llm",
    )
