"""Every export of a reviewed report, read from a real SQLite store, says what the reviewer decided."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from ui_reports import sample_report

from rrag.audit.corrections import reviewed_report
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import ClaimStatus, Report
from ui.export import report_html, report_json, report_markdown
from ui.status import STATUS_STYLES

CONTRADICTED = STATUS_STYLES[ClaimStatus.CONTRADICTED.value]
REVIEWER = "Ann <b>Lee</b>"  # a name typed by a person: untrusted like any other text


@pytest.fixture
def reviewed(settings: Settings) -> Iterator[Report]:
    """The sample report with its one supported claim (number 3) corrected to contradicted."""
    with Store(settings) as store:
        store.save_report(sample_report())
        store.add_review(
            "0123456789abcdef",
            reviewer=REVIEWER,
            outcome="corrected",
            note="the policy changed in 2026",
            claim_overrides={2: ClaimStatus.CONTRADICTED},
        )
        yield reviewed_report(store, "0123456789abcdef")


def test_json_export_carries_the_correction_and_the_verifiers_verdict(reviewed: Report) -> None:
    data = json.loads(report_json(reviewed))
    claim = data["claims"][2]
    assert (claim["status"], claim["verifier"]) == ("contradicted", "reviewer")
    assert claim["correction"]["reviewer"] == REVIEWER
    assert claim["correction"]["note"] == "the policy changed in 2026"
    assert claim["correction"]["original"] | {"evidence": None} == {
        "status": "supported",
        "confidence": 0.99,
        "verifier": "quote",
        "reason": "exact quote",
        "verified": True,
        "support_score": None,
        "evidence": None,
        "clash": None,
    }
    # Nothing is supported any more: the answer is withheld, as scoring decides.
    assert (data["decision"], data["level"], data["hallucination_rate"]) == ("refuse", "LOW", 0.75)
    assert data["final_answer"] != "Leave must be approved by a manager."
    assert Report.from_dict(data).to_dict() == data


def test_html_export_shows_the_corrected_status_colour_and_the_original(reviewed: Report) -> None:
    page = report_html(reviewed)
    section = page.split('<section class="claim"')[3].split("</section>")[0]  # claim 3
    assert CONTRADICTED.colour in section and CONTRADICTED.label in section
    assert "corrected by Ann &lt;b&gt;Lee&lt;/b&gt; at " in section and "<b>Lee</b>" not in page
    assert "the verifier said ✔ Supported (0.99, quote): exact quote" in section
    mark = page[: page.index("Leave must be approved by a manager.</mark>")].rsplit("<mark", 1)[1]
    assert CONTRADICTED.background in mark  # the highlight in the audited answer
    assert "Refused" in page and "hallucination rate <strong>75%</strong>" in page
    assert "As first audited: trim, level MEDIUM, reliability 0.38" in page


def test_markdown_export_shows_the_corrected_status_and_the_original(reviewed: Report) -> None:
    md = report_markdown(reviewed)
    row = next(line for line in md.splitlines() if line.startswith("| 3 |"))
    assert "✖ Contradicted, corrected by Ann \\<b\\>Lee\\</b\\> at " in row
    assert "the verifier said ✔ Supported (0.99, quote): exact quote" in row and row.count(" | ") == 5
    assert "⊘ Refused" in md and "hallucination rate 75%" in md
    assert "As first audited: trim, level MEDIUM" in md
