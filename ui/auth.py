"""Sign-in with Streamlit's own OpenID Connect (`st.login` / `st.user` / `st.logout`) and the user's role.

Sign-in is on when `.streamlit/secrets.toml` has an `[auth]` section; without one the app is one
person's local app, with full rights. Roles come from the roles file (see `rrag.engine.access`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from rrag.engine.access import LOCAL_USER, Identity, RoleTable
from rrag.errors import ConfigError
from rrag.settings import Settings
from ui.highlight import md_escape


def sign_in_configured() -> bool:
    """Whether sign-in is on: an `[auth]` section in the secrets (the serving code may ask this too)."""
    try:
        return bool(st.secrets.get("auth"))
    except (FileNotFoundError, st.errors.StreamlitSecretNotFoundError):
        return False  # no secrets file at all


def identity_for(user: Mapping[str, Any], table: RoleTable) -> Identity | None:
    """The identity of a signed-in user from `st.user`'s claims, or None when no role is assigned."""
    role = table.role_for(user)
    email = str(user.get("email") or "").strip().lower()
    if role is None or not email or user.get("email_verified") is False:
        return None  # the audit trail names users by e-mail: one missing or unverified cannot be used
    return Identity(email=email, role=role)


def current_identity() -> Identity | None:
    """Who uses this session: the local user without sign-in; None when nobody (allowed) is signed in."""
    if not sign_in_configured():
        return LOCAL_USER
    if not st.user.is_logged_in:
        return None
    return identity_for(st.user.to_dict(), RoleTable.load(Settings.from_env().roles_file))


def _sign_in_page() -> None:
    st.title("Reliable RAG")
    st.markdown("Sign in to read answers, ask questions or review them, as your role allows.")
    st.button("Sign in", type="primary", icon=":material/login:", on_click=st.login)


def _refused_page() -> None:
    st.title("No access yet")
    who = md_escape(str(st.user.get("email") or "This account"))
    st.error(
        f"{who} is signed in but has no role in this app. Ask an administrator to add your e-mail or "
        "one of your groups to the roles file.",
        icon=":material/block:",
    )
    st.button("Sign out", icon=":material/logout:", on_click=st.logout)


def require_identity() -> Identity | None:
    """The session's identity, or None after showing the sign-in or the refusal page instead of the app."""
    try:
        identity = current_identity()
    except ConfigError as exc:  # a broken roles file refuses everyone, with the reason
        st.error(md_escape(str(exc)), icon=":material/error:")
        identity = None
    if identity is not None:
        return identity
    page = _sign_in_page if not st.user.is_logged_in else _refused_page
    title = "Sign in" if page is _sign_in_page else "No access"
    st.navigation([st.Page(page, title=title)], position="hidden").run()
    return None


def render_account(identity: Identity) -> None:
    """Who is signed in, their role and the sign-out button, in the sidebar (nothing without sign-in)."""
    if not identity.signed_in:
        return
    with st.sidebar:
        st.caption(f"Signed in as **{md_escape(identity.email or '')}** · {identity.role.value}")
        st.button("Sign out", icon=":material/logout:", on_click=st.logout, key="auth.sign_out")
