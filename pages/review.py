"""Review: triage flagged answers, override claim statuses with a note, record the outcome with a name."""

from __future__ import annotations

import streamlit as st

from rrag import REVIEW_OUTCOMES, Chunk, ClaimStatus, Permission, Report, SessionSummary, UserEngine
from ui.engine import engine_errors, invalidate_reads, review_queue, user_engine
from ui.highlight import md_escape
from ui.navigation import require_app
from ui.report_view import claim_line, render_audit_trail, render_report
from ui.state import PageState, pick_session
from ui.status import badge_text, status_style
from ui.tables import NOT_MEASURED, SORTS, QueueFilter, filter_and_sort, latest_per_question, queue_table

require_app()

LEVEL_CHOICES = ("LOW", "MEDIUM", "HIGH", "n/a")
# Widths (px) that fit the queue in the main column of a 1440-px window; the reason and question lead.
QUEUE_WIDTHS = {
    "Why flagged": st.column_config.TextColumn(width=300),
    "Question": st.column_config.TextColumn(width=240),
    "Asked": st.column_config.TextColumn(width=50),
    "Level": st.column_config.TextColumn(width=90),
    "Hallucination rate": st.column_config.NumberColumn("Halluc.", width=60, format="percent"),
    "When": st.column_config.TextColumn(width=140),
    "Review": st.column_config.TextColumn(width=80),
}
KEEP_EVIDENCE = "as verified"
OUTCOME_HELP = {
    "approved": "✔ approved: the answer may be used as it is",
    "corrected": "✎ corrected: claim statuses were fixed here",
    "escalated": "⬆ escalated: someone else must decide (it stays in the queue)",
}


def _render_queue(state: PageState) -> list[SessionSummary]:
    include_reviewed = st.toggle("Include answers already reviewed", key=state.key("include_reviewed"))
    levels, flags, sort = st.columns([0.35, 0.35, 0.3])
    chosen_levels = levels.multiselect(
        "Level", LEVEL_CHOICES, key=state.key("levels"), placeholder="Any level"
    )
    with flags:
        contradicted = st.checkbox("Only with contradicted claims", key=state.key("contradicted"))
        mismatch = st.checkbox("Only with citation mismatches", key=state.key("mismatch"))
    order = sort.selectbox("Sort", list(SORTS), key=state.key("sort"))
    search = st.text_input("Search questions", key=state.key("search"), placeholder="words in the question")
    queue, asked = latest_per_question(
        filter_and_sort(
            review_queue(include_reviewed=include_reviewed),
            QueueFilter(tuple(chosen_levels), contradicted, mismatch, search.strip()),
            order,
        )
    )
    st.caption(
        f"{len(queue)} answer(s) waiting"
        + (" or reviewed" if include_reviewed else "")
        + ": flagged for a LOW or MEDIUM level, a contradicted claim, a citation mismatch, an "
        "unverified claim, or no passage answering the question. A question asked again is one row."
    )
    if queue:
        st.dataframe(
            queue_table(queue, asked),
            hide_index=True,
            width="stretch",
            placeholder=NOT_MEASURED,
            column_config=QUEUE_WIDTHS,
        )
    return queue


def _passage_label(chunk: Chunk) -> str:
    return f"{chunk.source}: {' '.join(chunk.text.split())[:90]}…"


