"""The whole journey in a real headless Chromium (Debian's package, driven by Playwright).

Upload documents, ask, see highlighted claims and evidence, audit a pasted answer with planted errors,
find it in the review queue, record a verdict, and see it in History and Insights. Screenshots of every
page go to docs/screenshots/ (the README shows them) and test-artifacts/.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium is not installed at /usr/bin/chromium (`make test` installs it)"),
]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
ARTIFACTS = ROOT / "test-artifacts"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1440, "height": 1000}
START_TIMEOUT_S = 120
STEP_TIMEOUT_MS = 90_000  # a cold engine loads its models on the first question

HANDBOOK = """# Annual leave

Full-time employees receive 25 days of paid annual leave per calendar year.
Up to 5 unused days may be carried over into the next year.
Leave requests are approved by the line manager within five working days.

# Remote work

Employees may work from home up to three days per week.
The company pays a one-off home office allowance of 500 euros.
"""
HOSTILE = """Visitor rules. <script>alert('pwned')</script> Visitors must sign in at the <b>reception desk</b>.
The visitor car park closes at 10 pm.
"""
QUESTION = "How many days of annual leave do full-time employees get?"
PLANTED = ("Full-time employees receive 30 days of paid annual leave per calendar year. "
           "Leave requests are approved by the line manager within five working days. "
           "Every employee also gets a free company helicopter.")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "RRAG_DATA_DIR": str(tmp_path / "data")}
    env.pop("OPENAI_API_KEY", None)
    log = (tmp_path / "streamlit.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("streamlit did not start:\n" + (tmp_path / "streamlit.log").read_text())
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture
def page(server: str) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        tab = browser.new_page(viewport=VIEWPORT, base_url=server)
        tab.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        yield tab
        browser.close()


def _shot(page: Page, name: str) -> None:
    """Screenshot the whole page: Streamlit scrolls inside its main container, so grow the viewport."""
    _idle(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(max(height, VIEWPORT["height"]), 5000)})
    page.wait_for_timeout(500)  # let charts re-layout to the new size
    target = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(target))
    shutil.copy(target, ARTIFACTS / target.name)
    page.set_viewport_size(VIEWPORT)


def _choose(page: Page, label: str | re.Pattern[str], option: str) -> None:
    """Pick a select-box option by typing it (the box filters as you type)."""
    box = page.get_by_role("combobox", name=label)
    box.click()
    box.fill(option)
    page.keyboard.press("Enter")


def _idle(page: Page) -> None:
    """Wait until the script run finished (a click during a rerun can be lost)."""
    expect(page.get_by_test_id("stStatusWidgetRunningIcon")).to_have_count(0)


def _open(page: Page, link: str, heading: str) -> None:
    """Navigate as a user does: by the sidebar link (the first visit of a fresh server must be `/`)."""
    _idle(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link, exact=True).click()
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def test_upload_ask_review_history_insights(page: Page, tmp_path: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    docs = tmp_path / "upload"
    docs.mkdir()
    (docs / "handbook.md").write_text(HANDBOOK, encoding="utf-8")
    (docs / "visitors.txt").write_text(HOSTILE, encoding="utf-8")

    page.goto("/")
    expect(page.get_by_role("heading", name="Ask your documents")).to_be_visible()

    # 1. Documents: upload two files at once; the hostile one shows its markup as text.
    _open(page, "Documents", "Documents")
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        [str(docs / "handbook.md"), str(docs / "visitors.txt")]
    )
    page.get_by_role("button", name="Index files").click()
    expect(page.get_by_text("2 of 2 file(s) indexed")).to_be_visible()
    _choose(page, "Inspect a document", "visitors.txt")
    expect(page.get_by_text("<script>alert('pwned')</script>", exact=False)).to_be_visible()
    _shot(page, "documents")

    # 2. Ask: the answer with every claim highlighted, the evidence quote marked in its chunk.
    _open(page, "Ask", "Ask your documents")
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator("mark.rrag-claim").first).to_be_visible()
    expect(page.get_by_text("Claims and their evidence")).to_be_visible()
    expect(page.locator("mark.rrag-quote").first).to_be_attached()
    expect(page.locator('[data-testid="stPlotlyChart"]').first).to_be_visible()
    _shot(page, "ask")

    # 3. Verify an answer written elsewhere: the planted number and extra fact are flagged.
    page.get_by_text("Verify an answer").click()
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_label("Answer to audit").fill(PLANTED)
    page.get_by_role("button", name="Audit this answer").click()
    expect(page.locator("mark.rrag-claim", has_text="helicopter")).to_be_visible()
    flagged = page.locator("mark.rrag-claim", has_text="helicopter").get_attribute("title")
    assert flagged and ("Unsupported" in flagged or "Contradicted" in flagged)
    _shot(page, "verify")

    # 4. Review: the flagged answer is in the queue; record a correction with a name and a note.
    _open(page, "Review", "Review queue")
    expect(page.locator("mark.rrag-claim", has_text="helicopter")).to_be_visible()
    page.get_by_label("Reviewer name").fill("Dana Reviewer")
    page.get_by_text("✎ corrected", exact=False).click()
    _choose(page, re.compile("helicopter"), "Contradicted")
    page.get_by_label("Note").fill("The handbook says 25 days; no helicopter.")
    _shot(page, "review")
    page.get_by_role("button", name="Record review").click()
    expect(page.get_by_text("Recorded", exact=False)).to_be_visible()

    # 5. History: the session with its audit trail.
    _open(page, "History", "History")
    page.get_by_label("Search questions and answers").fill("helicopter")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Dana Reviewer", exact=False)).to_be_visible()
    expect(page.get_by_text("no helicopter", exact=False)).to_be_visible()
    expect(page.get_by_text("→ ✖ Contradicted", exact=False)).to_be_visible()  # the override, in the trail
    _shot(page, "history")

    # 6. Insights: charts from the saved sessions, including the reviewer agreement.
    _open(page, "Insights", "Insights")
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(6)
    expect(page.get_by_text("Reviewer agreement")).to_be_visible()
    _shot(page, "insights")

    _open(page, "Settings", "Settings")
    _shot(page, "settings")
    assert dialogs == []  # no script from a document ever ran
