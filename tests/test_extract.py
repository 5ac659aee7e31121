"""Extraction from real files of every supported format, and a clear error for every kind of bad file."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from fixtures_docs import make_docx, make_pdf

from rrag.errors import (
    EmptyDocumentError,
    EncryptedDocumentError,
    FileTooLargeError,
    IngestError,
    UnsupportedFormatError,
)
from rrag.ingest.extract import extract
from rrag.text import split_sentences

LIMIT = 10_000_000


def test_pdf_pages_have_offsets_into_the_text(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "policy.pdf", ["Leave is 25 days per year.", "Sick pay lasts 20 days."])
    doc = extract(path, max_bytes=LIMIT)
    assert doc.page_count == 2
    (p1, s1, e1), (p2, s2, e2) = doc.pages
    assert (p1, p2) == (1, 2)
    assert doc.text[s1:e1] == "Leave is 25 days per year."
    assert doc.text[s2:e2] == "Sick pay lasts 20 days."


def test_pdf_with_a_password_is_refused(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "secret.pdf", ["Top secret salaries."], password="hunter2")
    with pytest.raises(EncryptedDocumentError, match="secret.pdf.*password"):
        extract(path, max_bytes=LIMIT)


def test_pdf_restricted_by_an_owner_password_only_still_opens(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "restricted.pdf", ["Printing is restricted."], owner_password="owner")
    assert extract(path, max_bytes=LIMIT).text == "Printing is restricted."


def test_corrupt_pdf_is_a_readable_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    with pytest.raises(IngestError, match="broken.pdf.*corrupt") as info:
        extract(path, max_bytes=LIMIT)
    assert not isinstance(info.value, EncryptedDocumentError)
    assert caplog.records == []  # one clear error, not the parser's running commentary


def test_pdf_without_text_is_empty(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "scan.pdf", [""])
    with pytest.raises(EmptyDocumentError, match="scan.pdf"):
        extract(path, max_bytes=LIMIT)


def test_docx_keeps_tables_in_document_order(tmp_path: Path) -> None:
    path = make_docx(
        tmp_path / "leave.docx",
        [
            "Leave entitlements are listed below.",
            [["Grade", "Days"], ["Junior", "25"], ["Senior", "30"]],
            "Ask HR about exceptions.",
        ],
    )
    text = extract(path, max_bytes=LIMIT).text
    assert text.split("\n\n") == [
        "Leave entitlements are listed below.",
        "For Junior, the days are 25.",
        "For Senior, the days are 30.",
        "Ask HR about exceptions.",
    ]


def test_docx_cells_that_say_the_same_stay_in_their_columns(tmp_path: Path) -> None:
    # "Consultation | £48" was written: the equal prices taken for one merged cell, the columns lost
    import docx

    document = docx.Document()
    table = document.add_table(rows=4, cols=3)
    for r, row in enumerate(
        [["Treatment", "Cat", "Dog"], ["Consultation", "£48", "£48"], ["Rabies", "", "£60"]]
    ):
        for c, cell in enumerate(row):
            table.cell(r, c).text = cell
    table.cell(3, 0).text = "Microchipping"
    table.cell(3, 1).merge(table.cell(3, 2)).text = "£22"  # one cell spanning two columns
    document.save(str(tmp_path / "fees.docx"))
    assert extract(tmp_path / "fees.docx", max_bytes=LIMIT).text.split("\n\n") == [
        "For Consultation, the cat is £48 and the dog is £48.",
        "For Rabies, the dog is £60.",  # an empty cell keeps its column's place
        "Microchipping | £22",  # which column a merged cell is of is unknown
    ]


@pytest.mark.parametrize("content", [b"PK\x03\x04 not really a zip", None])
def test_corrupt_docx_is_a_readable_error(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "broken.docx"
    if content is None:  # a valid zip that is not a Word document
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("hello.txt", "hi")
    else:
        path.write_bytes(content)
    with pytest.raises(IngestError, match="broken.docx.*corrupt"):
        extract(path, max_bytes=LIMIT)


def test_html_text_leaves_out_script_style_title_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Page title</title><style>p {color: red}</style>"
        "<script>stealCookies()</script></head><body>"
        "<h1>Remote &amp; hybrid work</h1>"
        "<p>Employees may work\n   from home <b>three days</b> a week.</p><!-- internal note -->"
        "<noscript>Enable JavaScript</noscript><script type='text/plain'>more()</script>"
        "<table><tr><th>Day</th><th>Place</th></tr><tr><td>Monday</td><td>Office</td></tr></table>"
        "</body></html>",
        encoding="utf-8",
    )
    text = extract(path, max_bytes=LIMIT).text
    assert text.split("\n\n") == [
        "Remote & hybrid work",
        "Employees may work from home three days a week.",
        "For Monday, the place is Office.",
    ]


@pytest.mark.parametrize("body", ["https://intranet.example.com/policies", "policies.html"])
def test_html_that_looks_like_a_url_or_file_name_is_still_text(tmp_path: Path, body: str) -> None:
    path = tmp_path / "link.html"
    path.write_text(body, encoding="utf-8")
    assert extract(path, max_bytes=LIMIT).text == body


def test_markdown_keeps_headings_as_lines_and_drops_raw_script(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(
        "# Expenses\n\nSubmit receipts within **30 days**.\n\n- Hotels: 150 euros\n- Meals: 45 euros\n\n"
        "<script>alert('x')</script>\n\n| Item | Limit |\n|---|---|\n| Taxi | 60 |\n",
        encoding="utf-8",
    )
    text = extract(path, max_bytes=LIMIT).text
    assert text.split("\n\n") == [
        "Expenses",
        "Submit receipts within 30 days.",
        "- Expenses: Hotels: 150 euros",
        "- Expenses: Meals: 45 euros",
        "For Taxi, the limit is 60.",
    ]
    assert "alert" not in text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Plain UTF-8: Grüße, 25 €.".encode(), "Plain UTF-8: Grüße, 25 €."),
        ("With BOM: café".encode("utf-8-sig"), "With BOM: café"),
        ("UTF-16 LE: naïve résumé".encode("utf-16"), "UTF-16 LE: naïve résumé"),
        (b"\xfe\xff" + "UTF-16 BE: Straße".encode("utf-16-be"), "UTF-16 BE: Straße"),
        (
            "Windows: \u201cquoted\u201d costs 5 \u20ac \u2013 ok".encode("cp1252"),
            "Windows: \u201cquoted\u201d costs 5 \u20ac \u2013 ok",
        ),
        (b"Latin-1 fallback: \x81 caf\xe9", "Latin-1 fallback: \x81 caf\xe9"),
        (b"Windows\r\nline endings\r\n", "Windows\nline endings\n"),
    ],
    ids=["utf8", "utf8-bom", "utf16le", "utf16be", "cp1252", "latin1", "crlf"],
)
def test_text_encodings_are_detected(tmp_path: Path, raw: bytes, expected: str) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(raw)
    assert extract(path, max_bytes=LIMIT).text == expected


@pytest.mark.parametrize("suffix", [".txt", ".md", ".html"])
def test_hidden_characters_digits_and_odd_spaces_are_stored_plain(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"leave{suffix}"
    path.write_text(
        ('<meta charset="utf-8">' if suffix == ".html" else "")
        + "Staff get 2\u200b5\u00a0days, \u202e\uff11\uff12\u202c weeks or \u0662\u0665\u2009hours.\n",
        encoding="utf-8",
    )
    assert extract(path, max_bytes=LIMIT).text.strip() == "Staff get 25 days, 12 weeks or 25 hours."


def test_binary_garbage_renamed_to_txt_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "photo.txt"
    path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(IngestError, match="photo.txt.*binary"):
        extract(path, max_bytes=LIMIT)


def test_binary_without_nul_bytes_is_refused_by_its_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(bytes(b for b in range(1, 32) if b not in b"\t\n\r\x0b\x0c") * 10 + b"some text")
    with pytest.raises(IngestError, match="blob.txt.*binary"):
        extract(path, max_bytes=LIMIT)


@pytest.mark.parametrize("content", [b"", b"  \n\t \r\n"])
def test_empty_files_are_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(EmptyDocumentError, match="empty.txt"):
        extract(path, max_bytes=LIMIT)


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:  # 100 MB of NUL bytes (sparse): read, it would be refused as binary
        f.truncate(100_000_000)
    with pytest.raises(FileTooLargeError, match=r"huge.txt.*100\.0 MB.*50\.0 MB"):
        extract(path, max_bytes=50_000_000)


@pytest.mark.parametrize("name", ["report.doc", "archive.zip", "README"])
def test_unknown_extensions_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("Some text", encoding="utf-8")
    with pytest.raises(UnsupportedFormatError, match=r"unsupported file type.*supported: \.docx"):
        extract(path, max_bytes=LIMIT)


def test_a_missing_file_is_an_ingest_error(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="gone.txt: no such file"):
        extract(tmp_path / "gone.txt", max_bytes=LIMIT)


# -- text that reads well: headings on their own line, table rows as sentences, no page furniture --


def test_a_pdf_heading_line_gets_a_paragraph_of_its_own(tmp_path: Path) -> None:
    page = (
        "Scope\n"
        "This policy applies to every employee and contractor of the company, in every office and\n"
        "country where the company does business.\n"
        "1.2 Booking\n"
        "All flights are booked through the travel portal at least 14 days before departure."
    )
    text = extract(make_pdf(tmp_path / "policy.pdf", [page]), max_bytes=LIMIT).text
    assert [s.text for s in split_sentences(text)] == [
        "Scope",
        "This policy applies to every employee and contractor of the company, in every office and\n"
        "country where the company does business.",  # a wrapped line still runs on
        "1.2 Booking",
        "All flights are booked through the travel portal at least 14 days before departure.",
    ]


def test_a_line_broken_by_its_author_mid_sentence_is_not_a_heading(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text(
        "Claims above the limit are approved by the\n"
        "Chief Financial Officer in writing, within five working days of the request.\n",
        encoding="utf-8",
    )
    assert len(split_sentences(extract(path, max_bytes=LIMIT).text)) == 1


def test_a_bold_first_line_in_markdown_is_a_heading(tmp_path: Path) -> None:
    path = tmp_path / "policy.md"
    path.write_text(
        "**Scope**\nThis policy applies to all staff.\n\n**Starter**: 9 euros per user.\n", encoding="utf-8"
    )
    assert extract(path, max_bytes=LIMIT).text.split("\n\n") == [
        "Scope",
        "This policy applies to all staff.",
        "Starter: 9 euros per user.",
    ]


def test_a_list_item_keeps_its_number_and_its_heading(tmp_path: Path) -> None:
    # Alone, "Apply the gel to the door" says neither which step it is nor of what: a sentence or a
    # chunk of the list would answer "step 3 of the oven cleaning" with any step of any procedure.
    path = tmp_path / "manual.md"
    path.write_text(
        "## 2.1 Oven cleaning\n\n1. Switch the oven off.\n2. Apply the gel to the door.\n\n"
        "## Department 17\n\n- Requires a signed form.\n- Department 17 closes at noon.\n\n"
        "## Do you sell capsules?\n\n- Yes, in packs of 30.\n",
        encoding="utf-8",
    )
    text = extract(path, max_bytes=LIMIT).text
    assert text.split("\n\n") == [
        "2.1 Oven cleaning",
        "- Oven cleaning, step 1: Switch the oven off.",
        "- Oven cleaning, step 2: Apply the gel to the door.",
        "Department 17",
        "- Department 17: Requires a signed form.",
        "- Department 17 closes at noon.",  # it names its heading already
        "Do you sell capsules?",
        "- Yes, in packs of 30.",  # an FAQ's question is no subject
    ]
    assert "Oven cleaning, step 2: Apply the gel to the door." in [s.text for s in split_sentences(text)]
    html = tmp_path / "steps.html"
    html.write_text("<ol start='4'><li>Rinse twice.</li><li>Refit the racks.</li></ol>", encoding="utf-8")
    assert extract(html, max_bytes=LIMIT).text.split("\n\n") == [
        "- Step 4: Rinse twice.",
        "- Step 5: Refit the racks.",
    ]


def test_table_rows_read_as_sentences(tmp_path: Path) -> None:
    path = tmp_path / "prices.html"
    path.write_text(
        "<table><caption>Prices</caption><tr><th>Service</th><th>Price</th></tr>"
        "<tr><td>Emergency call-out</td><td>GBP 145</td></tr></table>"
        "<table><tr><th>Amount</th><th>Approver</th><th>Working days</th><th>VAT rate</th></tr>"
        "<tr><td>Up to €500</td><td>Line manager</td><td>3</td><td>20%.</td></tr></table>"
        "<table><tr><th>Zone</th><th>Collection day</th></tr><tr><td>C</td><td>Thursday</td></tr></table>",
        encoding="utf-8",
    )
    assert extract(path, max_bytes=LIMIT).text.split("\n\n") == [
        "Prices",
        "For Emergency call-out, the price is GBP 145.",
        "For Up to €500, the approver is Line manager, the working days are 3 and the VAT rate is 20%.",
        "For zone C, the collection day is Thursday.",  # a code names nothing without its column
    ]


def test_navigation_and_page_furniture_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "warranty.html"
    path.write_text(
        "<body><header><a href='/'>Home</a><a href='/shop'>Shop</a><a href='/help'>Support</a></header>"
        "<nav><ul><li>Products</li><li>Contact</li></ul></nav>"
        "<div class='breadcrumbs'>Help &gt; Warranty</div><div role='search'>Search this site</div>"
        "<main><header><h1>Warranty</h1></header><p>The warranty lasts 12 months.</p>"
        "<button>Print this page</button></main>"
        "<aside>Related articles</aside><div id='cookie-banner'>We use cookies</div>"
        "<footer>© 2026 HomeShop Ltd</footer></body>",
        encoding="utf-8",
    )
    text = extract(path, max_bytes=LIMIT).text
    assert text.split("\n\n") == ["Warranty", "The warranty lasts 12 months."]
