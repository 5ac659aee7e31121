"""What a claim says against its aligned evidence sentence in the same words, besides values and
negation: an opposite word ("rose" / "fell"), another modality ("may share" where the evidence says
"must never share"), another quantifier ("some patients" / "none of the patients"), another name in
the same slot ("written by Ann Lee" / "by Tom Ray"), another doer of the same act ("approved by the
Operations Director" / "the staff team must approve"), the same words with the roles exchanged ("the
seller pays the buyer" / "the buyer pays the seller"), another ordinal, month or weekday in the same
slot ("the third floor" / "the second floor"); and another thing of the same kind in the same slot
("with tea" / "with coffee", SWAP: no contradiction).

Each is a sentence rule (rrag/verify/rules/base.py) that asks that the claim is otherwise the
evidence's own statement (its other words are the evidence's) and names what it found on both sides,
so that the verdict can quote them. Each is kept only as precise as the dev data showed it (each
rule's entry in docs/log/). They read one sentence of evidence at a time: in a window of two, a name
of one sentence is in no slot of the other.
"""

from __future__ import annotations

from rrag.text import stem
from rrag.verify.rules.base import RULES, SENTENCE, Contrast, first_contrast, pairs
from rrag.verify.rules.contrasts.base import ENTITY, MODALITY, OPPOSITE, ORDER, QUANTIFIER, ROLE, SWAP

__all__ = ["ENTITY", "MODALITY", "OPPOSITE", "ORDER", "QUANTIFIER", "ROLE", "SWAP", "Contrast", "contrast"]


def contrast(claim: str, evidence: str, retrieved: frozenset[str] = frozenset()) -> Contrast | None:
    """The first contrast between `claim` and a sentence of `evidence`, if any, by the sentence rules
    in their order; another thing in the same slot (SWAP) only where no sentence holds hard evidence.
    `retrieved`: the stems of every retrieved text (a name stated anywhere there is no swapped name)."""
    sentences = pairs(claim, evidence, frozenset(stem(s) for s in retrieved))
    runs = [run for scope, run in RULES.runs() if scope == SENTENCE]
    return next((found[0] for run in runs if (found := first_contrast(run, sentences))), None)
