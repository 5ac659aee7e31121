"""Unanswerable questions made from answerable ones, for the question-passage model (issue 45).

On documents no one here wrote, the model passed questions that name what a passage names and ask
what it does not say: "Is there a sauna next to the Otter Pool?" beside "The Otter Pool is 25 metres
long", "How deep is the Minnow Pool?", "What time does Yoga Flow start on Thursdays?". SQuAD 2.0's
writers made its unanswerable questions so (Rajpurkar, Jia and Liang 2018: an entity swapped, a
number, an antonym), but only 348 of them are reachable here (training/README.md). These are made the
same way from SQuAD's answerable questions: each edit changes the one thing the question asks about
and keeps its subject, and is made only where the new word is nowhere in the paragraph, so the window
that answered the question does not answer the edited one:

- a common noun the paragraph names, exchanged for another kind of the same thing (a sibling in
  WordNet under a shared hypernym): "Where can members leave their bikes?" -> "... their cars?";
- a year, a day of the week or a month exchanged for another;
- the measure of "how long / deep / tall ..." exchanged for another.

Each edited question is paired with the window holding the original's answer (0); the original pair
(1) is SQuAD's (training/qa_pairs.py). The edits are read off spaCy's parse (en_core_web_sm), the
siblings off rrag/lang/en's WordNet.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from lemminflect import getInflection
from spacy.tokens import Doc, Token

from rrag.backends.question_passage import windows
from rrag.lang.en.wordnet import wordnet
from training.hard_pairs.parse import nlp
from training.qa_pairs import HELDOUT_TITLE, _pair, _split

DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
MONTHS = "January February March April May June July August September October November December".split()
# "How <measure>" and the words that say the same measure: an edited measure must be unsaid by all. Not
# "how old": a year of opening or of birth answers it.
MEASURES = {
    "long": ("long", "length", "lengths"),
    "wide": ("wide", "width", "widths", "broad"),
    "deep": ("deep", "depth", "depths"),
    "tall": ("tall", "height", "heights", "high"),
    "far": ("far", "distance", "distances", "away"),
    "heavy": ("heavy", "weight", "weighs", "weigh", "weighed"),
    "fast": ("fast", "speed", "speeds", "quickly"),
}
COMMON = 3  # a sibling noun tagged at least this often in WordNet's texts: a word a writer would use
SIBLINGS = 10  # an edit picks among this many of the most common siblings


def edited_pairs(paths: list[Path], seed: int) -> list[dict]:
    """One edited, unanswerable question for each answerable SQuAD question that allows an edit,
    paired with the window answering the original (never of the held-out article)."""
    rng = random.Random(seed)
    asked: list[tuple[str, str, str]] = []  # (question, the window holding its answer, the paragraph)
    for path in paths:
        for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
            if article["title"] == HELDOUT_TITLE:
                continue
            for paragraph in article["paragraphs"]:
                text, ws = paragraph["context"], windows(paragraph["context"])
                for qa in paragraph["qas"]:
                    if qa.get("is_impossible") or not qa["answers"]:
                        continue
                    start = qa["answers"][0]["answer_start"]
                    holding, _ = _split(ws, start, start + len(qa["answers"][0]["text"]))
                    if holding:
                        asked.append((qa["question"].strip(), rng.choice(holding).text, text))
    out = []
    for (_, window, paragraph), doc in zip(asked, nlp().pipe(q for q, _, _ in asked)):
        said = {w.lower() for w in re.findall(r"[A-Za-z]+|\d+", paragraph)}
        edits = list(_edits(doc, said, rng))
        if edits:
            out.append(_pair(rng.choice(edits), window, 0))
    return out


def _edits(doc: Doc, said: set[str], rng: random.Random) -> Iterator[str]:
    for token in doc:
        if token.pos_ == "NOUN" and (token.lower_ in said or token.lemma_.lower() in said):
            other = _sibling(token, said, rng)
            if other:
                yield _replace(doc, token, other)
        elif token.text.rstrip("s") in DAYS or token.text in MONTHS:
            names = DAYS if token.text.rstrip("s") in DAYS else MONTHS
            unsaid = [n for n in names if n.lower() not in said and n.lower() + "s" not in said]
            if unsaid:  # "on Tuesdays" -> "on Fridays"
                yield _replace(doc, token, rng.choice(unsaid) + ("s" if token.text.endswith("s") else ""))
        elif re.fullmatch(r"1[5-9]\d\d|20\d\d", token.text):
            year = int(token.text)
            years = [str(year + d) for d in range(-12, 13) if d and str(year + d) not in said]
            if years:
                yield _replace(doc, token, rng.choice(years))
    if len(doc) > 2 and doc[0].lower_ == "how" and doc[1].lower_ in MEASURES:
        unsaid = [m for m, words in MEASURES.items() if not said & set(words)]
        if unsaid:
            yield _replace(doc, doc[1], rng.choice(unsaid))


def _sibling(token: Token, said: set[str], rng: random.Random) -> str | None:
    """Another kind of what the noun names, common and unsaid in the paragraph, inflected as it is."""
    wn, lemma = wordnet(), token.lemma_.lower()
    own = {s for s in wn.lemmas.get(lemma, []) if s < wn.nouns}
    children, words_of = _tree()
    candidates = {
        word
        for parent in {h for s in own for h in wn.hypernyms[s]}
        for child in children.get(parent, ())
        if child not in own
        for word in words_of[child]
        if word != lemma
        and word not in said
        and wn.tagged.get(word, [0])[0] >= COMMON
        and not own & set(wn.lemmas[word])
    }
    common = sorted(candidates, key=lambda w: (-wn.tagged[w][0], w))[:SIBLINGS]
    if not common:
        return None
    word = rng.choice(common)
    if token.tag_ == "NNS":
        word = (getInflection(word, "NNS") or (word + "s",))[0]
    return None if word.lower() in said else word


@cache
def _tree() -> tuple[dict[int, list[int]], dict[int, list[str]]]:
    """Each noun synset's hyponyms, and the single lower-case words of each noun synset."""
    wn = wordnet()
    children: dict[int, list[int]] = defaultdict(list)
    for synset in range(wn.nouns):
        for parent in wn.hypernyms[synset]:
            children[parent].append(synset)
    words_of: dict[int, list[str]] = defaultdict(list)
    for word, synsets in wn.lemmas.items():
        if word.isalpha() and word.islower():
            for synset in synsets:
                if synset < wn.nouns:
                    words_of[synset].append(word)
    return dict(children), words_of


def _replace(doc: Doc, token: Token, word: str) -> str:
    if token.text[:1].isupper() and not word[:1].isupper():
        word = word[:1].upper() + word[1:]
    return doc[: token.i].text_with_ws + word + token.whitespace_ + doc[token.i + 1 :].text
