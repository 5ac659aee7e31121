"""Plotly figures for one report (gauge, status counts) and for the saved sessions (Insights).

Inputs are frames of the engine's analytics records (`sessions_frame`, `claims_frame` below). Text from
questions and documents
goes into labels escaped: Plotly reads a subset of HTML in labels, and user text must stay text.
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from rrag.store import CLAIM_COLUMNS, SessionSummary
from rrag.types import HALLUCINATED, ClaimStatus
from ui.status import LEVEL_STYLES, STATUS_ORDER, badge_text, status_style

REVIEWED = ("approved", "corrected", "escalated")
_HALLUCINATED = tuple(s.value for s in HALLUCINATED)
_LAYOUT = dict(margin=dict(l=10, r=10, t=50, b=10), height=320, font=dict(size=13))
_DARK = "#1f2937"


def sessions_frame(records: Iterable[SessionSummary]) -> pd.DataFrame:
    """One row per session with the columns of SessionSummary, oldest first; `created_at` as UTC times."""
    frame = pd.DataFrame([asdict(r) for r in records], columns=[f.name for f in fields(SessionSummary)])
    return _in_time_order(frame, ["created_at", "session_id"])


def claims_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per claim (the store's CLAIM_COLUMNS), oldest session first."""
    return _in_time_order(
        pd.DataFrame(list(records), columns=CLAIM_COLUMNS), ["created_at", "session_id", "claim_index"]
    )


