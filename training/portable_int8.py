"""Make the int8 model give the same probabilities on every x86-64 CPU.

    python -m training.portable_int8 [rrag/verify/models]

onnxruntime multiplies uint8 activations by int8 weights (U8S8) with `vpmaddubsw` on CPUs without
AVX-512 VNNI / AVX-VNNI: that instruction adds two products into a saturating 16-bit lane, so large
products are clipped and the probabilities drift (up to 0.09 on dev pairs, measured under
qemu-x86_64 -cpu Haswell against a VNNI host). With uint8 weights (U8U8) every CPU path accumulates
in 32 bits, exact everywhere, but costs about 1.5x the CPU time of U8S8 on a VNNI CPU. So the folder
holds both, and a probe (a single MatMulInteger whose products saturate a 16-bit lane) with which
`rrag.backends.onnx.model_file_for_this_cpu` asks the kernels which one this CPU needs. The judge
and the question-passage model are shipped so.

The conversion is lossless: a weight w with zero point z becomes w + 128 with zero point z + 128, and
w - z, what MatMulInteger multiplies by, is unchanged.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from rrag.backends.onnx import INT8_PROBE_FILE
from rrag.verify.nli import MODEL_DIR, MODEL_FILE, PORTABLE_MODEL_FILE

PROBE_WIDTH = 64


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


def int8_probe() -> onnx.ModelProto:
    """uint8 [n, PROBE_WIDTH] x int8 [PROBE_WIDTH, 16] weights all 127: fed 255s, exact kernels give
    255 * 127 * PROBE_WIDTH, saturating ones less."""
    weights = numpy_helper.from_array(np.full((PROBE_WIDTH, 16), 127, dtype=np.int8), "weights")
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["row", "weights"], ["product"])],
        "int8_probe",
        [helper.make_tensor_value_info("row", TensorProto.UINT8, [None, PROBE_WIDTH])],
        [helper.make_tensor_value_info("product", TensorProto.INT32, [None, 16])],
        initializer=[weights],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8  # what onnxruntime 1.31 reads
    return model


def write_portable(
    model_dir: Path, model_file: str = MODEL_FILE, portable_file: str = PORTABLE_MODEL_FILE
) -> int:
    """Write `portable_file` and the probe beside `model_file`; returns the weights converted."""
    model = onnx.load(str(model_dir / model_file))
    count = unsign_weights(model)
    onnx.save(model, str(model_dir / portable_file))
    onnx.save(int8_probe(), str(model_dir / INT8_PROBE_FILE))
    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model_dir", type=Path, nargs="?", default=MODEL_DIR)
    model_dir = ap.parse_args().model_dir
    count = write_portable(model_dir)
    print(f"{count} int8 initializers written as uint8 to {model_dir / PORTABLE_MODEL_FILE}")


if __name__ == "__main__":
    main()
