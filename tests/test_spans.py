"""Span-level highlighting: the exact words of a claim that failed, on the page and in the exports."""

from __future__ import annotations

import html
import re

from ui_reports import sample_report

from rrag.audit.spans import ABSENT, failed_spans, report_spans
from rrag.types import Chunk, Claim, ClaimResult, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from ui.export import report_html, report_markdown
from ui.highlight import highlight_answer, mark_failed

LEAVE = "Leave requests are approved by the line manager within 5 working days."


def _failed(claim: str, evidence: str, passages: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    return [(claim[a:b], why) for a, b, why in failed_spans(claim, evidence, [evidence, *passages])]


def test_a_changed_number_is_marked_beside_the_evidence_value() -> None:
    claim = "Leave requests are approved within 10 working days."
    assert _failed(claim, LEAVE) == [("10", "the evidence says 5")]


def test_a_changed_date_names_the_evidence_date() -> None:
    evidence = "Ledgerline 4.2 was released on 2 September 2026. It added invoices in 12 currencies."
    assert _failed("Ledgerline 4.2 was released on 12 October 2026.", evidence) == [
        ("12 October", "the evidence says 2 September")
    ]


def test_an_invented_clause_is_marked_as_one_span() -> None:
    claim = "The company also pays for a gym membership of up to €40 per month for remote employees."
    evidence = "Fully remote employees may work from anywhere in the country."
    assert _failed(claim, evidence, ("The company pays for travel.",)) == [
        ("gym membership of up to €40 per month", ABSENT)
    ]


def test_an_added_negation_is_marked() -> None:
    evidence = "Multi-factor authentication is required for every internal system."
    assert _failed("Multi-factor authentication is not required for internal systems.", evidence) == [
        ("not", "the evidence says no such negation")
    ]


def test_words_found_in_another_retrieved_passage_are_not_marked() -> None:
    claim = "Primary carers receive a childcare bonus."
    assert _failed(claim, "Primary carers receive 16 weeks of leave.", ("A childcare bonus is paid.",)) == []


def test_only_failed_claims_get_spans() -> None:
    report = sample_report()
    spans = report_spans(report)
    by_status = {r.verdict.status: s for r, s in zip(report.claims, spans, strict=True)}
    assert by_status[ClaimStatus.SUPPORTED] == [] and by_status[ClaimStatus.NOT_CHECKABLE] == []
    contradicted = report.claims[1].claim.text
    assert [(contradicted[a:b], why) for a, b, why in by_status[ClaimStatus.CONTRADICTED]] == [
        ("30", "the evidence says 25")
    ]
    unsupported = report.claims[3].claim.text
    assert [unsupported[a:b] for a, b, _ in by_status[ClaimStatus.UNSUPPORTED]] == [
        "Staff also get a <b>free</b> car"
    ]


def test_an_unverified_claim_gets_no_spans() -> None:
    report = sample_report()
    result = report.claims[1]
    unverified = Verdict(ClaimStatus.UNSUPPORTED, 0.0, "llm", "timed out", verified=False)
    report.claims[1] = ClaimResult(result.claim, unverified)
    assert report_spans(report)[1] == []


def _marks(fragment: str) -> list[tuple[str, str]]:
    return [
        (html.unescape(text), html.unescape(title))
        for title, text in re.findall(r'<mark class="rrag-failed" title="([^"]*)">(.*?)</mark>', fragment)
    ]


def test_the_page_marks_the_failed_words_inside_the_claim() -> None:
    report = sample_report()
    out = highlight_answer(report.answer, report.claims, report_spans(report))
    assert ("30", "the evidence says 25") in _marks(out)
    # inside the contradicted claim's own mark, and the text still reads as the answer
    inside = (
        r'<mark class="rrag-claim"[^>]*><sup[^>]*>\S+</sup>'
        r'Employees receive <mark class="rrag-failed"[^>]*>30</mark> days'
    )
    assert re.search(inside, out)
    assert html.unescape(re.sub(r"<sup[^>]*>.*?</sup>|<[^>]+>", "", out)) == report.answer


def test_failed_spans_are_escaped() -> None:
    text = "Staff get a <b>free</b> car."
    out = mark_failed(text, [(12, 23, 'why "<script>"')])
    assert "<b>" not in out and "&lt;b&gt;free&lt;/b&gt;" in out
    assert 'title="why &quot;&lt;script&gt;&quot;"' in out


def test_a_reworded_claim_gets_no_marks_at_wrong_offsets() -> None:
    answer = "Employees get 30 days."
    claim = ClaimResult(
        Claim("Staff get thirty days of leave.", 0, len(answer)),
        Verdict(ClaimStatus.CONTRADICTED, 0.9, "nli", "25 days"),
    )
    assert "rrag-failed" not in highlight_answer(answer, [claim], [[(14, 16, "the evidence says 25")]])


def test_exports_carry_the_same_marks() -> None:
    report = sample_report()
    page = report_html(report)
    assert ("30", "the evidence says 25") in _marks(page)
    assert ("car", ABSENT) in [(t[-3:], w) for t, w in _marks(page)]
    assert "<b>free</b>" not in page
    # Markdown has no titles: the same words in bold, as plain text (no <mark>, no entities).
    md = report_markdown(report)
    bold = re.findall(r"\*\*(.+?)\*\*", md)
    assert "30" in bold and any(word.endswith("car") for word in bold)
    assert "<mark" not in md and "<b>free</b>" not in md


def test_the_markdown_claim_cell_stays_one_cell() -> None:
    report = sample_report()
    row = next(line for line in report_markdown(report).splitlines() if line.startswith("| 2 |"))
    assert row.count(" | ") == 5 and "**30**" in row


def test_spans_use_the_report_contexts() -> None:
    chunk = Chunk("c9", "d", "faq.md", "Staff also get a <b>free</b> car.", 0, 33)
    report = sample_report(contexts=[RetrievedChunk(chunk, 0.9)])
    unsupported = report.claims[3].claim.text
    assert [unsupported[a:b] for a, b, _ in report_spans(report)[3]] == []


def test_the_verifiers_value_clash_is_marked_as_it_gives_it() -> None:
    claim = "Requests are approved within 10 working days."
    clash = ValueClash("10 working days", "5 working days", 29, 44)
    assert claim[clash.start : clash.end] == "10 working days"
    spans = failed_spans(claim, LEAVE, [LEAVE], clash)
    assert [(claim[a:b], why) for a, b, why in spans] == [
        ("10 working days", "the evidence says 5 working days")
    ]


def test_a_claim_that_borrows_its_subject_is_marked_at_its_own_words_in_the_answer() -> None:
    answer = "The washer uses 12 litres and dries in 40 minutes."
    own = "dries in 40 minutes."
    start = answer.index(own)
    claim = ClaimResult(
        Claim("The washer " + own, start, start + len(own)),  # the subject borrowed from the sentence
        Verdict(ClaimStatus.CONTRADICTED, 0.9, "lexical", "the evidence says 30 minutes"),
    )
    spans = [(len("The washer dries in "), len("The washer dries in 40"), "the evidence says 30")]
    out = highlight_answer(answer, [claim], [spans])
    assert _marks(out) == [("40", "the evidence says 30")]
    assert html.unescape(re.sub(r"<sup[^>]*>.*?</sup>|<[^>]+>", "", out)) == answer
