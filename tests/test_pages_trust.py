"""Ask and Insights show what the trust checks found: sources that disagree, an answer off the question."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_pages import _all_text, _page, _submit, engine_with

from rrag import ReliableRAG

POLICY = "Warranty policy\n\nAll products carry a warranty of 12 months from the date of purchase.\n"
FAQ = "<html><body><p>Our products come with a 2-year warranty.</p></body></html>"
PRODUCTS = "X400 service plans\n\nThe annual service for the X400 costs GBP 120.\n"


@pytest.fixture
def rag(tmp_path: Path) -> Iterator[ReliableRAG]:
    yield from engine_with(tmp_path / "docs", {"policy.txt": POLICY, "faq.html": FAQ, "x400.txt": PRODUCTS})


def _ask(question: str) -> str:
    at = _page("ask")
    at.text_area(key="ask.question").input(question)
    return _all_text(_submit(at, "Ask"))


def test_ask_says_when_sources_disagree_and_insights_counts_it(rag: ReliableRAG) -> None:
    text = _ask("How long is the warranty on products?")
    assert "**Sources disagree** on the duration: 12 months (policy.txt) vs 2-year (faq.html)" in text
    assert text.count("**Sources disagree**") == 1  # one banner, saying it once
    rag.ask("How much does the annual service for the X400 cost?")  # no disagreement
    metrics = {m.label: m.value for m in _page("insights").metric}
    assert metrics["Sources disagree"] == "50%"


def test_ask_says_when_the_answer_does_not_address_the_question(rag: ReliableRAG) -> None:
    text = _ask("What is the retail price of the X400?")
    assert "May not answer the question." in text and "the retail price" in text
    assert "I cannot answer this from the indexed documents" in text
