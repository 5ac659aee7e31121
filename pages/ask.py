"""Ask: a question answered from the documents, or an answer written elsewhere, audited claim by claim."""

from __future__ import annotations

import time
import uuid
from contextlib import suppress
from typing import TypedDict

import streamlit as st

from rrag import (
    ANSWERERS,
    RISK_PRESETS,
    VERIFIER_STAGES,
    NotFoundError,
    Permission,
    Report,
    Settings,
    UserEngine,
)
from rrag.tools.demo import Sample, is_demo_indexed, samples
from ui.app_settings import CUSTOM, preset_of
from ui.engine import documents, engine_errors, invalidate_reads, review_queue, user_engine
from ui.highlight import md_escape, md_escape_piece
from ui.navigation import require_app
from ui.report_view import render_report
from ui.state import PageState
from ui.status import ANSWERER_LABELS, STAGE_LABELS, VERIFIER_LABELS, decision_style

require_app()

ASK, VERIFY = "Ask a question", "Verify an answer"
ANSWERING = "answering"  # URL parameter: the session being answered, so that a reload can tell


class QuestionOptions(TypedDict):
    """This question's own choices: the settings it is asked with instead of the saved ones."""

    risk_threshold: float
    strict: bool
    top_k: int
    answerer: str
    verifiers: tuple[str, ...]


def _render_options(state: PageState, settings: Settings) -> QuestionOptions:
    """Sidebar options for this question; returns the settings changes to ask with."""
    with st.sidebar:
        st.subheader("Options for this question")

        def _apply_preset() -> None:
            preset = state["preset"]
            if preset in RISK_PRESETS:
                state["threshold"] = RISK_PRESETS[preset]

        st.selectbox(
            "Risk preset",
            [*RISK_PRESETS, CUSTOM],
            key=state.key("preset"),
            on_change=_apply_preset,
            help="The share of unsupported claims an answer may keep and still be given as written: "
            "high-risk 5 %, enterprise 20 %, general 30 %. Above it the unsupported claims are removed "
            "(or, in strict mode, the whole answer is withheld).",
        )

        def _match_preset() -> None:
            state["preset"] = preset_of(state["threshold"])

        st.slider(
            "Hallucination-rate threshold",
            0.0,
            1.0,
            step=0.01,
            format="percent",
            key=state.key("threshold"),
            on_change=_match_preset,
        )
        st.toggle(
            "Strict mode",
            key=state.key("strict"),
            help="Refuse the whole answer whenever its hallucination rate is above the threshold.",
        )
        st.slider("Passages to retrieve (top-k)", 1, 20, key=state.key("top_k"))
        st.radio(
            "Answer backend",
            ANSWERERS,
            key=state.key("answerer"),
            format_func=ANSWERER_LABELS.__getitem__,
            help="The LLM backend needs an endpoint on the Settings page.",
        )
        st.multiselect(
            "Verifier cascade",
            VERIFIER_STAGES,
            key=state.key("verifiers"),
            format_func=VERIFIER_LABELS.__getitem__,
            help="Run in this order; a later stage decides only what the earlier ones were unsure of.",
        )
        if not settings.llm_configured:
            st.caption("No LLM endpoint configured: the LLM answerer and judge are unavailable.")
    chosen = tuple(v for v in VERIFIER_STAGES if v in state["verifiers"])
    return QuestionOptions(
        risk_threshold=state["threshold"],
        strict=state["strict"],
        top_k=state["top_k"],
        answerer=state["answerer"],
        verifiers=chosen,
    )


def _problem(options: QuestionOptions, settings: Settings) -> str:
    """Why these options cannot run, in the page's words; empty when they can."""
    if not options["verifiers"]:
        return "Pick at least one verifier in the sidebar: an answer is never shown unchecked."
    # The engine skips an LLM judge it has no endpoint for; a user who picked it must hear so.
    needs_llm = options["answerer"] == "openai" or "llm" in options["verifiers"]
    if needs_llm and not settings.llm_configured:
        return "The LLM options need an endpoint: set one on the Settings page, or pick the offline options."
    return ""


