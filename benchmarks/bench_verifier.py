"""Verifier throughput on 2 CPU cores: claims per second against contexts of at most 512 tokens, peak RSS.

    python benchmarks/bench_verifier.py [--verifier nli|model|lexical|quote|cascade] [--claims 300]
                                        [--data DIR]

Claims and contexts are real dev rows (shared/eval/dev) whose context fits in 512 word-piece tokens;
each claim sentence is checked against its whole context, one verify_many call per row, as the
eval command does. The model is loaded (and warmed up on a few rows) before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rrag.settings import Settings  # noqa: E402
from rrag.tools.verifier_eval import context_chunks, load_rows, make_verifier  # noqa: E402
from rrag.types import Claim  # noqa: E402
from rrag.verify.features import claim_sentences  # noqa: E402
from rrag.verify.nli import MODEL_DIR, TOKENIZER_FILE  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
MAX_CONTEXT_TOKENS = 512
SEED = 7


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--verifier", default="nli", help="a name of rrag/verify/registry.py, or cascade")
    ap.add_argument("--claims", type=int, default=300, help="claim sentences to time")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args()

    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(MODEL_DIR / TOKENIZER_FILE))
    tokenizer.no_truncation()
    rows = [r for path in sorted(args.data.glob("*.jsonl")) for r in load_rows(path)]
    rows = [r for r in rows if len(tokenizer.encode(r.context).ids) <= MAX_CONTEXT_TOKENS]
    random.Random(SEED).shuffle(rows)
    settings = Settings()
    verifier = make_verifier(args.verifier, settings)
    jobs = []
    total = 0
    for row in rows:
        claims = [Claim(s.text, s.start, s.end) for s in claim_sentences(row.claim)]
        jobs.append((claims, context_chunks(row.context, settings.chunk_size), row.question))
        total += len(claims)
        if total >= args.claims:
            break
    for claims, contexts, question in jobs[:3]:  # warm-up: first inference allocates
        verifier.verify_many(claims, contexts, question)

    started = time.perf_counter()
    for claims, contexts, question in jobs:
        verifier.verify_many(claims, contexts, question)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "verifier": args.verifier,
                "rows": len(jobs),
                "claims": total,
                "seconds": round(seconds, 2),
                "claims_per_s": round(total / seconds, 1),
                "peak_rss_mb": round(peak_mb, 1),
                "max_context_tokens": MAX_CONTEXT_TOKENS,
            }
        )
    )


if __name__ == "__main__":
    main()
