"""Plotly figures, built from the frames of a real temp-dir store holding hand-built reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pandas as pd
import pytest
from ui_reports import sample_report

from rrag.audit.corrections import reviewed_records
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import ClaimStatus, Decision
from ui.charts import (
    agreement,
    claims_frame,
    hallucination_over_time,
    knowledge_gaps,
    rates_over_time,
    reliability_gauge,
    sessions_frame,
    status_counts_chart,
    status_distribution,
)
from ui.status import STATUS_STYLES


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    settings.data_dir.mkdir(parents=True)
    with Store(settings) as store:
        yield store


def _fill(store: Store) -> None:
    store.save_report(
        sample_report(
            session_id="a" * 16,
            created_at="2026-11-01T09:00:00+00:00",
            claims=[
                replace(c, conflict="sources disagree: 25 days (a.md) vs 30 days (b.md)")
                if c.claim.checkable
                else c
                for c in sample_report().claims
            ],
        )
    )
    store.save_report(
        sample_report(
            session_id="b" * 16,
            created_at="2026-11-01T15:00:00+00:00",
            hallucination_rate=0.0,
            decision=Decision.REFUSE,
            citation_mismatches=2,
        )
    )
    store.save_report(
        sample_report(
            session_id="c" * 16,
            created_at="2026-11-05T12:00:00+00:00",
            question="Is there a <b>gym</b>?",
            hallucination_rate=1.0,
        )
    )


def test_gauge_shows_the_value_and_the_level_bands() -> None:
    fig = reliability_gauge(0.72)
    indicator = fig.data[0]
    assert indicator.value == 0.72
    assert [tuple(step.range) for step in indicator.gauge.steps] == [(0, 0.65), (0.65, 0.85), (0.85, 1)]
    empty = reliability_gauge(None)
    assert not empty.data and "n/a" in empty.layout.annotations[0].text


def test_status_counts_in_severity_order_with_status_colours_and_labels() -> None:
    fig = status_counts_chart({"supported": 3, "contradicted": 1, "partial": 0, "not_checkable": 2})
    bar = fig.data[0]
    assert list(bar.y) == ["✖ Contradicted", "✔ Supported", "○ Not checkable"]
    assert list(bar.x) == [1, 3, 2]
    assert list(bar.marker.color) == [
        STATUS_STYLES[s].colour for s in ("contradicted", "supported", "not_checkable")
    ]
    assert status_counts_chart({}).layout.annotations[0].text == "No claims"


def test_hallucination_rate_is_averaged_per_day(store: Store) -> None:
    _fill(store)
    fig = hallucination_over_time(sessions_frame(reviewed_records(store)))
    line = fig.data[0]
    assert list(line.y) == [0.25, 1.0]  # 1 Nov: (0.5 + 0.0) / 2; 5 Nov: 1.0
    assert list(line.customdata) == [2, 1]


def test_refusal_and_mismatch_rates(store: Store) -> None:
    _fill(store)
    refused, mismatch, conflict = rates_over_time(sessions_frame(reviewed_records(store))).data
    assert list(refused.y) == [0.5, 0.0] and list(mismatch.y) == [0.5, 0.0]
    assert list(conflict.y) == [0.5, 0.0] and conflict.name == "⇄ sources disagree"  # session a


def test_status_distribution_uses_reviewer_overrides(store: Store) -> None:
    _fill(store)
    bar = status_distribution(claims_frame(store.claim_records())).data[0]
    before = dict(zip(bar.y, bar.x, strict=True))
    assert before["✖ Contradicted"] == 3
    store.add_review(
        "a" * 16, reviewer="Ann", outcome="corrected", claim_overrides={1: ClaimStatus.SUPPORTED}
    )
    bar = status_distribution(claims_frame(store.claim_records())).data[0]
    after = dict(zip(bar.y, bar.x, strict=True))
    assert after["✖ Contradicted"] == 2 and after["✔ Supported"] == 4


def test_agreement_between_verifier_and_reviewer(store: Store) -> None:
    _fill(store)
    fig, share = agreement(claims_frame(store.claim_records()), sessions_frame(reviewed_records(store)))
    assert share is None and "No reviewed" in fig.layout.annotations[0].text
    store.add_review(
        "a" * 16, reviewer="Ann", outcome="corrected", claim_overrides={1: ClaimStatus.SUPPORTED}
    )
    fig, share = agreement(claims_frame(store.claim_records()), sessions_frame(reviewed_records(store)))
    assert share == pytest.approx(4 / 5)  # one of the reviewed session's five claims changed
    heat = fig.data[0]
    cell = heat.z[list(heat.y).index("✖ Contradicted")][list(heat.x).index("✔ Supported")]
    assert cell == 1


def test_knowledge_gaps_by_question_and_document_escape_labels(store: Store) -> None:
    _fill(store)
    claims = claims_frame(store.claim_records())
    by_question = knowledge_gaps(claims, "question").data[0]
    assert "Is there a &lt;b&gt;gym&lt;/b&gt;?" in list(by_question.y)
    assert sum(by_question.x) == 6  # 2 unsupported-or-contradicted claims in each of 3 sessions
    by_source = knowledge_gaps(claims, "source").data[0]
    assert dict(zip(by_source.y, by_source.x, strict=True)) == {
        "(no close passage)": 3,
        "handbook &lt;b&gt;.md": 3,
    }


def test_empty_store_gives_empty_figures_not_errors(store: Store) -> None:
    sessions, claims = sessions_frame(reviewed_records(store)), claims_frame(store.claim_records())
    assert isinstance(sessions, pd.DataFrame) and sessions.empty
    for fig in (
        hallucination_over_time(sessions),
        rates_over_time(sessions),
        status_distribution(claims),
        knowledge_gaps(claims, "question"),
        agreement(claims, sessions)[0],
    ):
        assert not fig.data and fig.layout.annotations
