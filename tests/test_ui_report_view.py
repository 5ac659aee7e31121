"""The report view on hand-built reports: which claims open with their evidence.

Built by hand rather than by the verifier, so no assertion rests on a model probability (the int8
model's scores differ slightly between CPUs; docs/verifier.md)."""

from __future__ import annotations

from dataclasses import replace

from streamlit.testing.v1 import AppTest
from ui_reports import sample_report

from rrag.types import ClaimStatus, Report
from ui.report_view import SURE


def _render(report: "Report") -> None:  # noqa: UP037 - runs as its own script, where Report is not in scope
    from ui.report_view import render_report

    render_report(report, key="test", exports=False)


def _with_narrow_support(report: Report) -> Report:
    """The sample report plus a claim supported with confidence well under SURE."""
    narrow = report.claims[2]  # supported at 0.99 by an exact quote
    thin = replace(narrow, verdict=replace(narrow.verdict, confidence=SURE - 0.2, verifier="nli"))
    return replace(report, claims=[*report.claims, thin])


def test_claims_open_with_their_evidence_unless_surely_supported() -> None:
    report = _with_narrow_support(sample_report())
    at = AppTest.from_function(_render, args=(report,), default_timeout=30).run()
    assert not at.exception, at.exception
    expanders = at.expander[: len(report.claims)]
    assert len(expanders) == len(report.claims)
    opened = [shown.proto.expanded for shown in expanders]
    statuses = [r.verdict.status for r in report.claims]
    # Settled claims (a greeting, a claim supported by an exact quote) stay closed; every other
    # claim, including the thinly supported one at the end, opens with its evidence.
    assert opened == [
        status not in (ClaimStatus.SUPPORTED, ClaimStatus.NOT_CHECKABLE) for status in statuses[:-1]
    ] + [True]
    assert statuses[2] is ClaimStatus.SUPPORTED and opened[2] is False


def test_a_report_names_the_llm_that_wrote_it_escaped() -> None:
    llm = {
        "server": "http://127.0.0.1:8080/v1",
        "model_requested": "smollm2",
        "models": ["*SmolLM2*-135M"],
        "output_modes": ["json_object"],
        "prompt_version": "9cc698ffc4c1",
        "calls": 3,
        "prompt_tokens": 2400,
        "completion_tokens": 310,
    }
    at = AppTest.from_function(_render, args=(replace(sample_report(), llm=llm),), default_timeout=30).run()
    [line] = [c.value for c in at.caption if c.value.startswith("LLM:")]
    assert line.startswith(
        "LLM: \\*SmolLM2\\*-135M at http\\://127.0.0.1\\:8080/v1 · output json\\_object · "
    )
    assert "3 call(s), 2,400 prompt + 310 reply tokens" in line
    at = AppTest.from_function(_render, args=(sample_report(),), default_timeout=30).run()
    assert not [c for c in at.caption if c.value.startswith("LLM:")]  # no LLM, no line
