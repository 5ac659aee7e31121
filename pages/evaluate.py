"""Evaluate: run a question set through the pipeline, see each answer's report and the aggregates,
and compare two runs side by side. The same as `python -m rrag evaluate FILE`."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rrag import RERANK_CANDIDATES, Permission, QuestionSetError, UserEngine
from rrag.tools.demo import DEMO_DIR
from rrag.tools.question_sets import (
    QuestionSetRun,
    RunSummary,
    different_questions,
    load_run,
    read_question_set,
    saved_runs,
)
from ui.background import BackgroundRun
from ui.engine import engine_errors, invalidate_reads, redact, user_engine
from ui.export import percent
from ui.highlight import md_escape
from ui.navigation import require_app
from ui.report_view import render_report
from ui.run_tables import comparison_tables, outcomes_table, run_csv, run_json, run_label
from ui.state import PageState
from ui.tables import NOT_MEASURED

require_app()

SAMPLE_SET = DEMO_DIR / "questions" / "handbook.jsonl"
_RATE = st.column_config.NumberColumn(format="percent")
_RATES = (
    "Hallucination rate",
    "Faithfulness",
    "Answer relevance",
    "Hallucination A",
    "Hallucination B",
    "Relevance A",
    "Relevance B",
    "Change",
)


def _render_new_run(rag: UserEngine, state: PageState) -> None:
    st.subheader("Run a question set")
    if not rag.identity.may(Permission.ASK):  # the engine refuses the run too: no control offered
        st.info(
            f"Your role ({rag.identity.role.value}) can read evaluation runs but not start one.",
            icon=":material/lock:",
        )
        return
    st.caption(
        "A CSV (with a header row) or JSONL file: a `question` per row, optionally a `reference` answer "
        "and the `expected_source` document. Each question is answered and audited like one asked on "
        "the Ask page, and saved in History."
    )
    with st.form(state.key("form"), clear_on_submit=False):
        upload = st.file_uploader("Question set", type=["csv", "jsonl"], key=state.key("file"))
        name = st.text_input("Run name", key=state.key("name"), placeholder="e.g. baseline, top-k 8")
        submitted = st.form_submit_button("Run the question set", type="primary")
    sample = st.button(
        f"Run the demo's sample set ({SAMPLE_SET.name})",
        help="Ten questions about the demo corpus, with reference answers; one is not in any document.",
    )
    if not (submitted or sample):
        return
    if submitted and upload is None:
        st.warning("Choose a question set file first.")
        return
    file_name, data = (
        (upload.name, upload.getvalue())
        if submitted and upload
        else (SAMPLE_SET.name, SAMPLE_SET.read_bytes())
    )
    try:
        items = read_question_set(file_name, data)
    except QuestionSetError as exc:
        st.error(f"**The question set cannot be used.** {md_escape(str(exc))}", icon=":material/error:")
        return
    run_name = name.strip() or file_name.rsplit(".", 1)[0]
    job = state["job"]
    if job is not None and job.running:
        st.warning(
            f"The run {md_escape(job.name)!r} is still going; start the next one when it is done.",
            icon=":material/hourglass_top:",
        )
        return
    state["job"] = BackgroundRun(rag, items, run_name)


def _render_job(state: PageState) -> None:
    """How far the run on its own thread got; its results once it is done."""
    job = state["job"]
    if job is None:
        return
    if job.running:
        _follow(job)
        return
    state["job"] = None
    invalidate_reads()
    if job.error:
        st.error(
            f"**The run {md_escape(job.name)!r} failed.** {md_escape(redact(job.error))}",
            icon=":material/error:",
        )
    else:
        st.progress(1.0, text=f"Done: {job.total} question(s)")
        state["selected"] = job.run_id


@st.fragment(run_every=1.0)
def _follow(job: BackgroundRun) -> None:
    if not job.running:
        st.rerun()  # the whole page, to show the results
    text = f"Question {job.done + 1} of {job.total}: {job.question}" if job.question else "Starting…"
    # The run's name and its questions are the user's text: shown, never parsed as Markdown.
    st.progress(job.done / max(job.total, 1), text=md_escape(f"Run {job.name!r}: {text}"[:200]))
    st.caption("The run goes on if you leave this page or choose another file.")


def _render_results(rag: UserEngine, state: PageState, runs: list[dict[str, Any]]) -> None:
    st.subheader("Results")
    by_id = {r["run_id"]: r for r in runs}
    if state["selected"] not in by_id:
        state["selected"] = runs[0]["run_id"]
    run_id = st.selectbox(
        "Run", list(by_id), key=state.key("selected"), format_func=lambda i: run_label(by_id[i])
    )
    run = load_run(rag, run_id)
    s = run.summary
    cols = st.columns(4)
    cols[0].metric(
        "Faithfulness",
        percent(s.faithfulness),
        help="Mean reliability of the verified answers: supported claims, partial ones counted half.",
    )
    cols[1].metric(
        "Answer relevance",
        percent(s.answer_relevance),
        help=f"Share of the reference answer's key words the answer gives; measured on "
        f"{s.relevance_measured} question(s) with a reference.",
    )
    cols[2].metric(
        "Refusal rate", percent(s.refusal_rate), help=f"{s.refused} of {s.questions - s.errors} refused."
    )
    cols[3].metric(
        "Hallucination rate",
        percent(s.hallucination_rate),
        help=f"{s.hallucinated_claims} of {s.checked_claims} checked claims unsupported or contradicted.",
    )
    _render_failures(s)
    if s.sources_expected:
        st.caption(
            f"Expected source retrieved for {percent(s.source_hit_rate)} of {s.sources_expected} question(s)."
        )
    if s.not_verified:
        st.warning(
            f"{s.not_verified} answer(s) could not be verified: they are left out of the rates, not "
            "counted as free of hallucination."
        )
    if s.errors:
        st.error(f"{s.errors} question(s) failed with an error; see the table.")
    st.dataframe(
        outcomes_table(run),
        hide_index=True,
        placeholder=NOT_MEASURED,
        width="stretch",
        column_config={c: _RATE for c in _RATES},
    )
    stem = f"rrag-run-{run.created_at[:10]}-{run.run_id[:8]}"
    exports = (("JSON", run_json(run), "json", "application/json"), ("CSV", run_csv(run), "csv", "text/csv"))
    for col, (label, data, extension, mime) in zip(st.columns(2), exports):
        col.download_button(
            f"Download the run ({label})",
            data,
            file_name=f"{stem}.{extension}",
            mime=mime,
            key=state.key(f"export.{extension}.{run.run_id}"),
            icon=":material/download:",
        )
    _render_question_report(rag, state, run)


def _render_failures(s: RunSummary) -> None:
    """What a stakeholder asks about: answers that should not have been given or refused, conflicts,
    and whether retrieval finds the expected sources (recall@k, MRR) and so is reranked."""
    counted = (
        (
            "Unanswerable answered",
            s.unanswerable_answered,
            s.unanswerable,
            "Questions marked `answerable: false` that got an answer (target 0)"
            + (
                "."
                if s.unanswerable_unflagged is None
                else f"; {s.unanswerable_unflagged} not flagged for review."
            ),
        ),
        (
            "Answerable refused",
            s.answerable_refused,
            s.answerable,
            "Questions marked `answerable: true` that were refused (target 0).",
        ),
        (
            "Flagged off-target",
            s.answerable_off_target,
            s.answerable,
            "Answers to answerable questions flagged as not answering the question (target 0).",
        ),
        (
            "Conflicts found",
            s.conflicts_found,
            s.conflicts_expected,
            "Questions marked `expected_conflict: true` whose answer reports the disagreement.",
        ),
    )
    cols = st.columns(5)
    # n/a where the set marks no question of the kind counted
    for col, (label, count, marked, help_text) in zip(cols, counted):
        col.metric(label, f"{count} of {marked}" if marked else "n/a", help=help_text)
    cols[4].metric(
        "False conflicts",
        s.false_conflicts,
        help="Answers reporting a disagreement on a question marked `expected_conflict: false` (target 0).",
    )
    if s.recall_at_5 is None:
        return
    cols = st.columns(5)
    for col, k, value in zip(cols, (5, 20, 50), (s.recall_at_5, s.recall_at_20, s.recall_at_50)):
        col.metric(
            f"Recall@{k}",
            percent(value),
            help=f"Share of questions whose expected source is among the first stage's {k} best passages.",
        )
    cols[3].metric(
        "MRR, first stage → reranked",
        f"{s.mrr_first_stage:.2f} → {s.mrr_reranked:.2f}",
        help="Mean of 1 / the expected source's rank, before and after the question-passage model "
        "reorders the candidates.",
    )
    cols[4].metric(
        "Recall gate",
        "passed" if s.gate_passed else "not passed",
        help=f"recall@{RERANK_CANDIDATES} {percent(s.gate_recall)}. Answers are reranked only where "
        f"recall@{RERANK_CANDIDATES} (the candidates the reranker reads) is at least 80% and reranking "
        "raises the MRR: reranking cannot find what "
        "retrieval missed. Kept for this corpus until the next run with expected sources.",
    )


def _render_question_report(rag: UserEngine, state: PageState, run: QuestionSetRun) -> None:
    answered = {o.session_id: (n, o) for n, o in enumerate(run.outcomes, start=1) if o.session_id}
    if not answered:
        return
    session_id = st.selectbox(
        "Open a question's report",
        list(answered),
        key=state.key(f"report.{run.run_id}"),
        format_func=lambda i: f"{answered[i][0]}. {answered[i][1].question}",
    )
    report = rag.report(session_id)
    outcome = answered[session_id][1]
    st.markdown(f"**Question:** {md_escape(report.question)}")
    if outcome.reference:
        st.markdown(f"**Reference answer:** {md_escape(outcome.reference)}")
    render_report(report, key=f"evaluate.report.{session_id}")


def _render_comparison(rag: UserEngine, state: PageState, runs: list[dict[str, Any]]) -> None:
    st.subheader("Compare two runs")
    if len(runs) < 2:
        st.info("Run a question set twice (say, with other settings) to compare the runs side by side.")
        return
    by_id = {r["run_id"]: r for r in runs}
    left, right = st.columns(2)
    a = left.selectbox(
        "Run A", list(by_id), index=1, key=state.key("a"), format_func=lambda i: run_label(by_id[i])
    )
    b = right.selectbox(
        "Run B", list(by_id), index=0, key=state.key("b"), format_func=lambda i: run_label(by_id[i])
    )
    run_a, run_b = load_run(rag, a), load_run(rag, b)
    problem = different_questions(run_a, run_b)
    if problem:
        st.warning(problem, icon=":material/compare_arrows:")
    metrics, questions = comparison_tables(run_a, run_b)
    config = {c: _RATE for c in _RATES}
    st.dataframe(metrics, hide_index=True, placeholder=NOT_MEASURED, width="stretch")
    st.dataframe(questions, hide_index=True, placeholder=NOT_MEASURED, width="stretch", column_config=config)


def main() -> None:
    st.title("Evaluate")
    st.caption(
        "Measure the whole pipeline on a set of questions: faithfulness, answer relevance, refusal rate "
        "and hallucination rate. In CI: `python -m rrag evaluate FILE --fail-above 0.10`."
    )
    state = PageState("evaluate", selected=None, job=None)
    with engine_errors("Evaluating"):
        rag = user_engine()
        _render_new_run(rag, state)
        _render_job(state)
        runs = saved_runs(rag)
        if not runs:
            may_run = rag.identity.may(Permission.ASK)
            st.info(
                "No run yet." + (" Upload a question set, or run the demo's sample set." if may_run else "")
            )
            return
        st.divider()
        _render_results(rag, state, runs)
        st.divider()
        _render_comparison(rag, state, runs)


main()
