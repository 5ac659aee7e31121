"""Synthetic errors made from supported claim sentences, as FactCC and MiniCheck did.

Each perturbation turns a sentence its evidence entails into one the evidence contradicts or does
not state: a number changed, a name swapped for another name of the evidence, a negation added or
removed, a word swapped for its antonym. The judge sees few such near-miss pairs in NLI data, and
they are the errors RAG answers make.
"""

from __future__ import annotations

import random
import re

from rrag.text import STOPWORDS, split_sentences

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.]*\d)")
NAME = re.compile(r"(?<=\s)[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")
AUXILIARY = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|does|did)\b(?! not\b)")
NEGATED = re.compile(
    r"\b(?:(is|are|was|were|has|have|had|could|will|would|should|does|did|do|must|may) not"
    r"|(can)not|(is|are|was|were|has|have|does|did|do)n't)\b",
    re.IGNORECASE,
)
# Both directions of each pair are used; the words are common English, not taken from any test set.
_ANTONYM_PAIRS = [
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("increases", "decreases"),
    ("rose", "fell"),
    ("rise", "fall"),
    ("before", "after"),
    ("minimum", "maximum"),
    ("inside", "outside"),
    ("higher", "lower"),
    ("larger", "smaller"),
    ("more", "less"),
    ("above", "below"),
    ("first", "last"),
    ("earliest", "latest"),
    ("early", "late"),
    ("open", "closed"),
    ("allowed", "prohibited"),
    ("permitted", "forbidden"),
    ("including", "excluding"),
    ("won", "lost"),
    ("win", "lose"),
    ("accepted", "rejected"),
    ("north", "south"),
    ("east", "west"),
    ("import", "export"),
    ("positive", "negative"),
    ("older", "younger"),
    ("longer", "shorter"),
    ("male", "female"),
    ("entered", "left"),
    ("start", "end"),
    ("started", "ended"),
    ("gained", "lost"),
    ("buy", "sell"),
    ("bought", "sold"),
    ("internal", "external"),
    ("upper", "lower"),
    ("success", "failure"),
]
ANTONYMS = {a: b for pair in _ANTONYM_PAIRS for a, b in (pair, pair[::-1])}
_ANTONYM_WORD = re.compile(r"\b(" + "|".join(sorted(ANTONYMS, key=len, reverse=True)) + r")\b")


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
    return sentence[: match.start()] + new + sentence[match.end() :]


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
    return sentence[: match.start()] + rng.choice(others) + sentence[match.end() :]


def negate(sentence: str) -> str | None:
    match = AUXILIARY.search(sentence)
    if not match:
        return None
    return sentence[: match.end()] + " not" + sentence[match.end() :]


def drop_negation(sentence: str) -> str | None:
    """ "does not cover" -> "does cover", "cannot" -> "can", "isn't" -> "is"."""
    match = NEGATED.search(sentence)
    if not match:
        return None
    return sentence[: match.start()] + next(g for g in match.groups() if g) + sentence[match.end() :]


def swap_antonym(sentence: str, rng: random.Random) -> str | None:
    found = list(_ANTONYM_WORD.finditer(sentence))
    if not found:
        return None
    match = rng.choice(found)
    return sentence[: match.start()] + ANTONYMS[match.group()] + sentence[match.end() :]


def perturbations(sentence: str, evidence: str, rng: random.Random) -> list[tuple[str, str]]:
    """(changed sentence, label) pairs, at most one of each kind. A changed number, an added or
    removed negation and an antonym contradict the evidence; a swapped name may only be unstated
    (two people can share a role), so it is labelled not_entailment."""
    made = [
        (change_number(sentence, rng), "contradiction"),
        (swap_name(sentence, evidence, rng), "not_entailment"),
        (negate(sentence), "contradiction"),
        (drop_negation(sentence), "contradiction"),
        (swap_antonym(sentence, rng), "contradiction"),
    ]
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


def context_minimal_pairs(contexts: list[str], count: int, rng: random.Random) -> list[dict]:
    """About `count` minimal pairs made from the sentences of evidence texts (the dev sets' contexts:
    their wording, not their labels): the sentence with its neighbours as premise, and twice as
    hypothesis, once as it is (entailment) and once with one perturbation. The kind of perturbation is
    drawn evenly among those that apply, so rare ones (a removed negation, an antonym) are not
    crowded out by numbers."""
    candidates = []
    for context in sorted(set(contexts)):
        sentences = [s.text for s in split_sentences(context)]
        for i, sentence in enumerate(sentences):
            if 6 <= len(sentence.split()) <= 60:
                candidates.append((" ".join(sentences[max(0, i - 1) : i + 2]), sentence))
    rng.shuffle(candidates)
    out: list[dict] = []
    for premise, sentence in candidates:
        if len(out) >= count:
            break
        made = perturbations(sentence, premise, rng)
        if made:
            changed, label = rng.choice(made)
            out.append({"premise": premise, "hypothesis": sentence, "label": "entailment"})
            out.append({"premise": premise, "hypothesis": changed, "label": label})
    return out
