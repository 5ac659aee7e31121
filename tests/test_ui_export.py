"""Exports: JSON is the report's own dict; HTML is self-contained and inert; Markdown is escaped."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from ui_reports import sample_report

from rrag.types import ClaimResult, Report
from rrag.verify.evidence import not_verified
from ui.export import report_filename, report_html, report_json, report_markdown, summary_line


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [value or "" for name, value in attrs if name in ("src", "href")]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_json_export_round_trips_to_the_same_report() -> None:
    report = sample_report()
    data = json.loads(report_json(report))
    assert data == report.to_dict()
    assert Report.from_dict(data).to_dict() == data


def test_html_export_is_self_contained_and_runs_no_untrusted_markup() -> None:
    page = report_html(sample_report())
    parser = _Tags()
    parser.feed(page)
    assert "script" not in parser.tags and "i" not in parser.tags and "em" not in parser.tags
    assert parser.links == []  # no external resources
    assert parser.tags.count("style") == 1
    text = "".join(parser.text)
    assert "<script>alert('x')</script>" in text  # the document's script shows as text
    assert "Staff also get a <b>free</b> car." in text
    assert "How much <em>leave</em> do we get?" in text


def test_html_export_shows_decision_claims_evidence_and_sources() -> None:
    page = report_html(sample_report())
    for expected in (
        "Trimmed",
        "MEDIUM",
        "0.38",
        "Contradicted",
        "Unsupported",
        "Partial",
        "handbook &lt;b&gt;.md, page 2",
        '<mark class="rrag-quote">',
        "Some claims were removed",
    ):
        assert expected in page


def test_html_export_warns_when_not_verified() -> None:
    page = report_html(sample_report(verified=False, not_verified_reason="LLM judge timed out"))
    assert "Not verified" in page and "LLM judge timed out" in page


def test_markdown_export_escapes_html_and_keeps_one_row_per_claim() -> None:
    md = report_markdown(sample_report())
    assert "<b>" not in md and "<em>" not in md and "\\<b\\>free\\</b\\>" in md
    rows = [line for line in md.splitlines() if line.startswith("| ") and not line.startswith("| #")]
    assert len(rows) == 5
    assert all(row.count(" | ") == 5 for row in rows)
    assert "✖ Contradicted (0.90)" in md and "“Employees receive 25 days of annual leave.”" in md


def test_markdown_table_cells_cannot_be_split_by_pipes_or_line_breaks() -> None:
    report = sample_report()
    first = report.claims[1]
    piped = replace(first, claim=replace(first.claim, text="25 | 30\ndays"))
    md = report_markdown(sample_report(claims=[piped]))
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert "25 \\| **30** days" in row and row.count(" | ") == 5  # the failed number in bold


def test_markdown_export_reads_as_text_no_html_tags_or_entities() -> None:
    report = sample_report()
    first = report.claims[1]
    quoted = replace(first, claim=replace(first.claim, text="The manager's \"OK\" & HR's sign-off: 30 days"))
    md = report_markdown(sample_report(claims=[quoted], question="What's the <b>rule</b> & who's asked?"))
    assert "<mark" not in md and not re.search(r"&#?\w+;", md)
    assert "What's the \\<b\\>rule\\</b\\> \\& who's asked?" in md
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert "The manager's \"OK\" \\& HR's sign-off" in row.replace("**", "")
    rendered = _permissive_viewer().render(md)  # a viewer shows the text as written
    assert "&amp; HR's sign-off" in rendered and "<b>" not in rendered and "<strong>" in rendered


def test_summary_and_filename() -> None:
    report = sample_report(reliability=None, hallucination_rate=None, level=None)
    assert summary_line(report) == "✂ Trimmed · level – n/a · reliability n/a · hallucination rate n/a"
    assert report_filename(report, "html") == "rrag-report-2026-11-22-01234567.html"


# Link syntax a document or an LLM may carry; a Markdown viewer must never turn it into a link.
HOSTILE_LINKS = (
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(document.cookie))",
    "[vb](vbscript:msgbox(1))",
    "![pixel](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](<javascript:alert(1)>)",
    "[ref] and [ref]: javascript:alert(1)",
    "<javascript:alert(1)>",
)


def _permissive_viewer() -> MarkdownIt:
    """A CommonMark viewer with tables that follows any URL (markdown-it's own scheme filter off), as
    many Markdown viewers do."""
    viewer = MarkdownIt("commonmark").enable("table")
    viewer.validateLink = lambda url: True  # type: ignore[method-assign]
    return viewer


def test_markdown_export_turns_no_untrusted_text_into_a_link() -> None:
    report = sample_report()
    hostile = " ".join(HOSTILE_LINKS)
    claims = [
        replace(
            c, claim=replace(c.claim, text=f"{c.claim.text} {link}"), verdict=replace(c.verdict, reason=link)
        )
        for c, link in zip(report.claims, HOSTILE_LINKS)
    ]
    md = report_markdown(
        sample_report(question=hostile, answer=hostile, final_answer=hostile, caveat=hostile, claims=claims)
    )
    parser = _Tags()
    parser.feed(_permissive_viewer().render(md))
    assert "a" not in parser.tags and "img" not in parser.tags and parser.links == []
    text = "".join(parser.text)
    assert all(link in text for link in HOSTILE_LINKS)  # shown literally, as the document has it


def test_a_not_verified_claim_is_labelled_so_in_every_export_after_a_reload() -> None:
    report = sample_report()
    claims = list(report.claims)
    claims[1] = ClaimResult(claims[1].claim, not_verified("llm", "the judge <b>timed out</b>"))
    reloaded = Report.from_dict(json.loads(report_json(replace(report, claims=claims))))
    assert reloaded.claims[1].verdict.status.value == "not_verified" and reloaded.claims[1].claim.checkable
    assert json.loads(report_json(reloaded))["claims"][1]["status"] == "not_verified"
    page, markdown = report_html(reloaded), report_markdown(reloaded)
    assert "⚠ Not verified" in page and "⚠ Not verified" in markdown
    assert "<b>timed out</b>" not in page and "&lt;b&gt;timed out&lt;/b&gt;" in page
