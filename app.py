"""Reliable RAG dashboard: routing only. Each page lives in pages/ and talks to the engine via ui/."""

import streamlit as st

st.set_page_config(page_title="Reliable RAG", page_icon=":material/fact_check:", layout="wide")

st.navigation(
    {
        "Answers": [
            st.Page("pages/ask.py", title="Ask", icon=":material/chat:", default=True),
            st.Page("pages/documents.py", title="Documents", icon=":material/description:"),
        ],
        "Oversight": [
            st.Page("pages/review.py", title="Review", icon=":material/rule:"),
            st.Page("pages/history.py", title="History", icon=":material/history:"),
            st.Page("pages/insights.py", title="Insights", icon=":material/monitoring:"),
        ],
        "Configuration": [st.Page("pages/settings.py", title="Settings", icon=":material/settings:")],
    }
).run()
