"""Synthetic errors made from supported claim sentences, as FactCC and MiniCheck did.

Each perturbation turns a sentence its evidence entails into one the evidence contradicts or does
not state: a number changed, a name swapped for another name of the evidence, a negation added.
The judge sees few such near-miss pairs in NLI data, and they are the errors RAG answers make.
"""

from __future__ import annotations

import random
import re

from rrag.text import STOPWORDS

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.]*\d)")
NAME = re.compile(r"(?<=\s)[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")
AUXILIARY = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|does|did)\b(?! not\b)")


def change_number(sentence: str, rng: random.Random) -> str | None:
    found = list(NUMBER.finditer(sentence))
    if not found:
        return None
    match = rng.choice(found)
    text = match.group()
    value = float(text.replace(",", ""))
    if 1000 <= value <= 2100 and text.isdigit():  # a year: a nearby year, not a multiple
        changed = value + rng.choice([-3, -2, -1, 1, 2, 3])
    elif value > 20:
        changed = value * rng.choice([0.5, 0.75, 1.5, 2.0, 3.0])
    else:
        changed = value + rng.choice([-2, -1, 1, 2, 3]) or value + 4
    new = f"{changed:.0f}" if "." not in text else f"{changed:.1f}"
    if new == text:
        return None
    return sentence[: match.start()] + new + sentence[match.end():]


def _names(text: str) -> list[re.Match]:
    """Runs of capitalised words after the first word of the text, not led by a function word ("The")."""
    return [m for m in NAME.finditer(text) if m.group().split()[0].lower() not in STOPWORDS]


def swap_name(sentence: str, evidence: str, rng: random.Random) -> str | None:
    """Replace a name of the sentence with a different name that the evidence mentions."""
    own = _names(sentence)
    others = sorted({m.group() for m in _names(evidence)} - {m.group() for m in own})
    if not own or not others:
        return None
    match = rng.choice(own)
    return sentence[: match.start()] + rng.choice(others) + sentence[match.end():]


def negate(sentence: str) -> str | None:
    match = AUXILIARY.search(sentence)
    if not match:
        return None
    return sentence[: match.end()] + " not" + sentence[match.end():]


def perturbations(sentence: str, evidence: str, rng: random.Random) -> list[tuple[str, str]]:
    """(changed sentence, label) pairs, at most one of each kind. A changed number or an added
    negation contradicts the evidence; a swapped name may only be unstated (two people can share
    a role), so it is labelled not_entailment."""
    made = [(change_number(sentence, rng), "contradiction"), (swap_name(sentence, evidence, rng), "not_entailment"),
            (negate(sentence), "contradiction")]
    return [(s, label) for s, label in made if s and s != sentence]
