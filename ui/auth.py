"""Sign-in with Streamlit's own OpenID Connect (`st.login` / `st.user` / `st.logout`) and the user's role.

Sign-in is on when `.streamlit/secrets.toml` has an `[auth]` section; without one the app is one
person's local app, with full rights. Roles come from the roles file (see `rrag.engine.access`).
"""

from __future__ import annotations

import streamlit as st

from rrag.engine.access import LOCAL_USER, Identity, RoleTable, sign_in_key, verified_email
from rrag.errors import RRAGError
from rrag.settings import Settings
from ui.highlight import md_escape


def sign_in_configured() -> bool:
    """Whether sign-in is on: an `[auth]` section in the secrets (the serving code may ask this too)."""
    try:
        return bool(st.secrets.get("auth"))
    except (FileNotFoundError, st.errors.StreamlitSecretNotFoundError):
        return False  # no secrets file at all


def current_identity() -> Identity | None:
    """Who uses this session: the local user without sign-in; None when nobody (allowed) is signed in,
    or the sign-in was ended (a copy of its cookie kept after signing out)."""
    if not sign_in_configured():
        return LOCAL_USER
    if not signed_in():
        return None
    return RoleTable.load(Settings.from_env().roles_file).identity_for(st.user.to_dict())


def signed_in() -> bool:
    """Whether a sign-in holds: the provider's, and not ended by its user since (checked server-side)."""
    if not st.user.is_logged_in:
        return False
    from ui.engine import get_engine  # ui.engine asks this module who is signed in

    return not get_engine().sign_in_ended(sign_in_key(st.user.to_dict()))


def _sign_out() -> None:
    # Streamlit only drops the browser's cookie; ending the sign-in here refuses any copy of it too.
    from ui.engine import get_engine

    get_engine().end_sign_in(sign_in_key(st.user.to_dict()))
    st.logout()


def _sign_in_page() -> None:
    st.title("Reliable RAG")
    st.markdown("Sign in to read answers, ask questions or review them, as your role allows.")
    st.button("Sign in", type="primary", icon=":material/login:", on_click=st.login)


def _refused_page() -> None:
    st.title("No access yet")
    claims = st.user.to_dict()
    who = md_escape(str(claims.get("email") or "This account"))
    if claims.get("email") and not verified_email(claims):
        why = (
            f"{who} is signed in, but the identity provider does not assert that this e-mail is verified, "
            "so no role is given for it. Ask an administrator to name your account's subject in the "
            "roles file, or to have the provider verify the e-mail."
        )
    else:
        why = (
            f"{who} is signed in but has no role in this app. Ask an administrator to add your e-mail "
            "or one of your groups to the roles file."
        )
    st.error(why, icon=":material/block:")
    st.button("Sign out", icon=":material/logout:", on_click=_sign_out)


def require_identity() -> Identity | None:
    """The session's identity, or None after showing the sign-in or the refusal page instead of the app."""
    try:
        identity = current_identity()
        if identity is not None:
            return identity
        page = _refused_page if signed_in() else _sign_in_page
    except RRAGError as exc:  # a broken roles file or storage refuses everyone, with the reason
        st.error(md_escape(str(exc)), icon=":material/error:")
        page = _refused_page if st.user.is_logged_in else _sign_in_page
    title = "Sign in" if page is _sign_in_page else "No access"
    st.navigation([st.Page(page, title=title)], position="hidden").run()
    return None


def render_account(identity: Identity) -> None:
    """Who is signed in, their role and the sign-out button, in the sidebar (nothing without sign-in)."""
    if not identity.signed_in:
        return
    with st.sidebar:
        st.caption(f"Signed in as **{md_escape(identity.email or '')}** · {identity.role.value}")
        st.button("Sign out", icon=":material/logout:", on_click=_sign_out, key="auth.sign_out")