def _in_time_order(frame: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    # ISO8601: a session saved on a whole second has no fraction, and pandas must not guess one format.
    frame["created_at"] = pd.to_datetime(frame["created_at"], utc=True, format="ISO8601")
    return frame.sort_values(order, ignore_index=True)


def _label(text: str, limit: int = 70, width: int = 32) -> str:
    """Escaped, shortened to `limit` and wrapped at `width` characters (Plotly breaks lines on <br>)."""
    text = " ".join(str(text).split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return "<br>".join(html.escape(line) for line in textwrap.wrap(text, width))


def _empty(title: str, message: str) -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, font=dict(size=14, color="#6b7280"))
    fig.update_layout(title=title, xaxis=dict(visible=False), yaxis=dict(visible=False), **_LAYOUT)
    return fig


def reliability_gauge(reliability: float | None) -> go.Figure:
    """0..1 gauge with the LOW / MEDIUM / HIGH bands (0.65 and 0.85) behind the needle."""
    title = "Reliability"
    if reliability is None:
        return _empty(title, "n/a: nothing checkable was verified")
    bands = [(0.0, 0.65, "LOW"), (0.65, 0.85, "MEDIUM"), (0.85, 1.0, "HIGH")]
    fig = go.Figure(
        go.Indicator(
            mode="gauge+number",
            value=reliability,
            number=dict(valueformat=".2f"),
            gauge=dict(
                axis=dict(range=[0, 1], tickvals=[0, 0.65, 0.85, 1]),
                bar=dict(color=_DARK, thickness=0.3),
                steps=[dict(range=[lo, hi], color=LEVEL_STYLES[name].background) for lo, hi, name in bands],
            ),
            title=dict(text=title),
        )
    )
    fig.update_layout(**{**_LAYOUT, "height": 260, "margin": dict(l=25, r=25, t=60, b=10)})
    return fig


def status_counts_chart(status_counts: Mapping[str, int], title: str = "Claims by status") -> go.Figure:
    statuses = [s for s in STATUS_ORDER if status_counts.get(s, 0)]
    if not statuses:
        return _empty(title, "No claims")
    counts = [status_counts[s] for s in statuses]
    fig = go.Figure(
        go.Bar(
            x=counts,
            y=[badge_text(status_style(s)) for s in statuses],
            orientation="h",
            marker_color=[status_style(s).colour for s in statuses],
            text=counts,
            textposition="auto",
        )
    )
    fig.update_layout(title=title, yaxis=dict(autorange="reversed"), xaxis=dict(title="claims"), **_LAYOUT)
    return fig


@dataclass(frozen=True)
class Bucket:
    """A period to group sessions by: pandas frequency, its name, how a period is labelled."""

    freq: str
    name: str
    label: str  # strftime format
    up_to: pd.Timedelta  # the longest span of data it is used for


# A fresh demo spans minutes, a week of use hours, months of use days.
BUCKETS = (
    Bucket("min", "minute", "%H:%M", pd.Timedelta(hours=3)),
    Bucket("h", "hour", "%d %b %H:00", pd.Timedelta(days=3)),
    Bucket("D", "day", "%d %b %Y", pd.Timedelta.max),
)
MIN_PERIODS = 3  # fewer points than this are not a trend


def time_bucket(created_at: pd.Series) -> Bucket:
    """The finest bucket for the span of `created_at`."""
    times = pd.to_datetime(created_at, utc=True, format="ISO8601")
    span = times.max() - times.min()
    return next(b for b in BUCKETS if span <= b.up_to)


def _periods(created_at: pd.Series) -> tuple[pd.Series, Bucket]:
    """Each session's period, in the bucket that suits the span of the data."""
    bucket = time_bucket(created_at)
    return pd.to_datetime(created_at, utc=True, format="ISO8601").dt.floor(bucket.freq), bucket


def _period_labels(index: pd.Index, bucket: Bucket) -> list[str]:
    # Category labels, not a date axis: a date axis with one or two points shows sub-millisecond ticks.
    return [moment.strftime(bucket.label) for moment in index]


def _time_layout(fig: go.Figure, title: str, periods: int, sessions: int, bucket: Bucket) -> None:
    """Name the bucket, and say so when the points are too few to read a trend from."""
    # The subtitle is a second line under the title: the top margin makes room for both above the plot.
    fig.update_layout(
        title=dict(text=title, subtitle=dict(text=f"per {bucket.name} (UTC)")),
        margin=dict(l=10, r=10, t=80, b=10),
    )
    fig.update_xaxes(title=bucket.name)
    if periods < MIN_PERIODS:
        fig.add_annotation(
            text=f"Too little data for a trend: {sessions} session(s) in {periods} {bucket.name}(s)",
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.95,
            showarrow=False,
            font=dict(size=13, color="#6b7280"),
        )


def hallucination_over_time(sessions: pd.DataFrame) -> go.Figure:
    title = "Hallucination rate over time"
    scored = sessions.dropna(subset=["hallucination_rate"]) if not sessions.empty else sessions
    if scored.empty:
        return _empty(title, "No scored sessions yet")
    periods, bucket = _periods(scored["created_at"])
    per_period = scored.groupby(periods)["hallucination_rate"].agg(["mean", "size"])
    fig = go.Figure(
        go.Scatter(
            x=_period_labels(per_period.index, bucket),
            y=per_period["mean"],
            mode="lines+markers",
            line=dict(color=status_style(ClaimStatus.CONTRADICTED.value).colour),
            customdata=per_period["size"],
            hovertemplate="%{x}<br>mean rate %{y:.0%}<br>%{customdata} sessions<extra></extra>",
        )
    )
    fig.update_layout(yaxis=dict(range=[0, 1], title="mean rate", tickformat=".0%"), **_LAYOUT)
    _time_layout(fig, title, len(per_period), len(scored), bucket)
    return fig


def rates_over_time(sessions: pd.DataFrame) -> go.Figure:
    """Share of sessions refused, with a citation mismatch, and whose sources disagree, per period."""
    title = "Refusals, citation mismatches, disagreeing sources"
    if sessions.empty:
        return _empty(title, "No sessions yet")
    frame = pd.DataFrame(
        {
            "refused": sessions["decision"].eq("refuse").astype(float),
            "mismatch": sessions["citation_mismatches"].fillna(0).gt(0).astype(float),
            "conflict": sessions["source_conflicts"].fillna(0).gt(0).astype(float),
        }
    )
    periods, bucket = _periods(sessions["created_at"])
    per_period = frame.groupby(periods).mean()
    fig = go.Figure()
    x = _period_labels(per_period.index, bucket)
    lines = (
        ("refused", "⊘ refused", dict(color="#b91c1c")),
        ("mismatch", "≠ citation mismatch", dict(color="#7c3aed", dash="dash")),
        ("conflict", "⇄ sources disagree", dict(color="#b45309", dash="dot")),
    )
    for column, name, line in lines:
        fig.add_trace(
            go.Scatter(
                x=x,
                y=per_period[column],
                name=name,
                mode="lines+markers",
                line=line,
                hovertemplate="%{x}<br>%{y:.0%}<extra>%{fullData.name}</extra>",
            )
        )
    fig.update_layout(
        yaxis=dict(range=[0, 1], title="share of sessions", tickformat=".0%"),
        legend=dict(orientation="h", y=-0.35),
        **_LAYOUT,
    )
    _time_layout(fig, title, len(per_period), len(sessions), bucket)
    return fig


def status_distribution(claims: pd.DataFrame) -> go.Figure:
    """All saved claims by their effective status (after reviewer overrides)."""
    counts = claims["effective_status"].value_counts().to_dict() if not claims.empty else {}
    return status_counts_chart(counts, title="Status of all claims (after review)")


def agreement(claims: pd.DataFrame, sessions: pd.DataFrame) -> tuple[go.Figure, float | None]:
    """Verifier status vs reviewer status on reviewed sessions, and the share they agree on."""
    title = "Verifier vs reviewer"
    reviewed_ids = (
        set(sessions.loc[sessions["review_status"].isin(REVIEWED), "session_id"])
        if not sessions.empty
        else set()
    )
    reviewed = claims[claims["session_id"].isin(reviewed_ids)] if not claims.empty else claims
    if reviewed.empty:
        return _empty(title, "No reviewed sessions yet"), None
    table = pd.crosstab(reviewed["status"], reviewed["effective_status"])
    rows = [s for s in STATUS_ORDER if s in table.index]
    cols = [s for s in STATUS_ORDER if s in table.columns]
    table = table.loc[rows, cols]
    fig = go.Figure(
        go.Heatmap(
            z=table.values,
            x=[badge_text(status_style(s)) for s in cols],
            y=[badge_text(status_style(s)) for s in rows],
            text=table.values,
            texttemplate="%{text}",
            colorscale="Blues",
            showscale=False,
            hovertemplate="verifier %{y}<br>reviewer %{x}<br>%{z} claims<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis=dict(title="reviewer"),
        yaxis=dict(title="verifier", autorange="reversed"),
        **_LAYOUT,
    )
    share = float((reviewed["status"] == reviewed["effective_status"]).mean())
    return fig, share


def knowledge_gaps(claims: pd.DataFrame, by: str, top: int = 10) -> go.Figure:
    """Where unsupported and contradicted claims cluster: by `question` or by document `source`."""
    title = (
        "Questions with the most unsupported claims"
        if by == "question"
        else "Documents nearest to unsupported claims"
    )
    gaps = claims[claims["effective_status"].isin(_HALLUCINATED)] if not claims.empty else claims
    if gaps.empty:
        return _empty(title, "No unsupported or contradicted claims")
    keys = gaps[by].fillna("").replace("", "(no close passage)")
    counts = keys.value_counts().head(top)
    fig = go.Figure(
        go.Bar(
            x=counts.values,
            y=[_label(k) for k in counts.index],
            orientation="h",
            marker_color=status_style(ClaimStatus.UNSUPPORTED.value).colour,
            text=counts.values,
            textposition="auto",
            hovertemplate="%{y}<br>%{x} claims<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        yaxis=dict(autorange="reversed"),
        xaxis=dict(title="unsupported or contradicted claims"),
        **{**_LAYOUT, "height": max(260, 60 + 48 * len(counts))},
    )
    return fig
