"""The DOCX and PDF writers of the corpora's build scripts (data/trust/make_corpus.py,
data/leisure/make_corpus.py), which run from the repository root as modules to import them:

    .venv/bin/python -m data.trust.make_corpus
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def write_docx(path: Path, heading: str, intro: str, tables: Sequence[list[list[str]]], closing: str) -> None:
    """A heading, a paragraph, the tables (each a list of rows, the first its header) and a last
    paragraph."""
    import docx

    document = docx.Document()
    document.add_heading(heading, level=1)
    document.add_paragraph(intro)
    for rows in tables:
        table = document.add_table(rows=len(rows), cols=len(rows[0]))
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                table.cell(r, c).text = cell
    document.add_paragraph(closing)
    document.save(str(path))


def write_pdf(path: Path, pages: Sequence[str]) -> None:
    """One A4 page per entry; lines are drawn as written (reportlab does not wrap)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=True)  # invariant: the same bytes every run
    for page in pages:
        y = 800
        for line in page.splitlines():
            pdf.drawString(40, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
