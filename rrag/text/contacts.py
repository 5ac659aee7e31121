"""Ways to reach someone written in a text: a phone number, an email address, a web address, a
street address. A question that asks for one (rrag/text/asked.py) is answered only by a sentence that
gives one.

Email and web addresses are spaCy's reading of a word (`like_email`, `like_url`). A phone number is
read here, by its shape: the phonenumbers library reads one only with the country it is dialled
from, which a corpus does not say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from rrag.lang.en.questions import CALLING, STREET_WORDS
from rrag.text.asked import Kind

# Digits grouped by spaces, hyphens, dots or brackets, after an optional "+": "+44 20 7946 0321",
# "(555) 123-4567", "0300 123 4567". Not a part of a word, a decimal or a list of values.
_DIGITS_WRITTEN = re.compile(r"(?<![\w.,/:-])\+?\(?\d[\d ()\-.]*\d(?![\w/:-]|[.,]\d)")
_DATE = re.compile(r"\d{1,4}[-./]\d{1,2}[-./]\d{1,4}")
# Fewer digits than any full number (E.164 allows 15) are a price, a year or a count, unless
# called ("call 999").
MIN_DIGITS = 7
MAX_DIGITS = 15
_WORD_EDGES = "\"'()<>[],;:.!?"


def gives_phone_number(sentence: str) -> bool:
    for m in _DIGITS_WRITTEN.finditer(sentence):
        digits = sum(ch.isdigit() for ch in m.group())
        if _DATE.fullmatch(m.group()) or digits > MAX_DIGITS:
            continue
        if digits >= MIN_DIGITS or CALLING.search(sentence[: m.start()]):
            return True
    return False


# A house number and a street's name in capitals: "14 Harbour Road", "221B Baker Street".
_STREET_ADDRESS = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:[A-Z][\w'-]*\s+){{1,3}}(?i:{'|'.join(STREET_WORDS)})\b"
)


def gives_street_address(sentence: str) -> bool:
    return bool(_STREET_ADDRESS.search(sentence))


# A street's name, each word in capitals, its last a street's: "The nearest car park is Quay Street".
_STREET_NAME = re.compile(rf"\b(?:[A-Z][\w'-]*\s+){{1,3}}(?:{'|'.join(w.title() for w in STREET_WORDS)})\b")


def names_a_street(sentence: str) -> bool:
    """Whether `sentence` names a street, with or without a house number: it says where."""
    return gives_street_address(sentence) or bool(_STREET_NAME.search(sentence))


def gives_email_address(sentence: str) -> bool:
    return _any_word(sentence, _lexical_attributes()[0])


def gives_web_address(sentence: str) -> bool:
    return _any_word(sentence, _lexical_attributes()[1])


def _any_word(sentence: str, like: Callable[[str], bool]) -> bool:
    return any(like(word.strip(_WORD_EDGES)) for word in sentence.split())


# What a sentence that gives each kind of contact looks like.
GIVES_CONTACT: dict[Kind, Callable[[str], bool]] = {
    Kind.PHONE: gives_phone_number,
    Kind.EMAIL: gives_email_address,
    Kind.WEB: gives_web_address,
}


@cache
def _lexical_attributes() -> tuple[Callable[[str], bool], Callable[[str], bool]]:
    # spaCy takes two seconds to import: only when a question asks for an address.
    from spacy.lang.lex_attrs import like_email, like_url

    return like_email, like_url
