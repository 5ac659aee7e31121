"""`python -m rrag checklist`: a behavioural test suite for the verifier (CheckList-style).

Generated minimal pairs (templates in rrag/tools/checklist_templates.py): an evidence passage, a claim,
and what the claim is: a contradiction (a flipped negation, another number, a swapped name or role, a
value moved to the other qualifier), or a faithful control of the same sentence (synonyms, reordering,
passive voice, a range that contains the value), so that flagging everything cannot pass. Each claim
is verified alone by the app's default offline verifier, built as the pipeline builds it, against the
evidence as one retrieved chunk and an unrelated distractor chunk. Printed per capability: for
contradictions, the share never labelled supported and the share labelled contradicted; for controls,
the share labelled supported; beside the targets.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from random import Random
from typing import Any

from rrag.errors import ConfigError
from rrag.settings import Settings
from rrag.tools.checklist_templates import TEMPLATES, Template, Value, capitalised
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.base import Verifier

DEFAULT_SEED = 0
FILLS_PER_TEMPLATE = 3
CONTRADICTION = "contradiction"
FAITHFUL = "faithful"
NOT_VERIFIED = "not_verified"
OVERALL = "overall"
# The targets for the default offline stage (share of pairs, 0..1).
TARGETS = {"never_supported": 0.97, "contradicted": 0.85, "faithful_supported": 0.90}
TARGET_LABELS = {
    "never_supported": "contradiction pairs never labelled supported",
    "contradicted": "contradiction pairs labelled contradicted",
    "faithful_supported": "faithful controls labelled supported",
}
# Retrieved beside the evidence: on no template's topic, and with no number in it.
DISTRACTORS = [
    "The visitor centre has a gift shop near the main entrance.",
    "Volunteers guide walking tours of the old town in summer.",
    "The newsletter is sent to subscribers by email.",
    "Questions about accessibility can be sent to the front desk.",
    "The garden is planted with native shrubs and wild flowers.",
    "Feedback forms are available at the reception.",
]


@dataclass(frozen=True)
class Pair:
    id: str
    capability: str
    domain: str
    kind: str  # CONTRADICTION or FAITHFUL
    evidence: str
    claim: str
    distractor: str

    @property
    def expected(self) -> str:
        return ClaimStatus.CONTRADICTED.value if self.kind == CONTRADICTION else ClaimStatus.SUPPORTED.value


@dataclass(frozen=True)
class PairResult:
    pair: Pair
    status: str  # the verdict's status, or NOT_VERIFIED when no stage could decide
    verifier: str
    confidence: float
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self.pair) | {
            "expected": self.pair.expected,
            "status": self.status,
            "verifier": self.verifier,
            "confidence": round(self.confidence, 4),
            "reason": self.reason,
        }


# --------------------------------------------------------------------------------------------
# Generation


def capabilities() -> list[str]:
    return list(dict.fromkeys(t.capability for t in TEMPLATES))


def generate(seed: int = DEFAULT_SEED, fills: int = FILLS_PER_TEMPLATE) -> list[Pair]:
    """Every template filled `fills` times (distinct evidence), each fill giving its contradictions
    and its faithful controls. The same seed gives the same pairs, and each template's fills depend
    on the seed and the template only: a template added or changed leaves the others' pairs alone."""
    pairs: list[Pair] = []
    for number, template in enumerate(TEMPLATES):
        rng = Random(f"{seed}:{template.capability}:{template.evidence}")
        seen: set[str] = set()
        for _ in range(fills * 20):  # small vocabularies: retry a fill whose evidence came out before
            if len(seen) == fills:
                break
            values = _fill(template, rng)
            evidence = template.evidence.format(**values)
            if evidence in seen:
                continue
            seen.add(evidence)
            distractor = rng.choice(DISTRACTORS)
            for kind, claims in ((CONTRADICTION, template.contradictions), (FAITHFUL, template.faithful)):
                for k, claim in enumerate(claims):
                    pairs.append(
                        Pair(
                            f"{template.capability}-{number}-{len(seen)}-{kind[0]}{k}",
                            template.capability,
                            template.domain,
                            kind,
                            evidence,
                            claim.format(**values),
                            distractor,
                        )
                    )
    return pairs


def _fill(template: Template, rng: Random) -> dict[str, Value]:
    values: dict[str, Value] = {}
    for name, slot in template.slots.items():
        values[name] = slot(rng, values) if callable(slot) else rng.choice(slot)  # type: ignore[assignment]
    return capitalised(values)


# --------------------------------------------------------------------------------------------
# Running


def default_offline_verifier() -> Verifier:
    """The verifier the pipeline builds from default settings with no LLM: its offline cascade."""
    from rrag.verify.cascade import build_verifier  # loads the model: only when run

    settings = Settings()
    offline = tuple(name for name in settings.verifiers if name != "llm")
    return build_verifier(settings.replace(verifiers=offline), llm=None)


def run_pairs(pairs: Iterable[Pair], verifier: Verifier) -> list[PairResult]:
    results = []
    for pair in pairs:
        contexts = [_chunk(pair.evidence, 0, 1.0), _chunk(pair.distractor, 1, 0.5)]
        verdict = verifier.verify(Claim(pair.claim, 0, len(pair.claim)), contexts)
        status = verdict.status.value if verdict.verified else NOT_VERIFIED
        results.append(PairResult(pair, status, verdict.verifier, verdict.confidence, verdict.reason))
    return results


