"""In-domain pairs from WiCE's public *train* split (never its dev or test split, which the eval uses).

WiCE (Kamoi et al. 2023; annotations ODC-BY, text from Wikipedia CC-BY-SA and Common Crawl) publishes
its train split of partially supported sub-claims with the evidence sentences annotators chose
(`data/non_supported_tokens/train.jsonl` of github.com/ryokamoi/wice at commit
ddeb6c183665e2a20c5f03c5aa07f03888b9870f; the full claim-level train file is over the size the
workplace's snapshots carry). Each sub-claim gives one pair per annotator's evidence set: those
sentences as premise, the sub-claim as hypothesis, labelled not entailed (part of it is unstated).

    git -C SNAPSHOT show HEAD:data/non_supported_tokens/train.jsonl > /tmp/wice-train.jsonl
    python -m training.wice_train /tmp/wice-train.jsonl training/cache/wice_train.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from training.data import read_jsonl


def pairs(rows: list[dict]) -> list[dict]:
    out = []
    for row in rows:
        for chosen in row["supporting_sentences"]:
            premise = " ".join(row["evidence"][i].strip() for i in chosen)
            if premise and row["label"] == "partially_supported":
                out.append(
                    {
                        "premise": premise,
                        "hypothesis": row["claim"],
                        "label": "not_entailment",
                        "dataset": "wice_train",
                    }
                )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", type=Path, help="WiCE's data/non_supported_tokens/train.jsonl")
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    made = pairs(read_jsonl(args.source))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in made), encoding="utf-8")
    print(f"{len(made)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
