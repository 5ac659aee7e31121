#!/usr/bin/env bash
# The shipped judge's recipe (training/train_judge.sh, stages 1 and 2) on a lent GPU machine, as one call
# of the device tool (training/gpu.py says what travels and why). There, from the repository root, with
# .gpu carried:
#
#     bash training/gpu_train.sh [STAGE1_EPOCHS] [SECONDS]
#
# The same rows in the same order, batches and rates as on the CPU (STAGE1_EPOCHS, default 1, as
# shipped); the pairs come ready-made in .gpu (no spaCy there). On an H100 a step of 64 pairs took about 40 ms (2026-11-27), so
# both stages take minutes. SECONDS (default 480) bounds each stage; its last checkpoint (every 500
# steps) then stands. Writes stage1.log, stage2.log, heldout.txt and the weights' parts to $OUT.
set -uo pipefail
epochs=${1:-1}
limit=${2:-480}
export PYTHONUNBUFFERED=1
python3 -m training.gpu unpack .gpu /tmp/gpu || exit 1
export RRAG_SHARED_DIR=/tmp/gpu/shared RRAG_BASE_MODEL=/tmp/gpu/base
pairs=/tmp/gpu/shared/pairs
wice=$pairs/wice_train.jsonl
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
common=(--threads 8 --save-every 500)
timeout "$limit" python3 -m training.train_nli --out /tmp/stage1 "${common[@]}" \
    --extra "$wice" --extra "$pairs/hard_pairs-30000-20261122.jsonl" --epochs "$epochs" \
    > "$OUT/stage1.log" 2>&1
echo "stage 1 exit $?: $(tail -1 "$OUT/stage1.log")"
timeout "$limit" python3 -m training.train_nli --out /tmp/stage2 "${common[@]}" --init /tmp/stage1/state.pt \
    --mix training/mix_replay.json --extra "$wice" --extra "$pairs/hard_pairs-10000-20261122.jsonl" \
    --extra "$pairs/structure_pairs-14000-20261122.jsonl" --epochs 0.7 --lr 3e-5 \
    > "$OUT/stage2.log" 2>&1
echo "stage 2 exit $?: $(tail -1 "$OUT/stage2.log")"
for len in 128 512; do
    echo "held-out, $len pair tokens:"
    python3 -m training.heldout_nli --checkpoint /tmp/stage2/state.pt --max-len "$len" 2>>"$OUT/heldout.err"
done | tee "$OUT/heldout.txt"
python3 -m training.gpu weights /tmp/stage2/state.pt "$OUT"
