"""Language data lives in rrag/lang/: the reading (rrag/text), the rules (rrag/verify) and the relevance
check spell no word list of their own, so that a word is added in one place and a language could be
added beside English. Read from the modules' source: a set, list, tuple or dict of three or more
plain words, a string of three or more words split into a list, or a regular expression that
alternates three or more words, outside rrag/lang/, fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_MODULES = sorted(
    [
        *(ROOT / "rrag" / "text").rglob("*.py"),
        *(ROOT / "rrag" / "verify").rglob("*.py"),
        ROOT / "rrag" / "audit" / "relevance.py",
    ]
)
# Names the code gives its own labels, not words it reads in a text: (module, the name assigned).
LABELS = {
    ("rrag/text/__init__.py", "__all__"),
    ("rrag/text/values.py", "_CASES"),  # the axes of a value's qualifiers
    ("rrag/text/values.py", "_AMOUNTS_OF"),  # measures of rrag.lang.en.units.BASE_UNITS
    ("rrag/verify/nli.py", "LABELS"),  # the judge's classes
    ("rrag/verify/nli.py", "_features"),  # the combiner's features, by name
    ("rrag/verify/registry.py", "VERIFIERS"),  # the verifiers, by name
}
_WORD = re.compile(r"[A-Za-z][a-z]*(?:'[a-z]+)?$")
_ALTERNATION = re.compile(r"[A-Za-z][a-z]*\??\s?(?:\|[A-Za-z][a-z ]*\??){2,}")


def _is_word(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(_WORD.match(node.value))


def _word_lists(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) of each word list spelt in `tree`, but in labels (`LABELS`, and names unpacked from
    a tuple of strings: `A, B = "a", "b"`)."""
    labelled: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
            labelled |= {id(e) for e in ast.walk(node.value)}
    found = []
    for node in ast.walk(tree):
        if id(node) in labelled:
            continue
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and sum(map(_is_word, node.elts)) >= 3:
            found.append((node.lineno, "a literal of words"))
        elif isinstance(node, ast.Dict) and sum(map(_is_word, node.keys)) >= 3:
            found.append((node.lineno, "a dict of words"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "split"
            and not node.args
            and isinstance(node.func.value, ast.Constant)
            and len(str(node.func.value.value).split()) >= 3
        ):
            found.append((node.lineno, "words split from a string"))
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and _ALTERNATION.search(node.value)
        ):
            found.append((node.lineno, f"a pattern of words: {_ALTERNATION.search(node.value).group()!r}"))
    return found


def _labelled_lines(tree: ast.Module, module: str) -> set[int]:
    """The lines of the assignments and functions `LABELS` names in `module`."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.AnnAssign, ast.FunctionDef)):
            target = node.target if isinstance(node, ast.AnnAssign) else node
            names = [target.id if isinstance(target, ast.Name) else getattr(target, "name", "")]
        if any((module, name) in LABELS for name in names):
            lines |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def test_rule_modules_spell_no_word_list_of_their_own() -> None:
    spelt = []
    for path in RULE_MODULES:
        module = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        labelled = _labelled_lines(tree, module)
        spelt += [f"{module}:{line}: {what}" for line, what in _word_lists(tree) if line not in labelled]
    assert not spelt, "word lists belong in rrag/lang/en:\n" + "\n".join(spelt)


def test_the_check_finds_each_kind_of_word_list() -> None:
    source = """
A = frozenset({"mon", "tue", "wed"})
B = "monday tuesday wednesday".split()
C = {"daily": "day", "weekly": "week", "monthly": "month"}
D = re.compile(r"\\b(?:open|opens|opening)\\b")
E, F, G = "one", "two", "three"
"""
    found = [what for _, what in sorted(_word_lists(ast.parse(source)))]
    assert found == [
        "a literal of words",
        "words split from a string",
        "a dict of words",
        "a pattern of words: 'open|opens|opening'",
    ]


def test_language_data_is_where_the_readers_find_it() -> None:
    lang = ROOT / "rrag" / "lang" / "en"
    assert {"antonyms.tsv", "related.json.gz", "WORDNET-LICENSE"} <= {p.name for p in lang.iterdir()}
    assert not list((ROOT / "rrag" / "verify").rglob("*.tsv")) and not list(
        (ROOT / "rrag" / "verify").rglob("*.gz")
    )
