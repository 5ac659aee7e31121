"""The model a CPU runs gives the exact-arithmetic probabilities, whatever its int8 kernels do.

On a CPU without VNNI the int8 weights saturate a 16-bit lane (max |dP| 0.094 on dev pairs under
qemu's Haswell), so that CPU must run the uint8 copy; on one with VNNI the faster int8 copy gives the
same numbers. Either way the chosen model agrees with the uint8 one, whose products are exact
everywhere."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from rrag.backends.onnx import INT8_PROBE_FILE, model_file_for_this_cpu
from rrag.verify.nli import MODEL_DIR, MODEL_FILE, PORTABLE_MODEL_FILE, CrossEncoder

PAIRS = [
    ("The Eiffel Tower is in Paris and opened in 1889.", "The Eiffel Tower opened in 1889."),
    ("The Eiffel Tower is in Paris and opened in 1889.", "The Eiffel Tower opened in 1925."),
    (
        "Passwords must be at least 14 characters long and are changed every 90 days.",
        "Remote access always requires multi-factor authentication.",
    ),
]


def test_the_model_this_cpu_runs_agrees_with_the_exact_one() -> None:
    chosen = model_file_for_this_cpu(MODEL_DIR, MODEL_FILE, PORTABLE_MODEL_FILE)
    assert chosen in (MODEL_FILE, PORTABLE_MODEL_FILE)
    exact = CrossEncoder(threads=1, model_file=PORTABLE_MODEL_FILE).predict(PAIRS)
    ran = CrossEncoder(threads=1).predict(PAIRS)
    assert np.abs(ran - exact).max() < 1e-3, chosen


def test_a_model_folder_without_the_probe_runs_its_one_model(tmp_path: Path) -> None:
    for item in MODEL_DIR.iterdir():
        if item.name not in (INT8_PROBE_FILE, PORTABLE_MODEL_FILE):
            shutil.copy(item, tmp_path / item.name)
    assert model_file_for_this_cpu(tmp_path, MODEL_FILE, PORTABLE_MODEL_FILE) == MODEL_FILE
    assert CrossEncoder(tmp_path, threads=1).predict(PAIRS[:1]).shape == (1, 3)


def test_pairs_run_side_by_side_keep_their_order_and_their_probabilities() -> None:
    one_at_a_time = CrossEncoder(threads=1)
    alone = np.vstack([one_at_a_time.predict([pair]) for pair in PAIRS])
    side_by_side = CrossEncoder(threads=2).predict(PAIRS * 3)
    assert np.array_equal(side_by_side, np.vstack([alone] * 3))
    assert len({tuple(row) for row in alone}) == len(PAIRS)  # distinct pairs: an order mix-up would show
