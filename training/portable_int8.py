"""Make the int8 model give the same probabilities on every x86-64 CPU.

    python -m training.portable_int8 rrag/verify/models/nli-minilm-l6-int8.onnx

onnxruntime multiplies uint8 activations by int8 weights (U8S8) with `vpmaddubsw` on CPUs without
AVX-512 VNNI / AVX-VNNI: that instruction adds two products into a saturating 16-bit lane, so large
products are clipped and the probabilities drift (up to 0.09 on dev pairs, measured under
qemu-x86_64 -cpu Haswell against a VNNI host). With uint8 weights (U8U8) every CPU path accumulates
in 32 bits, so the integer products are exact everywhere. The conversion is lossless: a weight w
with zero point z becomes w + 128 with zero point z + 128, and w - z, what MatMulInteger multiplies
by, is unchanged.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper


def unsign_weights(model: onnx.ModelProto) -> int:
    """Rewrite every int8 weight (and its zero point) of a MatMulInteger as uint8; returns how many."""
    initializers = {init.name: init for init in model.graph.initializer}
    converted = set()
    for node in model.graph.node:
        if node.op_type != "MatMulInteger":
            continue
        for name in (node.input[1], node.input[3] if len(node.input) > 3 else ""):
            init = initializers.get(name)
            if init is None or name in converted or init.data_type != TensorProto.INT8:
                continue
            shifted = numpy_helper.to_array(init).astype(np.int16) + 128
            init.CopyFrom(numpy_helper.from_array(shifted.astype(np.uint8), name))
            converted.add(name)
    return len(converted)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", type=Path, help="an int8 ONNX model, rewritten in place")
    path = ap.parse_args().model
    model = onnx.load(str(path))
    count = unsign_weights(model)
    onnx.save(model, str(path))
    print(f"{count} int8 initializers rewritten as uint8 in {path}")


if __name__ == "__main__":
    main()
