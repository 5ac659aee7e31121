"""The pinned requirements name each package once (a second pin of the same package drifts apart)."""

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _names(path: Path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [
        re.split(r"[\[=<>~!; ]", line, maxsplit=1)[0].lower()
        for line in lines
        if line and not line.startswith("-")
    ]


def test_each_package_is_pinned_once() -> None:
    names = _names(ROOT / "requirements.txt") + _names(ROOT / "requirements-dev.txt")
    assert [n for n, count in Counter(names).items() if count > 1] == []
