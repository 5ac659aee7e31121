"""Abbreviations: words ending in "." that do not end a sentence (compared lower-case, without the
dot), for the sentence splitter (rrag/text/sentences.py)."""

from __future__ import annotations

from rrag.lang.en.dates import DAY_ABBREVIATIONS, MONTH_ABBREVIATIONS

# Titles, Latin and company abbreviations, and the short names of months and days.
ABBREVIATIONS = (
    frozenset(
        "mr mrs ms dr prof sr jr st vs etc e.g i.e cf approx inc ltd co corp dept u.s u.k a.m p.m".split()
    )
    | MONTH_ABBREVIATIONS
    | DAY_ABBREVIATIONS
)
# These abbreviate only before a number ("No. 5", "p. 12"); "No. Part-time staff ..." ends a sentence.
NUMBERING_ABBREVIATIONS = frozenset("no nos fig vol pp p".split())
# "5 p.m. Staff leave" ends a sentence; "5 p.m. Monday to Friday" does not.
TIME_ABBREVIATIONS = frozenset(("a.m", "p.m"))