def _render_form(state: PageState) -> tuple[str, str] | None:
    """The question (and, in verify mode, the answer to audit); returns them when submitted."""
    mode = st.radio(
        "Mode", [ASK, VERIFY], key=state.key("mode"), horizontal=True, label_visibility="collapsed"
    )
    with st.form(state.key("form"), border=False):
        question = st.text_area(
            "Question",
            key=state.key("question"),
            height=80,
            placeholder="e.g. How many days of annual leave do employees get?",
        )
        answer = ""
        if mode == VERIFY:
            answer = st.text_area(
                "Answer to audit",
                key=state.key("answer"),
                height=160,
                placeholder="Paste an answer written by a person or another assistant.",
            )
        submitted = st.form_submit_button("Audit this answer" if mode == VERIFY else "Ask", type="primary")
    if not submitted:
        return None
    if not question.strip() or (mode == VERIFY and not answer.strip()):
        st.warning("Write a question" + (" and paste the answer to audit." if mode == VERIFY else "."))
        return None
    return question.strip(), answer.strip()


def _render_samples(state: PageState) -> None:
    """The demo's first minute: one click asks (or audits) a sample, and the audited examples wait."""
    if not is_demo_indexed([d.source for d in documents()]):
        return
    with st.container(border=True):
        st.markdown("**Try the demo handbook.** One click, and every claim of the answer is checked:")
        row = st.container(horizontal=True)
        for number, sample in enumerate(samples()):
            style = decision_style(sample.decision.value)
            row.button(
                f"{sample.label} → {style.icon} {style.label.lower()}",
                key=state.key(f"sample.{number}"),
                on_click=_use_sample,
                args=(state, sample),
                help=("Audits an answer with a planted error: " if sample.answer else "Asks: ")
                + sample.question,
            )
        waiting = len(review_queue())
        if waiting:
            st.page_link(
                "pages/review.py",
                label=f"{waiting} flagged answer(s) wait in Review: see the hallucinations caught",
                icon=":material/rule:",
            )


def _use_sample(state: PageState, sample: Sample) -> None:
    state["mode"] = VERIFY if sample.answer else ASK
    state["question"], state["answer"] = sample.question, sample.answer
    state["sample"] = (sample.question, sample.answer)


def _reuse_saved_sample(
    rag: UserEngine, state: PageState, question: str, answer: str
) -> tuple[str, str] | None:
    """A sample already answered shows its saved session: each click saving another (a flagged one
    each time, for the trimmed sample) filled the review queue with copies. None when it was reused,
    else what to run. Asking it from the form runs it anew."""
    saved = rag.find_session(question, "verify" if answer else "ask", answer or None)
    if saved is None:
        return question, answer
    with suppress(NotFoundError):
        state["report"] = rag.report(saved)
        st.caption("The saved answer to this sample; press the button below the question to run it again.")
        return None
    return question, answer


def _render_interrupted(rag: UserEngine, state: PageState) -> None:
    """After a reload mid-answer the URL still names the session: say what became of it."""
    session_id = st.query_params.get(ANSWERING)
    if not session_id or state["report"] is not None:
        return
    del st.query_params[ANSWERING]
    # Still pending is interrupted for this tab, even if the old run has not noticed the reload yet.
    interrupted = next(
        (p for p in rag.pending_sessions() if p.session_id == session_id and not p.failure), None
    )
    if interrupted is not None:
        state["question"] = interrupted.question
        state["mode"] = VERIFY if interrupted.mode == "verify" else ASK
        again = " Paste the answer to audit again." if interrupted.mode == "verify" else ""
        st.warning(
            "**The answer was interrupted**: the page was reloaded or closed while it was being worked "
            f"on. The question is back in the box below, and kept in History as interrupted.{again}",
            icon=":material/restart_alt:",
        )
        return
    with suppress(NotFoundError):  # it finished before the reload stopped it: show the answer
        state["report"] = rag.report(session_id)


