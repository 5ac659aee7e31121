#!/usr/bin/env bash
# The shipped judge from the base weights, seeded, on the CPU (about 2.5 hours on 2 idle cores; the
# steps resume where a run stopped), then the ship chain into rrag/verify/models/. From the repository
# root, with training/requirements.txt installed and a clone of github.com/ryokamoi/wice:
#
#     WICE_REPO=/path/to/wice bash training/train_judge.sh [OUT]
#
# training/README.md says what each step does and which data it reads.
set -euo pipefail
out=${1:-$HOME/rrag-train/judge}
wice=training/cache/wice_train.jsonl
wice_commit=ddeb6c183665e2a20c5f03c5aa07f03888b9870f
py=${PYTHON:-.venv/bin/python}

if [ ! -s "$wice" ]; then
    git -C "${WICE_REPO:?set WICE_REPO to a clone of github.com/ryokamoi/wice}" \
        show "$wice_commit:data/non_supported_tokens/train.jsonl" > /tmp/wice-train.jsonl
    "$py" -m training.wice_train /tmp/wice-train.jsonl "$wice"
fi

# The 30,000 hard pairs stage 1 trained on, as recorded (today's code makes others: training/README.md).
recorded=training/cache/hard_pairs-30000-20261122.jsonl
[ -s "$recorded" ] || xz -dc training/pairs/hard_pairs-30000-20261122.jsonl.xz > "$recorded"

# 1. The NLI mix, 30,000 hard pairs and WiCE's train split: one epoch from the base weights.
nice -n 10 "$py" -m training.train_nli --out "$out/stage1" --hard-pairs 30000 --extra "$wice" --epochs 1
# 2. The structure pairs beside 10,000 hard pairs and a replay of the mix, from stage 1, at a lower rate.
nice -n 10 "$py" -m training.train_nli --out "$out/stage2" --init "$out/stage1/state.pt" \
    --mix training/mix_replay.json --hard-pairs 10000 --structure-pairs 14000 --extra "$wice" \
    --epochs 0.7 --lr 3e-5
# 3. Ship: the int8 ONNX judge and its dev features, the combiner, the stage's CV, the rules' precision.
"$py" -m training.adapt_dev --checkpoint "$out/stage2/state.pt" --epochs 0
"$py" -m training.fit_calibrator
"$py" -m training.guard_cv --rescore
"$py" -m rrag rules --write
