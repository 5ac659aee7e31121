"""A hostile user in a real headless Chromium (issue 46, items 4 and 6): Markdown and HTML that would
fetch from another host, in every field a user fills (an uploaded file's name and text, a question,
a question set's questions, a run's name), and a configured LLM URL with a password and a signature.
No request may leave the app's origin, and no secret of the URL or the key may reach the browser: the
page's HTML and every websocket frame are read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, WebSocket, expect, sync_playwright
from test_journey import (  # noqa: F401 - marks
    BROWSER_ARGS,
    CHROMIUM,
    STEP_TIMEOUT_MS,
    VIEWPORT,
    _choose,
    _idle,
    _open,
    pytestmark,
)

from tests.served import serve

# Every way the page could be made to fetch: a Markdown image and link, an autolink, raw HTML. A file
# name has no "/" of its own: "https:host" still names another host.
FETCH = "https:attacker.invalid"
NAME = f"![n]({FETCH}) <img src={FETCH}> visitors.txt"
RUN_NAME = "![r](https://attacker.invalid/run.png) <img src=https://attacker.invalid/r.png>"
QUESTION = "Where do visitors sign in? ![q](https://attacker.invalid/q.png) <https://attacker.invalid>"
TEXT = f"""# Visitors ![d](https://attacker.invalid/d.png)

Visitors sign in at the reception desk. <img src="https://attacker.invalid/i.png"> [more]({FETCH})
"""
QUESTIONS = f'question\n{QUESTION}\n"How do visitors sign in? <img src=https://attacker.invalid/s.png>"\n'
KEY = "sk-hostile-NEVER-IN-THE-BROWSER-0001"
URL_PASSWORD = "pw-NEVER-IN-THE-BROWSER-0002"
URL_SIGNATURE = "sig-NEVER-IN-THE-BROWSER-0003"


def _record_outbound(url: str, origin: str, outbound: list[str]) -> None:
    if not url.startswith(("data:", "blob:")) and urlparse(url).netloc != origin:
        outbound.append(url)


def _record_frames(socket: WebSocket, frames: list[str]) -> None:
    def record(payload: str | bytes) -> None:
        frames.append(payload if isinstance(payload, str) else payload.decode("latin-1"))

    socket.on("framereceived", record)
    socket.on("framesent", record)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[str]:
    env = {
        **os.environ,
        "RRAG_DATA_DIR": str(tmp_path / "data"),
        "OPENAI_API_KEY": KEY,
        "RRAG_LLM_BASE_URL": f"http://ops:{URL_PASSWORD}@127.0.0.1:9/v1?sig={URL_SIGNATURE}&api-version=2",
        "RRAG_LLM_MODEL": "any-model",
    }
    with serve(env, tmp_path / "streamlit.log", "--server.address", "127.0.0.1") as url:
        yield url


def test_no_request_leaves_the_origin_and_no_secret_reaches_the_browser(app: str, tmp_path: Path) -> None:
    origin = urlparse(app).netloc
    outbound: list[str] = []
    frames: list[str] = []
    (tmp_path / "questions.csv").write_text(QUESTIONS, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        page: Page = browser.new_page(viewport=VIEWPORT, base_url=app)
        page.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        page.on("request", lambda request: _record_outbound(request.url, origin, outbound))
        page.on("websocket", lambda socket: _record_frames(socket, frames))
        page.goto("/")
        expect(page.get_by_role("heading", name="Ask your documents")).to_be_visible()
        html = [page.content()]

        _open(page, "Documents", "Documents")
        page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
            [{"name": NAME, "mimeType": "text/plain", "buffer": TEXT.encode()}]
        )
        page.get_by_role("button", name="Index files").click()
        expect(page.get_by_text("1 of 1 file(s) indexed")).to_be_visible()
        _choose(page, "Inspect a document", "visitors.txt")
        shown = page.get_by_text('<img src="https://attacker.invalid/i.png">', exact=False)
        expect(shown).to_be_visible()  # the document's markup, as text
        html.append(page.content())

        _open(page, "Ask", "Ask your documents")
        page.get_by_label("Question", exact=True).fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        expect(page.get_by_text("The answer the user receives")).to_be_visible()
        html.append(page.content())

        _open(page, "Evaluate", "Evaluate")
        page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
            str(tmp_path / "questions.csv")
        )
        page.get_by_label("Run name").fill(RUN_NAME)
        page.get_by_role("button", name="Run the question set").click()
        # a set is several questions, each one a step's work: on a loaded machine more than one step's time
        expect(page.get_by_text("Done: ", exact=False)).to_be_visible(timeout=3 * STEP_TIMEOUT_MS)
        _idle(page)
        html.append(page.content())

        for link, heading in (
            ("Review", "Review queue"),
            ("History", "History"),
            ("Insights", "Insights"),
            ("Settings", "Settings"),
        ):
            _open(page, link, heading)
            _idle(page)
            html.append(page.content())
        expect(page.get_by_label("Base URL")).to_have_value(
            "http://127.0.0.1:9/v1?sig=[redacted]&api-version=2"
        )
        browser.close()

    assert outbound == []
    seen = "\n".join(html + frames)
    assert "visitors.txt" in seen and "attacker.invalid" in seen  # the payloads were there, as text
    for secret in (KEY, URL_PASSWORD, URL_SIGNATURE):
        assert secret not in seen
