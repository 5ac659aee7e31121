"""Train the judge, or the question-passage model, on a lent GPU machine (the `device` tool of this
workplace); the judge by its shipped recipe (training/train_judge.sh: two stages, the hard pairs,
WiCE's train split).

That machine has torch and transformers but no internet, no ../shared, none of rrag's dependencies,
no spaCy and not the base-weights package, and at most 64 MiB travel with the working tree. So the
base weights travel in half precision (45 MB), the training data compressed with the pairs made here
(the hard and structure pairs need spaCy), and the trained weights come back in half precision, in
parts under the 16 MiB a returned file may have. The shipped ONNX files (127 MB: the judge's, the
question-passage model's and the embedder's) must not travel with them: untrack and exclude them for
the call, and restore them after.

    # here: the pairs train_judge.sh makes (training/cache/), then .gpu/ (.gitignore lists it)
    python -m training.gpu bundle .gpu training/cache/hard_pairs-30000-20261122.jsonl \
        training/cache/hard_pairs-10000-20261122.jsonl training/cache/structure_pairs-14000-20261122.jsonl \
        training/cache/wice_train.jsonl
    git rm --cached -q rrag/verify/models/nli-minilm-l6-*int8.onnx rrag/backends/models/*-minilm-l6-*int8.onnx
    # ... and list the six in .git/info/exclude
    # there (device run, carry [".gpu"]): unpack, both stages, held-out accuracy, weights to $OUT
    bash training/gpu_train.sh 1
    # here again: git reset the six files and drop their exclude lines, then join the weights and
    # run train_judge.sh's step 3 (the ship chain) on the joined state.pt
    python -m training.gpu join FILES_AT ~/rrag-train/gpu/state.pt

The question-passage model (training/train_qa.py, issue 45) travels the same way, in a call of its
own (its pairs and the judge's data would not fit in one): its pairs made here, without the NLI mix,
then training/gpu_train_qa.sh there, and the weights joined here for `train_qa --export`:

    python -m training.train_qa --squad train-v2.0.json --squad dev-v2.0.explorer.json \
        --squad train-v1.1.explorer-all.json --own training/qa_own.jsonl \
        --own training/qa_corpus/questions.jsonl --seed 20261206 --write-pairs training/cache/qa_pairs.jsonl
    python -m training.gpu bundle .gpu training/cache/qa_pairs.jsonl --no-mix
    # the ONNX files stay home as above; there (carry [".gpu"]):
    bash training/gpu_train_qa.sh
    # here:
    python -m training.gpu join FILES_AT ~/rrag-train/qa-gpu/state.pt
    python -m training.train_qa --squad ... --layers 6 --out ~/rrag-train/qa-gpu --export
"""

from __future__ import annotations

import argparse
import io
import shutil
import tarfile
from pathlib import Path

import torch

# What a tokenizer and a BertModel load from; the rest of the package is sentence-transformers' own.
BASE_FILES = (
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
)
DATA_ARCHIVE = "shared.tar.xz"
PART_BYTES = 15 * 2**20
PART_PREFIX = "fp16.pt.part"


def bundle(out: Path, pairs: list[Path], mix: bool = True) -> None:
    """Write out/base (the half-precision base model) and out/shared.tar.xz (train/ where `mix`, and
    `pairs` under pairs/ by their names)."""
    from safetensors.torch import load_file, save_file

    from training.data import TRAIN_DIR
    from training.model import BASE_MODEL_DIR

    base = out / "base"
    base.mkdir(parents=True, exist_ok=True)
    for name in BASE_FILES:
        shutil.copy(BASE_MODEL_DIR / name, base / name)
    weights = load_file(BASE_MODEL_DIR / "model.safetensors")
    save_file({k: v.half() for k, v in weights.items()}, base / "model.safetensors")
    with tarfile.open(out / DATA_ARCHIVE, "w:xz", preset=9) as tar:
        if mix:
            tar.add(TRAIN_DIR, arcname="train")
        for path in pairs:
            tar.add(path, arcname=f"pairs/{path.name}")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"{len(pairs)} pair files carried; {out} holds {size / 2**20:.1f} MiB")


def unpack(bundle_dir: Path, out: Path) -> None:
    """out/shared (train/, and pairs/: the pairs made here) and out/base, where RRAG_* point the
    training."""
    with tarfile.open(bundle_dir / DATA_ARCHIVE, "r:xz") as tar:
        tar.extractall(out / "shared", filter="data")
    shutil.copytree(bundle_dir / "base", out / "base", dirs_exist_ok=True)


def weights(state_file: Path, out: Path) -> None:
    """The checkpoint's model weights in half precision, split into parts a returned file may hold."""
    state = torch.load(state_file, map_location="cpu", weights_only=False)
    buffer = io.BytesIO()
    torch.save(
        {
            "model": {k: v.half() for k, v in state["model"].items()},
            "step": state["step"],
            "args": {k: str(v) for k, v in state["args"].items()},
        },
        buffer,
    )
    data = buffer.getvalue()
    out.mkdir(parents=True, exist_ok=True)
    for i, start in enumerate(range(0, len(data), PART_BYTES)):
        (out / f"{PART_PREFIX}{i}").write_bytes(data[start : start + PART_BYTES])


def join(parts_dir: Path, state_file: Path) -> None:
    """A state.pt (float32 model, step, args) that export_onnx, heldout_nli and measure read."""
    parts = sorted(parts_dir.glob(f"{PART_PREFIX}*"), key=lambda p: int(p.name.removeprefix(PART_PREFIX)))
    if not parts:
        raise SystemExit(f"no {PART_PREFIX}* files in {parts_dir}")
    state = torch.load(io.BytesIO(b"".join(p.read_bytes() for p in parts)), weights_only=False)
    state["model"] = {k: v.float() for k, v in state["model"].items()}
    state_file.parent.mkdir(parents=True, exist_ok=True)
    torch.save(state, state_file)
    print(f"step {state['step']}, {len(state['model'])} tensors -> {state_file}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bundle")
    b.add_argument("out", type=Path)
    b.add_argument("pairs", type=Path, nargs="+", help="JSONL pairs to carry (made here)")
    b.add_argument("--no-mix", action="store_true", help="leave the NLI mix (../shared/train) home")
    u = sub.add_parser("unpack")
    u.add_argument("bundle", type=Path)
    u.add_argument("out", type=Path)
    w = sub.add_parser("weights")
    w.add_argument("state", type=Path)
    w.add_argument("out", type=Path)
    j = sub.add_parser("join")
    j.add_argument("parts", type=Path)
    j.add_argument("state", type=Path)
    args = ap.parse_args()
    if args.command == "bundle":
        bundle(args.out, args.pairs, mix=not args.no_mix)
    elif args.command == "unpack":
        unpack(args.bundle, args.out)
    elif args.command == "weights":
        weights(args.state, args.out)
    else:
        join(args.parts, args.state)


if __name__ == "__main__":
    main()
