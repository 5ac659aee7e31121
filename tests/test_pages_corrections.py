"""A reviewer's correction is what Ask, Review and History show: status, colour, scores, final answer."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from test_pages import QUESTION, _all_text, _page, _submit, _verify_planted, rag  # noqa: F401 (fixture)

from rrag import ClaimStatus, Decision, ReliableRAG, Report
from ui.export import percent
from ui.status import STATUS_STYLES

CONTRADICTED = STATUS_STYLES[ClaimStatus.CONTRADICTED.value]


def _supported_claim(report: Report) -> int:
    return next(i for i, r in enumerate(report.claims) if r.verdict.status is ClaimStatus.SUPPORTED)


def _answer_html(at: AppTest) -> str:
    return next(h.value for h in at.html if 'class="rrag-answer"' in h.value)


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _shows_the_correction(at: AppTest, before: Report, index: int, reviewer: str) -> None:
    """The page shows claim `index` as contradicted by `reviewer`, beside the verifier's verdict, and the
    scores of the answer as corrected."""
    claim_text = before.claims[index].claim.text
    answer = _answer_html(at)
    mark = answer[: answer.index(claim_text[:30])].rsplit("<mark", 1)[1]
    assert CONTRADICTED.background in mark and CONTRADICTED.label in mark  # the claim's highlight
    assert _metrics(at)["Hallucination rate"] != percent(before.hallucination_rate)
    assert claim_text not in next(h.value for h in at.html if "rrag-final" in h.value)
    text = _all_text(at)
    assert f"corrected by {reviewer} at " in text and "the verifier said ✔ Supported" in text


def test_a_correction_on_review_changes_what_the_page_shows(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    before = rag.report(session_id)
    index = _supported_claim(before)
    at = _page("review")
    at.text_input(key="review.reviewer").input("Dana Reviewer")
    at.radio(key=f"review.outcome.{session_id}").set_value("corrected")
    at.selectbox(key=f"review.claim.{session_id}.{index}").set_value("contradicted")
    _submit(at, "Record review")

    at.toggle(key="review.include_reviewed").set_value(True).run()  # corrected answers leave the queue
    at.selectbox(key="review.selected").set_value(session_id).run()
    assert not at.exception
    _shows_the_correction(at, before, index, "Dana Reviewer")
    # The form starts from the corrected status, so a second review sees what the first decided.
    assert at.selectbox(key=f"review.claim.{session_id}.{index}").value == "contradicted"


def test_history_shows_the_corrected_report(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    before = rag.report(session_id)
    index = _supported_claim(before)
    rag.store.add_review(
        session_id, reviewer="Eve", outcome="corrected", claim_overrides={index: ClaimStatus.CONTRADICTED}
    )
    at = _page("history")
    assert at.selectbox(key="history.selected").value == session_id
    _shows_the_correction(at, before, index, "Eve")
    assert "Corrected in review: 1 claim(s)" in _all_text(at)


def test_ask_shows_a_correction_made_after_the_answer(rag: ReliableRAG) -> None:
    at = _page("ask")
    at.text_area(key="ask.question").input(QUESTION)
    _submit(at, "Ask")
    before = at.session_state["ask.report"]
    assert before.decision is Decision.PASS
    index = _supported_claim(before)
    rag.store.add_review(
        before.session_id,
        reviewer="Finn",
        outcome="corrected",
        claim_overrides={index: ClaimStatus.CONTRADICTED},
    )
    at.run()
    _shows_the_correction(at, before, index, "Finn")


def test_after_record_review_the_page_stays_on_the_reviewed_answer(rag: ReliableRAG) -> None:
    first, second = _verify_planted(rag), _verify_planted(rag)
    at = _page("review")
    # The same question audited twice is one row of the queue, its newest session, asked 2 times.
    assert at.dataframe[0].value["Asked"].tolist() == ["2×"]
    reviewed = at.selectbox(key="review.selected").value
    assert reviewed in {first, second}
    at.text_input(key="review.reviewer").input("Gil")
    at.radio(key=f"review.outcome.{reviewed}").set_value("approved")
    _submit(at, "Record review")
    assert any("approved by Gil" in s.value for s in at.success)
    assert reviewed not in [s.session_id for s in rag.review_queue()]  # it left the queue ...
    assert at.get("radio") and at.radio(key=f"review.outcome.{reviewed}")  # ... and is still the one open
    assert "Gil" in _all_text(at)  # its audit trail, with the review just recorded
    _submit(at, "Open the next answer in the queue")
    assert at.selectbox(key="review.selected").value == ({first, second} - {reviewed}).pop()


def test_a_corrected_claim_loses_the_verifiers_failed_line(rag: ReliableRAG) -> None:
    session_id = _verify_planted(rag)
    before = rag.report(session_id)
    index = next(i for i, r in enumerate(before.claims) if r.verdict.status is ClaimStatus.CONTRADICTED)

    def failed_lines(at: AppTest) -> list[str]:
        return [m.value for m in at.markdown if m.value.startswith("**Failed:**")]

    at = _page("history")
    assert any("30" in line for line in failed_lines(at))  # the verifier's: 30 where the evidence says 25
    rag.store.add_review(
        session_id, reviewer="Hal", outcome="corrected", claim_overrides={index: ClaimStatus.PARTIAL}
    )
    at = _page("history")
    assert "corrected by Hal" in _all_text(at)
    assert not any("30" in line for line in failed_lines(at))
