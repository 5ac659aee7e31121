"""Text extraction from PDF, DOCX, HTML, Markdown and plain text, with errors a user understands.

Every file is untrusted: parsers are fed only bytes we have size-checked, script text never reaches
the output, and any parser failure becomes an `IngestError` naming the file.
"""

from __future__ import annotations

import logging
import re
import unicodedata
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rrag.errors import (
    EmptyDocumentError,
    EncryptedDocumentError,
    FileTooLargeError,
    IngestError,
    UnsupportedFormatError,
)
from rrag.lang.en.function_words import STOPWORDS
from rrag.lang.en.table_rows import CELL_SEPARATOR, table_row
from rrag.text import clean, content_words

PAGE_SEPARATOR = "\n\n"
# Share of control characters above which decoded "text" is really binary data.
MAX_CONTROL_RATIO = 0.05
_ALLOWED_CONTROLS = frozenset("\t\n\r\f\v")

# A DOCX is a zip that python-docx reads whole: every member as bytes, and the XML parsed into trees
# that take up to ~30 times the markup's size (7.8 GB and counting for 400 MB of empty paragraphs).
MAX_UNPACKED_BYTES = 200_000_000
MAX_UNPACKED_MARKUP_BYTES = 16_000_000  # ~0.6 GB at worst; a 1,000-page report has ~10 MB

# Elements whose text is never content: code, metadata, or invisible.
_DROPPED_HTML = ("script", "style", "title", "noscript", "template", "head", "svg", "iframe", "object")
# Page furniture around the content: menus, site banners, sidebars, footers. Its text ("Home Shop
# Support", "© 2026") would be retrieved and quoted as if the document said it.
_BOILERPLATE_HTML = ("nav", "aside", "footer", "menu", "button")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BOILERPLATE_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "menu", "menubar", "search"}
)
_BOILERPLATE_NAMES = re.compile(
    r"^(?:nav|navbar|navigation|menu|breadcrumbs?|sidebar|site-header|site-footer|skip-link|cookie-\w+)$"
)
_BLOCK_HTML = (
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "tr",
    "table",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "blockquote",
    "pre",
    "hr",
    "figure",
    "figcaption",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "caption",
    "address",
    "details",
    "summary",
)
_CELL_HTML = ("td", "th")
_BLOCK_BREAK = "\x1e"  # ASCII record separator: marks block boundaries until the final join


@dataclass(frozen=True)
class ExtractedDocument:
    """Extracted text; `pages` holds (page number, start, end) offsets into `text` where pages exist."""

    text: str
    pages: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def page_count(self) -> int | None:
        return len(self.pages) or None


def extract(path: Path, *, max_bytes: int) -> ExtractedDocument:
    """Read `path` into text; raise an `IngestError` subclass with a readable message on bad input."""
    check_file(path, max_bytes=max_bytes)
    try:
        document = _READERS[path.suffix.lower()](path)
    except OSError as exc:
        raise IngestError(f"{path.name}: cannot be read ({exc.strerror or exc})") from exc
    if not document.text.strip():
        raise EmptyDocumentError(f"{path.name}: no text could be extracted (a scanned or empty document?)")
    return document


def check_file(path: Path, *, max_bytes: int) -> None:
    """Refuse a missing, unsupported, empty or oversized file, or a folder, without reading its content."""
    if path.is_dir():
        raise IngestError(f"{path.name}: is a folder, not a file")
    if not path.is_file():
        raise IngestError(f"{path.name}: no such file")
    if path.suffix.lower() not in _READERS:
        raise UnsupportedFormatError(
            f"{path.name}: unsupported file type {path.suffix or '(none)'!r}; "
            f"supported: {', '.join(supported_suffixes())}"
        )
    check_size(path.name, path.stat().st_size, max_bytes)
    if path.stat().st_size == 0:
        raise EmptyDocumentError(f"{path.name}: the file is empty")


def check_size(name: str, size: int, max_bytes: int) -> None:
    """Refuse a file by its size alone, before anything reads it."""
    if size > max_bytes:
        raise FileTooLargeError(
            f"{name}: the file is {size / 1e6:.1f} MB, above the {max_bytes / 1e6:.1f} MB limit"
        )


