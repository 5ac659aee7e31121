#!/usr/bin/env bash
# The question-passage model (training/train_qa.py) on a lent GPU machine, as one call of the device
# tool (training/gpu.py says what travels and why). There, from the repository root, with .gpu carried
# (its pairs made here by `train_qa --write-pairs`, bundled with --no-mix):
#
#     bash training/gpu_train_qa.sh [LAYERS] [EPOCHS] [SECONDS]
#
# From the base weights, LAYERS of MiniLM's 6 (default 6: on a GPU the depth the CPU could not afford;
# the app's reranking time grows with it), EPOCHS over the pairs (default 1), bounded by SECONDS
# (default 480; the last checkpoint, every 500 steps, then stands). Writes train.log and the weights'
# parts to $OUT; the log ends with the held-out article's ROC AUC.
set -uo pipefail
layers=${1:-6}
epochs=${2:-1}
limit=${3:-480}
export PYTHONUNBUFFERED=1
python3 -m training.gpu unpack .gpu /tmp/gpu || exit 1
export RRAG_BASE_MODEL=/tmp/gpu/base
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
pairs=(/tmp/gpu/shared/pairs/qa_pairs*.jsonl)
timeout "$limit" python3 -m training.train_qa --pairs "${pairs[0]}" --out /tmp/qa --layers "$layers" \
    --epochs "$epochs" --threads 8 --save-every 500 --seed 20261206 > "$OUT/train.log" 2>&1
echo "train_qa exit $?: $(tail -1 "$OUT/train.log")"
python3 -m training.gpu weights /tmp/qa/state.pt "$OUT"
