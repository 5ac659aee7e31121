"""How statuses, decisions and levels look: one colour, icon and label each, and the legend.

Colour is never the only signal: every badge carries an icon and a word too (colour-blind users,
printed exports). Backgrounds are light with dark text so highlighted answers stay readable.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from rrag.types import ClaimStatus, Decision, Level, Verdict

NOT_VERIFIED = ClaimStatus.NOT_VERIFIED.value  # a checkable claim no verifier could decide


@dataclass(frozen=True)
class Style:
    label: str
    icon: str
    colour: str  # strong colour: text, chart bars, borders
    background: str  # light tint for highlighting in running text
    meaning: str


STATUS_STYLES: dict[str, Style] = {
    ClaimStatus.SUPPORTED.value: Style("Supported", "✔", "#1a7f37", "#d3f5dc", "the documents state this"),
    ClaimStatus.PARTIAL.value: Style(
        "Partial", "◐", "#a16207", "#fdf0c2", "only part of it is in the documents"
    ),
    ClaimStatus.UNSUPPORTED.value: Style(
        "Unsupported", "?", "#c2410c", "#ffe0cc", "the documents do not say this"
    ),
    ClaimStatus.CONTRADICTED.value: Style(
        "Contradicted", "✖", "#b91c1c", "#fddede", "the documents say otherwise"
    ),
    ClaimStatus.NOT_CHECKABLE.value: Style(
        "Not checkable", "○", "#5b6472", "#e8ebef", "not a factual statement (greeting, opinion, question)"
    ),
    NOT_VERIFIED: Style(
        "Not verified", "⚠", "#5b6472", "#e8ebef", "verification could not run; treat as unchecked"
    ),
}

# Ordered most severe first: the order of legends, tables and stacked charts.
STATUS_ORDER: tuple[str, ...] = (
    ClaimStatus.CONTRADICTED.value,
    ClaimStatus.UNSUPPORTED.value,
    NOT_VERIFIED,
    ClaimStatus.PARTIAL.value,
    ClaimStatus.SUPPORTED.value,
    ClaimStatus.NOT_CHECKABLE.value,
)

DECISION_STYLES: dict[str, Style] = {
    Decision.PASS.value: Style("Passed", "✔", "#1a7f37", "#d3f5dc", "the answer is given as written"),
    Decision.TRIM.value: Style(
        "Trimmed", "✂", "#a16207", "#fdf0c2", "unsupported claims were removed and a caveat added"
    ),
    Decision.REFUSE.value: Style(
        "Refused", "⊘", "#b91c1c", "#fddede", "the answer is withheld: see why below"
    ),
}

LEVEL_STYLES: dict[str, Style] = {
    Level.HIGH.value: Style("HIGH", "▲", "#1a7f37", "#d3f5dc", "reliability of at least 0.85"),
    Level.MEDIUM.value: Style("MEDIUM", "■", "#a16207", "#fdf0c2", "reliability of at least 0.65"),
    Level.LOW.value: Style("LOW", "▼", "#b91c1c", "#fddede", "reliability below 0.65"),
}
NO_LEVEL = Style("n/a", "–", "#5b6472", "#e8ebef", "nothing checkable, or verification did not run")


def display_status(verdict: Verdict) -> str:
    """The key to show for a verdict: an unverified claim never looks decided."""
    if not verdict.verified:
        return NOT_VERIFIED
    return verdict.status.value


def status_style(status: str) -> Style:
    return STATUS_STYLES.get(status, STATUS_STYLES[NOT_VERIFIED])


def level_style(level: str | None) -> Style:
    return LEVEL_STYLES.get(level or "", NO_LEVEL)


def decision_style(decision: str) -> Style:
    return DECISION_STYLES[decision]


def badge_text(style: Style) -> str:
    """Plain-text badge for tables, select boxes and Markdown: icon plus word."""
    return f"{style.icon} {style.label}"


def badge_html(style: Style) -> str:
    return (
        f'<span class="rrag-badge" style="background:{style.background};color:{style.colour};'
        f'border:1px solid {style.colour}">{html.escape(badge_text(style))}</span>'
    )


def legend_html(statuses: tuple[str, ...] = STATUS_ORDER) -> str:
    items = "".join(
        f'<span class="rrag-legend-item" title="{html.escape(status_style(s).meaning)}">'
        f"{badge_html(status_style(s))}"
        f'<span class="rrag-legend-meaning">{html.escape(status_style(s).meaning)}</span></span>'
        for s in statuses
    )
    return f'<div class="rrag-legend" role="list" aria-label="Claim status legend">{items}</div>'


# Shared by the in-app HTML blocks and the exported HTML page, so both look the same.
CSS = """
.rrag-badge{display:inline-block;padding:0 .45em;border-radius:.6em;font-size:.85em;font-weight:600;
  white-space:nowrap;line-height:1.6}
.rrag-legend{display:flex;flex-wrap:wrap;gap:.35em 1em;margin:.3em 0 .6em 0;font-size:.9em}
.rrag-legend-item{display:inline-flex;align-items:center;gap:.35em}
.rrag-legend-meaning{color:#4b5563}
.rrag-answer{line-height:1.9;font-size:1.02em;color:#111827}
.rrag-claim{padding:.1em .25em;border-radius:.3em;border-bottom:2px solid;color:#111827;
  box-decoration-break:clone;-webkit-box-decoration-break:clone}
.rrag-claim sup{font-weight:700;margin-right:.2em;font-size:.75em}
.rrag-chunk{white-space:pre-wrap;font-size:.9em;line-height:1.6;color:#1f2937;background:#f8fafc;
  border:1px solid #e5e7eb;border-radius:.4em;padding:.6em .8em;max-height:18em;overflow:auto}
.rrag-failed{background:none;color:#991b1b;font-weight:700;text-decoration:underline wavy #b91c1c;
  text-decoration-thickness:1.5px;text-underline-offset:.2em;padding:0}
.rrag-flag{background:#fff4e5;border-left:5px solid #c2410c;border-radius:.3em;padding:.5em .8em;
  color:#7c2d12;font-size:1.02em;margin:.3em 0}
.rrag-quote{background:#fff3a3;color:#111827;border-radius:.2em;padding:0 .1em;font-weight:600}
"""


def style_tag() -> str:
    return f"<style>{CSS}</style>"


# What the user reads while the pipeline works, per `progress(stage)` call of the engine.
STAGE_LABELS: dict[str, str] = {
    "retrieve": "Retrieving relevant passages",
    "answer": "Writing the answer from the passages",
    "claims": "Splitting the answer into claims",
    "verify": "Checking every claim against the documents",
    "score": "Scoring and deciding",
    "save": "Saving the session",
}

VERIFIER_LABELS: dict[str, str] = {
    "quote": "Quote match",
    "nli": "Offline verifier model",
    "llm": "LLM judge",
}
ANSWERER_LABELS: dict[str, str] = {
    "extractive": "Extractive (offline, quotes the documents)",
    "openai": "LLM (OpenAI-compatible)",
}
EXTRACTOR_LABELS: dict[str, str] = {"rules": "Rule-based (offline)", "llm": "LLM (needs an endpoint)"}
