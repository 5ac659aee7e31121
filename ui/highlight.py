"""Escaped HTML for answers with claims highlighted in place, and evidence quotes inside their chunk.

Every string from a document, a claim or an LLM is untrusted: it is escaped here, once, before it is
wrapped in markup, so a `<script>` inside a document shows as text and never runs. The fragments use the
classes of `ui.status.CSS`; callers add the style sheet once per HTML block or page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from rrag.audit.spans import FailedSpan
from rrag.types import ClaimResult, Evidence, Report, Verdict
from ui.status import display_status, status_style

# Characters with a meaning in Streamlit Markdown (CommonMark, `:colour[...]`, `:emoji:`, `$math$`, HTML).
# '.' and '-' only matter at the start (lists, rules), handled separately to keep labels readable.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~$:])")
EVIDENCE_RADIUS = 200  # characters of the chunk shown either side of an evidence quote
_LEADING_MARKER = re.compile(r"^(\d+)([.)])|^([-=])")


def md_escape(text: str) -> str:
    """Escape untrusted text for a Markdown context (labels, captions): shown literally, never parsed."""
    flat = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    return _LEADING_MARKER.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", flat)


_PIECE_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~$:.=-])")


def md_escape_piece(text: str) -> str:
    """`md_escape` for a piece of a text streamed piece by piece: whitespace kept as it is (the pieces
    join into the text), and every character that could start a block escaped wherever it stands."""
    return _PIECE_SPECIAL.sub(r"\\\1", text)


def _claim_spans(answer: str, claims: Sequence[ClaimResult]) -> list[tuple[int, int, int]]:
    """(start, end, claim number) for claims whose span really lies in the answer, without overlaps."""
    spans = []
    last_end = 0
    ordered = sorted(enumerate(claims, start=1), key=lambda item: (item[1].claim.start, item[0]))
    for number, result in ordered:
        start, end = max(result.claim.start, last_end), min(result.claim.end, len(answer))
        if start < end:
            spans.append((start, end, number))
            last_end = end
    return spans


def highlight_answer(
    answer: str, claims: Sequence[ClaimResult], failed: Sequence[Sequence[FailedSpan]] = ()
) -> str:
    """The answer as HTML with each claim marked by its status colour, number, icon and label, and
    `failed[i]` (spans of claim i's text, see `rrag.audit.spans`) marked inside claim i."""
    parts: list[str] = []
    cursor = 0
    for start, end, number in _claim_spans(answer, claims):
        parts.append(html.escape(answer[cursor:start]))
        result = claims[number - 1]
        claim = result.claim
        spans = failed[number - 1] if number <= len(failed) else ()
        # A claim's text ends with its span of the answer, after any words it borrowed for context
        # (see RuleClaimExtractor); one an LLM reworded has no such span, and no marks in the answer.
        shift = claim.end - len(claim.text)
        if not claim.text.endswith(answer[claim.start : claim.end]) or claim.start >= claim.end:
            spans = ()
        style = status_style(display_status(result.verdict))
        tip = f"Claim {number}: {style.label}. {result.verdict.reason}"
        parts.append(
            f'<mark class="rrag-claim" style="background:{style.background};border-color:{style.colour}" '
            f'title="{html.escape(tip)}" aria-label="{html.escape(style.label)}">'
            f'<sup style="color:{style.colour}">{style.icon}{number}</sup>'
            f"{mark_failed(answer, spans, start, end, shift=shift)}</mark>"
        )
        cursor = end
    parts.append(html.escape(answer[cursor:]))
    return f'<div class="rrag-answer">{"".join(parts)}</div>'


def mark_failed(
    text: str, spans: Sequence[FailedSpan], start: int = 0, end: int | None = None, *, shift: int = 0
) -> str:
    """`text[start:end]` as escaped HTML with the failed `spans` marked; a span's offsets plus `shift`
    are offsets into `text` (a claim's spans inside the whole answer)."""
    end = len(text) if end is None else end
    parts: list[str] = []
    cursor = start
    for a, b, why in sorted(spans):
        a, b = max(a + shift, cursor), min(b + shift, end)
        if a >= b:
            continue
        parts.append(html.escape(text[cursor:a]))
        parts.append(f'<mark class="rrag-failed" title="{html.escape(why)}">{html.escape(text[a:b])}</mark>')
        cursor = b
    parts.append(html.escape(text[cursor:end]))
    return "".join(parts)


def locate_quote(text: str, quote: str, start: int, end: int) -> tuple[int, int] | None:
    """Where `quote` is in `text`: the given offsets when they match, else a search; None if absent."""
    if 0 <= start < end <= len(text) and _squash(text[start:end]) == _squash(quote):
        return start, end
    if not quote.strip():
        return None
    found = text.find(quote)
    if found >= 0:
        return found, found + len(quote)
    # Whitespace may differ between the stored chunk and the quote (line breaks in PDFs).
    pattern = r"\s+".join(re.escape(word) for word in quote.split())
    match = re.search(pattern, text)
    return (match.start(), match.end()) if match else None


def _squash(text: str) -> str:
    return " ".join(text.split())


def highlight_quote(chunk_text: str, quote: str, start: int, end: int, *, radius: int | None = None) -> str:
    """The chunk as escaped HTML with the evidence quote marked; the whole chunk when it is absent.

    With `radius`, only that many characters either side of the quote are kept (cut at a space), so
    the quote stays in view inside a long chunk.
    """
    span = locate_quote(chunk_text, quote, start, end)
    if span is None:
        return f'<div class="rrag-chunk">{html.escape(chunk_text)}</div>'
    a, b = span
    lo, hi = (0, len(chunk_text)) if radius is None else _window(chunk_text, a, b, radius)
    body = (
        f'{"… " if lo else ""}{html.escape(chunk_text[lo:a])}<mark class="rrag-quote">'
        f"{html.escape(chunk_text[a:b])}</mark>{html.escape(chunk_text[b:hi])}"
        f"{' …' if hi < len(chunk_text) else ''}"
    )
    return f'<div class="rrag-chunk">{body}</div>'


def _window(text: str, a: int, b: int, radius: int) -> tuple[int, int]:
    """[lo, hi) reaching `radius` characters beyond [a, b), widened or narrowed to whole words."""
    lo, hi = max(0, a - radius), min(len(text), b + radius)
    if lo > 0:
        space = text.find(" ", lo, a)
        lo = space + 1 if space >= 0 else lo
    if hi < len(text):
        space = text.rfind(" ", b, hi)
        hi = space if space >= 0 else hi
    return lo, hi


def escaped_block(text: str, css_class: str = "rrag-chunk") -> str:
    """Untrusted text shown verbatim (line breaks kept) in a styled block."""
    return f'<div class="{css_class}">{html.escape(text)}</div>'


def evidence_html(report: Report, verdict: Verdict) -> str | None:
    """The evidence quote highlighted inside its retrieved chunk; None without evidence or chunk."""
    evidence = verdict.evidence
    if evidence is None:
        return None
    chunk = next((rc.chunk for rc in report.contexts if rc.chunk.chunk_id == evidence.chunk_id), None)
    if chunk is None:
        return None
    return highlight_quote(chunk.text, evidence.quote, evidence.start, evidence.end, radius=EVIDENCE_RADIUS)


def source_label(evidence: Evidence) -> str:
    """'handbook.pdf, page 3' (plain text; escape it for the context it goes into)."""
    return evidence.source if evidence.page is None else f"{evidence.source}, page {evidence.page}"
