"""The app's pages and menu in one place: app.py runs them, and a page opened on its own hands over to it."""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from rrag.errors import ConfigError
from rrag.settings import Settings
from ui.auth import render_account, require_identity, sign_in_configured
from ui.network import BANNER, open_to_network
from ui.state import keep_widget_values

# A local file: a ":material/...:" page icon makes the browser fetch the favicon from Google's font
# servers, which an offline machine cannot reach.
FAVICON = Path(__file__).parent / "assets" / "favicon.png"
_run = threading.local()  # each session's script runs on its own thread, one run at a time


def _pages() -> dict[str, list[st.Page]]:
    return {
        "Answers": [
            st.Page("pages/ask.py", title="Ask", icon=":material/chat:", default=True),
            st.Page("pages/documents.py", title="Documents", icon=":material/description:"),
        ],
        "Oversight": [
            st.Page("pages/review.py", title="Review", icon=":material/rule:"),
            st.Page("pages/history.py", title="History", icon=":material/history:"),
            st.Page("pages/insights.py", title="Insights", icon=":material/monitoring:"),
            st.Page("pages/evaluate.py", title="Evaluate", icon=":material/fact_check:"),
        ],
        "Configuration": [st.Page("pages/settings.py", title="Settings", icon=":material/settings:")],
    }


def run_app() -> None:
    """Set up the window, show the menu and run the page the URL names."""
    st.set_page_config(page_title="Reliable RAG", page_icon=str(FAVICON), layout="wide")
    identity = require_identity()
    if identity is None:
        return  # the sign-in or the refusal page was shown instead
    page = st.navigation(_pages())
    _network_banner()
    render_account(identity)
    keep_widget_values()
    _run.in_app = True
    try:
        page.run()
    finally:
        _run.in_app = False


def _network_banner() -> None:
    try:
        allow = Settings.from_env().allow_anonymous_network
    except ConfigError:
        return  # the engine's own error says what is wrong with the settings
    if open_to_network(
        st.get_option("server.address"), allow_anonymous=allow, signed_in=sign_in_configured()
    ):
        st.warning(BANNER, icon=":material/public:")


def require_app() -> None:
    """Called first by every page. Streamlit sees the pages/ folder and, until a session declares its
    navigation, runs a requested page on its own, as an old-style multipage app: file names for a
    menu and app.py skipped (a bookmark that is a fresh server's first request). Then the page runs
    the app, which declares the navigation for good and runs the page inside it, in this same run so
    that the click that started it is not lost."""
    if not getattr(_run, "in_app", False):
        run_app()
        st.stop()
