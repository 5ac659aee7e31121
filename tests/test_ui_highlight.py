"""Highlighting: claims marked in place with status, number and label; all untrusted text escaped."""

from __future__ import annotations

import re

from ui_reports import ANSWER, CHUNK_TEXT, sample_report

from rrag.types import Claim, ClaimResult, ClaimStatus, Verdict
from ui.highlight import (
    evidence_html,
    highlight_answer,
    highlight_quote,
    locate_quote,
    md_escape,
    source_label,
)
from ui.status import STATUS_STYLES


def _text_of(fragment: str) -> str:
    """What a browser shows: tags dropped, entities decoded."""
    import html

    return html.unescape(re.sub(r"<sup[^>]*>.*?</sup>", "", re.sub(r"<(?!/?sup)[^>]+>", "", fragment)))


def test_every_claim_is_marked_with_its_colour_icon_and_number() -> None:
    report = sample_report()
    out = highlight_answer(report.answer, report.claims)
    marks = re.findall(r'<mark class="rrag-claim" style="background:([^;]+);[^"]*" title="([^"]*)"', out)
    assert len(marks) == 5
    expected = ["not_checkable", "contradicted", "supported", "unsupported", "partial"]
    for (background, title), status in zip(marks, expected, strict=True):
        assert background == STATUS_STYLES[status].background
        assert STATUS_STYLES[status].label in title  # a word, not colour alone
    assert f"{STATUS_STYLES['contradicted'].icon}2</sup>" in out


def test_the_highlighted_answer_reads_as_the_original_text() -> None:
    report = sample_report()
    out = highlight_answer(report.answer, report.claims)
    assert _text_of(out) == ANSWER


def test_html_in_the_answer_is_escaped_not_rendered() -> None:
    report = sample_report()
    out = highlight_answer(report.answer, report.claims)
    assert "<b>free</b>" not in out
    assert "&lt;b&gt;free&lt;/b&gt;" in out
    # the reason goes into a title attribute: quotes and tags must not break out of it
    assert "no passage mentions a car &lt;i&gt;" in out


def test_overlapping_and_out_of_range_spans_do_not_duplicate_text() -> None:
    answer = "Alpha beta. Gamma delta."
    verdict = Verdict(ClaimStatus.SUPPORTED, 1.0, "quote", "ok")
    claims = [
        ClaimResult(Claim("Gamma delta.", 12, 24), verdict),
        ClaimResult(Claim("Alpha beta. Gamma", 0, 17), verdict),  # overlaps the next claim
        ClaimResult(Claim("beyond", 30, 90), verdict),  # outside the answer: skipped
    ]
    out = highlight_answer(answer, claims)
    assert _text_of(out) == answer
    assert out.count("<mark") == 2


def test_unverified_claims_never_look_supported() -> None:
    answer = "The plant opened in 1990."
    claims = [
        ClaimResult(
            Claim(answer, 0, len(answer)),
            Verdict(ClaimStatus.UNSUPPORTED, 0.0, "llm", "timed out", verified=False),
        )
    ]
    out = highlight_answer(answer, claims)
    assert STATUS_STYLES["not_verified"].background in out
    assert "Not verified" in out


def test_quote_is_marked_inside_its_chunk_and_chunk_html_is_escaped() -> None:
    quote = "Leave must be approved by a manager."
    start = CHUNK_TEXT.index(quote)
    out = highlight_quote(CHUNK_TEXT, quote, start, start + len(quote))
    assert f'<mark class="rrag-quote">{quote}</mark>' in out
    assert "<script>" not in out and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in out


def test_quote_is_found_when_offsets_are_stale_or_whitespace_differs() -> None:
    text = "First line.\nThe limit is\n  40 hours per week. End."
    span = locate_quote(text, "The limit is 40 hours per week.", 0, 5)
    assert span is not None and text[span[0] : span[1]] == "The limit is\n  40 hours per week."
    assert locate_quote(text, "not in the text", 0, 5) is None
    assert locate_quote(text, "", 0, 0) is None
    assert locate_quote(text, "First line.", 0, 11) == (0, 11)


def test_missing_quote_shows_the_whole_chunk_unmarked() -> None:
    out = highlight_quote("Some text <i>here</i>.", "absent", 0, 3)
    assert "<mark" not in out and "&lt;i&gt;here&lt;/i&gt;" in out


def test_evidence_html_uses_the_retrieved_chunk_or_none() -> None:
    report = sample_report()
    contradicted = report.claims[1].verdict
    assert '<mark class="rrag-quote">Employees receive 25 days of annual leave.</mark>' in evidence_html(
        report, contradicted
    )
    assert evidence_html(report, report.claims[3].verdict) is None  # no evidence
    assert evidence_html(sample_report(contexts=[]), contradicted) is None  # chunk not retrieved


def test_source_label_names_the_page() -> None:
    evidence = sample_report().claims[1].verdict.evidence
    assert evidence is not None
    assert source_label(evidence) == "handbook <b>.md, page 2"


def test_md_escape_keeps_markdown_and_html_inert() -> None:
    escaped = md_escape("**bold** <script>x</script> :red[alert] $x$ [link](http://e.x)\nnext")
    assert "\n" not in escaped
    for raw in ("**", "<script>", ":red[", "$x$", "]("):
        assert raw not in escaped
    assert escaped.replace("\\", "") == "**bold** <script>x</script> :red[alert] $x$ [link](http://e.x) next"


def test_md_escape_neutralises_leading_list_markers_but_keeps_ordinary_dots() -> None:
    assert md_escape("1. Item") == "1\\. Item"
    assert md_escape("- item") == "\\- item"
    assert md_escape("The rate is 10.5 - not 11.") == "The rate is 10.5 - not 11."


def test_quote_window_keeps_whole_words_around_the_quote() -> None:
    text = "alpha " * 100 + "THE QUOTE." + " omega" * 100
    start = text.index("THE QUOTE.")
    out = highlight_quote(text, "THE QUOTE.", start, start + 10, radius=30)
    assert out.startswith('<div class="rrag-chunk">… alpha') and out.endswith("omega …</div>")
    assert '<mark class="rrag-quote">THE QUOTE.</mark>' in out
    assert "alph " not in out and len(out) < 200
    short = highlight_quote("a THE QUOTE. b", "THE QUOTE.", 2, 12, radius=30)
    assert "…" not in short
