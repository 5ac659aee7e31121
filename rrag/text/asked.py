"""What a question asks for: the kind of value ("How much does it cost?": an amount of money; "How
many days?": a duration in days), the word that says which value ("retail price": retail) and its key
terms. The answerer prefers a sentence that gives that kind of value; the audit checks the answer
gives it (rrag/audit/relevance.py)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from enum import Enum
from itertools import dropwhile, takewhile

from rrag.lang.en.function_words import STOPWORDS
from rrag.lang.en.questions import (
    ADDRESS_ASKED,
    AGE_ASKED,
    AGE_WORDS,
    ASKING,
    DAY_COUNTING,
    DIFFERENCE_ASKED,
    DIMENSIONS,
    EMAIL_ASKED,
    HOW_DONE,
    HOW_LONG,
    HOW_MANY,
    HOW_MUCH,
    HOW_MUCH_MONEY,
    HOW_SIZED,
    MONEY_NOUNS,
    MONEY_VERBS,
    NAME_ASKED,
    PERCENT_ASKED,
    PHONE_ASKED,
    SPEED_ASKED,
    SPEED_WORDS,
    TIME_UNITS,
    WEB_ASKED,
    WHAT_DOES,
    WHAT_TIME,
    WHEN,
    WHEN_DONE,
    WHERE,
    WHO,
    YES_NO,
)
from rrag.text.clauses import compound_modifiers, much_of
from rrag.text.quantities import is_measured, quantities
from rrag.text.reading import read
from rrag.text.words import content_words, stem, words


class Kind(str, Enum):
    MONEY = "an amount of money"
    DURATION = "a duration"
    NUMBER = "a number"
    COUNT = "a count"
    PERCENT = "a percentage"
    SPAN = "a duration or a length"  # of time or of space, or a count ("12 characters"): not money
    LENGTH = "a length"  # of a dimension (`Question.dimension`)
    PLACE = "a place"
    DATE = "a date"
    TIME = "a time of day"
    PHONE = "a phone number"
    EMAIL = "an email address"
    WEB = "a web address"
    AGE = "an age"
    SPEED = "a speed or the time it takes"
    NAME = "a name"
    PERSON = "a person or a group of people"


TIME_UNIT_STEMS = {stem(u): u for u in TIME_UNITS}
TIME_UNIT_STEMS |= {stem(w): "day" for w in DAY_COUNTING}  # "10 working days": the unit is the word after
_ASKING = frozenset(stem(w) for w in ASKING)
# The words that ask for money name no topic: "How much does a blood test cost?" asks about a blood test
# (as written: "How much does EV charging cost?" asks about charging).
_MONEY_WORDS = frozenset((*MONEY_NOUNS, *MONEY_VERBS))
_AMOUNTS_OF_MONEY = frozenset((*MONEY_NOUNS, "money"))  # what "how much" asks a price with
_CONTACTS = ((Kind.PHONE, PHONE_ASKED), (Kind.EMAIL, EMAIL_ASKED), (Kind.WEB, WEB_ASKED))


@dataclass(frozen=True)
class Question:
    kind: Kind | None
    time_unit: str  # for "how many days": "day"
    qualifier: str  # the word that says which value: "retail" in "retail price"
    key_terms: frozenset[str]
    dimension: tuple[str, ...] = ()  # for "how deep": the stems that say a depth
    difference: bool = False  # asks how much more one thing is than another ("How much more ...?")
    named: frozenset[str] = frozenset()  # who asks of: the words of the names it gives ("minnow", "pool")


def analyse(question: str) -> Question:
    """What `question` asks for."""
    asked = _analysed(question)
    return replace(asked, difference=bool(DIFFERENCE_ASKED.search(question))) if asked.kind else asked


def _analysed(question: str) -> Question:
    tokens = read(question).words
    kind: Kind | None = None
    time_unit = ""
    qualifier = ""
    many = HOW_MANY.search(question)
    if YES_NO.match(question):  # a yes or a no, whatever price it names
        return Question(None, "", "", _key_terms(question))
    if WHO.match(question):  # a person or a group, whatever price it names
        named = " ".join(name for _, _, name in read(question).named)
        return Question(Kind.PERSON, "", "", _key_terms(question), named=frozenset(_key_terms(named)))
    what_does = WHAT_DOES.match(question)
    if what_does:  # what the verb does: "What does the service charge cover?"
        if what_does.group("money"):
            return Question(Kind.MONEY, "", "", _key_terms(question, _MONEY_WORDS))
        return Question(None, "", "", _key_terms(question))
    for contact, asked in _CONTACTS:
        if m := asked.search(question):
            # "phone number", "what number do I call": the kind asked for, not what it is of
            return Question(contact, "", "", _key_terms(question) - set(content_words(m.group())))
    if m := NAME_ASKED.match(question):  # a name, not the kind of value its words name
        return Question(Kind.NAME, "", "", _key_terms(question) - {"name"})
    if m := ADDRESS_ASKED.search(question):
        return Question(Kind.PLACE, "", "", _key_terms(question) - set(content_words(m.group())))
    if AGE_ASKED.search(question):
        return Question(Kind.AGE, "", "", _key_terms(question, AGE_WORDS))
    if SPEED_ASKED.search(question):
        return Question(Kind.SPEED, "", "", _key_terms(question, SPEED_WORDS))
    if PERCENT_ASKED.search(question):
        kind = Kind.PERCENT
    elif WHERE.match(question):
        kind = Kind.PLACE
    elif many:
        # "How many users": a count of them, not a price per user; "how many GB": an amount of a measure;
        # "how many times a year": a count of times, not of years.
        counted = quantities(f"1 {many.group(1)}")
        time_unit = next(
            (TIME_UNIT_STEMS[stem(w)] for w in _counted(many.group(1)) if stem(w) in TIME_UNIT_STEMS), ""
        )
        measured = bool(counted) and is_measured(counted[0])
        kind = Kind.DURATION if time_unit else Kind.NUMBER if measured else Kind.COUNT
    elif HOW_LONG.search(question):
        kind = Kind.SPAN  # a duration or a length ("how long must a password be")
    elif sized := HOW_SIZED.search(question):
        dimension = tuple(stem(w) for w in DIMENSIONS[sized.group("dimension").lower()])
        return Question(Kind.LENGTH, "", "", _key_terms(question) - set(dimension), dimension)
    elif HOW_MUCH_MONEY.search(question):
        return Question(Kind.MONEY, "", "", _key_terms(question, _MONEY_WORDS))  # no "X cost" noun
    elif HOW_MUCH.search(question) and (much_of(question) or "money") not in _AMOUNTS_OF_MONEY:
        # an amount of what "much" modifies, whatever price a phrase after it names ("How much
        # holiday can be taken at half price?")
        return Question(None, "", "", _key_terms(question))
    elif WHAT_TIME.match(question):
        return Question(Kind.TIME, "", "", _key_terms(question))
    elif WHEN_DONE.match(question):
        return Question(Kind.DATE, "", "", _key_terms(question))
    elif WHEN.match(question):
        return Question(None, "", "", _key_terms(question))  # a time or a date, not the price it names
    elif HOW_DONE.match(question):
        return Question(None, "", "", _key_terms(question))  # a way, not the price it names
    for before, word, after in zip(tokens, tokens[1:], [*tokens[2:], ""]):
        # The noun a compound ends with is what it is: "excess baggage" is baggage; a word after the
        # noun need not make one ("the share price today", as the parse reads it).
        compound = content_words(after) and after.lower() not in MONEY_NOUNS
        if word.lower() in MONEY_NOUNS and not (compound and word.lower() in compound_modifiers(question)):
            kind = kind or Kind.MONEY
            if content_words(before) and before.lower() not in MONEY_NOUNS:
                qualifier = stem(before)
            break
    return Question(
        kind, time_unit, qualifier, _key_terms(question, _MONEY_WORDS if kind is Kind.MONEY else ())
    )


def _counted(phrase: str) -> list[str]:
    """The words naming what "how many" counts: up to the first function word after them ("vacation
    days" of "vacation days do I get", "times" of "times a year", "days" of "more days")."""
    counted = list(dropwhile(lambda w: w.lower() in STOPWORDS, words(phrase)))
    return list(takewhile(lambda w: w.lower() not in STOPWORDS, counted))


def _key_terms(question: str, asking: Collection[str] = ()) -> frozenset[str]:
    """The question's content words, less asking words, the words of `asking` as written and numbers (a
    value asked about is not a topic)."""
    said = " ".join(w for w in words(question) if w not in asking) if asking else question
    return frozenset(t for t in read(said).content_words if not t.isdigit()) - _ASKING
