"""Quantifiers: the cues of how many of a thing a sentence speaks of ("all", "none of", "only some"),
and the words around them that make one no quantifier."""

from __future__ import annotations

ALL, NONE, SOME, PARTIAL, ONLY = "all", "none", "some", "partial", "only"
MOST, HALF = "most", "half"  # partial too, and more than half / half: "most" is no "half"
QUANTIFIER_CUES = [
    (PARTIAL, "only some|only a few|not all|not every|a few|few"),
    (MOST, "most"),
    (HALF, "half"),
    (NONE, "none|no|nobody|nothing|not any"),
    (ONLY, "only the|the only|only"),
    (ALL, "all|every|each|whole|entire"),
    (SOME, "some|several|many"),
]
# Words after "no" that make it no quantifier of a noun: "no longer", "no one".
NOT_A_NOUN = frozenset({"longer", "more", "less", "matter", "doubt", "one"})
# "only if", "only when": a condition, no limit on a thing.
ONLY_A_CONDITION = frozenset({"if", "when", "whether", "after", "once", "until", "while", "as"})
