"""The checklist's arithmetic: rates per capability of a split, its targets, and the table that
prints the splits side by side (rrag/tools/checklist.py runs them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, NOT_VERIFIED, PairResult
from rrag.types import ClaimStatus

OVERALL = "overall"
SHARES = ("never_supported", "contradicted", "invented_never_supported", "faithful_supported")
SHARE_LABELS = {
    "never_supported": "contradiction pairs never labelled supported",
    "contradicted": "contradiction pairs labelled contradicted",
    "invented_never_supported": "invented facts never labelled supported",
    "faithful_supported": "faithful controls labelled supported",
}
SHARE_HEADS = {
    "never_supported": "never",
    "contradicted": "contra",
    "invented_never_supported": "invent",
    "faithful_supported": "control",
}
SUPPORTED = ClaimStatus.SUPPORTED.value


@dataclass
class Rates:
    pairs: int = 0
    contradictions: int = 0
    never_supported: int = 0  # contradictions not labelled supported
    contradicted: int = 0  # contradictions labelled contradicted
    invented: int = 0
    invented_never_supported: int = 0  # invented facts not labelled supported
    faithful: int = 0
    supported: int = 0  # faithful controls labelled supported
    not_verified: int = 0
    domains: int = 0

    def share(self, name: str) -> float | None:
        hits, total = {
            "never_supported": (self.never_supported, self.contradictions),
            "contradicted": (self.contradicted, self.contradictions),
            "invented_never_supported": (self.invented_never_supported, self.invented),
            "faithful_supported": (self.supported, self.faithful),
        }[name]
        return hits / total if total else None


def summarise(results: Sequence[PairResult]) -> dict[str, Rates]:
    """Counts per capability (in the order the results first name them) and OVERALL."""
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
                rates.never_supported += r.status != SUPPORTED
                rates.contradicted += r.status == ClaimStatus.CONTRADICTED.value
            elif r.pair.kind == FAITHFUL:
                rates.faithful += 1
                rates.supported += r.status == SUPPORTED
            else:
                rates.invented += 1
                rates.invented_never_supported += r.status != SUPPORTED
    for name, rates in by_name.items():
        rates.domains = len(domains[name])
    order = [name for name in by_name if name != OVERALL] + [OVERALL]
    return {name: by_name[name] for name in order if name in by_name}


def meets_targets(results: Sequence[PairResult], targets: Mapping[str, float]) -> dict[str, bool]:
    """Each target met over all `results`; and every claim verified (a verifier that could not run
    must not pass by never saying supported)."""
    overall = summarise(results).get(OVERALL, Rates())
    met = {}
    for name, target in targets.items():
        share = overall.share(name)
        met[name] = share is not None and share >= target
    met["all_verified"] = overall.pairs > 0 and overall.not_verified == 0
    return met


@dataclass(frozen=True)
class Split:
    """One split's verdicts and the targets it is held to."""

    name: str
    results: Sequence[PairResult]
    targets: Mapping[str, float]


def format_splits(splits: Sequence[Split]) -> str:
    """Rates per capability, the splits side by side (a capability a split lacks shows "-"), the
    targets under each split, PASS or FAIL; then one line per target."""
    summaries = [summarise(s.results) for s in splits]
    names = list(dict.fromkeys(n for summary in summaries for n in summary if n != OVERALL)) + [OVERALL]
    block = 6 + 8 * len(SHARES)

    def line(first: str, blocks: Sequence[str]) -> str:
        return f"{first:<14}" + "".join(f"  {b:<{block}}" for b in blocks).rstrip()

    def cells(pairs: object, values: Sequence[str]) -> str:
        return f"{pairs!s:>6}" + "".join(f"{v:>8}" for v in values)

    def share(rates: Rates | None, name: str) -> str:
        value = rates.share(name) if rates else None
        return "-" if value is None else f"{value:.1%}"

    lines = [line("", [f"{s.name} split" for s in splits])]
    lines.append(line("capability", [cells("pairs", [SHARE_HEADS[n] for n in SHARES]) for _ in splits]))
    for name in names:
        if name == OVERALL:
            lines.append("-" * len(lines[-1]))
        row = []
        for summary in summaries:
            rates = summary.get(name)
            row.append(cells(rates.pairs if rates else "-", [share(rates, n) for n in SHARES]))
        lines.append(line(name, row))
    met = [meets_targets(s.results, s.targets) for s in splits]
    lines.append(
        line(
            "target",
            [cells("", [f">={s.targets[n]:.0%}" if n in s.targets else "" for n in SHARES]) for s in splits],
        )
    )
    lines.append(
        line("", [cells("", [("PASS" if m[n] else "FAIL") if n in m else "" for n in SHARES]) for m in met])
    )
    lines.append(
        line("not verified", [f"{summary.get(OVERALL, Rates()).not_verified:>6}" for summary in summaries])
    )
    lines.append("")
    lines.append("  ".join(f"{SHARE_HEADS[n]}: {SHARE_LABELS[n]}" for n in SHARES[:2]))
    lines.append("  ".join(f"{SHARE_HEADS[n]}: {SHARE_LABELS[n]}" for n in SHARES[2:]))
    lines.append("")
    for s, summary, m in zip(splits, summaries, met):
        overall = summary.get(OVERALL, Rates())
        lines.extend(
            f"{'PASS' if m[n] else 'FAIL'}  {s.name} split: {SHARE_LABELS[n]}: {share(overall, n)} "
            f"(target >= {target:.0%})"
            for n, target in s.targets.items()
        )
        lines.append(
            f"{'PASS' if m['all_verified'] else 'FAIL'}  {s.name} split: every claim verified "
            f"({overall.not_verified} not verified)"
        )
    return "\n".join(lines)
