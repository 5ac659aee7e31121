"""Answer text that reads well, in a real headless Chromium (issue 14 item 3): the demo's table row
answers as a sentence, first; the FAQ page's header, navigation and footer never reach its chunks.
Screenshot: answer-text.png."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from test_journey import _choose, _idle, _open, _shot, page, pytestmark, server  # noqa: F401 - fixtures and marks

QUESTION = "What is the daily per-diem allowance for Berlin?"


def test_the_answer_reads_as_sentences_and_page_furniture_is_gone(page: Page) -> None:
    page.goto("/")
    _open(page, "Documents", "Documents")
    page.get_by_role("button", name="Load the demo handbook").click()
    expect(page.get_by_text("Inspect a document")).to_be_visible()
    _choose(page, "Inspect a document", "ledgerline-product-faq.html")
    expect(page.get_by_text("Frequently Asked Questions", exact=False).first).to_be_visible()
    for furniture in ("Log in", "All rights reserved"):  # the header's link, the footer
        expect(page.get_by_text(furniture, exact=False)).to_have_count(0)

    _open(page, "Ask", "Ask your documents")
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_role("button", name="Ask", exact=True).click()
    final = page.locator(".rrag-final")
    expect(final).to_be_visible()
    expect(final).to_contain_text("For Berlin, the per-diem per day is €48.")
    assert final.inner_text().strip().startswith("For Berlin, the per-diem per day is €48.")
    _idle(page)
    _shot(page, "answer-text")