def _chunk(text: str, ordinal: int, score: float) -> RetrievedChunk:
    chunk = Chunk(f"checklist-{ordinal}", f"doc-{ordinal}", f"passage {ordinal + 1}", text, 0, len(text))
    return RetrievedChunk(chunk, score=score)


# --------------------------------------------------------------------------------------------
# Rates


@dataclass
class Rates:
    pairs: int = 0
    contradictions: int = 0
    never_supported: int = 0  # contradictions not labelled supported
    contradicted: int = 0  # contradictions labelled contradicted
    faithful: int = 0
    supported: int = 0  # faithful controls labelled supported
    not_verified: int = 0
    domains: int = 0

    def share(self, name: str) -> float | None:
        hits, total = {
            "never_supported": (self.never_supported, self.contradictions),
            "contradicted": (self.contradicted, self.contradictions),
            "faithful_supported": (self.supported, self.faithful),
        }[name]
        return hits / total if total else None


def summarise(results: Sequence[PairResult]) -> dict[str, Rates]:
    """Counts per capability (in template order) and OVERALL."""
    by_name: dict[str, Rates] = defaultdict(Rates)
    domains: dict[str, set[str]] = defaultdict(set)
    for r in results:
        for name in (r.pair.capability, OVERALL):
            rates = by_name[name]
            domains[name].add(r.pair.domain)
            rates.pairs += 1
            rates.not_verified += r.status == NOT_VERIFIED
            if r.pair.kind == CONTRADICTION:
                rates.contradictions += 1
                rates.never_supported += r.status != ClaimStatus.SUPPORTED.value
                rates.contradicted += r.status == ClaimStatus.CONTRADICTED.value
            else:
                rates.faithful += 1
                rates.supported += r.status == ClaimStatus.SUPPORTED.value
    for name, rates in by_name.items():
        rates.domains = len(domains[name])
    order = [c for c in capabilities() if c in by_name] + [OVERALL]
    return {name: by_name[name] for name in order if name in by_name}


def meets_targets(results: Sequence[PairResult]) -> dict[str, bool]:
    """Each target met over all `results`; and every claim verified (a verifier that could not run
    must not pass by never saying supported)."""
    overall = summarise(results).get(OVERALL, Rates())
    met = {}
    for name, target in TARGETS.items():
        share = overall.share(name)
        met[name] = share is not None and share >= target
    met["all_verified"] = overall.pairs > 0 and overall.not_verified == 0
    return met


def format_table(results: Sequence[PairResult]) -> str:
    """Rates per capability and overall, then the targets beside the overall figures, PASS or FAIL."""

    def row(*cells: object) -> str:
        widths = (14, 7, 5, 6, 11, 12, 8, 10, 12)
        return " ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths)))

    def cell(rates: Rates, name: str) -> str:
        share = rates.share(name)
        return "-" if share is None else f"{share:.1%}"

    shares = ("never_supported", "contradicted", "faithful_supported")
    head = row(
        "capability",
        "domains",
        "pairs",
        "contra",
        "never sup.",
        "contradicted",
        "faithful",
        "supported",
        "not verified",
    )
    lines = [head]
    summary = summarise(results)
    for name, r in summary.items():
        if name == OVERALL:
            lines.append("-" * len(head))
        never, contra, supported = (cell(r, s) for s in shares)
        lines.append(
            row(
                name,
                r.domains,
                r.pairs,
                r.contradictions,
                never,
                contra,
                r.faithful,
                supported,
                r.not_verified,
            )
        )
    met = meets_targets(results)
    never, contra, supported = (f">={TARGETS[s]:.0%}" for s in shares)
    lines.append(row("target", "", "", "", never, contra, "", supported, "0"))
    never, contra, supported = ("PASS" if met[s] else "FAIL" for s in shares)
    lines.append(row("", "", "", "", never, contra, "", supported, "PASS" if met["all_verified"] else "FAIL"))
    overall = summary.get(OVERALL, Rates())
    lines.append("")
    lines.extend(
        f"{'PASS' if met[s] else 'FAIL'}  {TARGET_LABELS[s]}: {cell(overall, s)} (target >= {TARGETS[s]:.0%})"
        for s in shares
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Command


def register(subparsers: Any) -> None:
    """Add the `checklist` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "checklist",
        help="behavioural tests of the verifier: generated minimal pairs, rates per capability",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--capability",
        action="append",
        metavar="NAME",
        help=f"only this capability (repeatable); one of {', '.join(capabilities())}",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the slot filling (default 0)")
    p.add_argument("--json", type=Path, metavar="OUT", help="write every pair and its verdict to OUT as JSON")
    p.set_defaults(handler=_cmd_checklist)


def _cmd_checklist(args: argparse.Namespace) -> int:
    wanted = args.capability or capabilities()
    unknown = sorted(set(wanted) - set(capabilities()))
    if unknown:
        raise ConfigError(f"unknown capability {', '.join(unknown)}; choose from {', '.join(capabilities())}")
    pairs = [p for p in generate(args.seed) if p.capability in wanted]
    verifier = default_offline_verifier()
    stages = " -> ".join(s.name for s in getattr(verifier, "stages", [verifier]))
    print(
        f"Behavioural checklist: {len(pairs)} pairs, seed {args.seed}, default offline verifier ({stages})\n"
    )
    results = run_pairs(pairs, verifier)
    print(format_table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "seed": args.seed,
            "targets": TARGETS,
            "met": meets_targets(results),
            "rates": {name: asdict(rates) for name, rates in summarise(results).items()},
            "pairs": [r.to_dict() for r in results],
        }
        args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0
