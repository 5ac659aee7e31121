"""The import graph of the engine, read from its source: the language data (rrag/lang), the reading
(rrag/text) and the rules (rrag/verify/rules) are rooms of their own, each reading only the rooms
below it, and no module imports another's private names (a name that crosses files is its module's
interface, and public)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RRAG = ROOT / "rrag"


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of each `from rrag... import names` of `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, [a.name for a in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "rrag"
    ]


def test_no_private_name_crosses_files() -> None:
    crossing = [
        f"{path.relative_to(ROOT)}: {module}.{name}"
        for path in sorted(RRAG.rglob("*.py"))
        for module, names in _imports(path)
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not crossing, "\n".join(crossing)


def _rooms_read(room: Path) -> set[str]:
    """The rrag packages the modules of `room` import from (two levels deep: "rrag.text", "rrag.verify")."""
    return {".".join(module.split(".")[:2]) for path in room.rglob("*.py") for module, _ in _imports(path)}


def test_the_language_data_reads_no_code_of_the_engine() -> None:
    assert _rooms_read(RRAG / "lang") == {"rrag.lang"}


def test_the_reading_reads_only_the_language_data() -> None:
    assert _rooms_read(RRAG / "text") == {"rrag.lang", "rrag.text"}


def test_the_rules_read_the_reading_and_no_verifier() -> None:
    rules = RRAG / "verify" / "rules"
    verify = {
        module
        for path in rules.rglob("*.py")
        for module, _ in _imports(path)
        if module.startswith("rrag.verify.") and not module.startswith("rrag.verify.rules")
    }
    assert verify == {"rrag.verify.evidence"}  # where a verdict's evidence is quoted from
    assert _rooms_read(rules) <= {"rrag.lang", "rrag.text", "rrag.types", "rrag.verify"}
