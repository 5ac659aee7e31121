"""SQuAD's train split read from the SQuAD explorer's pages, for the question-passage model.

No full copy of SQuAD 2.0's train split is reachable from this machine (every store caps a file at
4 MiB; the split is 42 MB), but the explorer's pages of SQuAD 1.1's train split are (one page an
article: its paragraphs, each with its questions and their answers' texts; the answerable questions
of SQuAD 2.0's train split are these). This writes them as a SQuAD-format file for
`train_qa --squad`, with `questions_per_paragraph` questions of each paragraph (seeded): every passage
teaches once, and a CPU epoch stays under an hour. An answer's offset is its text's first occurrence
in the paragraph (the pages give none). Articles the other `--squad` files hold are left out, and so
is the held-out one. `--exclude` names files of questions already read: their paragraphs give
another of their questions (a later stage's data).

    python -m training.squad_explorer PAGES_DIR OUT.json --skip train-v2.0.json --skip dev-v2.0.rebuilt.json
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from bs4 import BeautifulSoup, Tag

from training.qa_pairs import HELDOUT_TITLE


def article(page: str) -> dict:
    """One explorer page as a SQuAD article: its title, paragraphs and answerable questions."""
    soup = BeautifulSoup(page, "html.parser")
    paragraphs = []
    for wrap in soup.select("div.para-wrap"):
        context = _text(wrap.select_one("pre"))
        qas = []
        for qa in wrap.select("div.qa-wrap"):
            answers = (a.get_text() for a in qa.select("span.answer"))
            placed = next((a for a in answers if a and a in context), "")
            if placed:
                question = _text(qa.select_one("strong.question"))
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
    ap.add_argument("--questions-per-paragraph", type=int, default=1)
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
            paragraph["qas"] = rng.sample(qas, min(args.questions_per_paragraph, len(qas)))
            questions += len(paragraph["qas"])
        articles.append(read)
    args.out.write_text(json.dumps({"version": "1.1-explorer", "data": articles}), encoding="utf-8")
    paragraphs = sum(len(a["paragraphs"]) for a in articles)
    print(f"{len(articles)} articles, {paragraphs} paragraphs, {questions} questions -> {args.out}")


if __name__ == "__main__":
    main()
