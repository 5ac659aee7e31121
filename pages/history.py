"""History: every saved session, searchable and filterable by date, level and decision; reopen any."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import streamlit as st

from rrag import Decision, Level, PendingSession, SessionSummary, UserEngine
from ui.engine import engine_errors, sessions, user_engine
from ui.highlight import md_escape
from ui.navigation import require_app
from ui.report_view import render_audit_trail, render_report
from ui.state import PageState, pick_session
from ui.status import badge_text, decision_style, level_style
from ui.tables import NOT_MEASURED, interrupted_table, sessions_table

require_app()

ANY = "any"


def _day_bounds(days: tuple[date, ...]) -> tuple[datetime | None, datetime | None]:
    """The chosen date range as UTC times: from the start of the first day to the end of the last."""
    if not days:
        return None, None
    since = datetime.combine(days[0], time.min, tzinfo=UTC)
    until = datetime.combine(days[-1], time.min, tzinfo=UTC) + timedelta(days=1) - timedelta(microseconds=1)
    return since, until


def _render_filters(state: PageState) -> list[SessionSummary]:
    search, days = st.columns([0.6, 0.4])
    text = search.text_input(
        "Search questions and answers", key=state.key("search"), placeholder="words, numbers, names…"
    )
    chosen_days = days.date_input(
        "Date range (UTC)",
        key=state.key("days"),
        value=[],
        help="Pick a first and a last day; leave empty for all dates.",
    )
    level, decision, flagged = st.columns([0.3, 0.3, 0.4])
    level.selectbox(
        "Level",
        [ANY, *(lv.value for lv in Level)],
        key=state.key("level"),
        format_func=lambda v: "Any level" if v == ANY else badge_text(level_style(v)),
    )
    decision.selectbox(
        "Decision",
        [ANY, *(d.value for d in Decision)],
        key=state.key("decision"),
        format_func=lambda v: "Any decision" if v == ANY else badge_text(decision_style(v)),
    )
    flagged.toggle("Only answers flagged for review", key=state.key("flagged"))
    since, until = _day_bounds(
        tuple(chosen_days) if isinstance(chosen_days, (tuple, list)) else (chosen_days,)
    )
    return sessions(
        search=text.strip() or None,
        level=None if state["level"] == ANY else state["level"],
        decision=None if state["decision"] == ANY else state["decision"],
        since=since,
        until=until,
        flagged_only=state["flagged"],
    )


def _render_session(rag: UserEngine, state: PageState, found: list[SessionSummary]) -> None:
    session_id = pick_session("Reopen a session", state, found)
    report = rag.report(session_id)
    st.markdown(f"**Question:** {md_escape(report.question)}")
    render_report(report, key="history.report")
    render_audit_trail(rag.reviews(session_id))


def _render_unanswered(
    pending: list[PendingSession], title: str, why: str, caption: str, *, expanded: bool
) -> None:
    """Questions saved without an answer (interrupted, or failed with the reason shown), if any."""
    if not pending:
        return
    with st.expander(f"{title} ({len(pending)}): {why}", expanded=expanded):
        st.caption(caption)
        st.dataframe(interrupted_table(pending), hide_index=True, width="stretch", placeholder=NOT_MEASURED)


def main() -> None:
    st.title("History")
    st.caption("Every audited answer is saved with its claims, evidence and reviews.")
    state = PageState(
        "history",
        kept=("search", "days", "level", "decision", "flagged", "selected"),
        search="",
        level=ANY,
        decision=ANY,
        flagged=False,
        selected=None,
    )
    with engine_errors("Loading the history"):
        rag = user_engine()
        _render_unanswered(
            rag.interrupted_sessions(),
            "⚠ Interrupted questions",
            "never answered",
            "The page was reloaded or closed while these were being answered, so no answer was saved. "
            "Ask them again on the Ask page.",
            expanded=True,
        )
        _render_unanswered(
            rag.failed_sessions(),
            "✖ Failed questions",
            "the LLM server failed",
            "No answer was written: the reason is in the Status column. Ask them again on the Ask page.",
            expanded=False,
        )
        found = _render_filters(state)
        st.caption(f"{len(found)} session(s), newest first.")
        if not found:
            st.info("No saved session matches. Ask a question on the Ask page, or clear the filters.")
            return
        st.dataframe(sessions_table(found), hide_index=True, width="stretch", placeholder=NOT_MEASURED)
        st.divider()
        _render_session(rag, state, found)


main()
