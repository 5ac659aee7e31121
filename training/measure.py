"""The group-CV table of a judge checkpoint, without shipping it.

    python -m training.measure --checkpoint training/checkpoints/nli-all/state.pt

Exports the checkpoint to a temporary folder, scores every dev claim sentence with it
(fit_calibrator.extract) and cross-validates the combiner on those features
(fit_calibrator.cross_validate), as steps 2-3 of training/README.md would, but leaves
rrag/verify/models/ and training/cache/ as they are. About 3 minutes on 2 idle cores.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from rrag.tools.verifier_eval import format_table
from training.adapt_dev import features_of
from training.fit_calibrator import cross_validate, load_dev
from training.model import load_model


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--checkpoint", type=Path, required=True, help="a state.pt written by train_nli or adapt_dev"
    )
    args = ap.parse_args()
    rows, folds = load_dev()
    with tempfile.TemporaryDirectory() as tmp:
        feats = features_of(load_model(args.checkpoint), rows, Path(tmp))
    print(format_table(cross_validate(rows, folds, feats)))


if __name__ == "__main__":
    main()
