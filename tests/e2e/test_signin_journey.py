"""Sign-in end to end: the app in headless Chromium against a real OpenID Connect provider on loopback
(`oidc-provider-mock`: discovery, authorization form, code exchange, signed ID tokens, end-session).

A user without a role is refused and signs out; a viewer is offered no question form; an analyst
asks but cannot review; a reviewer is recorded by the signed-in e-mail and is offered no delete; an
admin (by a groups claim) deletes. Each user signs in in a fresh browser context (its own cookies).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from test_journey import (  # noqa: F401 - marks
    BROWSER_ARGS,
    CHROMIUM,
    ROOT,
    STEP_TIMEOUT_MS,
    VIEWPORT,
    _idle,
    _open,
    _pick,
    pytestmark,
)

from tests.served import free_port, running

LEAVE = "Full-time employees receive 25 days of paid annual leave per calendar year.\n"
QUESTION = "How many days of annual leave do full-time employees get?"
PLANTED = "Full-time employees receive 30 days of paid annual leave per calendar year."
USERS = [  # the provider's accounts; roles come from the roles file, not from the provider
    {"sub": "eve", "email": "eve@example.com", "email_verified": True, "groups": ["staff"]},
    {"sub": "vera", "email": "Vera@Example.COM", "email_verified": True},  # normalised to the file's
    {"sub": "andy", "email": "andy@example.com", "email_verified": True},
    {"sub": "rita", "email": "rita@example.com", "email_verified": True},
    {"sub": "boss", "email": "boss@example.com", "email_verified": True, "groups": ["rag-admins"]},
    # Claim shapes of lax providers (issue 46, item 2): an e-mail of a role holder that the provider
    # does not vouch for gets nothing; a subject named in the roles file gets its role.
    {"sub": "mallory", "email": "rita@example.com", "email_verified": "false", "groups": ["rag-admins"]},
    {"sub": "nora", "email": "andy@example.com"},
    {"sub": "sam-0001", "email": "sam@example.com", "email_verified": False},
]


def _roles(issuer: str) -> str:
    return f"""[users]
"vera@example.com" = "viewer"
"andy@example.com" = "analyst"
"rita@example.com" = "reviewer"
[groups]
"rag-admins" = "admin"
[subjects."{issuer}"]
"sam-0001" = "reviewer"
"""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The provider and the app (sign-in configured, a roles file, one document, one flagged answer)."""
    tmp = tmp_path_factory.mktemp("signin")
    idp_port, app_port = free_port(), free_port()
    idp = f"http://127.0.0.1:{idp_port}"
    url = f"http://127.0.0.1:{app_port}"
    secrets = tmp / "secrets.toml"
    secrets.write_text(
        "[auth]\n"
        f'redirect_uri = "{url}/oauth2callback"\n'
        'cookie_secret = "e2e-cookie-secret-0123456789abcdef"\n'
        'client_id = "rrag-e2e"\n'
        'client_secret = "e2e-client-secret"\n'
        f'server_metadata_url = "{idp}/.well-known/openid-configuration"\n',
        encoding="utf-8",
    )
    (tmp / "roles.toml").write_text(_roles(idp), encoding="utf-8")
    (tmp / "leave.txt").write_text(LEAVE, encoding="utf-8")
    env = {**os.environ, "RRAG_DATA_DIR": str(tmp / "data"), "RRAG_ROLES_FILE": str(tmp / "roles.toml")}
    seed = (
        "import sys; from rrag import ReliableRAG; rag = ReliableRAG(); "
        "assert rag.ingest_bytes('leave.txt', open(sys.argv[1], 'rb').read()).ok; "
        "rag.verify(sys.argv[2], sys.argv[3]); rag.close()"
    )
    subprocess.run(
        [sys.executable, "-c", seed, str(tmp / "leave.txt"), QUESTION, PLANTED],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    provider = [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(idp_port)]
    provider += [arg for user in USERS for arg in ("--user-claims", json.dumps(user))]
    served = [sys.executable, "-m", "ui.serve", "--server.headless", "true", "--server.address", "127.0.0.1"]
    served += ["--server.port", str(app_port), "--browser.gatherUsageStats", "false"]
    served += ["--secrets.files", str(secrets)]
    with (
        running(provider, env, tmp / "provider.log", f"{idp}/.well-known/openid-configuration"),
        running(served, env, tmp / "streamlit.log", f"{url}/_stcore/health"),
    ):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def _signed_in(browser: Browser, app: str, sub: str) -> Iterator[Page]:
    """A fresh browser context, signed in at the provider as `sub`."""
    context = browser.new_context(viewport=VIEWPORT, base_url=app)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    expect.set_options(timeout=STEP_TIMEOUT_MS)
    page.goto("/")  # nobody signed in yet: the sign-in page only, no menu
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=sub, exact=True).click()  # the provider's form: a predefined user
    try:
        yield page
    finally:
        context.close()


def _sign_out(page: Page) -> None:
    _idle(page)
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="End session").click()  # the provider's end-session form
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()


