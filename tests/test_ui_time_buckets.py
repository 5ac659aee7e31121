"""Insights time charts: a bucket that suits the data, named, and a word when the data are too few."""

from __future__ import annotations

import pandas as pd
import pytest

from ui.charts import hallucination_over_time, rates_over_time, time_bucket


def _sessions(times: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "created_at": pd.to_datetime(times, utc=True),
            "hallucination_rate": [0.5 * (i % 2) for i in range(len(times))],
            "decision": ["refuse" if i % 3 == 0 else "pass" for i in range(len(times))],
            "citation_mismatches": [0] * len(times),
            "source_conflicts": [0] * len(times),
        }
    )


FRESH_DEMO = [f"2026-11-24 05:{m:02d}:10" for m in (1, 1, 2, 4, 7)]  # minutes after `make run`
MONTHS = ["2026-08-01 09:00", "2026-09-14 12:00", "2026-10-02 08:00", "2026-11-20 17:00"]


@pytest.mark.parametrize(
    ("times", "bucket"),
    [(FRESH_DEMO, "minute"), (["2026-11-20 09:00", "2026-11-21 15:00"], "hour"), (MONTHS, "day")],
)
def test_the_bucket_follows_the_span_of_the_data(times: list[str], bucket: str) -> None:
    assert time_bucket(_sessions(times)["created_at"]).name == bucket


def test_a_fresh_demo_is_plotted_per_minute_and_says_which() -> None:
    for figure in (hallucination_over_time(_sessions(FRESH_DEMO)), rates_over_time(_sessions(FRESH_DEMO))):
        assert list(figure.data[0].x) == ["05:01", "05:02", "05:04", "05:07"]
        assert figure.layout.title.subtitle.text == "per minute (UTC)"
        assert not figure.layout.annotations  # four points: a trend to read


def test_too_little_data_is_said_not_drawn_as_a_trend() -> None:
    figure = hallucination_over_time(_sessions(["2026-11-24 05:01:00", "2026-11-24 05:01:40"]))
    (note,) = figure.layout.annotations
    assert note.text == "Too little data for a trend: 2 session(s) in 1 minute(s)"


def test_times_saved_with_and_without_microseconds_read_together() -> None:
    # isoformat() drops ".000000" when a session is saved on a whole second; pandas must not guess
    # one format from the first row (the Insights page failed so on a fresh demo).
    times = pd.Series(["2026-11-24T19:52:53.123456+00:00", "2026-11-24T19:52:53+00:00"])
    assert time_bucket(times).name == "minute"
