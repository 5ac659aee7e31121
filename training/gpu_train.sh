#!/usr/bin/env bash
# The judge's full run on a lent GPU machine, as one call of the device tool (training/gpu.py says what
# travels and why). There, from the repository root, with .gpu carried:
#
#     bash training/gpu_train.sh SECONDS
#
# SECONDS is the training's share of the call. The run is planned to fit it: a short run of the same
# settings times the steps, and the epochs follow from that rate (at most 4), so the learning rate
# decays to zero within the call. It writes train.log, heldout.txt and the weights' parts to $OUT.
set -uo pipefail
budget=${1:-400}
export PYTHONUNBUFFERED=1
python3 -m training.gpu unpack .gpu /tmp/gpu || exit 1
export RRAG_SHARED_DIR=/tmp/gpu/shared RRAG_BASE_MODEL=/tmp/gpu/base
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
args=(--mix training/mix_full.json --extra /tmp/gpu/shared/context_pairs.jsonl --batch 64 --lr 6e-5
    --max-len 256 --train-embeddings --threads 8)

python3 -m training.train_nli --out /tmp/calibrate "${args[@]}" --epochs 0.08 --save-every 100000 \
    | tee /tmp/calibrate.log | grep -v "^step" || exit 1
rate=$(grep -o '[0-9.]* steps/s' /tmp/calibrate.log | tail -1 | cut -d' ' -f1)
total=$(grep -o '^[0-9]* rows' /tmp/calibrate.log | cut -d' ' -f1)
epochs=$(python3 -c "print(min(4.0, round(0.9 * $budget * $rate * 64 / $total, 2)))")
echo "calibration: $rate steps/s, $total rows: $epochs epochs"

timeout $((budget + 60)) python3 -m training.train_nli --out /tmp/nli "${args[@]}" --epochs "$epochs" \
    --save-every 500 > "$OUT/train.log" 2>&1
echo "training exit $?: $(tail -2 "$OUT/train.log" | tr '\n' ' ')"
for len in 128 512; do
    echo "held-out, $len pair tokens:"
    python3 -m training.heldout_nli --checkpoint /tmp/nli/state.pt --max-len "$len" 2>>"$OUT/heldout.err"
done | tee "$OUT/heldout.txt"
python3 -m training.gpu weights /tmp/nli/state.pt "$OUT"
ls -la "$OUT"
