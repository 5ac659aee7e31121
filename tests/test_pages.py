"""Every page driven by AppTest against a real temp-dir engine (Chroma + SQLite under tmp).

The pages share the engine handle the fixture builds (`ui.engine.get_engine`, one per storage
location), so what a test ingests or saves is what the pages read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from chat_server import MODEL, ChatServer
from fake_llm import FakeLLM
from streamlit.testing.v1 import AppTest

from rrag import ClaimStatus, Decision, ReliableRAG
from rrag.answer.answerers import LLMAnswerer
from rrag.backends.llm import PLACEHOLDER_API_KEY
from rrag.tools.demo import demo_files, set_up_demo
from ui.engine import get_engine, invalidate_reads
from ui.status import STATUS_STYLES, display_status

APP = Path(__file__).resolve().parents[1] / "app.py"
TIMEOUT_S = 120  # the first run loads the embedding and verifier models

LEAVE = """# Annual leave

Full-time employees receive 25 days of paid annual leave per calendar year.
Up to 5 unused days may be carried over into the next year.
Leave requests are approved by the line manager within five working days.
"""
SECURITY = """Passwords must be at least 14 characters long.
Multi-factor authentication is mandatory for all remote access.
Lost laptops must be reported to the IT service desk within one hour.
"""
# Document text is untrusted: this must show as text on every page, never run.
HOSTILE = """Visitor rules. <script>alert('pwned')</script> Visitors sign in at the <b>reception desk</b>.
The visitor car park closes at 10 pm. <img src=x onerror="alert(1)">
"""
QUESTION = "How many days of annual leave do full-time employees get?"
PLANTED = (
    "Full-time employees receive 30 days of paid annual leave per calendar year. "
    "Leave requests are approved by the line manager within five working days. "
    "Every employee also gets a free company helicopter."
)
SECRET = "sk-test-DO-NOT-SHOW-1234567890"


@pytest.fixture
def rag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReliableRAG]:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    yield from engine_with(
        tmp_path / "docs", {"leave.md": LEAVE, "security.txt": SECURITY, "visitors.txt": HOSTILE}
    )


def engine_with(folder: Path, documents: dict[str, str]) -> Iterator[ReliableRAG]:
    """The engine the pages share (the same cached handle), with `documents` written to `folder` and
    ingested; its caches cleared and the engine closed after the test."""
    folder.mkdir()
    for name, text in documents.items():
        (folder / name).write_text(text, encoding="utf-8")
    engine = get_engine()
    assert all(r.ok for r in engine.ingest(sorted(folder.iterdir())))
    yield engine
    st.cache_data.clear()
    st.cache_resource.clear()
    engine.close()


def _page(
    name: str, *, secrets: dict[str, Any] | None = None, user: dict[str, Any] | None = None, **query: str
) -> AppTest:
    """Page `name` run once, opened with `query` in its URL; with `secrets` and a signed-in `user`
    where a test sets them (tests/test_pages_signin.py)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.query_params.update(query)
    at.secrets.update(secrets or {})
    if user is not None:
        at.user = user
    at.run()
    if name != "ask":
        at.switch_page(f"pages/{name}.py")
        at.run()
    assert not at.exception, at.exception
    return at


def _plain(markdown: str) -> str:
    return markdown.replace("\\", "")  # drop Markdown escapes


def _all_text(at: AppTest) -> str:
    """Everything the page shows as text: Markdown, HTML blocks, alerts, captions and widget labels."""
    parts = [
        e.value
        for kind in (
            "markdown",
            "caption",
            "error",
            "warning",
            "info",
            "success",
            "html",
            "title",
            "subheader",
        )
        for e in at.get(kind)
    ]
    parts += [w.label for kind in ("text_input", "selectbox", "expander") for w in at.get(kind)]
    return _plain("\n".join(str(p) for p in parts))


def _submit(at: AppTest, label: str) -> AppTest:
    next(b for b in at.button if b.label == label).click()
    at.run()
    assert not at.exception, at.exception
    return at


def _verify_planted(rag: ReliableRAG) -> str:
    return rag.verify(QUESTION, PLANTED).session_id


