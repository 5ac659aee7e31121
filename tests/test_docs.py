"""Docs a reader can finish (issue 44 item 7): a README short enough to read, with the two commands on
its first screen; a verifier reference, not a notebook; a measurement log whose index lists every
entry; and no relative link in README.md or docs/ that leads nowhere."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
LOG = REPO / "docs" / "log"
PAGES = [README, *sorted((REPO / "docs").rglob("*.md"))]

MAX_README_CHARS = 12_000
FIRST_SCREEN_LINES = 40
MAX_VERIFIER_LINES = 400

_PARSER = MarkdownIt("commonmark").enable("table")


def _tokens(page: Path) -> list:
    return _PARSER.parse(page.read_text(encoding="utf-8"))


def _links(page: Path) -> list[str]:
    """Every link and image target of a page, outside code (the parser leaves code spans and blocks out)."""
    found = []
    for token in _tokens(page):
        for child in token.children or []:
            target = child.attrs.get("href") if child.type == "link_open" else child.attrs.get("src")
            if isinstance(target, str):
                found.append(target)
    return found


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    tokens = _tokens(page)
    seen: dict[str, int] = {}
    anchors = set()
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type != "heading_open":
            continue
        words = [child.content for child in inline.children or [] if child.type in ("text", "code_inline")]
        slug = _slug("".join(words))
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


def test_readme_is_short_and_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text) < MAX_README_CHARS, f"README.md is {len(text)} characters: move detail to docs/"
    first_screen = "\n".join(text.splitlines()[:FIRST_SCREEN_LINES])
    assert "make run" in first_screen
    assert "make test" in first_screen


def test_verifier_doc_is_a_reference() -> None:
    lines = (REPO / "docs" / "verifier.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < MAX_VERIFIER_LINES, "dated measurements belong in docs/log/"
    assert "## Credits" in lines, "the training data's licences need their credits"


def test_the_walk_through_shows_the_rule_and_its_test_as_committed() -> None:
    """docs/verifier.md's "Adding a rule" is the history of a real change: its code is the code."""
    text = (REPO / "docs" / "verifier.md").read_text(encoding="utf-8")
    shown = [
        token.content
        for token in _PARSER.parse(text[text.index("## Adding a rule") :])
        if token.type == "fence"
    ]
    committed = [
        REPO / "rrag" / "verify" / "rules" / "price_from.py",
        REPO / "tests" / "test_rule_price_from.py",
    ]
    assert shown[:2] == [path.read_text(encoding="utf-8") for path in committed]


def test_log_index_lists_every_entry_newest_first() -> None:
    entries = sorted(path.name for path in LOG.glob("20*.md"))
    listed = [target for target in _links(LOG / "README.md") if re.match(r"\d{4}-\d\d-\d\d-", target)]
    assert sorted(listed) == entries
    dates = [name[:10] for name in listed]
    assert dates == sorted(dates, reverse=True)


def test_a_log_entry_is_headed_by_its_dated_title() -> None:
    for path in LOG.glob("20*.md"):
        title = path.read_text(encoding="utf-8").splitlines()[0]
        assert title.startswith("# ") and path.name[:10] in title, path.name


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in _links(page):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            continue  # the web is not ours to check
        path = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not path.exists():
            broken.append(target)
        elif parts.fragment and path.suffix == ".md" and parts.fragment not in _anchors(path):
            broken.append(target)
    assert not broken, f"{page.relative_to(REPO)}: {broken}"


def test_the_anchor_rule_reads_headings_as_github_does() -> None:
    assert _slug("The rules (`lexical.py`) and hard evidence") == "the-rules-lexicalpy-and-hard-evidence"
    assert _slug("Scale-out: several app processes, one Chroma server") == (
        "scale-out-several-app-processes-one-chroma-server"
    )
