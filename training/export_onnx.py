"""Export a trained cross-encoder checkpoint to ONNX, quantise it to int8, and ship it with the tokenizer.

    python -m training.export_onnx --checkpoint training/checkpoints/nli/state.pt

Writes rrag/verify/models/nli-minilm-l6-int8.onnx and tokenizer.json; --check compares int8 with
fp32 probabilities on a few pairs so a quantisation that hurts is noticed.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import AutoTokenizer, BatchEncoding

from rrag.verify.nli import MODEL_DIR, MODEL_FILE, TOKENIZER_FILE, CrossEncoder
from training.model import BASE_MODEL_DIR, CrossEncoderModel, load_model
from training.portable_int8 import write_portable

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
CHECK_PAIRS = [
    ("The Eiffel Tower is in Paris and opened in 1889.", "The Eiffel Tower opened in 1889."),
    ("The Eiffel Tower is in Paris and opened in 1889.", "The Eiffel Tower opened in 1925."),
    ("The company reported revenue of 3 million dollars.", "The company has 40 employees."),
]


def export_int8(
    model: torch.nn.Module,
    sample: BatchEncoding,
    path: Path,
    output: str = "logits",
    output_axes: dict[int, str] | None = None,
) -> None:
    """`model` (taking INPUTS, giving `output`, whose dynamic axes are `output_axes`, by default the
    batch) traced on the CPU with `sample` (a tokenised batch) to ONNX, its weights quantised to
    int8, written to `path`."""
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        torch.onnx.export(
            model.cpu().eval(),
            tuple(sample[name] for name in INPUTS),
            str(fp32),
            input_names=list(INPUTS),
            output_names=[output],
            dynamic_axes={name: {0: "batch", 1: "seq"} for name in INPUTS}
            | {output: output_axes or {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
        # Only weight matrices are quantised: attention's activation-by-activation products stay fp32.
        quantize_dynamic(
            str(fp32),
            str(path),
            weight_type=QuantType.QInt8,
            per_channel=True,
            extra_options={"MatMulConstBOnly": True},
        )


def export(model: CrossEncoderModel, out: Path) -> None:
    """Write the int8 ONNX model and the tokenizer into `out` (where CrossEncoder loads them from)."""
    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    out.mkdir(parents=True, exist_ok=True)
    export_int8(model, tokenizer(["a premise"], ["a claim"], return_tensors="pt"), out / MODEL_FILE)
    write_portable(out)  # the uint8 copy for CPUs without VNNI, and its probe (portable_int8.py)
    shutil.copy(BASE_MODEL_DIR / "tokenizer.json", out / TOKENIZER_FILE)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", type=Path, required=True, help="a state.pt written by train_nli")
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    args = ap.parse_args()

    model = load_model(args.checkpoint)
    export(model, args.out)
    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    with torch.no_grad():
        premises, claims = zip(*CHECK_PAIRS)
        enc = tokenizer(list(premises), list(claims), padding=True, return_tensors="pt")
        reference = torch.softmax(model(**enc), dim=-1).numpy()
    quantised = CrossEncoder(args.out).predict(CHECK_PAIRS)
    print("fp32:\n", np.round(reference, 3), "\nint8:\n", np.round(quantised, 3))
    print("max abs difference", float(np.abs(reference - quantised).max()))


if __name__ == "__main__":
    main()
