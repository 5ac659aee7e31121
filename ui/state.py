"""Session state namespaced per page ("ask.report", "review.selected"), initialised once per session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from rrag.store import SessionSummary
from ui.tables import session_label

_KEPT = "_kept_widget_keys"


class PageState:
    """Typed-ish access to one page's keys; widget keys come from `key()` so they share the namespace.

    `kept` names widgets whose values outlive a visit to another page (see `keep_widget_values`)."""

    def __init__(self, page: str, *, kept: Sequence[str] = (), **defaults: Any) -> None:
        self.page = page
        for name, value in defaults.items():
            st.session_state.setdefault(self.key(name), value)
        st.session_state.setdefault(_KEPT, set()).update(self.key(name) for name in kept)

    def key(self, name: str) -> str:
        return f"{self.page}.{name}"

    def __getitem__(self, name: str) -> Any:
        return st.session_state[self.key(name)]

    def __setitem__(self, name: str, value: Any) -> None:
        st.session_state[self.key(name)] = value

    def get(self, name: str, default: Any = None) -> Any:
        return st.session_state.get(self.key(name), default)


def pick_session(label: str, state: PageState, listed: Sequence[SessionSummary]) -> str:
    """A picker over `listed` that keeps the page's choice while that session is still listed."""
    by_id = {s.session_id: s for s in listed}
    if state["selected"] not in by_id:
        state["selected"] = listed[0].session_id
    return st.selectbox(
        label, list(by_id), key=state.key("selected"), format_func=lambda i: session_label(by_id[i])
    )


def keep_widget_values() -> None:
    """Streamlit deletes the value of a widget that a run does not draw, so leaving a page would reset
    its choices. A value assigned during the run is the app's, not the widget's, and stays. Called on
    every run, before the page."""
    for key in st.session_state.get(_KEPT, ()):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]
