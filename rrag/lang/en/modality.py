"""Modality: the cues of what must, may, must not or need not be done, and the words of a rule."""

from __future__ import annotations

FORBIDDEN, OBLIGED, ALLOWED, NOT_REQUIRED = "forbidden", "obliged", "allowed", "not required"
# A cue's "not" contracted onto its verb, as tokens write it: "aren't allowed" is "arent allowed".
_CONTRACTED_BE = ("isnt", "arent", "wasnt", "werent")


def _with_contractions(cues: str) -> str:
    """`cues`, and each of them that starts with "not" with that "not" contracted onto a "be"."""
    listed = cues.split("|")
    denied = [cue.removeprefix("not ") for cue in listed if cue.startswith("not ")]
    return "|".join(listed + [f"{be} {cue}" for cue in denied for be in _CONTRACTED_BE])


# Longest first: "must not" before "must". Each cue is a run of lower-case words.
MODAL_CUES = [
    (FORBIDDEN, _with_contractions(
        "must never|must not|mustnt|may not|may never|cannot|cant|can not|shall not|are not allowed"
        "|is not allowed|not allowed|never allowed|not permitted|never permitted|forbidden|prohibited"
        "|banned")),
    (NOT_REQUIRED, _with_contractions(
        "do not need|does not need|did not need|dont need|doesnt need|didnt need|need not|neednt"
        "|do not have|does not have|dont have|doesnt have|not required|not necessary|not obliged|optional")),
    (OBLIGED, "must|have to|has to|had to|need to|needs to|required|mandatory|obliged|compulsory"),
    (ALLOWED, "may|can|could|allowed|permitted|free to"),
]  # fmt: skip
# Words of a rule besides its cues ("need", "allow"): a statement compared less them is the same rule.
RULE_WORDS = ("need", "needs", "necessary", "allow", "permit", "require")
# Words between a modal cue and what it allows or forbids ("may be taken", "must also pay").
SKIPPED_AFTER_MODAL = frozenset({"be", "to", "been", "only", "also", "still", "always", "ever"})
# Words that say the same in rules and policies: "not allowed" denies what "permitted" states, "not
# forbidden" what "prohibited" does.
RULE_SYNONYMS = [
    ("allowed", "permitted"),
    ("required", "mandatory", "compulsory"),
    ("forbidden", "prohibited", "banned"),
]
