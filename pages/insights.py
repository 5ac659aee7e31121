"""Insights: how reliable the answers have been, and where the documents leave questions unanswered."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.charts import (
    agreement,
    hallucination_over_time,
    knowledge_gaps,
    rates_over_time,
    status_distribution,
)
from ui.engine import engine_errors, insight_frames
from ui.navigation import require_app
from ui.tables import NOT_MEASURED, unanswered_questions

require_app()


def _share(flags: pd.Series) -> str:
    return "n/a" if flags.empty else f"{flags.mean():.0%}"


def _render_metrics(sessions_df: pd.DataFrame, claims_df: pd.DataFrame, agreed: float | None) -> None:
    # Two rows of four: seven in one row cut their labels at 1,440 px ("Reviewer agree...").
    cols = [*st.columns(4), *st.columns(4)]
    cols[0].metric("Sessions", len(sessions_df))
    cols[1].metric("Claims", len(claims_df))
    rates = sessions_df["hallucination_rate"].dropna()
    cols[2].metric("Mean hallucination rate", "n/a" if rates.empty else f"{rates.mean():.0%}")
    refused = sessions_df["decision"].eq("refuse")
    cols[3].metric(
        "Refused", _share(refused), help=f"{int(refused.sum())} refused question(s); they are listed below."
    )
    cols[4].metric("With citation mismatch", _share(sessions_df["citation_mismatches"].gt(0)))
    cols[5].metric(
        "Sources disagree",
        _share(sessions_df["source_conflicts"].gt(0)),
        help="Share of sessions where retrieved documents gave different values for what a claim states.",
    )
    cols[6].metric(
        "Reviewer agreement",
        "n/a" if agreed is None else f"{agreed:.0%}",
        help="Share of claims in reviewed sessions whose status the reviewer kept.",
    )


def _render_charts(sessions_df: pd.DataFrame, claims_df: pd.DataFrame) -> float | None:
    agreement_fig, agreed = agreement(claims_df, sessions_df)
    rows = [
        (hallucination_over_time(sessions_df), rates_over_time(sessions_df)),
        (status_distribution(claims_df), agreement_fig),
    ]
    for number, (left, right) in enumerate(rows):
        a, b = st.columns(2)
        a.plotly_chart(left, key=f"insights.row{number}.left", width="stretch")
        b.plotly_chart(right, key=f"insights.row{number}.right", width="stretch")
    st.subheader("Knowledge gaps")
    st.caption(
        "Where unsupported and contradicted claims cluster: questions the documents do not answer, and "
        "the documents closest to what was claimed. Candidates for new or clearer documents."
    )
    a, b = st.columns(2)
    a.plotly_chart(knowledge_gaps(claims_df, "question"), key="insights.gaps.question", width="stretch")
    b.plotly_chart(knowledge_gaps(claims_df, "source"), key="insights.gaps.source", width="stretch")
    st.markdown("**Questions refused: the documents had no answer for them**")
    unanswered = unanswered_questions(sessions_df)
    if unanswered.empty:
        st.caption("None: every question asked was answered.")
    else:
        st.dataframe(unanswered, hide_index=True, placeholder=NOT_MEASURED, width="stretch")
    return agreed


def main() -> None:
    st.title("Insights")
    st.caption("From all saved sessions; statuses count reviewers' corrections.")
    with engine_errors("Loading the saved sessions"):
        sessions_df, claims_df = insight_frames()
        if sessions_df.empty:
            st.info("No saved sessions yet: ask a question or audit an answer first.")
            return
        metrics = st.container()
        agreed = _render_charts(sessions_df, claims_df)
        with metrics:
            _render_metrics(sessions_df, claims_df, agreed)


main()
