"""Issue 14 in AppTest: the demo's first minute, failed words marked, review and insights polish, and
where data lives. The pages run against the demo corpus in a temp-dir engine (real Chroma and SQLite)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from test_pages import _page

from rrag import Decision, ReliableRAG
from rrag.engine.pipeline import MAX_QUESTION_CHARS
from rrag.ingest.extract import supported_suffixes
from rrag.tools.demo import samples, set_up_demo
from ui.engine import get_engine
from ui.tables import QUEUE_COLUMNS


@pytest.fixture
def rag() -> Iterator[ReliableRAG]:
    engine = get_engine()  # the cached handle the pages use
    set_up_demo(engine)
    yield engine
    st.cache_data.clear()
    st.cache_resource.clear()
    engine.close()


def _html(at: AppTest) -> str:
    return "\n".join(h.value for h in at.html)


# -- 1. the first minute of the demo ------------------------------------------------------------------


def test_the_samples_answer_trim_and_refuse_in_one_click_each(rag: ReliableRAG) -> None:
    at = _page("ask")
    buttons = [at.button(key=f"ask.sample.{n}") for n in range(len(samples()))]
    assert [b.label.split("→")[1].strip() for b in buttons] == ["✔ passed", "✂ trimmed", "⊘ refused"]
    (link,) = at.get("page_link")
    assert link.proto.page == "review" and f"{len(rag.review_queue())} flagged answer(s) wait" in link.label
    for button, sample in zip(buttons, samples(), strict=True):
        button.click().run()
        assert not at.exception and not at.error
        report = at.session_state["ask.report"]
        assert (report.question, report.decision) == (sample.question, sample.decision)
        assert at.text_area(key="ask.question").value == sample.question  # the box shows what was run
        if sample.answer:
            assert at.radio(key="ask.mode").value == "Verify an answer" and report.answer == sample.answer
    assert report.decision is Decision.REFUSE


def test_clicking_a_sample_again_reuses_its_saved_session(rag: ReliableRAG) -> None:
    at = _page("ask")
    for number, sample in enumerate(samples()):
        at.button(key=f"ask.sample.{number}").click().run()
        first = at.session_state["ask.report"].session_id
        before = len(rag.sessions())
        flagged = len(rag.review_queue())
        for _ in range(2):
            at.button(key=f"ask.sample.{number}").click().run()
            assert not at.exception and not at.error
            assert at.session_state["ask.report"].session_id == first, sample.label
        assert len(rag.sessions()) == before and len(rag.review_queue()) == flagged
    # The form still asks anew.
    at.button(key="FormSubmitter:ask.form-Ask").click().run()
    assert at.session_state["ask.report"].session_id != first


# -- 2. the failed words inside a claim ---------------------------------------------------------------


def test_the_trimmed_sample_marks_the_changed_number_beside_the_evidence(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.button(key="ask.sample.1").click().run()
    page = _html(at)
    mark = '<mark class="rrag-failed" title="the evidence says €48">€65</mark>'
    assert page.count(mark) == 2  # in the highlighted answer and in the claim's card
    assert "“€65”: the evidence says €48" in "\n".join(m.value for m in at.markdown).replace("\\", "")


# -- 5. review and insights polish --------------------------------------------------------------------


def test_review_has_no_default_outcome_and_records_nothing_without_one(rag: ReliableRAG) -> None:
    at = _page("review")
    session_id = at.selectbox(key="review.selected").value
    assert at.radio(key=f"review.outcome.{session_id}").value is None
    at.text_input(key="review.reviewer").input("Dana")
    next(b for b in at.button if b.label == "Record review").click().run()
    assert any("Choose an outcome" in w.value for w in at.warning)
    assert rag.store.reviews(session_id) == []


def test_the_queue_fits_the_page_and_leads_with_why_each_answer_is_flagged(rag: ReliableRAG) -> None:
    at = _page("review")
    table = at.dataframe[0].value
    assert list(table.columns) == QUEUE_COLUMNS and table.columns[0] == "Why flagged"
    assert table["Why flagged"].str.len().gt(0).all()
    assert '<div class="rrag-flag" role="note">⚑ <strong>Flagged for review:</strong>' in _html(at)


def test_insights_of_a_fresh_demo_are_per_minute(rag: ReliableRAG) -> None:
    at = _page("insights")
    over_time = [c.proto.spec for c in at.get("plotly_chart")[:2]]
    assert all('"per minute (UTC)"' in spec for spec in over_time)
    assert all("Too little data for a trend" in spec for spec in over_time)  # all saved within a minute


def test_the_file_picker_offers_only_supported_types(rag: ReliableRAG) -> None:
    at = _page("documents")
    offered = list(at.file_uploader(key="documents.files").proto.type)
    assert sorted(offered) == sorted(supported_suffixes())  # extensions only: no "text/*" for any text


def test_a_question_over_the_limit_is_refused_with_a_message_and_kept(rag: ReliableRAG) -> None:
    sessions = len(rag.sessions())
    at = _page("ask")
    long_question = "Why? " * (MAX_QUESTION_CHARS // 5 + 1)
    at.text_area(key="ask.question").input(long_question)
    next(b for b in at.button if b.label == "Ask").click().run()
    assert "the limit is 2,000" in at.error[0].value
    assert at.text_area(key="ask.question").value == long_question  # kept as typed
    assert len(rag.sessions()) == sessions and at.session_state["ask.report"] is None


def test_an_answer_leaves_no_trace_in_the_url_once_shown(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.button(key="ask.sample.0").click().run()
    assert at.session_state["ask.report"] is not None and "answering" not in at.query_params


def test_a_reload_while_answering_says_the_answer_was_interrupted(rag: ReliableRAG) -> None:
    question = "What is the notice period for resignations?"
    # What a reload leaves behind: the question on record, the URL naming it, the old run stopped.
    rag.store.save_pending("reloaded", question, "ask")
    at = _page("ask", answering="reloaded")
    assert "The answer was interrupted" in at.warning[0].value
    assert at.text_area(key="ask.question").value == question
    assert at.radio(key="ask.mode").value == "Ask a question"
    history = _page("history")
    (table,) = [d.value for d in history.dataframe if "Status" in d.value.columns]
    assert list(table["Question"]) == [question] and "interrupted" in table["Status"][0]


def test_history_lists_a_question_the_llm_server_failed_with_its_reason(rag: ReliableRAG) -> None:
    question = "What is the notice period for resignations?"
    rag.store.save_pending("failed", question, "ask")
    rag.store.fail_pending(
        "failed", "the LLM server at http://127.0.0.1:8080/v1 failed (HTTP 503): overloaded"
    )
    history = _page("history")
    (table,) = [d.value for d in history.dataframe if "Status" in d.value.columns]
    assert list(table["Question"]) == [question]
    assert (
        table["Status"][0]
        == "✖ failed: the LLM server at http://127.0.0.1:8080/v1 failed (HTTP 503): overloaded"
    )
    assert any("Failed questions (1)" in e.label for e in history.expander)
    assert _page("ask", answering="failed").warning == []  # failed, not "interrupted"


def test_a_reload_after_the_answer_was_saved_shows_the_answer(rag: ReliableRAG) -> None:
    report = rag.ask("How many days of annual leave do full-time employees get?", session_id="finished")
    at = _page("ask", answering="finished")
    assert at.session_state["ask.report"].session_id == report.session_id
    assert not at.warning


# -- 6. where data lives ------------------------------------------------------------------------------


def test_settings_show_where_data_lives_read_only(rag: ReliableRAG) -> None:
    at = _page("settings")
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    data_dir = rag.settings.data_dir.resolve()
    assert "Where data lives" in text
    assert f"| Database | SQLite | sqlite:///{data_dir / 'rrag.db'} |" in text
    assert f"| Vector index | Chroma, embedded | {data_dir / 'chroma'}, collection" in text
    assert "`RRAG_DATABASE_URL`" in text and "`RRAG_CHROMA_HOST`" in text
    assert not [w for w in at.text_input if "sqlite" in str(w.value)]  # shown, not editable
