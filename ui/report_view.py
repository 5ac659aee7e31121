"""One audited answer on screen: decision, final answer, highlighted claims, evidence, charts, exports.

Shared by Ask, Review and History; a report read from the store is as of its latest review, its
corrected claims carrying the reviewer's status with the verifier's verdict beside it.
Every untrusted string reaches the page through `ui.highlight` (HTML) or `md_escape` (Markdown).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import streamlit as st

from rrag.audit.spans import FailedSpan, report_spans
from rrag.store import ReviewRecord
from rrag.types import ClaimResult, ClaimStatus, Decision, Report
from rrag.verify.conflicts import CONFLICT_PREFIX
from ui.charts import reliability_gauge, status_counts_chart
from ui.export import (
    decided_by,
    format_score,
    percent,
    report_filename,
    report_html,
    report_json,
    report_markdown,
)
from ui.highlight import escaped_block, evidence_html, highlight_answer, mark_failed, md_escape, source_label
from ui.status import (
    NOT_VERIFIED,
    badge_html,
    badge_text,
    decision_style,
    display_status,
    legend_html,
    level_style,
    status_style,
    style_tag,
)
from ui.tables import review_line

_LABEL_LIMIT = 110
SURE = 0.7  # a claim supported with less confidence opens with its evidence, for a reader to judge
_NO_EVIDENCE = (ClaimStatus.UNSUPPORTED.value, NOT_VERIFIED)


def render_report(report: Report, *, key: str, exports: bool = True) -> None:
    """Render `report`; `key` keeps widget ids unique when several reports share a page."""
    _render_verdict(report)
    if not any(r.claim.checkable for r in report.claims):
        # A refusal or a greeting: no claim, no evidence, no chart to show.
        st.info("Nothing in this answer could be checked against the documents.", icon=":material/info:")
        _render_details(report)
        if exports:
            _render_exports(report, key)
        return
    failed = report_spans(report)
    left, right = st.columns([0.56, 0.44], gap="large")
    with left:
        st.markdown("##### The audited answer, claim by claim")
        st.html(style_tag() + legend_html() + highlight_answer(report.answer, report.claims, failed))
        gauge, counts = st.columns(2)
        gauge.plotly_chart(reliability_gauge(report.reliability), key=f"{key}.gauge", width="stretch")
        counts.plotly_chart(status_counts_chart(report.status_counts), key=f"{key}.counts", width="stretch")
    with right:
        st.markdown("##### Claims and their evidence")
        if not report.claims:
            st.info("No claims were found in the answer.")
        for number, result in enumerate(report.claims, start=1):
            _render_claim(report, number, result, failed[number - 1])
    _render_details(report)
    if exports:
        _render_exports(report, key)


def _render_verdict(report: Report) -> None:
    decision = decision_style(report.decision.value)
    # A refused answer gave the user nothing to rely on: it shows no level and no reliability score.
    refused = report.decision is Decision.REFUSE
    level = level_style(None if refused or report.level is None else report.level.value)
    badges, reliability, rate, claims = st.columns([0.4, 0.2, 0.2, 0.2])
    badges.html(
        f'{style_tag()}<div style="font-size:1.15em;padding-top:.6em">{badge_html(decision)} '
        f"{'' if refused else badge_html(level)}</div>"
        f'<div style="color:#4b5563;font-size:.9em;margin-top:.3em">{html.escape(decision.meaning)}</div>'
    )
    reliability.metric(
        "Reliability", "–" if refused else format_score(report.reliability), help=level.meaning
    )
    rate.metric(
        "Hallucination rate",
        percent(report.hallucination_rate),
        help="(unsupported + contradicted) / checkable claims",
    )
    checkable = sum(r.claim.checkable for r in report.claims)
    claims.metric("Claims checked", f"{checkable} of {len(report.claims)}" if checkable else "none")
    if not report.verified:
        st.warning(
            f"**Not verified.** {md_escape(report.not_verified_reason or 'A verifier could not run.')} "
            "Unverified claims are shown as ⚠ Not verified, never as supported.",
            icon=":material/pause_circle:",
        )
    if report.checks_not_run:  # text in a language the rules do not read (rrag/audit/languages.py)
        st.warning(
            "**Checks that did not run.**\n\n"
            + "\n".join(f"- {md_escape(check)}" for check in report.checks_not_run),
            icon=":material/translate:",
        )
    if report.addresses_question is False:
        st.warning(
            f"**May not answer the question.** {md_escape(report.relevance_reason)}", icon=":material/help:"
        )
    # One banner per disagreement, said once: its text opens with "sources disagree".
    for conflict in dict.fromkeys(r.conflict for r in report.claims if r.conflict):
        found = conflict.removeprefix(CONFLICT_PREFIX)
        st.warning(f"**Sources disagree** {md_escape(found.strip())}", icon=":material/compare_arrows:")
    if report.review_reasons:
        st.html(
            f'{style_tag()}<div class="rrag-flag" role="note">⚑ <strong>Flagged for review:</strong> '
            f"{html.escape('; '.join(report.review_reasons))}</div>"
        )
    if report.closest_passage:
        st.info(md_escape(report.closest_passage), icon=":material/search_off:")
    for note in report.notes:
        st.caption(md_escape(note))
    if report.retrieval:
        st.caption(f"Retrieval: {md_escape(report.retrieval)}")
    st.markdown("##### The answer the user receives")
    st.html(style_tag() + escaped_block(report.final_answer, "rrag-chunk rrag-final"))
    if report.caveat:
        st.caption(md_escape(report.caveat))


def _render_claim(report: Report, number: int, result: ClaimResult, failed: list[FailedSpan]) -> None:
    verdict = result.verdict
    style = status_style(display_status(verdict))
    text = " ".join(result.claim.text.split())
    short = text if len(text) <= _LABEL_LIMIT else text[: _LABEL_LIMIT - 1] + "…"
    settled = (ClaimStatus.SUPPORTED.value, ClaimStatus.NOT_CHECKABLE.value)
    narrow = display_status(verdict) == ClaimStatus.SUPPORTED.value and verdict.confidence < SURE
    needs_attention = display_status(verdict) not in settled or narrow or result.correction is not None
    with st.expander(f"{style.icon} {number}. {md_escape(short)}", expanded=needs_attention):
        st.html(f"{style_tag()}<div>{badge_html(style)} {html.escape(decided_by(result))}</div>")
        if failed:  # the words that failed, each with why in its tooltip
            marked = mark_failed(result.claim.text, failed)
            st.html(f'{style_tag()}<div class="rrag-answer"><strong>Claim:</strong> {marked}</div>')
            st.markdown(
                "**Failed:** "
                + md_escape("; ".join(f"“{result.claim.text[a:b]}”: {why}" for a, b, why in failed))
            )
        elif len(text) > len(short):
            st.markdown(f"**Claim:** {md_escape(text)}")
        st.markdown(f"**Why:** {md_escape(verdict.reason or style.meaning)}")
        if result.conflict and result.conflict not in verdict.reason:
            st.markdown(f"**{md_escape(result.conflict.capitalize())}**")
        if verdict.evidence is None:
            st.caption("No evidence passage.")
            return
        # For a claim the documents do not back, the passage shown is the closest one, not evidence.
        kind = "Closest passage" if display_status(verdict) in _NO_EVIDENCE else "Evidence"
        st.markdown(f"**{kind}** from *{md_escape(source_label(verdict.evidence))}*:")
        chunk = evidence_html(report, verdict)
        st.html(style_tag() + (chunk or escaped_block(verdict.evidence.quote)))


def _render_details(report: Report) -> None:
    with st.expander(f"Retrieved passages ({len(report.contexts)})"):
        if not report.contexts:
            st.caption("Nothing relevant was retrieved.")
        for rc in report.contexts:
            page = "" if rc.chunk.page is None else f", page {rc.chunk.page}"
            st.markdown(
                f"**{md_escape(rc.chunk.source + page)}** · relevance {rc.score:.2f} "
                f"(vector {rc.vector_score:.2f} · keyword {rc.keyword_score:.2f})"
            )
            st.html(style_tag() + escaped_block(rc.chunk.text))
    if report.answer != report.final_answer:
        with st.expander("The answer before the decision"):
            st.html(style_tag() + escaped_block(report.answer))
    timings = " · ".join(f"{stage} {ms:.0f} ms" for stage, ms in report.timings_ms.items())
    if report.llm:
        st.caption(llm_provenance(report.llm))
    st.caption(
        f"{md_escape(report.mode)} · answered by {md_escape(report.answer_backend or 'n/a')} · "
        f"threshold {report.threshold:.2f}{' (strict)' if report.strict else ''} · {timings} · "
        f"session {report.session_id}"
    )


def _render_exports(report: Report, key: str) -> None:
    row = st.container(horizontal=True)
    exports = (
        ("JSON", report_json, "json", "application/json"),
        ("HTML page", report_html, "html", "text/html"),
        ("Markdown", report_markdown, "md", "text/markdown"),
    )
    for label, render, extension, mime in exports:
        row.download_button(
            label,
            render(report),
            report_filename(report, extension),
            mime=mime,
            key=f"{key}.{extension}",
            on_click="ignore",
            icon=":material/download:",
        )


def claim_line(number: int, result: ClaimResult) -> str:
    """One plain-text line per claim: '2. ✖ Contradicted: The office opens at 9.'"""
    text = " ".join(result.claim.text.split())
    return f"{number}. {badge_text(status_style(display_status(result.verdict)))}: {text}"


def render_audit_trail(records: Sequence[ReviewRecord]) -> None:
    st.markdown("##### Audit trail")
    if not records:
        st.caption("No reviews yet.")
        return
    st.markdown("\n".join(f"- {md_escape(review_line(r))}" for r in records))


def llm_provenance(llm: dict[str, Any]) -> str:
    """Which LLM wrote and checked the report, in one line of escaped markdown."""
    model = ", ".join(llm["models"]) or llm["model_requested"]
    return (
        f"LLM: {md_escape(model)} at {md_escape(llm['server'])} · "
        f"output {md_escape(', '.join(llm['output_modes']))} · prompts {md_escape(llm['prompt_version'])} · "
        f"{llm['calls']} call(s), {llm['prompt_tokens']:,} prompt + {llm['completion_tokens']:,} reply tokens"
    )
