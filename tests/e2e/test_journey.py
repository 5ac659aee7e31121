"""The whole journey in a real headless Chromium (Debian's package, driven by Playwright).

Upload documents, ask, see highlighted claims and evidence, audit a pasted answer with planted errors,
find it in the review queue, record a verdict, and see it in History and Insights. Screenshots of every
page go to test-artifacts/ on every run; `UPDATE_SCREENSHOTS=1` also refreshes docs/screenshots/ (the
README's), so that an ordinary test run never rewrites tracked files.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

from tests.served import serve

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (`make test` installs it)",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
ARTIFACTS = ROOT / "test-artifacts"
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL = {"127.0.0.1", None}  # None: data: and blob: URLs
VIEWPORT = {"width": 1440, "height": 1000}
STEP_TIMEOUT_MS = 90_000  # a cold engine loads its models on the first question

DEMO = ROOT / "data" / "demo"
DEMO_FILES = sorted(p for p in DEMO.iterdir() if p.is_file() and p.name != "examples.json")
EXAMPLES = {e["question"]: e for e in json.loads((DEMO / "examples.json").read_text(encoding="utf-8"))}
PER_DIEM = next(e for q, e in EXAMPLES.items() if "per-diem" in q)  # a changed number
REMOTE = next(e for q, e in EXAMPLES.items() if "working from home" in q)  # an invented extra fact
HOSTILE = """Visitor rules. <script>alert('pwned')</script> Visitors sign in at the <b>reception desk</b>.
The visitor car park closes at 10 pm.
"""
QUESTION = "How many days of annual leave do full-time employees get?"
SECRET = "sk-e2e-NEVER-SHOWN-0123456789"


@contextmanager
def _serve(tmp_path: Path, *, demo: bool = False) -> Iterator[str]:
    """The app on a free loopback port over a fresh data dir; with `demo`, set up as `make run` does."""
    # A key in the environment must never reach the page, the log or the database.
    env = {**os.environ, "RRAG_DATA_DIR": str(tmp_path / "data"), "OPENAI_API_KEY": SECRET}
    if demo:
        subprocess.run([sys.executable, "-m", "rrag", "demo"], cwd=ROOT, env=env, check=True, timeout=300)
    # as `make run` serves it: warmed up before it listens
    with serve(env, tmp_path / "streamlit.log", "--server.address", "127.0.0.1") as url:
        yield url


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with _serve(tmp_path) as url:
        yield url


@contextmanager
def _browse(url: str) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        tab = browser.new_page(viewport=VIEWPORT, base_url=url, accept_downloads=True)
        tab.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        yield tab
        browser.close()


@pytest.fixture
def page(server: str) -> Iterator[Page]:
    with _browse(server) as tab:
        yield tab


def _shot(page: Page, name: str) -> None:
    """Screenshot the whole page: Streamlit scrolls inside its main container, so grow the viewport."""
    _idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(max(height, VIEWPORT["height"]), 5000)})
    page.wait_for_timeout(500)  # let charts re-layout to the new size
    target = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(target))
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(target, SCREENSHOTS / target.name)
    page.set_viewport_size(VIEWPORT)


def _choose(page: Page, label: str, option: str, tries: int = 3) -> None:
    """Pick a select-box option by typing it, as a keyboard user does (the box filters as you type).

    A box re-rendered while it is typed into closes its list and keeps the text (on a loaded machine
    the page's last deltas can land after the run icon went): the user types again, and so does this.
    """
    box = page.get_by_role("combobox", name=label)
    for _ in range(tries):
        _idle(page)
        box.click()
        box.fill("")
        box.press_sequentially(option, delay=20)
        # Enter before the list has filtered would pick nothing (or submit the form around the box).
        try:
            expect(page.get_by_role("option").first).to_contain_text(option, timeout=30_000)
        except AssertionError:
            page.keyboard.press("Escape")
            continue
        page.keyboard.press("Enter")
        _idle(page)
        return
    raise AssertionError(f"{option!r} never showed among the options of {label!r}")


def _pick(scope: Page | Locator, group: str, option: str) -> None:
    """Click a radio option inside its own group: while a form redraws, its text can be on the page twice."""
    scope.get_by_role("radiogroup", name=group).get_by_text(option, exact=False).click()


def _idle(page: Page) -> None:
    """Wait until the script run finished (a click during a rerun can be lost)."""
    expect(page.get_by_test_id("stStatusWidgetRunningIcon")).to_have_count(0)


def _open(page: Page, link: str, heading: str) -> None:
    """Navigate as a user does: by the sidebar link."""
    _idle(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link, exact=True).click()
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()


def _claim_status(page: Page, text: str) -> str:
    """The status label of the highlighted claim containing `text` (from its tooltip)."""
    mark = page.locator("mark.rrag-claim", has_text=text)
    expect(mark).to_be_visible()
    title = mark.get_attribute("title") or ""
    return title.split(":", 1)[1].split(".", 1)[0].strip()


def test_upload_ask_review_history_insights(page: Page, tmp_path: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    outbound: list[str] = []  # the app runs offline: nothing may be fetched from elsewhere (a favicon did)
    page.on("request", lambda r: outbound.append(r.url) if urlparse(r.url).hostname not in LOCAL else None)
    hostile = tmp_path / "visitors.txt"
    hostile.write_text(HOSTILE, encoding="utf-8")
    uploads = [*DEMO_FILES, hostile]

    page.goto("/")
    expect(page.get_by_role("heading", name="Ask your documents")).to_be_visible()

    # 1. Documents: upload the demo handbook and a hostile file at once; markup shows as text.
    _open(page, "Documents", "Documents")
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(
        [str(p) for p in uploads]
    )
    page.get_by_role("button", name="Index files").click()
    expect(page.get_by_text(f"{len(uploads)} of {len(uploads)} file(s) indexed")).to_be_visible()
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

    # 3. Verify answers written elsewhere: a changed number, and an invented extra fact.
    _pick(page, "Mode", "Verify an answer")
    expect(page.get_by_label("Answer to audit")).to_be_visible()  # the form re-rendered for this mode
    _idle(page)
    for example in (PER_DIEM, REMOTE):
        page.get_by_label("Question", exact=True).fill(example["question"])
        page.get_by_label("Answer to audit").fill(example["answer"])
        page.get_by_role("button", name="Audit this answer").click()
        expect(page.locator("mark.rrag-claim", has_text=example["answer"][-30:])).to_be_visible()
    assert _claim_status(page, "gym membership") in ("Unsupported", "Contradicted")
    assert _claim_status(page, "up to 3 days per week") in ("Supported", "Partial")
    _shot(page, "verify")

    # 4. Review: the flagged answer is in the queue; correct a claim, record it with a name and a note.
    _open(page, "Review", "Review queue")
    _choose(page, "Open an answer", "working from home")
    expect(page.get_by_text(f"Question: {REMOTE['question']}")).to_be_visible()
    _idle(page)
    # Its verdict form, not the previous answer's still on screen: this answer has four claims.
    expect(page.get_by_role("combobox", name="Status of claim 4")).to_be_visible()
    was = _claim_status(page, "gym membership")
    number = re.sub(
        r"\D", "", page.locator("mark.rrag-claim", has_text="gym membership").locator("sup").inner_text()
    )
    now = "Contradicted" if was != "Contradicted" else "Unsupported"
    # The opened answer's own form: the previous answer's may still be on screen while this one draws.
    form = page.get_by_test_id("stForm").filter(has=page.get_by_role("combobox", name="Status of claim 4"))
    form.get_by_label("Reviewer name").fill("Dana Reviewer")
    _pick(form, "Outcome", "✎ corrected")
    _choose(page, f"Status of claim {number}", now)
    page.get_by_label("Note").fill("HR confirms there is no gym allowance.")
    _shot(page, "review")
    page.get_by_role("button", name="Record review").click()
    expect(page.get_by_text("Recorded: ✎ corrected by Dana Reviewer", exact=False)).to_be_visible()

    # 5. History: the session as corrected (the claim's colour, the rescored answer) and the reviewer's
    # change in its audit trail.
    _open(page, "History", "History")
    page.get_by_label("Search questions and answers").fill("gym")
    page.keyboard.press("Enter")
    trail = page.get_by_text(f"{was} → ", exact=False)
    expect(trail).to_be_visible()
    expect(trail).to_contain_text("Dana Reviewer")
    expect(trail).to_contain_text("no gym allowance")
    assert _claim_status(page, "gym membership") == now
    rescored = page.get_by_text("Corrected in review: 1 claim(s), the latest by Dana Reviewer", exact=False)
    expect(rescored).to_be_visible()
    _shot(page, "history")

    # 6. Insights: charts from the saved sessions, including the reviewer agreement.
    _open(page, "Insights", "Insights")
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(6)
    expect(page.get_by_text("Reviewer agreement")).to_be_visible()
    _shot(page, "insights")

    _open(page, "Settings", "Settings")
    expect(page.get_by_text("API key: set in the environment")).to_be_visible()
    expect(page.get_by_text("Where data lives")).to_be_visible()
    _shot(page, "settings")
    assert dialogs == []  # no script from a document ever ran
    assert outbound == []
    assert SECRET not in page.content()
    data = tmp_path / "data"
    assert all(SECRET.encode() not in f.read_bytes() for f in data.rglob("*") if f.is_file())
    assert SECRET not in (tmp_path / "streamlit.log").read_text()


def test_a_bookmarked_page_as_a_fresh_servers_first_request_gets_the_apps_menu(page: Page) -> None:
    # Without the hand-over in ui/navigation.py Streamlit served pages/review.py on its own here, with
    # file names ("app", "review") for a menu.
    page.goto("/review")
    expect(page.get_by_role("heading", name="Review queue", exact=True)).to_be_visible()
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav.get_by_role("link", name="Review", exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name="app", exact=True)).to_have_count(0)
    _open(page, "Settings", "Settings")


# Long enough to audit that a reload lands mid-answer: every sentence is a claim to check.
LONG_ANSWER = " ".join(
    f"Employee number {i} receives {20 + i % 7} days of paid annual leave per calendar year."
    for i in range(400)
)


def _first_paint(page: Page) -> tuple[float, float]:
    """Seconds from opening the app to the first content, and to the demo samples."""
    started = time.monotonic()
    page.goto("/")
    expect(page.get_by_role("heading", name="Ask your documents")).to_be_visible()
    painted = time.monotonic() - started
    expect(page.get_by_role("button", name=re.compile("Annual leave"))).to_be_visible()
    return painted, time.monotonic() - started


def test_the_demo_tells_its_story_from_the_first_paint(tmp_path: Path) -> None:
    with _serve(tmp_path, demo=True) as url, _browse(url) as page:
        # 1. As after `make run`: content at once, one-click samples, a pointer to the waiting answers.
        painted, samples_shown = _first_paint(page)
        # Measured, not asserted (a timing depends on the machine's load): issue 14 asks for under 3 s.
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "first-paint.txt").write_text(
            f"first paint {painted:.2f} s; samples shown {samples_shown:.2f} s (fresh server)\n"
        )
        expect(page.get_by_role("link", name=re.compile("wait in Review"))).to_be_visible()
        _shot(page, "ask-first-run")

        # 2. The trimmed sample: the changed number is marked inside its claim, and in the export.
        page.get_by_role("button", name=re.compile("Audit a per-diem answer")).click()
        failed = page.locator("mark.rrag-claim mark.rrag-failed", has_text="€65")
        expect(failed).to_be_visible()
        assert failed.get_attribute("title") == "the evidence says €48"
        expect(page.get_by_text("✂ Trimmed").first).to_be_visible()
        _idle(page)
        with page.expect_download() as download:
            page.get_by_role("button", name="HTML page").click()
        exported = Path(download.value.path()).read_text(encoding="utf-8")
        assert '<mark class="rrag-failed" title="the evidence says €48">€65</mark>' in exported
        _shot(page, "failed-words")

        # 5. A question over 2,000 characters is refused with a message.
        _pick(page, "Mode", "Ask a question")
        _idle(page)
        page.get_by_label("Question", exact=True).fill("Why? " * 401)
        page.get_by_role("button", name="Ask", exact=True).click()
        expect(page.get_by_text("the limit is 2,000", exact=False)).to_be_visible()

        # 5. A reload while answering: the page says the answer was interrupted and keeps the question.
        question = "Does every employee get paid annual leave?"
        _pick(page, "Mode", "Verify an answer")
        expect(page.get_by_label("Answer to audit")).to_be_visible()
        _idle(page)
        page.get_by_label("Question", exact=True).fill(question)
        page.get_by_label("Answer to audit").fill(LONG_ANSWER)
        page.get_by_role("button", name="Audit this answer").click()
        page.wait_for_url(re.compile("answering="))
        page.reload()
        expect(page.get_by_text("The answer was interrupted")).to_be_visible()
        expect(page.get_by_label("Question", exact=True)).to_have_value(question)
        expect(page.get_by_label("Answer to audit")).to_be_visible()  # back in the mode it was asked in
        _shot(page, "interrupted")
        deadline = time.monotonic() + 120  # the stopped run notices at its next stage
        while True:
            _open(page, "History", "History")
            if page.get_by_text("Interrupted questions (1)").count() or time.monotonic() > deadline:
                break
            page.wait_for_timeout(2000)
        expect(page.get_by_text("Interrupted questions (1)", exact=False)).to_be_visible()
        _shot(page, "history-interrupted")

        # 5. Review: the reason first, no outcome chosen for the reviewer, a queue that fits the page.
        _open(page, "Review", "Review queue")
        expect(page.locator(".rrag-flag").first).to_be_visible()
        expect(page.get_by_role("radio", checked=True)).to_have_count(0)
        grid = page.get_by_test_id("stDataFrame").first
        expect(grid).to_be_visible()
        hidden = grid.locator(".dvn-scroller").evaluate("e => e.scrollWidth - e.clientWidth")
        assert hidden <= 1, f"the review queue scrolls sideways: {hidden} px out of view"
        _shot(page, "review-queue")

        # 5. Insights of a fresh demo: per minute, and said so.
        _open(page, "Insights", "Insights")
        expect(page.get_by_text("per minute (UTC)").first).to_be_visible()
        _shot(page, "insights-fresh-demo")

        # 5. The file picker offers the supported types only.
        _open(page, "Documents", "Documents")
        accept = (
            page.locator('[data-testid="stFileUploader"] input[type="file"]').get_attribute("accept") or ""
        )
        assert ".pdf" in accept and ".docx" in accept and "/*" not in accept

        # 6. Settings: where data lives, read-only, with the variables that move it.
        _open(page, "Settings", "Settings")
        expect(page.get_by_text("Where data lives")).to_be_visible()
        expect(page.get_by_role("cell", name="Chroma, embedded")).to_be_visible()
        expect(page.get_by_text("RRAG_DATABASE_URL").first).to_be_visible()
        assert SECRET not in page.content()