def supported_suffixes() -> list[str]:
    return sorted(_READERS)


# pypdf logs each flaw of a damaged file as it reads ("invalid pdf header", "EOF marker not found");
# the user gets one clear error from this module instead, and the server log stays readable.
logging.getLogger("pypdf").setLevel(logging.CRITICAL)


def _read_pdf(path: Path) -> ExtractedDocument:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError

    try:
        reader = PdfReader(path)
        # Many "protected" PDFs only restrict printing and open with the empty password.
        locked = reader.is_encrypted and not reader.decrypt("")
        texts = [] if locked else [page.extract_text() or "" for page in reader.pages]
    except FileNotDecryptedError:
        locked = True
    except Exception as exc:  # parsers of untrusted files fail in many ways
        raise IngestError(f"{path.name}: the PDF is corrupt or truncated and cannot be read") from exc
    if locked:
        raise EncryptedDocumentError(f"{path.name}: the PDF is password-protected; remove the password")
    parts: list[str] = []
    pages: list[tuple[int, int, int]] = []
    offset = 0
    for number, page_text in enumerate(texts, start=1):
        page_text = _normalise(page_text).strip()
        if parts:
            offset += len(PAGE_SEPARATOR)
        pages.append((number, offset, offset + len(page_text)))
        parts.append(page_text)
        offset += len(page_text)
    return ExtractedDocument(PAGE_SEPARATOR.join(parts), pages)


def check_unpacked_size(path: Path) -> None:
    """Refuse a DOCX (a zip) whose members inflate past what its reader may hold in memory, from the
    sizes in the zip directory alone. zipfile stops at the declared size, so a member cannot lie bigger."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise IngestError(f"{path.name}: the Word document is corrupt and cannot be read") from exc
    total = sum(member.file_size for member in members)
    markup = sum(member.file_size for member in members if member.filename.endswith((".xml", ".rels")))
    if total > MAX_UNPACKED_BYTES or markup > MAX_UNPACKED_MARKUP_BYTES:
        raise FileTooLargeError(
            f"{path.name}: the file unpacks to {total / 1e6:.0f} MB ({markup / 1e6:.0f} MB of markup), above "
            f"the limits of {MAX_UNPACKED_BYTES / 1e6:.0f} MB and {MAX_UNPACKED_MARKUP_BYTES / 1e6:.0f} MB "
            "of markup; it is not read (a compressed 'zip bomb' looks like this)"
        )


def _read_docx(path: Path) -> ExtractedDocument:
    import docx
    from docx.table import Table

    check_unpacked_size(path)
    try:
        document = docx.Document(str(path))
        blocks: list[str] = []
        # Body order matters: a table between two paragraphs stays between them.
        for item in document.iter_inner_content():
            if isinstance(item, Table):
                blocks.extend(_docx_table_rows(item))
            elif item.text.strip():
                blocks.append(item.text.strip())
    except Exception as exc:  # a renamed or damaged file fails inside zipfile/lxml/python-docx
        raise IngestError(f"{path.name}: the Word document is corrupt and cannot be read") from exc
    return ExtractedDocument(_normalise("\n\n".join(blocks)))


def _docx_table_rows(table: object) -> list[str]:
    rows = []
    for row in table.rows:  # type: ignore[attr-defined]
        # A merged cell is reported once per grid column it spans, as the same cell; two cells that say
        # the same ("£48 | £48") are two columns' values, and an empty cell keeps its column's place.
        grid = row.cells
        spans = [c for i, c in enumerate(grid) if i == 0 or c._tc is not grid[i - 1]._tc]
        cells = [" ".join(c.text.split()) for c in spans]
        if any(cells):
            rows.append(cells)
    # Word marks no header row: the first row is taken as one, as tables are written. Each body row
    # names its columns, so the header row itself is left out.
    return (
        [table_row(rows[0], cells) for cells in rows[1:]]
        if len(rows) > 1
        else [CELL_SEPARATOR.join(r) for r in rows]
    )


def _linearise_tables(soup: Any) -> None:
    """Rewrite each body row of a table with a header row as a `table_row` sentence, in place; the
    header row goes, since every row now names its columns."""
    for table in soup.find_all("table"):
        rows = table.find_all("tr")
        if len(rows) < 2 or rows[0].find("td") is not None or rows[0].find("th") is None:
            continue
        header = [" ".join(cell.get_text(" ").split()) for cell in rows[0].find_all("th")]
        rows[0].decompose()
        for tr in rows[1:]:
            cells = [" ".join(cell.get_text(" ").split()) for cell in tr.find_all(["td", "th"])]
            tr.clear()
            tr.append(table_row(header, cells))


def _drop_boilerplate(soup: Any) -> None:
    """Remove navigation, banners, sidebars and footers: by element, ARIA role or class/id name.
    A <header> with a heading in it holds the document's title and stays; any other is a banner."""
    furniture = list(soup(list(_BOILERPLATE_HTML)))
    furniture += [tag for tag in soup("header") if tag.find(_HEADINGS) is None]
    furniture += soup.find_all(
        lambda tag: (
            tag.get("role") in _BOILERPLATE_ROLES
            or any(
                _BOILERPLATE_NAMES.match(name.lower())
                for name in [tag.get("id") or "", *tag.get("class", [])]
            )
        )
    )
    for tag in furniture:
        if not tag.decomposed:  # already gone with an enclosing piece of furniture
            tag.decompose()


