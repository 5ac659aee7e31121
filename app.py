"""Reliable RAG dashboard: routing only. Each page lives in pages/ and talks to the engine via ui/."""

import streamlit as st

st.set_page_config(page_title="Reliable RAG", page_icon="🔎", layout="wide")

st.navigation(
    {
        "Answers": [
            st.Page("pages/ask.py", title="Ask", icon="💬", default=True),
            st.Page("pages/documents.py", title="Documents", icon="📄"),
        ],
        "Oversight": [
            st.Page("pages/review.py", title="Review", icon="🧑‍⚖️"),
            st.Page("pages/history.py", title="History", icon="🕘"),
            st.Page("pages/insights.py", title="Insights", icon="📊"),
        ],
        "Configuration": [st.Page("pages/settings.py", title="Settings", icon="⚙️")],
    }
).run()
