"""A report exported as JSON, as a self-contained HTML page, or as Markdown.

The HTML page carries its own style sheet and no scripts or external links, so it opens anywhere
(mail attachment, ticket) and shows the same colours, icons and labels as the app. Untrusted text is
escaped in both the HTML and the Markdown.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence

from rrag.audit.corrections import corrected_by
from rrag.audit.spans import FailedSpan, report_spans
from rrag.types import ClaimResult, Report
from ui.highlight import evidence_html, highlight_answer, mark_failed, source_label
from ui.status import (
    CSS,
    badge_html,
    badge_text,
    decision_style,
    display_status,
    legend_html,
    level_style,
    status_style,
)


def report_filename(report: Report, extension: str) -> str:
    return f"rrag-report-{report.created_at[:10]}-{report.session_id[:8]}.{extension}"


def report_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


def format_score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def percent(value: float | None) -> str:
    """A rate as a percentage, as the review reasons and the thresholds write it ("20%")."""
    return "n/a" if value is None else f"{value:.0%}"


def summary_line(report: Report) -> str:
    """Decision, level and scores in one plain-text line."""
    return (
        f"{badge_text(decision_style(report.decision.value))} · "
        f"level {badge_text(level_style(report.level.value if report.level else None))} · "
        f"reliability {format_score(report.reliability)} · "
        f"hallucination rate {percent(report.hallucination_rate)}"
    )


def decided_by(result: ClaimResult) -> str:
    """Who decided a claim's status, in plain text: 'confidence 0.93 · decided by quote', or for a
    reviewer's correction 'corrected by Ann at 2026-11-24 09:30 UTC · the verifier said ✔ Supported
    (0.93, quote): exact quote'."""
    correction, v = result.correction, result.verdict
    if correction is None or correction.original is None:
        return f"confidence {v.confidence:.2f} · decided by {v.verifier}"
    v = correction.original
    said = f"{badge_text(status_style(display_status(v)))} ({v.confidence:.2f}, {v.verifier})"
    return f"{corrected_by(correction)} · the verifier said {said}" + (f": {v.reason}" if v.reason else "")


# Untrusted text is escaped with backslashes, which every CommonMark viewer honours and which read as
# the text itself in a plain editor (entities such as `&#x27;` do not): `[` `]` open no link, image or
# link reference, so no `javascript:`, `vbscript:` or `data:` URL becomes a link; `<` `>` make no HTML
# or autolink; `|` splits no table cell; `&` starts no entity; `*` and backticks start no emphasis or
# code. Line starts that would begin a heading, list or quote are escaped too.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<>|&])")
_BLOCK_START = re.compile(r"^(\s*)([#>+-]|\d+(?=[.)]))")


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _md(text: str, failed: Sequence[FailedSpan] = ()) -> str:
    """One line of escaped Markdown (line breaks flattened, so one value stays in one cell), the failed
    words in bold where the HTML page marks them."""
    text = re.sub(r"\s", " ", text)  # one space for one character: the span offsets still hold
    parts: list[str] = []
    cursor = 0
    for a, b, _why in sorted(failed):
        a, b = max(a, cursor), min(b, len(text))
        word = text[a:b]
        if not word.strip():
            continue
        lead, trail = len(word) - len(word.lstrip()), len(word.rstrip())
        parts += [_escape(text[cursor : a + lead]), "**", _escape(word[lead:trail]), "**"]
        cursor = a + trail
    parts.append(_escape(text[cursor:]))
    return _BLOCK_START.sub(r"\1\\\2", re.sub(" {2,}", " ", "".join(parts)).strip())


