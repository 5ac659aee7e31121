#!/usr/bin/env bash
# The judge's full run on a lent GPU machine, as one call of the device tool (training/gpu.py says what
# travels and why). There, from the repository root, with .gpu carried:
#
#     bash training/gpu_train.sh EPOCHS [SECONDS]
#
# On an H100 a step of 64 pairs took about 40 ms (24.6 steps/s over 3 epochs, 2,714 steps each), so
# 3 epochs train in about 6 minutes. SECONDS (default 480) stops a run that would outlast the call; the
# last checkpoint (every 500 steps) then comes back. Writes train.log, heldout.txt and the weights'
# parts to $OUT.
set -uo pipefail
epochs=${1:?epochs}
export PYTHONUNBUFFERED=1
python3 -m training.gpu unpack .gpu /tmp/gpu || exit 1
export RRAG_SHARED_DIR=/tmp/gpu/shared RRAG_BASE_MODEL=/tmp/gpu/base
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
timeout "${2:-480}" python3 -m training.train_nli --out /tmp/nli --mix training/mix_full.json \
    --extra /tmp/gpu/shared/context_pairs.jsonl --batch 64 --lr 6e-5 --max-len 256 --train-embeddings \
    --threads 8 --epochs "$epochs" --save-every 500 > "$OUT/train.log" 2>&1
echo "training exit $?: $(tail -2 "$OUT/train.log" | tr '\n' ' ')"
for len in 128 512; do
    echo "held-out, $len pair tokens:"
    python3 -m training.heldout_nli --checkpoint /tmp/nli/state.pt --max-len "$len" 2>>"$OUT/heldout.err"
done | tee "$OUT/heldout.txt"
python3 -m training.gpu weights /tmp/nli/state.pt "$OUT"
