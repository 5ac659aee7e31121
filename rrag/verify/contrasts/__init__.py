"""What a claim says against its aligned evidence sentence in the same words, besides values and
negation: an opposite word ("rose" / "fell"), another modality ("may share" where the evidence says
"must never share"), another quantifier ("some patients" / "none of the patients"), another name in
the same slot ("written by Ann Lee" / "by Tom Ray"), another doer of the same act ("approved by the
Operations Director" / "the staff team must approve"), the same words with the roles exchanged ("the
seller pays the buyer" / "the buyer pays the seller"), another ordinal, month or weekday in the same
slot ("the third floor" / "the second floor").

Each detector asks that the claim is otherwise the evidence's own statement (its other words are
the evidence's) and names what it found on both sides, so that the verdict can quote them. Each is
hard evidence (rrag/verify/lexical.py), so each is kept only as precise as the dev data showed it
(each rule's entry in docs/log/). They read one sentence of evidence at a time: in a window of two, a
name of one sentence is in no slot of the other.
"""

from __future__ import annotations

from rrag.text import split_sentences, stem
from rrag.verify.contrasts.base import (
    ENTITY,
    MODALITY,
    OPPOSITE,
    ORDER,
    QUANTIFIER,
    ROLE,
    SWAP,
    Contrast,
    _tokens,
)
from rrag.verify.contrasts.names import _doer, _entity, _named_elsewhere, _order, _role
from rrag.verify.contrasts.quantifiers import _all_of_some, _other_than_only, _quantifier, _quantifiers
from rrag.verify.contrasts.swaps import _swap
from rrag.verify.contrasts.words import (
    _free,
    _free_or_priced,
    _modality,
    _opposite,
    _with_and_without,
    _words_of,
)

__all__ = [
    "ENTITY",
    "MODALITY",
    "OPPOSITE",
    "ORDER",
    "QUANTIFIER",
    "ROLE",
    "SWAP",
    "Contrast",
    "clear_caches",
    "contrast",
]


def clear_caches() -> None:
    """Forget the sentences read (rrag.verify.lexical.clear_caches)."""
    _tokens.cache_clear()
    _words_of.cache_clear()
    _quantifiers.cache_clear()
    _free.cache_clear()


def contrast(claim: str, evidence: str, retrieved: frozenset[str] = frozenset()) -> Contrast | None:
    """The first contrast between `claim` and a sentence of `evidence`, if any; another thing in the
    same slot (SWAP) only where no sentence holds hard evidence. `retrieved`: the stems of every
    retrieved text (a name stated anywhere there is no swapped name)."""
    c = _tokens(claim)
    retrieved = frozenset(stem(s) for s in retrieved)  # as `_stem` writes them
    sentences = [(sentence.text, _tokens(sentence.text)) for sentence in split_sentences(evidence)]
    for text, e in sentences:
        found = (
            _opposite(claim, c, text, e)
            or _with_and_without(claim, c, text, e)
            or _modality(claim, c, text, e)
            or _quantifier(claim, c, text, e)
            or _other_than_only(claim, c, text, e, retrieved)
            or _all_of_some(claim, c, text, e)
            or _free_or_priced(claim, c, text, e)
            or _entity(claim, c, text, e, retrieved)
            or _doer(claim, c, text, e)
            or _order(claim, c, text, e)
            or _role(claim, c, text, e)
        )
        if found:
            return found
    return next(
        (
            found
            for text, e in sentences
            if (
                found := _swap(claim, c, text, e, retrieved)
                or _named_elsewhere(claim, c, text, e, [tokens for _, tokens in sentences])
            )
        ),
        None,
    )
