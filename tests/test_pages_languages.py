"""Documents shows each document's language; Ask says, beside the verdict, which checks did not run on
text in a language the rules do not read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_language import DOCUMENTS
from test_pages import _all_text, _page, _submit, engine_with

from rrag import ClaimStatus, ReliableRAG


@pytest.fixture
def rag(tmp_path: Path) -> Iterator[ReliableRAG]:
    yield from engine_with(tmp_path / "docs", DOCUMENTS)


def test_documents_lists_each_documents_language(rag: ReliableRAG) -> None:
    table = _page("documents").dataframe[0].value
    assert dict(zip(table["Document"], table["Language"], strict=True)) == {
        "urlaub.md": "German (de)",
        "frais.md": "French (fr)",
        "leave.md": "English (en)",
    }


def test_ask_says_beside_the_verdict_what_was_not_read(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.text_area(key="ask.question").input("Wer muss die Arbeit im Homeoffice vorher genehmigen?")
    text = _all_text(_submit(at, "Ask"))
    report = at.session_state["ask.report"]
    assert "Teamleitung" in report.answer and not report.verified  # answered, but not verified
    warnings = [w.value for w in at.warning]
    not_run = next(w for w in warnings if w.startswith("**Checks that did not run.**"))
    assert "the passages in German" in not_run and "urlaub.md" in not_run
    assert warnings.index(not_run) == 1  # right after "Not verified", before the answer the user gets
    assert "Not verified." in warnings[0] and "reads English only" in text
    assert {r.verdict.status for r in report.claims if r.claim.checkable} == {ClaimStatus.NOT_VERIFIED}
    assert "nor checked for an answer: the question is in German" in text  # the retrieval line
