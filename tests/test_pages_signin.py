"""The app with sign-in configured, driven by AppTest: `at.secrets` holds an `[auth]` section and
`at.user` is the signed-in user as `st.user` gives it (AppTest's supported way to seed `st.user`).
Roles come from a real roles file; the engine is real (Chroma + SQLite under tmp)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from test_pages import _page as pages_page
from test_pages import _submit as _click

from rrag import ReliableRAG
from ui.engine import get_engine

APP = Path(__file__).resolve().parents[1] / "app.py"
TIMEOUT_S = 120
AUTH = {
    "auth": {
        "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
        "cookie_secret": "a-test-cookie-secret",
        "client_id": "rrag",
        "client_secret": "not-a-real-secret",
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
    }
}
ROLES = """groups_claim = "groups"
[users]
"vera@example.com" = "viewer"
"andy@example.com" = "analyst"
"rita@example.com" = "reviewer"
[groups]
"rag-admins" = "admin"
"""
LEAVE = b"Full-time employees receive 25 days of paid annual leave per calendar year.\n"
QUESTION = "How many days of annual leave do full-time employees get?"
ANSWER = "Full-time employees receive 30 days of paid annual leave per calendar year."


@pytest.fixture
def rag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReliableRAG]:
    roles = tmp_path / "roles.toml"
    roles.write_text(ROLES, encoding="utf-8")
    monkeypatch.setenv("RRAG_ROLES_FILE", str(roles))
    engine = get_engine()
    assert engine.ingest_bytes("leave.txt", LEAVE).ok
    yield engine
    st.cache_data.clear()
    st.cache_resource.clear()
    engine.close()


def _user(email: str, **claims: Any) -> dict[str, Any]:
    return {"is_logged_in": True, "email": email, "email_verified": True, **claims}


def _page(name: str, user: dict[str, Any]) -> AppTest:
    return pages_page(name, secrets=AUTH, user=user)


def _text(at: AppTest) -> str:
    kinds = ("title", "markdown", "caption", "error", "info", "warning", "success")
    return "\n".join(str(e.value) for kind in kinds for e in at.get(kind)).replace("\\", "").replace("**", "")


def test_a_visitor_who_has_not_signed_in_sees_only_the_sign_in_page(rag: ReliableRAG) -> None:
    # Each page file opened directly too, as a bookmark would: it hands over to the app, which asks first.
    for script in (APP, *(APP.parent / "pages" / f"{p}.py" for p in ("documents", "review", "settings"))):
        at = AppTest.from_file(str(script), default_timeout=TIMEOUT_S)
        at.secrets.update(AUTH)
        at.user = {"is_logged_in": False}
        at.run()
        page = script.name
        assert not at.exception, at.exception
        assert [b.label for b in at.button] == ["Sign in"], page
        assert "Ask your documents" not in _text(at) and "Review queue" not in _text(at)
        assert not at.text_area and not at.text_input


def test_a_signed_in_user_without_a_role_is_refused_and_can_sign_out(rag: ReliableRAG) -> None:
    at = _page("ask", _user("eve@example.com", groups=["staff"]))
    assert "No access yet" in _text(at) and "eve@example.com is signed in but has no role" in _text(at)
    assert "Ask your documents" not in _text(at)
    _click(at, "Sign out")
    assert [b.label for b in at.button] == ["Sign in"]


@pytest.mark.parametrize("verified", [{"email_verified": False}, {"email_verified": "false"}, {}])
def test_an_unverified_email_gets_no_access_even_with_a_group_role(
    rag: ReliableRAG, verified: dict[str, Any]
) -> None:
    # The reviewer of record is the e-mail: one the provider has not verified could be anybody's. A
    # string "false" (some providers send it) and no claim at all (some never send it) are not verified.
    for user in (_user("rita@example.com"), _user("new@example.com", groups=["rag-admins"])):
        del user["email_verified"]
        at = _page("ask", user | verified)
        assert "No access yet" in _text(at) and "Ask your documents" not in _text(at)
        assert "does not assert that this e-mail is verified" in _text(at)


def test_a_session_cookie_kept_after_sign_out_signs_nobody_in(rag: ReliableRAG) -> None:
    # Issue 46, item 2: Streamlit's sign-out drops the browser's cookie; a copy taken before still
    # carried the same signed claims. The sign-in is now ended on the server.
    rita = _user("rita@example.com", iss="http://127.0.0.1:9", sub="rita", iat=1764000000, nonce="n1")
    at = _page("review", rita)
    next(b for b in at.sidebar.button if b.label == "Sign out").click().run()
    copied = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)  # the same cookie, replayed
    copied.secrets.update(AUTH)
    copied.user = rita
    copied.run()
    assert [b.label for b in copied.button] == ["Sign in"] and "Review queue" not in _text(copied)
    again = _page("review", rita | {"iat": 1764000900, "nonce": "n2"})  # a new sign-in works
    assert "Signed in as **rita@example.com** · reviewer" in " ".join(c.value for c in again.sidebar.caption)


def test_a_broken_roles_file_refuses_everyone_and_says_why(rag: ReliableRAG, tmp_path: Path) -> None:
    (tmp_path / "roles.toml").write_text('[users]\n"rita@example.com" = "superuser"\n', encoding="utf-8")
    at = _page("ask", _user("rita@example.com"))
    assert "unknown role 'superuser'" in _text(at) and "No access yet" in _text(at)
    assert "Ask your documents" not in _text(at)


def test_the_sidebar_names_the_user_and_role(rag: ReliableRAG) -> None:
    at = _page("ask", _user("andy@example.com"))
    assert "Signed in as **andy@example.com** · analyst" in " ".join(c.value for c in at.sidebar.caption)
    assert any(b.label == "Sign out" for b in at.sidebar.button)


def test_a_viewer_is_offered_no_question_form(rag: ReliableRAG) -> None:
    # The engine refuses a viewer's question whatever a page does (test_access).
    at = _page("ask", _user("vera@example.com"))
    assert "Your role (viewer) can read answers in History but not ask questions." in _text(at)
    assert not at.text_area and not any(b.label == "Ask" for b in at.button)


def test_an_analyst_asks_but_cannot_record_a_review(rag: ReliableRAG) -> None:
    at = _page("ask", _user("andy@example.com"))
    at.text_area(key="ask.question").input(QUESTION)
    _click(at, "Ask")
    assert len(rag.sessions()) == 1
    rag.verify(QUESTION, ANSWER)  # a flagged answer for the queue
    at = _page("review", _user("andy@example.com"))
    assert "Your role (analyst) can read reviews but not record them." in _text(at)
    assert not any(b.label == "Record review" for b in at.button)


def test_a_reviewer_is_recorded_by_the_signed_in_email_with_no_name_to_type(rag: ReliableRAG) -> None:
    session_id = rag.verify(QUESTION, ANSWER).session_id
    at = _page("review", _user("rita@example.com"))
    assert not any(w.label == "Reviewer name" for w in at.text_input)
    assert "Reviewer: rita@example.com" in _text(at)
    at.radio(key=f"review.outcome.{session_id}").set_value("escalated")
    _click(at, "Record review")
    assert [r.reviewer for r in rag.reviews(session_id)] == ["rita@example.com"]


def _delete(doc_id: str, user: dict[str, Any]) -> AppTest:
    at = _page("documents", user)
    at.selectbox(key="documents.selected").set_value(doc_id).run()
    at.button(key="documents.delete").click().run()
    at.button(key="documents.confirm").click().run()
    assert not at.exception, at.exception
    return at


def test_only_an_admin_is_offered_delete_and_a_viewer_no_upload(rag: ReliableRAG) -> None:
    # The engine refuses the others whatever a page does (test_access); the page offers no button
    # a role cannot use.
    (doc,) = rag.documents()
    at = _page("documents", _user("rita@example.com"))
    assert not any(b.label == "Delete" for b in at.button) and any(b.label == "Re-index" for b in at.button)
    at = _page("documents", _user("vera@example.com"))
    assert "Your role (viewer) can read documents but not add them." in _text(at)
    assert not at.get("file_uploader") and not any(b.label in ("Delete", "Re-index") for b in at.button)
    _delete(doc.doc_id, _user("boss@example.com", groups=["rag-admins"]))
    assert rag.documents() == []


def test_a_viewer_is_offered_no_evaluation_run(rag: ReliableRAG) -> None:
    # Issue 46, item 8: the run controls and the uploader showed; the engine refused the run.
    at = _page("evaluate", _user("vera@example.com"))
    assert "Your role (viewer) can read evaluation runs but not start one." in _text(at)
    assert not at.get("file_uploader") and not at.text_input
    assert not any(b.label.startswith(("Run the", "Run the demo")) for b in at.button)
    at = _page("evaluate", _user("andy@example.com"))
    assert at.get("file_uploader") and any(b.label == "Run the question set" for b in at.button)


def test_only_an_admin_is_offered_the_settings_form(rag: ReliableRAG) -> None:
    at = _page("settings", _user("rita@example.com"))
    assert "Your role (reviewer) cannot change settings; ask an admin." in _text(at)
    assert not at.number_input and not any(b.label == "Save" for b in at.button)
    at = _page("settings", _user("boss@example.com", groups=["rag-admins"]))
    next(w for w in at.number_input if w.label.startswith("Passages")).set_value(7)
    _click(at, "Save")
    assert rag.saved_settings()["top_k"] == 7 and rag.settings.top_k == 7
