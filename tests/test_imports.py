"""The layout's rules, read from the source with `ast` (README: Layout): pages reach the engine through
`rrag` only, the engine never imports streamlit, rrag's modules import each other without a cycle,
and few modules sit directly in rrag/."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rrag

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]
ENGINE = sorted((REPO / "rrag").rglob("*.py"))

# What pages and app.py may import besides the standard library. From the engine: its root, and the
# tools the CLI shares with the pages (the demo corpus, question-set runs, where the data lives), so
# that the Evaluate page and `python -m rrag evaluate` run the same code; each takes the engine as an
# argument and reaches nothing below it.
PAGE_PACKAGES = {"streamlit", "pandas"}
PAGE_ENGINE_MODULES = {"rrag", "rrag.tools.demo", "rrag.tools.question_sets", "rrag.tools.locations"}
MAX_ENGINE_MODULES = 10  # .py files directly in rrag/ besides __init__ and __main__


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[tuple[ast.stmt, str, list[str]]]:
    """(statement, the absolute module it imports from, the names it takes) of every import in the
    file: at module level, under `if TYPE_CHECKING:` and inside functions alike."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the file's own package
                package = _module_name(path).split(".")
                if path.name != "__init__.py":
                    package = package[:-1]
                base = ".".join(package[: len(package) - node.level + 1])
                module = f"{base}.{module}" if module else base
            yield node, module, [alias.name for alias in node.names]


def _where(path: Path, node: ast.AST) -> str:
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path.name
    return f"{shown}:{getattr(node, 'lineno', '?')}"


def _page_faults(page: Path) -> list[str]:
    """What `page` imports or uses that a page may not."""
    faults = []
    for node, module, names in _imports(page):
        top = module.split(".")[0]
        if top == "rrag":
            if module not in PAGE_ENGINE_MODULES:
                faults.append(f"{_where(page, node)} imports {module}: import it from `rrag`")
            elif module == "rrag" and not set(names) <= set(rrag.__all__):  # `from rrag import store`
                faults.append(f"{_where(page, node)} imports {sorted(set(names) - set(rrag.__all__))}")
        elif not (top == "ui" or top in PAGE_PACKAGES or top in sys.stdlib_module_names):
            faults.append(f"{_where(page, node)} imports {module}")
        if "get_engine" in names:
            faults.append(f"{_where(page, node)} imports get_engine")
    # Pages take the engine as their user may use it (user_engine(): every call checked), never as is.
    for node in ast.walk(ast.parse(page.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "get_engine":
            faults.append(f"{_where(page, node)} uses get_engine")
    return faults


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_import_the_engine_root_ui_helpers_and_display_libraries_only(page: Path) -> None:
    assert _page_faults(page) == []


def test_the_page_rules_find_what_they_forbid(tmp_path: Path) -> None:
    page = tmp_path / "probe.py"
    page.write_text(
        "import chromadb\n"
        "from rrag.store import Store\n"
        "from rrag import Report, store\n"
        "from ui.engine import get_engine\n"
        "import pandas, requests, ui.engine\n"
        "def render():\n"
        "    import openai\n"
        "    ui.engine.get_engine()\n",
        encoding="utf-8",
    )
    assert _page_faults(page) == [
        "probe.py:1 imports chromadb",
        "probe.py:2 imports rrag.store: import it from `rrag`",
        "probe.py:3 imports ['store']",
        "probe.py:4 imports get_engine",
        "probe.py:5 imports requests",
        "probe.py:7 imports openai",
        "probe.py:8 uses get_engine",
    ]


def test_the_engine_never_imports_streamlit() -> None:
    for path in ENGINE:
        for node, module, _ in _imports(path):
            assert module.split(".")[0] != "streamlit", _where(path, node)


def _engine_graph() -> dict[str, set[str]]:
    """Which rrag module imports which, counting every import statement: at module level, under
    `if TYPE_CHECKING:` (a cycle for the type checker is one for the reader too) and inside functions.
    `from rrag.tools import cli` is an import of rrag.tools.cli."""
    modules = {_module_name(path): path for path in ENGINE}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, module, names in _imports(path):
            for imported in names or [""]:
                full = f"{module}.{imported}" if imported else module
                targets.add(full if full in modules else known(module))
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, as the modules along it, or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return []
        path.append(module)
        for target in sorted(graph[module]):
            if found := visit(target):
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if found := visit(module):
            return found
    return []


def test_no_import_cycle_among_the_engine_modules() -> None:
    graph = _engine_graph()
    assert graph["rrag.engine.user"] >= {"rrag.engine.pipeline", "rrag.engine.access"}  # the graph is read
    assert _cycle(graph) == []


def test_a_cycle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_few_modules_sit_directly_in_rrag() -> None:
    modules = [p.name for p in (REPO / "rrag").glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(modules) <= MAX_ENGINE_MODULES, sorted(modules)
