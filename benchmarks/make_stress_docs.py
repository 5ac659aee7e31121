"""Stress documents for the ingest memory bounds (issue 11): a long PDF and a DOCX zip bomb.

    python benchmarks/make_stress_docs.py pdf OUT.pdf [PAGES]     # default 2,000 pages of varied text
    python benchmarks/make_stress_docs.py docx-bomb OUT.docx [MB]  # a valid DOCX whose body inflates to MB

Measure an ingest with `/usr/bin/time -v python -m rrag ingest OUT.pdf` ("Maximum resident set size").
"""

from __future__ import annotations

import random
import sys
import zipfile
from pathlib import Path

WORDS = (
    "employee manager contract salary leave travel hotel expense policy approval report deadline budget "
    "laptop security password office visitor training pension insurance bonus review project customer "
    "supplier invoice payment meeting holiday overtime allowance receipt portal request department"
).split()
LINES_PER_PAGE = 45


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 14))]
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
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        "<w:p><w:r><w:t>A small memo.</w:t></w:r></w:p>"
    ).encode()
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


if __name__ == "__main__":
    kind, out = sys.argv[1], Path(sys.argv[2])
    if kind == "pdf":
        make_long_pdf(out, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    elif kind == "docx-bomb":
        make_docx_bomb(out, int(sys.argv[3]) if len(sys.argv) > 3 else 400)
    else:
        sys.exit(__doc__)
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB")
