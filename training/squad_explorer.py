"""SQuAD read from the SQuAD explorer's pages, for the question-passage model.

No full copy of SQuAD 2.0's train split is reachable from this machine (every store caps a file at
4 MiB; the split is 42 MB), but the explorer's pages are (one page an article: its paragraphs, each
with its questions and their answers' texts, and on SQuAD 2.0's pages "<No Answer>" for a question
written to look answerable that the paragraph does not answer): SQuAD 1.1's train split (the
answerable questions of SQuAD 2.0's train split) and SQuAD 2.0's dev split. This writes them as a
SQuAD-format file for `train_qa --squad`, with `questions_per_paragraph` questions of each paragraph
(seeded; 0 for all of them): one question a paragraph teaches every passage once and keeps a CPU epoch
under an hour. An answer's offset is its text's first occurrence in the paragraph (the pages give
none). Articles the other `--squad` files hold are left out, and so is the held-out one. `--exclude`
names files of questions already read: their paragraphs give another of their questions (a later
stage's data).

    git --git-dir SQuAD-explorer.git archive 13f82e35b9a1fb9173f863b35f5675030646571e \
        explore/1.1/train | tar -x
    python -m training.squad_explorer explore/1.1/train train-v1.1.explorer-1pp.json \
        --skip train-v2.0.json --skip dev-v2.0.explorer.json
    git --git-dir SQuAD-explorer.git archive e0c66cfe explore/v2.0/dev | tar -x
    python -m training.squad_explorer explore/v2.0/dev dev-v2.0.explorer.json --questions-per-paragraph 0
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from bs4 import BeautifulSoup, Tag

from training.qa_pairs import HELDOUT_TITLE


def article(page: str) -> dict:
    """One explorer page as a SQuAD article: its title, paragraphs and questions, those the paragraph
    does not answer marked `is_impossible` with no answer (SQuAD 2.0's format)."""
    soup = BeautifulSoup(page, "html.parser")
    paragraphs = []
    for wrap in soup.select("div.para-wrap"):
        context = _text(wrap.select_one("pre"))
        qas = []
        for qa in wrap.select("div.qa-wrap"):
            question = _text(qa.select_one("strong.question"))
            if qa.select_one("span.no-answer") is not None:
                qas.append({"question": question, "answers": [], "is_impossible": True})
                continue
            answers = (a.get_text() for a in qa.select("span.answer"))
            placed = next((a for a in answers if a and a in context), "")
            if placed:
                answer = {"text": placed, "answer_start": context.index(placed)}
                qas.append({"question": question, "answers": [answer]})
        paragraphs.append({"context": context, "qas": qas})
    return {"title": _text(soup.select_one("h1#title")), "paragraphs": paragraphs}


def _text(tag: Tag | None) -> str:
    return tag.get_text() if tag is not None else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", type=Path, help="a folder of the explorer's article pages (*.html)")
    ap.add_argument("out", type=Path)
    ap.add_argument(
        "--skip", type=Path, action="append", default=[], help="a SQuAD file whose articles to leave out"
    )
    ap.add_argument(
        "--exclude", type=Path, action="append", default=[], help="a SQuAD file whose questions to leave out"
    )
    ap.add_argument("--questions-per-paragraph", type=int, default=1, help="0: every question")
    ap.add_argument("--seed", type=int, default=20261203)
    args = ap.parse_args()
    skipped = {HELDOUT_TITLE} | {
        a["title"] for path in args.skip for a in json.loads(path.read_text(encoding="utf-8"))["data"]
    }
    read_before = {
        qa["question"]
        for path in args.exclude
        for a in json.loads(path.read_text(encoding="utf-8"))["data"]
        for p in a["paragraphs"]
        for qa in p["qas"]
    }
    rng = random.Random(args.seed)
    articles, questions = [], 0
    for page in sorted(args.pages.glob("*.html")):
        if page.name == "index.html":
            continue
        read = article(page.read_text(encoding="utf-8"))
        if not read["title"] or read["title"] in skipped:
            continue
        for paragraph in read["paragraphs"]:
            qas = [qa for qa in paragraph["qas"] if qa["question"] not in read_before]
            if args.questions_per_paragraph:
                qas = rng.sample(qas, min(args.questions_per_paragraph, len(qas)))
            paragraph["qas"] = qas
            questions += len(paragraph["qas"])
        articles.append(read)
    paragraphs = sum(len(a["paragraphs"]) for a in articles)
    impossible = sum(
        qa.get("is_impossible", False) for a in articles for p in a["paragraphs"] for qa in p["qas"]
    )
    version = "2.0-explorer" if impossible else "1.1-explorer"  # only SQuAD 2.0 has unanswerable questions
    args.out.write_text(json.dumps({"version": version, "data": articles}), encoding="utf-8")
    print(
        f"{len(articles)} articles, {paragraphs} paragraphs, {questions} questions ({impossible} the "
        f"paragraph does not answer) -> {args.out}"
    )


if __name__ == "__main__":
    main()
