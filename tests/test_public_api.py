import subprocess
import sys

import rrag


def test_public_surface_is_all() -> None:
    assert sorted(rrag.__all__) == sorted(
        [
            "RISK_PRESETS",
            "ClaimStatus",
            "Decision",
            "IngestResult",
            "Level",
            "RRAGError",
            "ReliableRAG",
            "Report",
            "Settings",
        ]
    )
    for name in rrag.__all__:
        assert getattr(rrag, name) is not None


def test_engine_never_imports_streamlit() -> None:
    code = "import sys, rrag.pipeline, rrag.tools.cli, rrag.tools.demo; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
