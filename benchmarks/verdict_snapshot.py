"""Every verdict, reason and feature of the offline verifier, written to one file, to show that a change
moved code without changing what it decides.

    python benchmarks/verdict_snapshot.py write OUT.jsonl [--model N|all]; ... compare A.jsonl B.jsonl

For each dev row (../shared/eval/dev/*.jsonl, cut into chunks as `rrag eval` cuts them) and each
checklist pair (`rrag checklist`'s pairs, as it retrieves them): the lexical rules' verdict and the
evidence kind it rests on (`LexicalVerifier.assess`, on the whole claim and on each claim sentence),
the quote stage's verdict, the conflict detector's and (for a row with a question) the relevance
check's finding, and the combiner's features of each claim sentence (`NLIVerifier.score_sentences`
with a judge that answers one fixed probability: every feature but the judge's own is the rules' and
the features' reading). The app's default offline stage ("nli": the judge guarded by the rules) runs
on every checklist pair, and on the first N rows of each dev set (`--model`; the judge is slow on two
cores). One JSON line per item, keys sorted, floats as Python writes them: two snapshots of the same
code on the same machine are byte-identical, and `compare` names the first items that differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rrag.audit import relevance  # noqa: E402
from rrag.settings import Settings  # noqa: E402
from rrag.tools import checklist  # noqa: E402
from rrag.tools.verifier_eval import Row, context_chunks, load_rows  # noqa: E402
from rrag.types import Claim, RetrievedChunk, Verdict  # noqa: E402
from rrag.verify import conflicts  # noqa: E402
from rrag.verify.features import claim_sentences  # noqa: E402
from rrag.verify.lexical import LexicalVerifier  # noqa: E402
from rrag.verify.nli import NLIVerifier  # noqa: E402
from rrag.verify.quote import QuoteVerifier  # noqa: E402
from rrag.verify.registry import VERIFIERS  # noqa: E402

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
FIXED_PROBABILITIES = (0.5, 0.3, 0.2)  # the stand-in judge's (entailment, neutral, contradiction)


class _FixedJudge:
    """A judge that gives every pair the same probabilities: the features without the model's time."""

    def start(self, pairs: Sequence[tuple[str, str]]) -> Callable[[], np.ndarray]:
        rows = np.array([FIXED_PROBABILITIES] * len(pairs), dtype=np.float32).reshape(len(pairs), 3)
        return lambda: rows


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def _assessed(found: Sequence[tuple[Verdict, str | None]]) -> list[dict[str, Any]]:
    return [{"verdict": _plain(verdict), "kind": kind} for verdict, kind in found]


class Snapshot:
    def __init__(self) -> None:
        self.rules = LexicalVerifier()
        self.quote = QuoteVerifier()
        self.features = NLIVerifier(calibrator=None)
        self.features.encoder = _FixedJudge()  # type: ignore[assignment]
        self._stage: Any = None

    @property
    def stage(self) -> Any:  # loaded only where the model stage runs
        if self._stage is None:
            self._stage = VERIFIERS.create("nli", Settings())
        return self._stage

    def item(self, contexts: list[RetrievedChunk], claim: str, question: str, model: bool) -> dict[str, Any]:
        whole = Claim(claim, 0, len(claim))
        sentences = [Claim(s.text, s.start, s.end) for s in claim_sentences(claim)]
        scored = self.features.score_sentences([claim], contexts, question)[0]
        out: dict[str, Any] = {
            "rules": _assessed(self.rules.assess([whole], contexts)),
            "rules_by_sentence": _assessed(self.rules.assess(sentences, contexts)),
            "quote": _plain(self.quote.verify(whole, contexts, question)),
            "conflict": conflicts.disagreement(claim, contexts),
            "features": [
                {"span": _plain(s.span), "features": _plain(s.features), "window": _window(s)} for s in scored
            ],
        }
        if question:
            out["relevance"] = _plain(relevance.assess(question, [s.text for s in sentences]))
        if model:
            out["nli"] = _plain(self.stage.verify_many([whole], contexts, question)[0])
        return out


def _window(score: Any) -> list[Any] | None:
    w = score.support_window
    return None if w is None else [w.chunk.chunk_id, w.span.start, w.span.end]


def _dev_rows() -> Iterator[tuple[str, Row]]:
    for path in sorted(DEV.glob("*.jsonl")):
        for row in load_rows(path):
            yield path.stem, row


def write(out: Path, model_rows: int | None) -> None:
    snap = Snapshot()
    settings = Settings()
    started = time.monotonic()
    counts = {"dev": 0, "dev_model": 0, "checklist": 0}
    seen: dict[str, int] = {}
    with out.open("w", encoding="utf-8") as f:

        def emit(key: str, record: dict[str, Any]) -> None:
            f.write(json.dumps({"id": key, **record}, sort_keys=True, ensure_ascii=True) + "\n")

        for dataset, row in _dev_rows():
            seen[dataset] = seen.get(dataset, 0) + 1
            model = model_rows is None or seen[dataset] <= model_rows
            contexts = context_chunks(row.context, settings.chunk_size)
            emit(f"dev:{row.id}", snap.item(contexts, row.claim, row.question, model))
            counts["dev"] += 1
            counts["dev_model"] += model
            if counts["dev"] % 500 == 0:
                print(
                    f"dev {counts['dev']} rows, {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        dev_done = time.monotonic()
        offline = checklist.default_offline_verifier()
        for pair in checklist.generate():
            contexts = checklist.pair_contexts(pair)
            record = snap.item(contexts, pair.claim, "", model=True)
            record["cascade"] = _plain(offline.verify(Claim(pair.claim, 0, len(pair.claim)), contexts))
            emit(f"checklist:{pair.id}", record)
            counts["checklist"] += 1
    checklist_s = time.monotonic() - dev_done
    print(
        f"{counts['dev']} dev rows ({counts['dev_model']} through the model stage) in "
        f"{dev_done - started:.0f} s, {counts['checklist']} checklist pairs in {checklist_s:.0f} s",
        file=sys.stderr,
    )


def compare(a: Path, b: Path, shown: int = 5) -> int:
    ours, theirs = a.read_text(encoding="utf-8").splitlines(), b.read_text(encoding="utf-8").splitlines()
    differ = [(x, y) for x, y in zip(ours, theirs) if x != y]
    print(f"{len(ours)} vs {len(theirs)} items; {len(differ)} differ")
    for x, y in differ[:shown]:
        left, right = json.loads(x), json.loads(y)
        keys = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
        print(f"{left['id']}: {', '.join(keys)}")
        for k in keys:
            print(f"  - {json.dumps(left.get(k))[:400]}\n  + {json.dumps(right.get(k))[:400]}")
    return int(bool(differ) or len(ours) != len(theirs))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out", type=Path)
    w.add_argument("--model", default="all", help="dev rows per set through the model stage (or 'all')")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.command == "write":
        write(args.out, None if args.model == "all" else int(args.model))
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    raise SystemExit(main())
