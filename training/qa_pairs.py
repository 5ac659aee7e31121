"""Training pairs for the question-passage model (rrag/backends/question_passage.py): (question,
passage window, answers 0/1), made of the run-time unit, `windows` of consecutive sentences.

From SQuAD 2.0 (CC-BY-SA-4.0; SQuAD is none of the eval sources, so both its splits may teach; see
training/README.md for the copies reachable here):
- each answerable question with the window of its paragraph that holds the answer (1), a window of
  the same paragraph that does not (0), and the window of another paragraph of the same article that
  shares most of its words (0): the subject is named, the answer is not given;
- each unanswerable question, written to look answerable from its paragraph, with that paragraph's
  window sharing most of its words and one more (0).
From our own documents (none of them a question set's corpus, no question in a question set):
training/qa_own.jsonl's questions about the demo handbook, and training/qa_corpus/questions.jsonl's
about its eleven short documents (a library, a campsite, a clinic, a bakery's steps ...), whose
unanswerable questions name what the document names (a room, a plan, a person) and ask what it does
not say: the window holding the answer (1) and the windows sharing most words that do not (0); an
unanswerable question's best-sharing windows (0).

One article of SQuAD (HELDOUT_TITLE) is kept out of training to measure the model on.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from rrag.backends.question_passage import Window, windows
from rrag.ingest.extract import extract
from rrag.text import content_words

REPO = Path(__file__).resolve().parents[1]  # the question files name their documents from here
OWN_QUESTIONS = REPO / "training" / "qa_own.jsonl"
CORPUS_QUESTIONS = REPO / "training" / "qa_corpus" / "questions.jsonl"
HELDOUT_TITLE = "Solar_energy"


def _overlap(question: str, text: str) -> int:
    return len(set(content_words(question)) & set(content_words(text)))


def _split(ws: list[Window], start: int, end: int) -> tuple[list[Window], list[Window]]:
    """The windows holding the span [start, end), and those holding none of it."""
    holding = [w for w in ws if w.start <= start and end <= w.end]
    clear = [w for w in ws if w.end <= start or w.start >= end]
    return holding, clear


def _most_shared(question: str, ws: list[Window], n: int) -> list[Window]:
    return sorted(ws, key=lambda w: (-_overlap(question, w.text), w.start))[:n]


def squad_pairs(paths: list[Path], seed: int) -> tuple[list[dict], list[dict]]:
    """(training pairs, held-out pairs) from SQuAD 2.0 files."""
    rng = random.Random(seed)
    train: list[dict] = []
    heldout: list[dict] = []
    articles = [a for path in paths for a in json.loads(path.read_text(encoding="utf-8"))["data"]]
    for article in articles:
        out = heldout if article["title"] == HELDOUT_TITLE else train
        paragraphs = [(p, windows(p["context"])) for p in article["paragraphs"]]
        for i, (paragraph, ws) in enumerate(paragraphs):
            others = [w for j, (_, wj) in enumerate(paragraphs) if j != i for w in wj]
            for qa in paragraph["qas"]:
                question = qa["question"].strip()
                negatives: list[Window] = []
                if qa.get("is_impossible"):
                    negatives = _most_shared(question, ws, 2)
                elif qa["answers"]:
                    answer = qa["answers"][0]
                    holding, clear = _split(
                        ws, answer["answer_start"], answer["answer_start"] + len(answer["text"])
                    )
                    if not holding:
                        continue  # the answer straddles two windows: no clean positive
                    out.append(_pair(question, rng.choice(holding).text, 1))
                    negatives = rng.sample(clear, min(1, len(clear)))
                negatives += _most_shared(question, others, 1)
                out.extend(_pair(question, w.text, 0) for w in negatives)
    return train, heldout


def own_pairs(files: list[Path]) -> list[dict]:
    """Pairs from the questions about our own documents in `files` (JSONL: question, document, answer)."""
    rows = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").splitlines() if line]
    texts: dict[str, str] = {}
    out = []
    for row in rows:
        name = row["document"]
        if name not in texts:
            texts[name] = extract(REPO / name, max_bytes=10_000_000).text
        text, question, answer = texts[name], row["question"], row["answer"]
        ws = windows(text)
        if answer is None:
            out.extend(_pair(question, w.text, 0) for w in _most_shared(question, ws, 3))
            continue
        start = text.index(answer)
        holding, clear = _split(ws, start, start + len(answer))
        out.extend(_pair(question, w.text, 1) for w in holding[:2])
        out.extend(_pair(question, w.text, 0) for w in _most_shared(question, clear, 2))
    return out


def _pair(question: str, passage: str, answers: int) -> dict:
    # "premise" and "hypothesis" are the first and second text of a pair, as train_nli batches them.
    return {"premise": question, "hypothesis": " ".join(passage.split()), "answers": answers}
