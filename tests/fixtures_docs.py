"""Builders for real test documents (PDF, DOCX, HTML, Markdown, text) and a small HR handbook corpus."""

from __future__ import annotations

import random
import zipfile
from collections.abc import Sequence
from pathlib import Path

# A fictional company's handbook: realistic wording, several topics, so that retrieval can be
# calibrated on related questions phrased differently from the text and on unrelated ones.
HANDBOOK: dict[str, str] = {
    "annual_leave.md": """# Annual leave

Every full-time employee of Northwind Robotics receives 25 days of paid annual leave per calendar year.
Part-time employees receive leave in proportion to their contracted hours.

Leave requests must be submitted in the HR portal at least two weeks in advance. Your line manager
approves or declines a request within five working days.

Up to five unused days may be carried over into the next year. Carried-over days expire on 31 March.
""",
    "sick_leave.txt": """Sick leave

If you are ill, tell your manager before 10:00 on the first day of absence. For absences longer than
three consecutive days, a doctor's certificate is required.

Northwind Robotics pays full salary for up to 20 days of sick leave per year. After that, statutory
sick pay applies.
""",
    "remote_work.html": """<html><head><title>Remote work policy</title></head><body>
<h1>Remote work</h1>
<p>Employees may work from home up to three days per week, subject to their manager's agreement.
Core collaboration hours are 10:00 to 15:00 Central European Time.</p>
<p>The company provides a laptop and a one-off home office allowance of 500 euros for a desk and a
chair. Working from another country requires written approval from HR because of tax rules.</p>
</body></html>""",
    "expenses.md": """# Travel and expenses

Business travel must be booked through the company travel desk. Economy class is the default for
flights under six hours; business class may be booked for longer flights with director approval.

Hotel costs are reimbursed up to 150 euros per night in most cities and up to 220 euros per night
in London, Paris and New York. Meals are covered by a daily allowance of 45 euros.

Submit receipts in the expense tool within 30 days of the trip. Expenses submitted later are not
reimbursed.
""",
    "security.txt": """Information security

Passwords must be at least 14 characters long and must never be shared, not even with IT staff.
Multi-factor authentication is mandatory for email, the HR portal and source code repositories.

Report a lost or stolen laptop to the IT service desk within one hour. Confidential customer data
may only be stored on encrypted company devices and must never be uploaded to personal cloud storage.
""",
    "parental_leave.md": """# Parental leave

Birth mothers receive 16 weeks of fully paid maternity leave. The second parent receives 6 weeks of
fully paid leave, to be taken within the first year after the birth or adoption.

Adoptive parents have the same entitlements as biological parents. Parents may return part-time for
up to six months after their leave ends.
""",
    "performance.txt": """Performance reviews

Performance reviews take place twice a year, in June and December. Each employee agrees three to five
objectives with their manager at the start of the year.

Salary increases are decided once a year in January and are based on the December review. Promotions
require a recommendation from the line manager and approval by the promotion committee.
""",
    "benefits.md": """# Benefits

Northwind Robotics contributes 8 percent of base salary to the company pension plan. Employees may
add voluntary contributions, which the company matches up to a further 2 percent.

All employees are covered by private health insurance from the first day of employment. A yearly
training budget of 1,200 euros per person can be spent on courses, books and conferences.
""",
}

RELATED_QUESTIONS: dict[str, str] = {
    "How many vacation days do full-time staff get each year?": "annual_leave.md",
    "When do I need a medical note for being off sick?": "sick_leave.txt",
    "How often can I work from home?": "remote_work.html",
    "What is the maximum hotel cost per night in London?": "expenses.md",
    "How long must a password be?": "security.txt",
    "How much paid leave does the second parent get?": "parental_leave.md",
    "When are salary raises decided?": "performance.txt",
    "How much does the company pay into my pension?": "benefits.md",
    "Can I carry unused holiday into next year?": "annual_leave.md",
    "What should I do if my laptop is stolen?": "security.txt",
}

UNRELATED_QUESTIONS: tuple[str, ...] = (
    "What is the capital of Mongolia?",
    "How do I bake sourdough bread?",
    "Who won the football World Cup in 2014?",
    "What is the boiling point of nitrogen?",
    "How does photosynthesis work in plants?",
    "What is the distance from the Earth to the Moon?",
    "Recommend a good science fiction novel.",
    "How do I change a bicycle tyre?",
)


def write_handbook(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in HANDBOOK.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def make_pdf(
    path: Path, pages: Sequence[str], *, password: str | None = None, owner_password: str | None = None
) -> Path:
    """A real PDF with one text page per entry (an empty entry is a blank page). `password` is needed
    to open it; `owner_password` alone encrypts it with an empty user password (restrictions only)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.pdfencrypt import StandardEncryption
    from reportlab.pdfgen import canvas

    encrypt = None
    if password is not None or owner_password is not None:
        encrypt = StandardEncryption(password or "", ownerPassword=owner_password or password)
    pdf = canvas.Canvas(str(path), pagesize=A4, encrypt=encrypt)
    for page_text in pages:
        y = 800
        for line in page_text.splitlines():
            pdf.drawString(50, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return path


def make_docx(path: Path, blocks: Sequence[str | list[list[str]]]) -> Path:
    """A real DOCX: a string is a paragraph, a list of rows is a table (kept in this order)."""
    import docx

    document = docx.Document()
    for block in blocks:
        if isinstance(block, str):
            document.add_paragraph(block)
        else:
            table = document.add_table(rows=len(block), cols=len(block[0]))
            for r, row in enumerate(block):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    document.save(str(path))
    return path


# -- stress documents for the memory bounds (also `benchmarks/make_stress_docs.py`) --------------------

STRESS_WORDS = (
    "employee manager contract salary leave travel hotel expense policy approval report deadline budget "
    "laptop security password office visitor training pension insurance bonus review project customer "
    "supplier invoice payment meeting holiday overtime allowance receipt portal request department"
).split()
LINES_PER_PAGE = 45


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(STRESS_WORDS) for _ in range(rng.randint(8, 14))]
    return f"The {' '.join(words)} is {rng.randint(1, 9999)} euros."


def make_long_pdf(path: Path, pages: int, seed: int = 11) -> Path:
    """`pages` pages of distinct sentences (about 4,000 characters each), so near-duplicate removal
    keeps nearly every chunk and the embedder sees the whole text."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    rng = random.Random(seed)
    pdf = canvas.Canvas(str(path), pagesize=A4)
    for _ in range(pages):
        y = 800
        for _ in range(LINES_PER_PAGE):
            pdf.drawString(40, y, _sentence(rng)[:95])
            y -= 17
        pdf.showPage()
    pdf.save()
    return path


def make_docx_bomb(path: Path, inflated_mb: int) -> Path:
    """A well-formed DOCX whose word/document.xml inflates to `inflated_mb` MB (about 1 MB on disk
    per 400 MB inflated): one paragraph of text, then millions of empty paragraphs."""
    head = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        b"<w:p><w:r><w:t>A small memo.</w:t></w:r></w:p>"
    )
    tail = b"</w:body></w:document>"
    parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/'
            '2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
            'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.wordprocessingml.document.main+xml"/></Types>'
        ),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
            'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'
        ),
    }
    block = b"<w:p/>" * (1_000_000 // 6)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(head)
            for _ in range(inflated_mb):
                member.write(block)
            member.write(tail)
    return path