def test_sign_in_roles_and_sign_out_against_a_real_provider(app: str, browser: Browser) -> None:
    with _signed_in(browser, app, "eve") as page:  # a user without a role is refused, may sign out
        expect(page.get_by_role("heading", name="No access yet")).to_be_visible()
        expect(page.get_by_text("eve@example.com is signed in but has no role", exact=False)).to_be_visible()
        expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
        _sign_out(page)
        expect(page.get_by_role("heading", name="Ask your documents")).to_have_count(0)

    with _signed_in(browser, app, "vera") as page:
        expect(page.get_by_text("Signed in as vera@example.com · viewer")).to_be_visible()
        expect(page.get_by_text("Your role (viewer) can read answers in History but not ask")).to_be_visible()
        expect(page.get_by_label("Question", exact=True)).to_have_count(0)

    with _signed_in(browser, app, "andy") as page:
        page.get_by_label("Question", exact=True).fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        expect(page.get_by_text("Claims and their evidence")).to_be_visible()
        _open(page, "Review", "Review queue")
        expect(page.get_by_text("Your role (analyst) can read reviews but not record them.")).to_be_visible()
        expect(page.get_by_role("button", name="Record review")).to_have_count(0)

    with _signed_in(browser, app, "rita") as page:
        _open(page, "Review", "Review queue")
        form = page.get_by_test_id("stForm")
        expect(form.get_by_text("Reviewer: rita@example.com")).to_be_visible()
        expect(form.get_by_label("Reviewer name")).to_have_count(0)
        _pick(form, "Outcome", "escalated")
        page.get_by_role("button", name="Record review").click()
        expect(page.get_by_text("escalated by rita@example.com", exact=False)).to_be_visible()
        _open(page, "Documents", "Documents")
        expect(page.get_by_role("button", name="Re-index", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name="Delete")).to_have_count(0)
        _sign_out(page)

    with _signed_in(browser, app, "boss") as page:
        expect(page.get_by_text("Signed in as boss@example.com · admin")).to_be_visible()
        _open(page, "Documents", "Documents")
        page.get_by_role("button", name="Delete").click()
        page.get_by_role("button", name="Yes, delete").click()
        expect(page.get_by_text("Deleted leave.txt.")).to_be_visible()


def test_only_identities_the_provider_vouches_for_get_roles(app: str, browser: Browser) -> None:
    for sub in ("mallory", "nora"):  # the string "false"; no email_verified claim at all
        with _signed_in(browser, app, sub) as page:
            expect(page.get_by_role("heading", name="No access yet")).to_be_visible()
            expect(
                page.get_by_text("does not assert that this e-mail is verified", exact=False)
            ).to_be_visible()
            expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
    with _signed_in(browser, app, "sam-0001") as page:  # by subject, whatever the e-mail
        named = page.get_by_text(re.compile(r"Signed in as sam-0001 \(http://127\.0\.0\.1:\d+\) · reviewer"))
        expect(named).to_be_visible()  # named by its subject: the e-mail is not verified


def test_a_cookie_copied_before_sign_out_signs_nobody_in_after_it(app: str, browser: Browser) -> None:
    with _signed_in(browser, app, "andy") as page:
        expect(page.get_by_text("Signed in as andy@example.com · analyst")).to_be_visible()
        copied = page.context.cookies()
        _sign_out(page)
    replay = browser.new_context(viewport=VIEWPORT, base_url=app)
    try:
        replay.add_cookies(copied)  # type: ignore[arg-type]
        page = replay.new_page()
        page.goto("/")
        expect(page.get_by_role("button", name="Sign in")).to_be_visible()
        expect(page.get_by_text("Signed in as", exact=False)).to_have_count(0)
        expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
    finally:
        replay.close()


def test_each_role_is_offered_only_the_controls_it_may_use(app: str, browser: Browser) -> None:
    # Issue 46, item 8: a viewer was shown Evaluate's run controls and uploader (the engine refused them).
    offered = {"vera": (0, 0, 0), "rita": (1, 1, 0), "boss": (1, 1, 1)}  # ask, add and run, settings
    for sub, (ask, add, configure) in offered.items():
        with _signed_in(browser, app, sub) as page:
            expect(page.get_by_label("Question", exact=True)).to_have_count(ask)
            _open(page, "Documents", "Documents")
            expect(page.get_by_test_id("stFileUploader")).to_have_count(add)
            _open(page, "Evaluate", "Evaluate")
            expect(page.get_by_test_id("stFileUploader")).to_have_count(add)
            expect(page.get_by_role("button", name="Run the question set")).to_have_count(add)
            expect(page.get_by_role("button", name=re.compile("Run the demo's sample set"))).to_have_count(
                add
            )
            _open(page, "Settings", "Settings")
            expect(page.get_by_role("button", name="Save", exact=True)).to_have_count(configure)
            expect(page.get_by_role("button", name="Test LLM connection")).to_have_count(configure)
