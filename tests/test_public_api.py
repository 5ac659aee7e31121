import importlib
import subprocess
import sys
import types

import pytest


def _public_names(module: types.ModuleType) -> set[str]:
    """What a reader of the module can import: names without a leading underscore that are not
    submodules (a package gains those as attributes when they are imported)."""
    names = vars(module).items()
    return {n for n, v in names if not n.startswith("_") and not isinstance(v, types.ModuleType)}


@pytest.mark.parametrize("name", ["rrag", "rrag.store", "rrag.text"])
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    for public in module.__all__:
        assert getattr(module, public) is not None  # also loads what is imported lazily
    assert sorted(module.__all__) == sorted(_public_names(module))


def test_engine_never_imports_streamlit() -> None:
    # At run time, through any library too; tests/test_imports.py reads rrag's own import statements.
    engine = "rrag.engine.user, rrag.tools.cli, rrag.tools.demo"
    code = f"import sys, {engine}; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_root_loads_neither_the_engine_nor_the_store_until_asked() -> None:
    # `python -m rrag eval` imports the root; the vector index and the database are not its business.
    heavy = "('rrag.engine.pipeline', 'rrag.store', 'chromadb', 'sqlalchemy')"
    code = f"import sys, rrag; print([m for m in {heavy} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_store_only_persists() -> None:
    # Applying reviewers' corrections is the engine's (rrag.audit.corrections); the store keeps what was
    # saved and the reviews, and needs nothing above it.
    above = "('rrag.audit', 'rrag.retrieval', 'rrag.engine.pipeline', 'pandas')"
    code = f"import sys, rrag.store; print(sorted(m for m in sys.modules if m.startswith({above})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