# -- routing ------------------------------------------------------------------------------------------


def test_every_page_opens_without_errors(rag: ReliableRAG) -> None:
    titles = {
        "ask": "Ask your documents",
        "documents": "Documents",
        "review": "Review queue",
        "history": "History",
        "insights": "Insights",
        "settings": "Settings",
    }
    for page, title in titles.items():
        at = _page(page)
        assert at.title[0].value == title
        assert not at.error, [e.value for e in at.error]


# -- Ask ----------------------------------------------------------------------------------------------


def test_ask_renders_highlighted_claims_evidence_charts_and_exports(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    report = at.session_state["ask.report"]
    saved = rag.report(report.session_id)
    assert saved.claims == report.claims and saved.final_answer == report.final_answer

    html_blocks = [h.value for h in at.html]
    answer_html = next(h for h in html_blocks if 'class="rrag-answer"' in h)
    assert answer_html.count('class="rrag-claim"') == len(report.claims) > 0
    for result in report.claims:
        assert STATUS_STYLES[display_status(result.verdict)].label in answer_html
    supported = [r for r in report.claims if r.verdict.status is ClaimStatus.SUPPORTED]
    assert supported, report.to_dict()
    assert any('<mark class="rrag-quote">' in h for h in html_blocks)  # quote marked in its chunk
    assert "leave.md" in _all_text(at)  # the evidence's source document
    top = report.contexts[0]  # and the retrieval mix behind each passage
    assert (
        f"relevance {top.score:.2f} (vector {top.vector_score:.2f} · keyword {top.keyword_score:.2f})"
        in _all_text(at)
    )
    assert len(at.get("plotly_chart")) == 2  # gauge and status counts
    gauge = at.get("plotly_chart")[0].proto.spec
    assert '"indicator"' in gauge
    assert {b.label for b in at.get("download_button")} == {"JSON", "HTML page", "Markdown"}
    assert 'aria-label="Claim status legend"' in answer_html


def test_ask_progress_ends_complete_with_every_stage_timed(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    (status,) = at.get("status")
    assert status.label == "Done: every claim checked"
    assert not status.get("progress")  # no stale "Saving the session" bar under "Done"
    report = at.session_state["ask.report"]
    assert set(report.timings_ms) == {"retrieve", "answer", "claims", "verify", "score", "save"}
    # The extractive answer is shown in one piece as soon as it is written, then the time it all took.
    assert any(_plain(m.value) == report.answer for m in status.get("markdown"))
    assert any(c.value.startswith("Took ") and c.value.endswith(" s") for c in status.get("caption"))


def test_ask_streams_the_llm_answer_as_it_is_written_then_audits_it(rag: ReliableRAG) -> None:
    answer = "Full-time employees receive 25 days of paid annual leave per calendar year."
    fake = FakeLLM({"answer": answer, "refused": False, "citations": [{"passage": 1, "quote": answer}]})
    rag.configure(
        rag.settings.replace(answerer="openai", llm_base_url="http://127.0.0.1:9/v1", llm_model=MODEL)
    )
    rag._backends = replace(rag._backends, llm=fake, answerer=LLMAnswerer(fake))  # the server, scripted
    at = _page("ask")
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    (request,) = fake.requests
    assert len(request.streamed) > 10  # the reply came in pieces, as a server streams it
    (status,) = at.get("status")
    assert status.label == "Done: every claim checked"
    assert any(_plain(m.value) == answer for m in status.get("markdown"))  # its words, not its JSON
    report = at.session_state["ask.report"]
    assert report.answer == answer and report.answer_backend == "openai"
    assert report.claims and all(r.verdict.verified for r in report.claims)


def test_a_question_the_documents_cannot_answer_shows_a_refusal_not_an_empty_audit(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.text_area(key="ask.question").input("What is the capital of Mongolia?")
    _submit(at, "Ask")
    (status,) = at.get("status")
    assert status.label == "Done: nothing to check"
    assert any("Nothing in this answer could be checked" in i.value for i in at.info)
    assert not at.get("plotly_chart")  # no gauge of nothing
    assert {m.label: m.value for m in at.metric}["Claims checked"] == "none"
    # Refused before answering: by the relevance floor, or by the question-passage model (issue 45)
    # where the passages retrieved do not answer it.
    assert "I cannot answer this from the indexed documents" in "".join(h.value for h in at.html)


def test_verify_mode_audits_a_pasted_answer_and_flags_the_planted_claims(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.radio(key="ask.mode").set_value("Verify an answer").run()
    at.text_area(key="ask.question").input(QUESTION)
    at.text_area(key="ask.answer").input(PLANTED)
    _submit(at, "Audit this answer")
    report = at.session_state["ask.report"]
    assert report.mode == "verify" and report.answer == PLANTED
    statuses = {r.claim.text: r.verdict.status for r in report.claims}
    assert (
        statuses["Leave requests are approved by the line manager within five working days."]
        is ClaimStatus.SUPPORTED
    )
    assert statuses["Every employee also gets a free company helicopter."] in (
        ClaimStatus.UNSUPPORTED,
        ClaimStatus.CONTRADICTED,
    )
    assert report.needs_review or report.decision.value != "pass"
    text = _all_text(at)
    for result in report.claims:
        assert STATUS_STYLES[display_status(result.verdict)].label in text


def test_ask_without_a_question_warns_and_keeps_state(rag: ReliableRAG) -> None:
    at = _page("ask")
    _submit(at, "Ask")
    assert "Write a question" in at.warning[0].value
    assert at.session_state["ask.report"] is None


def test_sidebar_options_go_with_the_question_and_bad_ones_are_explained(rag: ReliableRAG) -> None:
    saved = rag.settings
    at = _page("ask")
    at.selectbox(key="ask.preset").set_value("high-risk").run()
    assert at.slider(key="ask.threshold").value == 0.05
    assert at.slider(key="ask.threshold").proto.format == "percent"  # "5%", as the presets say it
    at.toggle(key="ask.strict").set_value(True)
    at.slider(key="ask.top_k").set_value(3)
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    report = at.session_state["ask.report"]
    assert report.strict and report.threshold == 0.05
    assert rag.settings is saved  # one user's options are not the next user's defaults

    at.multiselect(key="ask.verifiers").set_value([])
    at.text_area(key="ask.question").input("Again?")
    _submit(at, "Ask")
    assert "Pick at least one verifier" in at.warning[0].value
    assert at.session_state["ask.report"].session_id == report.session_id  # the last report is kept

    at.multiselect(key="ask.verifiers").set_value(["quote"])
    at.radio(key="ask.answerer").set_value("openai")  # needs an LLM endpoint; none is configured
    _submit(at, "Ask")
    assert "set one on the Settings page" in at.warning[0].value
    assert at.session_state["ask.report"].session_id == report.session_id


# -- Documents ----------------------------------------------------------------------------------------


def test_upload_many_files_reports_each_and_keeps_the_good_ones(rag: ReliableRAG) -> None:
    at = _page("documents")
    at.file_uploader(key="documents.files").set_value(
        [
            (
                "parking.md",
                b"# Parking\n\nStaff parking is free in the north garage on weekdays.\n",
                "text/markdown",
            ),
            ("empty.txt", b"", "text/plain"),
            ("binary.pdf", bytes(range(256)) * 40, "application/pdf"),  # the picker takes only known types
            # An upload is known by its content: this one repeats the text of the indexed leave.md ...
            ("leave.md", LEAVE.encode(), "text/markdown"),
            ("leave-copy.md", LEAVE.encode(), "text/markdown"),  # ... and this one is that upload again
        ]
    )
    _submit(at, "Index files")
    table = at.dataframe[0].value
    results = dict(zip(table["File"], table["Result"], strict=True))
    assert results["parking.md"] == "✔ added" and results["leave-copy.md"] == "= unchanged"
    assert results["leave.md"] == "≡ copy of indexed text: nothing new"
    assert "1 file(s) only repeat text already indexed" in at.warning[0].value
    assert "leave.md: 1 passage already in leave.md." in at.warning[0].value  # the indexed original
    assert results["empty.txt"] == "✖ failed" and results["binary.pdf"] == "✖ failed"
    errors = dict(zip(table["File"], table["Error"], strict=True))
    assert errors["empty.txt"] and errors["binary.pdf"] and not errors["parking.md"]
    assert "2 failed" in at.warning[0].value
    assert "parking.md" in {d.source for d in rag.documents()}
    listed = at.dataframe[1].value
    assert set(listed["Document"]) == {d.source for d in rag.documents()}


def test_document_chunks_show_html_and_scripts_as_text(rag: ReliableRAG) -> None:
    at = _page("documents")
    visitors = next(d for d in rag.documents() if d.source == "visitors.txt")
    at.selectbox(key="documents.selected").set_value(visitors.doc_id).run()
    chunk_html = "".join(h.value for h in at.html)
    assert "<script>" not in chunk_html and "<img" not in chunk_html and "<b>" not in chunk_html
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in chunk_html
    assert "&lt;b&gt;reception desk&lt;/b&gt;" in chunk_html


def test_delete_asks_for_confirmation_then_removes_the_document(rag: ReliableRAG) -> None:
    security = next(d for d in rag.documents() if d.source == "security.txt")
    security_text = "\n\n".join(c.text for c in rag.document_chunks(security.doc_id))
    assert rag.ingest_bytes("security-copy.txt", security_text.encode()).chunks_added == 0  # all near-copies
    at = _page("documents")
    at.selectbox(key="documents.selected").set_value(security.doc_id).run()
    at.button(key="documents.delete").click().run()
    assert "security.txt" in {d.source for d in rag.documents()}  # not yet
    at.button(key="documents.confirm").click().run()
    assert not at.exception
    assert "security.txt" not in {d.source for d in rag.documents()}
    assert set(at.dataframe[0].value["Document"]) == {d.source for d in rag.documents()}
    assert "Deleted security.txt." in _plain(at.success[0].value)
    assert "security-copy.txt had dropped chunks as copies of it" in _plain(at.info[0].value)
    copy = next(d for d in rag.documents() if d.source == "security-copy.txt")
    assert copy.chunks > 0 and copy.duplicates_dropped == 0


def test_reindex_rechunks_from_the_kept_original(rag: ReliableRAG) -> None:
    at = _page("documents")
    leave = next(d for d in rag.documents() if d.source == "leave.md")
    at.selectbox(key="documents.selected").set_value(leave.doc_id).run()
    at.button(key="documents.reindex").click().run()
    assert "Re-indexed leave.md" in _plain(at.success[0].value)


# -- Review -------------------------------------------------------------------------------------------


def test_review_records_overrides_and_outcome_as_an_audit_trail(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    report = rag.report(session_id)
    at = _page("review")
    assert at.selectbox(key="review.selected").value == session_id
    assert any('class="rrag-answer"' in h.value for h in at.html)
    wrong = next(
        i
        for i, r in enumerate(report.claims)
        if r.verdict.status is not ClaimStatus.SUPPORTED and r.claim.checkable
    )
    at.text_input(key="review.reviewer").input("Dana Reviewer")
    at.radio(key=f"review.outcome.{session_id}").set_value("corrected")
    old = report.claims[wrong].verdict.status.value
    new = "contradicted" if old != "contradicted" else "unsupported"
    at.selectbox(key=f"review.claim.{session_id}.{wrong}").set_value(new)
    at.text_area(key="review.note").input("The handbook says 25 days.")
    _submit(at, "Record review")

    (record,) = rag.store.reviews(session_id)
    assert record.reviewer == "Dana Reviewer" and record.outcome == "corrected"
    assert record.note == "The handbook says 25 days."
    assert record.changes == [{"claim_index": wrong, "old_status": old, "new_status": new}]
    assert "Recorded" in at.success[0].value
    # corrected answers leave the default queue; they are still there with "include reviewed"
    assert session_id not in [s.session_id for s in rag.review_queue()]
    at.toggle(key="review.include_reviewed").set_value(True).run()
    at.selectbox(key="review.selected").set_value(session_id).run()
    assert "Dana Reviewer" in _all_text(at)


def test_review_requires_a_name_and_records_nothing_without_it(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    at = _page("review")
    _submit(at, "Record review")
    assert "Enter your name" in at.warning[0].value
    assert rag.store.reviews(session_id) == []


def test_a_correction_without_a_changed_claim_is_not_recorded(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    at = _page("review")
    at.text_input(key="review.reviewer").input("Dana")
    at.radio(key=f"review.outcome.{session_id}").set_value("corrected")
    _submit(at, "Record review")
    assert "changes at least one claim's status" in at.warning[0].value
    assert rag.store.reviews(session_id) == []


def test_review_queue_filters(rag: ReliableRAG) -> None:
    _verify_planted(rag)
    at = _page("review")
    assert len(at.dataframe[0].value) == 1
    at.text_input(key="review.search").input("no such question").run()
    assert not at.dataframe and "0 answer(s)" in _all_text(at)


def test_empty_queue_says_so(rag: ReliableRAG) -> None:
    at = _page("review")
    assert any("Nothing waits for review" in s.value for s in at.success)


# -- History ------------------------------------------------------------------------------------------


def test_history_lists_filters_and_reopens_sessions(rag: ReliableRAG) -> None:
    flagged = _verify_planted(rag)
    plain = rag.ask(QUESTION).session_id
    rag.store.add_review(flagged, reviewer="Eve", outcome="escalated", note="check with HR")
    at = _page("history")
    table = at.dataframe[0].value
    assert len(table) == 2
    assert at.selectbox(key="history.selected").value == plain  # newest first
    at.selectbox(key="history.selected").set_value(flagged).run()
    text = _all_text(at)
    assert "Eve" in text and "check with HR" in text
    at.text_input(key="history.search").input("helicopter").run()
    assert list(at.dataframe[0].value["Question"]) == [QUESTION]
    at.text_input(key="history.search").input("").run()
    at.toggle(key="history.flagged").set_value(True).run()
    assert at.selectbox(key="history.selected").value == flagged


def test_history_empty_state(rag: ReliableRAG) -> None:
    at = _page("history")
    assert "No saved session" in at.info[0].value


# -- Insights -----------------------------------------------------------------------------------------


def test_insights_charts_come_from_the_saved_sessions(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    rag.ask(QUESTION)
    report = rag.report(session_id)
    wrong = next(
        i
        for i, r in enumerate(report.claims)
        if r.verdict.status is not ClaimStatus.SUPPORTED and r.claim.checkable
    )
    rag.store.add_review(
        session_id, reviewer="Ann", outcome="corrected", claim_overrides={wrong: ClaimStatus.SUPPORTED}
    )
    at = _page("insights")
    charts = [c.proto.spec for c in at.get("plotly_chart")]
    assert len(charts) == 6
    assert {m.label: m.value for m in at.metric}["Sessions"] == "2"
    agreement = {m.label: m.value for m in at.metric}["Reviewer agreement"]
    assert agreement.endswith("%") and agreement != "100%"
    # a rate, as the Ask page, the review reasons and the thresholds write it (it showed 0.19)
    assert {m.label: m.value for m in at.metric}["Mean hallucination rate"].endswith("%")
    assert any("helicopter" in spec or "annual leave" in spec for spec in charts)  # knowledge gaps


def test_insights_lists_the_questions_the_documents_had_nothing_for(rag: ReliableRAG) -> None:
    rag.ask(QUESTION)
    at = _page("insights")
    assert not at.dataframe and any("None: every question" in c.value for c in at.caption)
    for _ in range(2):
        assert rag.ask("What is the capital of Mongolia?").decision is Decision.REFUSE
    invalidate_reads()  # as the Ask page does after a question
    at = _page("insights")
    table = at.dataframe[0].value
    assert table["Question"].tolist() == ["What is the capital of Mongolia?"]
    assert table["Times asked"].tolist() == [2]


def test_insights_empty_state(rag: ReliableRAG) -> None:
    at = _page("insights")
    assert "No saved sessions" in at.info[0].value


# -- Settings -----------------------------------------------------------------------------------------


def test_settings_save_applies_and_never_stores_or_shows_the_key(rag: ReliableRAG) -> None:
    at = _page("settings")
    assert SECRET not in _all_text(at) and "set in the environment" in _all_text(at)
    top_k = next(w for w in at.number_input if w.label.startswith("Passages"))
    top_k.set_value(7)
    _submit(at, "Save")
    assert rag.settings.top_k == 7
    saved = rag.store.get_app_settings()
    assert saved["top_k"] == 7 and not any("key" in name for name in saved)
    assert SECRET not in _all_text(at)
    db = rag.settings.data_dir / "rrag.db"
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    assert SECRET not in dump


def test_settings_saves_the_token_budgets(rag: ReliableRAG) -> None:
    at = _page("settings")
    next(w for w in at.number_input if w.label == "Context window").set_value(8192)
    next(w for w in at.number_input if w.label == "Answer reply (tokens)").set_value(640)
    _submit(at, "Save")
    assert not at.error, [e.value for e in at.error]
    assert (rag.settings.llm_context_tokens, rag.settings.llm_max_tokens_answer) == (8192, 640)
    saved = rag.store.get_app_settings()
    assert (saved["llm_context_tokens"], saved["llm_max_tokens_answer"]) == (8192, 640)
    assert saved["llm_max_tokens_judge"] == rag.settings.llm_max_tokens_judge


def test_settings_invalid_values_show_an_error_and_change_nothing(rag: ReliableRAG) -> None:
    at = _page("settings")
    next(w for w in at.number_input if w.label.startswith("Overlap")).set_value(2000)
    next(w for w in at.number_input if w.label.startswith("Chunk size")).set_value(1000)
    _submit(at, "Save")
    assert any("chunk_overlap must be between" in _plain(e.value) for e in at.error)
    assert "chunk_overlap" not in rag.store.get_app_settings()


def test_settings_test_connection_makes_the_pipelines_request_and_names_the_mode_that_works(
    rag: ReliableRAG,
) -> None:
    with ChatServer() as server:
        server.fail(
            500, "Input should be 'text' or 'json_object'"
        )  # as llama.cpp's server refuses json_schema
        server.reply_json({"answer": "It opens at 9:00.", "refused": False, "citations": []})
        at = _page("settings")
        next(w for w in at.text_input if w.label == "Base URL").input(server.base_url)
        next(w for w in at.text_input if w.label == "Model").input(MODEL)
        _submit(at, "Test LLM connection")
        assert any("in output mode **json_object_schema**" in s.value for s in at.success), [
            e.value for e in at.error
        ]
        assert any(">It opens at 9:00.<" in h.value for h in at.html)
        assert [r.get("response_format", {}).get("type") for r in server.requests] == [
            "json_schema",
            "json_object",
        ]
        assert (
            "The office opens at 9:00" in server.requests[1]["messages"][1]["content"]
        )  # a numbered passage
        # A URL typed here is not where the environment's key was configured to go (test_keys_stay_home).
        assert server.headers[0].get("authorization") == f"Bearer {PLACEHOLDER_API_KEY}"
    assert SECRET not in _all_text(at)
    assert not rag.settings.llm_configured  # testing does not save or switch the engine


def test_settings_test_connection_without_endpoint_says_what_to_fill_in(rag: ReliableRAG) -> None:
    at = _page("settings")
    _submit(at, "Test LLM connection")
    assert "Enter the Base URL and the Model above" in at.warning[0].value and not at.error


# -- the engine handle --------------------------------------------------------------------------------


def test_saved_settings_apply_when_the_engine_starts(rag: ReliableRAG) -> None:
    rag.store.save_app_settings({"top_k": 4, "strict": True})
    st.cache_resource.clear()  # as after a restart: the next page run builds the engine again
    at = _page("ask")
    assert at.slider(key="ask.top_k").value == 4 and at.toggle(key="ask.strict").value is True
    assert get_engine() is not rag and get_engine().settings.top_k == 4


def test_saved_settings_that_no_longer_work_warn_and_fall_back(rag: ReliableRAG) -> None:
    rag.store.save_app_settings({"answerer": "openai"})  # needs an LLM endpoint, and none is set
    st.cache_resource.clear()
    at = _page("ask")
    assert any("Saved settings were not applied" in _plain(w.value) for w in at.warning)
    assert at.radio(key="ask.answerer").value == "extractive"
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    assert at.session_state["ask.report"] is not None  # the app still works


# -- the demo corpus ----------------------------------------------------------------------------------


def test_demo_corpus_renders_on_every_page(rag: ReliableRAG) -> None:
    setup = set_up_demo(rag)
    assert all(r.ok for r in setup.ingested) and setup.examples
    flagged = [r for r in setup.examples if r.needs_review]
    assert flagged  # a fresh `make run` has a non-empty review queue
    shown = {
        ClaimStatus(display_status(c.verdict))
        for r in setup.examples
        for c in r.claims
        if display_status(c.verdict) in {s.value for s in ClaimStatus}
    }
    assert {ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED} <= shown or ClaimStatus.CONTRADICTED in shown
    for page in ("ask", "documents", "review", "history", "insights", "settings"):
        at = _page(page)
        assert not at.error, (page, [e.value for e in at.error])
    at = _page("review")
    assert len(at.dataframe[0].value) == len(rag.review_queue())
    assert any('class="rrag-claim"' in h.value for h in at.html)


def test_an_empty_index_offers_the_demo_and_loads_it(rag: ReliableRAG) -> None:
    for doc in rag.documents():
        rag.delete_document(doc.doc_id)
    invalidate_reads()
    at = _page("documents")
    assert "load the demo handbook" in at.info[0].value
    at.button(key="documents.demo").click().run()
    assert not at.exception and not at.error
    assert {d.source for d in rag.documents()} == {p.name for p in demo_files()}
    assert rag.review_queue()  # the audited examples came with it
    assert f"Indexed documents ({len(demo_files())})" in [h.value for h in at.subheader]


def test_ask_options_and_question_survive_a_visit_to_another_page(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.selectbox(key="ask.preset").set_value("high-risk").run()
    at.toggle(key="ask.strict").set_value(True)
    at.slider(key="ask.top_k").set_value(8)
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    at.switch_page("pages/settings.py").run()
    at.switch_page("pages/ask.py").run()
    assert not at.exception, at.exception
    assert (
        at.selectbox(key="ask.preset").value == "high-risk" and at.slider(key="ask.threshold").value == 0.05
    )
    assert at.toggle(key="ask.strict").value is True and at.slider(key="ask.top_k").value == 8
    assert at.text_area(key="ask.question").value == QUESTION


def test_the_preset_follows_the_threshold_and_a_chosen_llm_judge_needs_an_endpoint(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.slider(key="ask.threshold").set_value(0.3).run()
    assert at.selectbox(key="ask.preset").value == "general"
    at.slider(key="ask.threshold").set_value(0.42).run()
    assert at.selectbox(key="ask.preset").value == "custom"
    at.multiselect(key="ask.verifiers").set_value(["quote", "nli", "llm"])
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    assert "The LLM options need an endpoint" in at.warning[0].value  # not skipped in silence
    assert at.session_state["ask.report"] is None


def test_review_and_history_choices_survive_a_visit_to_another_page(rag: ReliableRAG) -> None:
    _verify_planted(rag)
    _verify_planted(rag)  # one to review, one left in the queue
    at = _page("review")
    at.text_input(key="review.reviewer").input("Dana")
    _submit(at, "Record review")  # the name is part of the form: it counts once submitted
    at.checkbox(key="review.contradicted").check()
    at.switch_page("pages/history.py").run()
    at.toggle(key="history.flagged").set_value(True).run()
    at.switch_page("pages/review.py").run()
    assert (
        at.text_input(key="review.reviewer").value == "Dana" and at.checkbox(key="review.contradicted").value
    )
    at.switch_page("pages/history.py").run()
    assert at.toggle(key="history.flagged").value is True
