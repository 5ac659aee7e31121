"""The SQuAD explorer's pages read as SQuAD articles (training/squad_explorer.py): the question-passage
model's train split where no copy of the file is reachable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from training.squad_explorer import article, main

PAGE = """<html><body><h1 id="title">Lighthouse</h1><div>
<div class="para-wrap"><div class="row"><div class="col-md-6"><pre>The lamp was lit in 1820.
The lamp &amp; its lens were replaced in 1901.</pre></div><div class="col-md-6 rightCol">
<div class="qa-wrap"><p> <strong class="question">When was the lens replaced?</strong></p><ol>
<li><p><i>Answer 1: </i><span class="answer">1901</span></p></li>
<li><p><i>Answer 2: </i><span class="answer">in 1901</span></p></li></ol></div>
<div class="qa-wrap"><p> <strong class="question">What was lit?</strong></p><ol>
<li><p><i>Answer 1: </i><span class="answer">The lamp</span></p></li></ol></div>
<div class="qa-wrap"><p> <strong class="question">Who lit it?</strong></p><ol>
<li><p><i>Answer 1: </i><span class="answer">the keeper</span></p></li></ol></div>
</div></div></div></div></body></html>"""


def test_a_page_gives_its_paragraphs_questions_and_answers_where_the_paragraph_holds_them() -> None:
    read = article(PAGE)
    assert read["title"] == "Lighthouse"
    [paragraph] = read["paragraphs"]
    context = paragraph["context"]
    assert "The lamp & its lens" in context  # entities unescaped, as the SQuAD file has them
    by_question = {qa["question"]: qa["answers"][0] for qa in paragraph["qas"]}
    # An answer's offset is its text's first occurrence; an answer the paragraph does not hold is no
    # question to train on.
    assert by_question == {
        "When was the lens replaced?": {"text": "1901", "answer_start": context.index("1901")},
        "What was lit?": {"text": "The lamp", "answer_start": 0},
    }


def test_questions_read_before_are_not_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "Lighthouse.html").write_text(PAGE, encoding="utf-8")
    first = {"data": [{"title": "Lighthouse", "paragraphs": [{"qas": [{"question": "What was lit?"}]}]}]}
    (tmp_path / "first.json").write_text(json.dumps(first), encoding="utf-8")
    out = tmp_path / "second.json"
    argv = ["squad_explorer", str(pages), str(out), "--exclude", str(tmp_path / "first.json")]
    monkeypatch.setattr(sys, "argv", [*argv, "--questions-per-paragraph", "2"])
    main()
    [paragraph] = json.loads(out.read_text(encoding="utf-8"))["data"][0]["paragraphs"]
    assert [qa["question"] for qa in paragraph["qas"]] == ["When was the lens replaced?"]


# SQuAD 2.0's pages mark a question written to look answerable that the paragraph does not answer.
PAGE_2_0 = PAGE.replace(
    "</div></div></div></div></body>",
    """<div class="qa-wrap"><p> <strong class="question">When was the lamp replaced?</strong></p>
<ul><li><p><i>Ground Truth Answers: </i><span class="no-answer">&lt;No Answer&gt;</span></p></li></ul></div>
</div></div></div></div></body>""",
)


def test_a_question_the_paragraph_does_not_answer_is_kept_as_impossible() -> None:
    [paragraph] = article(PAGE_2_0)["paragraphs"]
    assert paragraph["qas"][-1] == {
        "question": "When was the lamp replaced?",
        "answers": [],
        "is_impossible": True,
    }
    assert not any(qa.get("is_impossible") for qa in paragraph["qas"][:-1])


def test_every_question_of_a_paragraph_with_zero_per_paragraph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "Lighthouse.html").write_text(PAGE_2_0, encoding="utf-8")
    out = tmp_path / "dev.json"
    monkeypatch.setattr(
        sys, "argv", ["squad_explorer", str(pages), str(out), "--questions-per-paragraph", "0"]
    )
    main()
    written = json.loads(out.read_text(encoding="utf-8"))
    [paragraph] = written["data"][0]["paragraphs"]
    assert [qa["question"] for qa in paragraph["qas"]] == [
        "When was the lens replaced?",
        "What was lit?",
        "When was the lamp replaced?",
    ]
    assert written["version"] == "2.0-explorer"
