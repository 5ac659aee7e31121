"""Stress documents for the ingest memory bounds (issue 11): a long PDF and a DOCX zip bomb.

    python benchmarks/make_stress_docs.py pdf OUT.pdf [PAGES]     # default 2,000 pages of varied text
    python benchmarks/make_stress_docs.py docx-bomb OUT.docx [MB]  # a valid DOCX whose body inflates to MB

Measure an ingest with `/usr/bin/time -v python -m rrag ingest OUT.pdf` ("Maximum resident set size").
The builders live with the test fixtures (tests/fixtures_docs.py), which the memory tests use too.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fixtures_docs import make_docx_bomb, make_long_pdf  # noqa: E402

if __name__ == "__main__":
    kind, out = sys.argv[1], Path(sys.argv[2])
    if kind == "pdf":
        make_long_pdf(out, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    elif kind == "docx-bomb":
        make_docx_bomb(out, int(sys.argv[3]) if len(sys.argv) > 3 else 400)
    else:
        sys.exit(__doc__)
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB")