def _render_review_form(rag: UserEngine, state: PageState, report: Report) -> None:
    st.markdown("##### Your verdict")
    statuses = [s.value for s in ClaimStatus]
    with st.form(state.key(f"form.{report.session_id}")):
        name, outcome = st.columns([0.4, 0.6])
        if rag.identity.email is not None:  # signed in: the audit trail names them; no name to type
            name.markdown(f"Reviewer: **{md_escape(rag.identity.email)}**")
        else:
            name.text_input("Reviewer name", key=state.key("reviewer"))
        # No default, and one choice per answer: a reviewer who only skimmed must not approve a
        # flagged answer by pressing Record.
        chosen_outcome = outcome.radio(
            "Outcome",
            REVIEW_OUTCOMES,
            index=None,
            key=state.key(f"outcome.{report.session_id}"),
            format_func=OUTCOME_HELP.get,
        )
        st.caption(
            "Override a claim's status, or replace its evidence with another passage the answer "
            "retrieved, where the verifier got it wrong; unchanged claims are not recorded."
        )
        chosen: dict[int, str] = {}
        evidence: dict[int, str] = {}
        passages = {rc.chunk.chunk_id: rc.chunk for rc in report.contexts}
        for index, result in enumerate(report.claims):
            current = result.verdict.status.value  # the report is as of its latest review
            # The claim goes in Markdown, not in the label: labels also become accessible names,
            # where Markdown escapes would be read out.
            st.markdown(md_escape(claim_line(index + 1, result)))
            chosen[index] = st.selectbox(
                f"Status of claim {index + 1}",
                statuses,
                label_visibility="collapsed",
                index=statuses.index(current),
                format_func=lambda s: badge_text(status_style(s)),
                key=state.key(f"claim.{report.session_id}.{index}"),
            )
            if passages:
                # Wrong evidence is replaced by a passage the answer retrieved, never by typed text.
                evidence[index] = st.selectbox(
                    f"Evidence of claim {index + 1}",
                    [KEEP_EVIDENCE, *passages],
                    format_func=lambda i: i if i == KEEP_EVIDENCE else _passage_label(passages[i]),
                    key=state.key(f"evidence.{report.session_id}.{index}"),
                )
        note = st.text_area("Note", key=state.key("note"), placeholder="Why: what the documents really say")
        submitted = st.form_submit_button("Record review", type="primary")
    if not submitted:
        return
    reviewer = rag.identity.email or state["reviewer"].strip()
    if not reviewer:
        st.warning("Enter your name: every review is recorded with its reviewer.")
        return
    if chosen_outcome is None:
        st.warning("Choose an outcome: approved, corrected or escalated.")
        return
    changes = {i: ClaimStatus(s) for i, s in chosen.items() if s != report.claims[i].verdict.status.value}
    replaced = {i: chunk_id for i, chunk_id in evidence.items() if chunk_id != KEEP_EVIDENCE}
    if chosen_outcome == "corrected" and not (changes or replaced):
        st.warning(
            "A correction changes at least one claim's status or evidence: set it above, or choose "
            "another outcome."
        )
        return
    with engine_errors("Recording the review"):
        record = rag.add_review(
            report.session_id,
            reviewer=reviewer,
            outcome=chosen_outcome,
            note=note.strip(),
            claim_overrides=changes,
            evidence_passages=replaced,
        )
        invalidate_reads()
        state["reviewed"] = report.session_id  # stays open, also once it has left the queue
        state["flash"] = (
            f"Recorded: {OUTCOME_HELP[record.outcome].split(':')[0]} by {record.reviewer}, "
            f"{len(record.changes)} claim status(es) changed."
        )
        st.rerun()


def _render_open(rag: UserEngine, state: PageState, queue: list[SessionSummary]) -> None:
    reviewed = state["reviewed"]
    if reviewed and reviewed not in {s.session_id for s in queue}:
        # Recording a review takes most answers out of the queue: the page stays on the answer just
        # reviewed (its audit trail shows the entry) instead of jumping to the queue's first.
        session_id = reviewed
        st.info("The answer you reviewed has left the queue.", icon=":material/task_alt:")
        if st.button("Open the next answer in the queue", disabled=not queue, key=state.key("next")):
            state["reviewed"] = None
            st.rerun()
    else:
        state["reviewed"] = None
        session_id = pick_session("Open an answer", state, queue)
    report = rag.report(session_id)
    st.markdown(f"**Question:** {md_escape(report.question)}")
    render_report(report, key="review.report")
    left, right = st.columns([0.55, 0.45], gap="large")
    with left:
        if rag.identity.may(Permission.REVIEW):
            _render_review_form(rag, state, report)
        else:
            st.info(
                f"Your role ({rag.identity.role.value}) can read reviews but not record them.",
                icon=":material/lock:",
            )
    with right:
        render_audit_trail(rag.reviews(session_id))


def main() -> None:
    st.title("Review queue")
    st.caption(
        "Answers the verifier flagged, most severe first. Check the claims against the evidence, fix "
        "statuses, and record the outcome; every review is kept as an audit trail."
    )
    state = PageState(
        "review",
        kept=(
            "selected",
            "reviewer",
            "include_reviewed",
            "levels",
            "contradicted",
            "mismatch",
            "sort",
            "search",
        ),
        selected=None,
        reviewer="",
        include_reviewed=False,
        levels=[],
        contradicted=False,
        mismatch=False,
        sort=next(iter(SORTS)),
        search="",
        flash="",
        reviewed=None,
    )
    if state["flash"]:
        st.success(md_escape(state["flash"]), icon=":material/check_circle:")
        state["flash"] = ""
    with engine_errors("Loading the review queue"):
        rag = user_engine()
        queue = _render_queue(state)
        if not queue:
            st.success("Nothing waits for review.", icon=":material/check_circle:")
            if not state["reviewed"]:
                return
        st.divider()
        _render_open(rag, state, queue)


main()