def _break_after_bold_headings(soup: Any) -> None:
    """ "<p><strong>Scope</strong>\nThis policy ...</p>": a bold first line is the paragraph's heading,
    so it ends there instead of running into the sentence after it."""
    for tag in soup(["strong", "b"]):
        before, after = tag.previous_sibling, tag.next_sibling
        first_in_block = before is None or (isinstance(before, str) and not before.strip())
        line_ends_after = isinstance(after, str) and after.lstrip(" \t").startswith("\n")
        if first_in_block and line_ends_after:
            tag.insert_after(_BLOCK_BREAK)


def _label_list_items(soup: Any) -> None:
    """Give each list item a bullet, its heading and, in a numbered list, its number: "- Oven cleaning,
    step 3: Apply the gel ...". Alone, "Apply the gel ..." has lost what it is a step of and which
    step it is (a chunk or a sentence of a list keeps neither), so the step 3 of one procedure could
    not be told from another's. The bullet stays: a line without one and without a full stop is a
    heading. A question heading (an FAQ's) is not a subject, and an item that names every word of its
    heading already has it."""
    for item in soup("li"):
        heading = item.find_previous(_HEADINGS)
        subject = _SECTION_NUMBER.sub("", " ".join(heading.get_text(" ").split())) if heading else ""
        subject = "" if subject.endswith("?") else subject.rstrip(" .:;")
        if subject and set(content_words(subject)) <= set(content_words(item.get_text(" "))):
            subject = ""
        step = _step_number(item)
        label = ", ".join(part for part in (subject, step) if part)
        item.insert(0, f"- {label[0].upper() + label[1:]}: " if label else "- ")


_SECTION_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+")


def _step_number(item: Any) -> str:
    """ "step 3" for the third item of a numbered list (counting from its `start`), else ""."""
    numbered = item.parent
    if numbered is None or numbered.name != "ol":
        return ""
    start = numbered.get("start", "1")
    first = int(start) if str(start).isdigit() else 1
    siblings = numbered.find_all("li", recursive=False)
    return f"step {first + siblings.index(item)}" if item in siblings else ""


def _read_html(path: Path) -> ExtractedDocument:
    return ExtractedDocument(html_to_text(path.read_bytes()))


def html_to_text(markup: str | bytes) -> str:
    """Visible text of an HTML page, one block per paragraph; script and style text never survive."""
    from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning

    with warnings.catch_warnings():
        # A page whose whole text looks like a URL or file name is still just text.
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        soup = BeautifulSoup(markup, "html.parser")
    for tag in soup(list(_DROPPED_HTML)):
        tag.decompose()
    _drop_boilerplate(soup)
    _linearise_tables(soup)
    _break_after_bold_headings(soup)
    # Line breaks in HTML source are plain spaces; only block elements separate paragraphs.
    for tag in soup(list(_BLOCK_HTML)):
        tag.insert_before(_BLOCK_BREAK)
        tag.insert_after(_BLOCK_BREAK)
    for tag in soup(list(_CELL_HTML)):
        tag.insert_after(" | ")
    _label_list_items(soup)
    blocks = (" ".join(block.split()).strip(" |") for block in soup.get_text().split(_BLOCK_BREAK))
    return _normalise("\n\n".join(block for block in blocks if any(ch.isalnum() for ch in block)))


