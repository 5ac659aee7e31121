"""What a claim asserts: its text less a leading preamble or hedge, the part the rules judge."""

from __future__ import annotations

import re

from rrag.lang.en.discourse import DISCOURSE_WORDS, HEDGE_WORDS, PREAMBLE
from rrag.text import content_words, negation_count, stem, words

# What states nothing a source could hold: an answer's preamble ("Based on the given passages, ..."),
# a leading hedge ("I'm not sure, but ...", "No, but ...", "Not really, ...": it negates nothing after
# it) and words of conversation ("Yes, like good riddance"). A claim is judged on the rest.
_LEADING_CLAUSE = re.compile(r"\s*([^,.;:!?]{0,80}?)\s*(?:,|\bbut\b)", re.IGNORECASE)  # a hedge is short
_HEDGE_WORDS = frozenset(stem(w) for w in HEDGE_WORDS)
_HEDGE_MAX_WORDS = 6
DISCOURSE_TERMS = frozenset(stem(w) for w in DISCOURSE_WORDS)  # no term of what a claim states


def asserted(text: str) -> str:
    """`text` less a leading preamble or hedge."""
    preamble = PREAMBLE.match(text)
    if preamble:
        return text[preamble.end() :]
    lead = _LEADING_CLAUSE.match(text)
    return text[lead.end() :] if lead and _is_hedge(lead.group(1)) else text


def _is_hedge(clause: str) -> bool:
    return (
        len(words(clause)) <= _HEDGE_MAX_WORDS
        and set(content_words(clause)) <= _HEDGE_WORDS
        and negation_count(clause) > 0
    )
