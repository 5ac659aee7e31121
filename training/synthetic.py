"""Synthetic errors made from supported claim sentences, as FactCC and MiniCheck did.

Each perturbation turns a sentence its evidence entails into one the evidence contradicts or does
not state: a number changed, a name swapped for another name of the evidence, a negation added.
The judge sees few such near-miss pairs in NLI data, and they are the errors RAG answers make.
"""

from __future__ import annotations

import random
import re

from rrag.text import STOPWORDS, split_sentences

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


def near_misses(nli_rows: list[dict], count: int, rng: random.Random) -> list[dict]:
    """About `count` (premise, hypothesis) pairs made from NLI rows alone (no dev data), in the shape of
    RAG errors: twins of a sentence copied from the premise (or of an entailed hypothesis), one kept
    (entailment), one with a single perturbation. A summary that copies its source but changes one
    value is the error SummEdits and RAGTruth are made of, and NLI data has few such pairs."""
    out: list[dict] = []
    rows = [r for r in nli_rows if r["label"] == "entailment"]
    rng.shuffle(rows)
    for row in rows:
        if len(out) >= count:
            break
        premise = row["premise"]
        sentences = [s.text for s in split_sentences(premise) if len(s.text.split()) >= 6]
        # A copy of a one-sentence premise teaches nothing.
        copy = len(sentences) > 1 and rng.random() < 0.5
        hypothesis = rng.choice(sentences) if copy else row["hypothesis"]
        # "not" is the NLI shortcut to contradiction: a changed value or name is used where there is one.
        made = perturbations(hypothesis, premise, rng)
        plain = [m for m in made if " not " not in m[0]]
        made = plain or (made if rng.random() < 0.4 else [])
        if made:
            # The unchanged twin goes with each change, so that the change is all that tells them apart.
            changed, label = rng.choice(made)
            out.append({"premise": premise, "hypothesis": hypothesis, "label": "entailment"})
            out.append({"premise": premise, "hypothesis": changed, "label": label})
    return out