def _read_markdown(path: Path) -> ExtractedDocument:
    from markdown_it import MarkdownIt

    # Rendering to HTML first lets one code path handle headings, lists, tables and raw HTML
    # (including any <script> a Markdown file smuggles in).
    html = MarkdownIt("commonmark").enable("table").render(_decode_text(path))
    return ExtractedDocument(html_to_text(html))


def _read_text(path: Path) -> ExtractedDocument:
    return ExtractedDocument(_normalise(_decode_text(path)))


def _decode_text(path: Path) -> str:
    data = path.read_bytes()
    boms: list[tuple[bytes, str]] = [
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe\x00\x00", "utf-32"),
        (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ]
    text = None
    for bom, encoding in boms:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise IngestError(f"{path.name}: marked as {encoding} but not valid {encoding}") from exc
            break
    if text is None:
        if b"\x00" in data:
            raise IngestError(f"{path.name}: this is a binary file, not text")
        text = _decode_unmarked(data)
    controls = sum(unicodedata.category(ch) == "Cc" and ch not in _ALLOWED_CONTROLS for ch in text)
    if controls > MAX_CONTROL_RATIO * len(text):
        raise IngestError(f"{path.name}: this is a binary file, not text")
    return text


def _decode_unmarked(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")  # what Windows editors write when not told otherwise
    except UnicodeDecodeError:
        return data.decode("latin-1")  # decodes any byte string


_SPACES = re.compile(r"[^\S\n]+")
MAX_HEADING_WORDS = 10
_CLOSING_PUNCTUATION = frozenset(".!?:;,\u2026")


def _normalise(text: str) -> str:
    """Unify line endings, odd spaces, digits and invisible characters (`rrag.text.clean`) so offsets
    and matching see one form of the text, and give each heading line a paragraph of its own."""
    text = clean(text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", ""))
    text = _SPACES.sub(" ", text)
    text = re.sub(r" *\n *", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", _separate_headings(text))


def _separate_headings(text: str) -> str:
    """ "Scope\nThis policy applies ..." -> "Scope\n\nThis policy applies ...". A line without a full
    stop runs on into the next one when sentences are split (PDF text wraps mid-sentence), which
    glued headings onto the sentence below them ("Scope This policy applies ...")."""
    lines = text.split("\n")
    width = max(map(len, lines))
    separated: list[str] = []
    for i, line in enumerate(lines):
        separated.append(line)
        if i + 1 < len(lines) and _is_heading_line(line, lines[i - 1] if i else "", lines[i + 1], width):
            separated.append("")
    return "\n".join(separated)


def _is_heading_line(line: str, before: str, after: str, width: int) -> bool:
    """A short line with no closing punctuation that starts a paragraph, followed by a line that
    starts a sentence, and ended by its author: the next line's first word would have fitted on it,
    so the break is not a wrap."""
    if not line or not after or len(line.split()) > MAX_HEADING_WORDS or line[-1] in _CLOSING_PUNCTUATION:
        return False
    if line.split()[-1].lower() in STOPWORDS:  # "... approved by the": a sentence that goes on
        return False
    starts = (line[0].isupper() or line[0].isdigit()) and (after[0].isupper() or after[0].isdigit())
    opens_paragraph = not before or before[-1] in ".!?:\u2026"
    return starts and opens_paragraph and len(line) + 1 + len(after.split()[0]) <= width


_READERS: dict[str, Callable[[Path], ExtractedDocument]] = {
    ".pdf": _read_pdf,
    ".docx": _read_docx,
    ".html": _read_html,
    ".htm": _read_html,
    ".md": _read_markdown,
    ".markdown": _read_markdown,
    ".txt": _read_text,
    ".text": _read_text,
}