def _run(rag: UserEngine, options: QuestionOptions, question: str, answer: str) -> Report | None:
    """Ask or verify with this question's options, with live progress: the answer streamed as it is
    written, the elapsed time, then each claim as it is checked. The options go with the call: the
    engine is shared by every browser tab, and its settings are the saved defaults."""
    report = None
    session_id = uuid.uuid4().hex
    st.query_params[ANSWERING] = session_id  # gone when the answer is shown; left there by a reload
    action = "Auditing the answer" if answer else "Answering the question"
    with engine_errors(action), st.status("Working…", expanded=True) as status:
        settings = rag.settings.replace(**options)
        bar = st.progress(0.0)
        clock = st.empty()
        stages = list(STAGE_LABELS)
        began = time.monotonic()

        def show_time(seconds: float) -> None:
            clock.caption(f"{seconds:.0f} s elapsed")

        def progress(stage: str) -> None:
            label = STAGE_LABELS.get(stage, stage)
            status.update(label=f"{label}…")
            bar.progress((stages.index(stage) + 1) / len(stages) if stage in stages else 0.5, text=label)
            show_time(time.monotonic() - began)

        def claim_checked(done: int, total: int) -> None:
            share = (stages.index("verify") + done / max(total, 1)) / len(stages)
            bar.progress(share, text=f"Checked {done} of {total} claims against the documents")
            show_time(time.monotonic() - began)

        if answer:
            report = rag.verify(
                question,
                answer,
                settings=settings,
                progress=progress,
                session_id=session_id,
                on_claim=claim_checked,
            )
        else:
            stream = rag.ask_stream(
                question,
                settings=settings,
                progress=progress,
                session_id=session_id,
                on_claim=claim_checked,
                clock=show_time,
            )
            st.write_stream(md_escape_piece(piece) for piece in stream)  # untrusted: shown as text
            report = stream.result()
        bar.empty()
        clock.caption(f"Took {time.monotonic() - began:.1f} s")
        checked = any(r.claim.checkable for r in report.claims)
        status.update(
            label="Done: every claim checked" if checked else "Done: nothing to check",
            state="complete",
            expanded=False,
        )
    del st.query_params[ANSWERING]
    if report is not None:
        invalidate_reads()
    return report


def _as_of_latest_review(rag: UserEngine, report: Report) -> Report:
    """A reviewer may have corrected this answer since (on Review, in any tab): show the truth of record."""
    try:
        return rag.report(report.session_id)
    except NotFoundError:  # the storage was switched on Settings since
        return report


def main() -> None:
    st.title("Ask your documents")
    st.caption("Every answer is split into claims, and every claim is checked against the indexed documents.")
    with engine_errors("Opening the engine"):
        rag = user_engine()
        settings = rag.settings
        state = PageState(
            "ask",
            kept=(
                "preset",
                "threshold",
                "strict",
                "top_k",
                "answerer",
                "verifiers",
                "mode",
                "question",
                "answer",
            ),
            report=None,
            preset=preset_of(settings.risk_threshold),
            threshold=settings.risk_threshold,
            strict=settings.strict,
            top_k=min(settings.top_k, 20),
            answerer=settings.answerer,
            verifiers=list(settings.verifiers),
            sample=None,
        )
        if not rag.identity.may(Permission.ASK):
            st.info(
                f"Your role ({rag.identity.role.value}) can read answers in History but not ask questions.",
                icon=":material/lock:",
            )
            return
        options = _render_options(state, settings)
        if not documents():
            st.info("No documents are indexed yet. Add some first, then ask.", icon=":material/description:")
            st.page_link("pages/documents.py", label="Add documents", icon=":material/upload_file:")
        _render_samples(state)
        _render_interrupted(rag, state)
        submitted = _render_form(state)
        if state["sample"]:
            sample, state["sample"] = state["sample"], None
            submitted = _reuse_saved_sample(rag, state, *sample)
        problem = _problem(options, settings)
        if submitted and problem:
            st.warning(problem, icon=":material/tune:")
        elif submitted:
            state["report"] = _run(rag, options, *submitted) or state["report"]
        if state["report"] is not None:
            report = _as_of_latest_review(rag, state["report"])
            st.divider()
            st.markdown(f"**Question:** {md_escape(report.question)}")  # the form may hold another
            render_report(report, key="ask.report")


main()
