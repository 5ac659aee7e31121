"""Rates per heuristic of a stress test such as HANS (../shared/eval/stress/hans.jsonl): for each
heuristic, how often a non-entailed claim was judged right (not labelled supported) and how often
an entailed one was (labelled supported). `python -m rrag eval` and `python -m rrag checklist`
print them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rrag.types import ClaimStatus

# The targets for the app's default offline stage, in every heuristic.
TARGETS = {"non_entailment": 0.70, "entailment": 0.90}
LABELS = {"non_entailment": "non-entailment judged right", "entailment": "entailment judged right"}
KNOWN_ORDER = ("lexical_overlap", "subsequence", "constituent")  # HANS's own order
SUPPORTED = ClaimStatus.SUPPORTED.value


@dataclass
class HeuristicRates:
    entailment: int = 0
    entailment_right: int = 0  # entailed claims labelled supported
    non_entailment: int = 0
    non_entailment_right: int = 0  # claims not entailed, and not labelled supported

    def share(self, side: str) -> float | None:
        hits, total = {
            "entailment": (self.entailment_right, self.entailment),
            "non_entailment": (self.non_entailment_right, self.non_entailment),
        }[side]
        return hits / total if total else None


def by_heuristic(judged: Iterable[tuple[str, str, str]]) -> dict[str, HeuristicRates]:
    """(heuristic, gold label, verdict status) -> counts per heuristic. A gold "supported" is an
    entailment, judged right when the verdict is supported; any other gold label is a non-entailment,
    judged right when the verdict is anything but supported (unsupported, partial, contradicted, not
    verified). HANS's heuristics come first in its own order, others as first seen."""
    rates: dict[str, HeuristicRates] = {}
    for heuristic, label, status in judged:
        r = rates.setdefault(heuristic, HeuristicRates())
        if label == SUPPORTED:
            r.entailment += 1
            r.entailment_right += status == SUPPORTED
        else:
            r.non_entailment += 1
            r.non_entailment_right += status != SUPPORTED
    order = [h for h in KNOWN_ORDER if h in rates] + [h for h in rates if h not in KNOWN_ORDER]
    return {h: rates[h] for h in order}


def meets_targets(
    rates: Mapping[str, HeuristicRates], targets: Mapping[str, float] = TARGETS
) -> dict[str, bool]:
    """Each target met in every heuristic (none measured: not met)."""
    met = {}
    for side, target in targets.items():
        shares = [r.share(side) for r in rates.values()]
        met[side] = bool(shares) and all(s is not None and s >= target for s in shares)
    return met


def format_heuristics(rates: Mapping[str, HeuristicRates], targets: Mapping[str, float] = TARGETS) -> str:
    """One row per heuristic (pairs and share judged right on each side), the targets, PASS or FAIL."""

    def share(r: HeuristicRates, side: str) -> str:
        value = r.share(side)
        return "-" if value is None else f"{value:.1%}"

    def row(*cells: object) -> str:
        return f"{cells[0]!s:<16}" + "".join(f"{c!s:>10}" for c in cells[1:])

    lines = [row("heuristic", "non-ent.", "right", "entail.", "right")]
    for name, r in rates.items():
        lines.append(
            row(name, r.non_entailment, share(r, "non_entailment"), r.entailment, share(r, "entailment"))
        )
    lines.append(
        row("target", "", f">={targets['non_entailment']:.0%}", "", f">={targets['entailment']:.0%}")
    )
    met = meets_targets(rates, targets)
    for side, target in targets.items():
        shares = {name: value for name, r in rates.items() if (value := r.share(side)) is not None}
        lowest = min(shares.values(), default=None)
        at_lowest = ", ".join(name for name, value in shares.items() if value == lowest)
        said = "not measured" if lowest is None else f"lowest {lowest:.1%} ({at_lowest})"
        lines.append(
            f"{'PASS' if met[side] else 'FAIL'}  {LABELS[side]} >= {target:.0%} in every heuristic: {said}"
        )
    return "\n".join(lines)