def report_markdown(report: Report) -> str:
    lines = [
        "# Audited answer",
        "",
        f"**Question:** {_md(report.question)}",
        "",
        f"**Result:** {summary_line(report)}",
        "",
        f"Audited {report.created_at} · mode {report.mode} · session `{report.session_id}`",
        "",
    ]
    if not report.verified:
        lines += [f"> **Not verified:** {_md(report.not_verified_reason)}", ""]
    for check in report.checks_not_run:
        lines += [f"> **Did not run:** {_md(check)}", ""]
    for note in report.notes:
        lines += [f"*{_md(note)}*", ""]
    lines += ["## The answer the user receives", "", f"> {_md(report.final_answer)}", ""]
    if report.caveat:
        lines += [f"*{_md(report.caveat)}*", ""]
    lines += ["## The audited answer", "", f"> {_md(report.answer)}", "", "## Claims", ""]
    if not report.claims:
        lines += ["No claims were found in the answer.", ""]
    else:
        lines += ["| # | Status | Claim | Evidence | Source | Verifier |", "|---|---|---|---|---|---|"]
        failed = report_spans(report)
        for number, result in enumerate(report.claims, start=1):
            v = result.verdict
            evidence = f"“{_md(v.evidence.quote)}”" if v.evidence else _md(v.reason)
            source = _md(source_label(v.evidence)) if v.evidence else ""
            status = badge_text(status_style(display_status(v))) + (
                f", {_md(decided_by(result))}" if result.correction else f" ({v.confidence:.2f})"
            )
            lines.append(
                f"| {number} | {status} | {_md(result.claim.text, failed[number - 1])} | {evidence} | "
                f"{source} | {_md(v.verifier)} |"
            )
        lines.append("")
    return "\n".join(lines)


def report_html(report: Report) -> str:
    e = html.escape
    failed = report_spans(report)
    claims = "".join(_claim_html(report, number, spans) for number, spans in enumerate(failed, start=1))
    not_verified = (
        f'<p class="warn"><strong>Not verified:</strong> {e(report.not_verified_reason)}</p>'
        if not report.verified
        else ""
    )
    caveat = f'<p class="caveat">{e(report.caveat)}</p>' if report.caveat else ""
    notes = "".join(
        f'<p class="warn"><strong>Did not run:</strong> {e(c)}</p>' for c in report.checks_not_run
    )
    notes += "".join(f'<p class="meta">{e(note)}</p>' for note in report.notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Audited answer: {e(report.question[:80])}</title>
<style>{CSS}{_PAGE_CSS}</style></head>
<body><main>
<h1>Audited answer</h1>
<p class="question"><strong>Question:</strong> {e(report.question)}</p>
<p>{badge_html(decision_style(report.decision.value))}
 {badge_html(level_style(report.level.value if report.level else None))}
 reliability <strong>{format_score(report.reliability)}</strong> ·
 hallucination rate <strong>{percent(report.hallucination_rate)}</strong></p>
<p class="meta">Audited {e(report.created_at)} · mode {e(report.mode)} · session {e(report.session_id)}</p>
{not_verified}{notes}
<h2>The answer the user receives</h2>
<blockquote>{e(report.final_answer)}</blockquote>{caveat}
<h2>The audited answer, claim by claim</h2>
{legend_html()}
{highlight_answer(report.answer, report.claims, failed)}
<h2>Claims and evidence</h2>
{claims or "<p>No claims were found in the answer.</p>"}
</main></body></html>
"""


def _claim_html(report: Report, number: int, failed: list[FailedSpan]) -> str:
    result = report.claims[number - 1]
    v = result.verdict
    e = html.escape
    source = f'<p class="meta">Source: {e(source_label(v.evidence))}</p>' if v.evidence else ""
    chunk = evidence_html(report, v) or (
        f"<blockquote>{e(v.evidence.quote)}</blockquote>" if v.evidence else ""
    )
    return (
        f'<section class="claim" style="border-left-color:{status_style(display_status(v)).colour}">'
        f"<h3>{number}. {badge_html(status_style(display_status(v)))} "
        f"{mark_failed(result.claim.text, failed)}</h3>"
        f'<p class="meta">{e(decided_by(result))}</p>'
        f"<p>{e(v.reason)}</p>{source}{chunk}</section>"
    )


_PAGE_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#fff;color:#111827}
main{max-width:56em;margin:2em auto;padding:0 1.2em}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1em;font-weight:600}
blockquote{margin:.5em 0;padding:.5em 1em;border-left:4px solid #cbd5e1;background:#f8fafc}
.meta{color:#4b5563;font-size:.88em}.caveat{font-style:italic;color:#4b5563}
.warn{background:#fddede;border:1px solid #b91c1c;padding:.5em .8em;border-radius:.4em}
.claim{border-left:5px solid;padding:.2em 0 .4em 1em;margin:1em 0}
"""
