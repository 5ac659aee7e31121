"""`python -m rrag rules`: how often each rule of the verifier fires, and how precise it is, on text the
team did not write (issue 43 item 3: a rule below 97 % precision gives no hard verdict).

A rule fires on a claim when it finds evidence against any of the claim's sentences (as the guard over
the judge lets hard evidence decide a whole claim: rrag/verify/guarded.py). It is counted two ways:
- alone: its detector asked of every claim sentence, whatever the order (a record rule of the retrieved
  texts, a window rule of the sentence's `Comparison`, a sentence rule of each sentence of its window);
- first: the rule the rules' verdict on a sentence rests on, in the order (`LexicalVerifier.decided`),
  the verdict the guard reads.
Its precision is the share of the claims it fires on that are not supported: on the dev sets
(../shared/eval/dev, each row's claim against its context cut into chunks as `rrag eval` cuts it) a
label other than "supported"; on HANS (../shared/eval/stress/hans.jsonl) a non-entailment; on the
checklist's splits (`rrag checklist`, each claim against its evidence and a distractor) a contradiction
or an invented fact, not a faithful control. Where a source labels contradictions (some dev sets, the
splits), the share of its fires on contradicted claims too (printed for the dev sets; all in `--json`).
The dev sets, HANS and the paraphrase split are pooled; the template split is the team's own text and
is shown apart.

A rule is "hard ok" where it fires alone on at least MIN_FIRES pooled claims with a pooled precision of
at least HARD_PRECISION. `--write` records each rule's pooled precision in the registry's data
(rrag/verify/rules/precision.json, read into `Rule.precision`); it changes no rule's policy.
"""

from __future__ import annotations

import argparse
import json
import textwrap
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rrag.errors import ConfigError
from rrag.settings import Settings
from rrag.tools import checklist, paraphrase_split
from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, Pair
from rrag.tools.progress import ProgressLine
from rrag.tools.verifier_eval import context_chunks, load_rows
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.features import claim_sentences
from rrag.verify.lexical import LexicalVerifier, compared
from rrag.verify.rules import RULES, Rule
from rrag.verify.rules.base import (
    ALWAYS,
    HARD_PRECISION,
    MEASURED,
    MIN_FIRES,
    NEVER,
    RECORDS,
    WINDOW,
    Comparison,
)

DEV = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "dev"
DEV_SETS, HANS, PARAPHRASE, TEMPLATE = "dev", "HANS", "paraphrase", "template"
POOLED = (DEV_SETS, HANS, PARAPHRASE)  # text the team did not write
SUPPORTED = ClaimStatus.SUPPORTED.value
CONTRADICTED = ClaimStatus.CONTRADICTED.value


@dataclass(frozen=True)
class Item:
    """A claim to read the rules on, and what it is."""

    source: str  # DEV_SETS, HANS, PARAPHRASE or TEMPLATE
    subset: str  # its dev set, HANS heuristic or checklist capability
    claim: str
    contexts: tuple[RetrievedChunk, ...]
    not_supported: bool
    contradicted: bool | None  # None where its source does not label contradictions


@dataclass
class Fires:
    """The claims a rule fires on, and what they are."""

    claims: int = 0
    not_supported: int = 0
    labelled: int = 0  # of a source that labels contradictions
    contradicted: int = 0

    def add(self, item: Item) -> None:
        self.claims += 1
        self.not_supported += item.not_supported
        self.labelled += item.contradicted is not None
        self.contradicted += bool(item.contradicted)

    def __iadd__(self, other: Fires) -> Fires:
        self.claims += other.claims
        self.not_supported += other.not_supported
        self.labelled += other.labelled
        self.contradicted += other.contradicted
        return self

    @property
    def precision(self) -> float | None:
        return self.not_supported / self.claims if self.claims else None

    @property
    def contradicted_share(self) -> float | None:
        return self.contradicted / self.labelled if self.labelled else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"precision": self.precision, "contradicted_share": self.contradicted_share}


@dataclass
class Counted:
    """One rule's fires on a set of claims, alone and first in the order."""

    alone: Fires = field(default_factory=Fires)
    first: Fires = field(default_factory=Fires)

    def __iadd__(self, other: Counted) -> Counted:
        self.alone += other.alone
        self.first += other.first
        return self

    def to_dict(self) -> dict[str, Any]:
        return {"alone": self.alone.to_dict(), "first": self.first.to_dict()}


@dataclass
class Tally:
    """Every rule's fires, per source and per subset of it, and the claims of each source."""

    claims: dict[str, Fires] = field(default_factory=lambda: defaultdict(Fires))  # every claim of a source
    by_subset: dict[str, dict[str, dict[str, Counted]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(Counted)))
    )  # rule -> source -> subset -> fires

    def add(self, item: Item, alone: Iterable[str], first: Iterable[str]) -> None:
        self.claims[item.source].add(item)
        for name in alone:
            self.by_subset[name][item.source][item.subset].alone.add(item)
        for name in first:
            self.by_subset[name][item.source][item.subset].first.add(item)

    def of(self, rule: str, sources: Iterable[str]) -> Counted:
        """A rule's fires on `sources` together."""
        total = Counted()
        for source in sources:
            for counted in self.by_subset[rule][source].values():
                total += counted
        return total

    def pooled(self, rule: str) -> Counted:
        return self.of(rule, POOLED)


def verdict(pooled: Fires) -> str:
    """Whether a rule's pooled fires alone are precise enough to stay hard evidence."""
    if pooled.claims < MIN_FIRES:
        return "too few fires"
    assert pooled.precision is not None
    return "hard ok" if pooled.precision >= HARD_PRECISION else f"below {HARD_PRECISION:.0%}"


# --------------------------------------------------------------------------------------------
# The claims


def dev_items(folder: Path, settings: Settings, sample: int | None = None) -> Iterator[Item]:
    """Each dev set's rows (the first `sample` of each), cut into chunks as `rrag eval` cuts them."""
    paths = sorted(folder.glob("*.jsonl"))
    if not paths:
        raise ConfigError(f"no dev sets (*.jsonl) in {folder}: give --dev DIR")
    for path in paths:
        rows = load_rows(path)
        labels_contradictions = any(row.label == CONTRADICTED for row in rows)
        for row in rows[:sample]:
            yield Item(
                DEV_SETS,
                row.dataset,
                row.claim,
                tuple(context_chunks(row.context, settings.chunk_size)),
                row.label != SUPPORTED,
                row.label == CONTRADICTED if labels_contradictions else None,
            )


def hans_items(path: Path, settings: Settings, sample: int | None = None) -> Iterator[Item]:
    if not path.is_file():
        raise ConfigError(f"no HANS file at {path}: give --hans PATH")
    for row in load_rows(path)[:sample]:
        contexts = tuple(context_chunks(row.context, settings.chunk_size))
        yield Item(HANS, row.heuristic, row.claim, contexts, row.label != SUPPORTED, None)


def split_items(source: str, pairs: Sequence[Pair], sample: int | None = None) -> Iterator[Item]:
    """A checklist split's pairs (the first `sample`), each retrieved as `rrag checklist` retrieves it."""
    for pair in pairs[:sample]:
        contexts = tuple(checklist.pair_contexts(pair))
        yield Item(
            source, pair.capability, pair.claim, contexts, pair.kind != FAITHFUL, pair.kind == CONTRADICTION
        )


# --------------------------------------------------------------------------------------------
# Reading the rules


_DECIDING = LexicalVerifier()  # reads the records too, as the guard's rules do


def fired(item: Item) -> tuple[set[str], set[str]]:
    """The rules that find evidence against any of the claim's sentences, asked alone; and those that
    decide the verdict on any of them, in the order."""
    sentences = [Claim(s.text, s.start, s.end) for s in claim_sentences(item.claim)]
    first = {rule.name for _, rule in _DECIDING.decided(sentences, item.contexts) if rule is not None}
    chunks = tuple(rc.chunk for rc in item.contexts)
    alone = {rule.name for s in sentences for rule in RULES if fires_alone(rule, s.text, chunks)}
    return alone, first


def fires_alone(rule: Rule, sentence: str, chunks: tuple[Chunk, ...]) -> bool:
    """Whether `rule` finds evidence against one claim sentence, whatever the rules before it find. The
    sentence's comparison is the verdict's own (kept per text), read once for every rule."""
    if rule.scope == RECORDS:
        return rule.detect(sentence, tuple(chunk.text for chunk in chunks)) is not None
    comparison = compared(sentence, chunks)
    if not isinstance(comparison, Comparison):  # nothing retrieved, or nothing in the claim to compare
        return False
    if rule.scope == WINDOW:
        return rule.detect(comparison) is not None
    return any(rule.detect(pair) is not None for pair in comparison.pairs)


def tally(items: Iterable[Item], progress: ProgressLine | None = None, total: int = 0) -> Tally:
    counts = Tally()
    for done, item in enumerate(items, 1):
        counts.add(item, *fired(item))
        if progress is not None and (done % 500 == 0 or done == total):
            progress.update(done, total, item.source)
    return counts


# --------------------------------------------------------------------------------------------
# Output


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _bound(rule: Rule) -> str:
    if rule.hard:
        return "-"
    return {ALWAYS: "always", NEVER: "never"}.get(rule.overrules_below, f"{rule.overrules_below:.2f}")


def _cells(counted: Counted, contra: bool) -> list[str]:
    fires = f"{counted.alone.claims}/{counted.first.claims}"
    precision = f"{_share(counted.alone.precision)}/{_share(counted.first.precision)}"
    return [fires, precision, *([_share(counted.alone.contradicted_share)] if contra else [])]


def format_table(counts: Tally, sources: Sequence[str]) -> str:
    """One row per rule, by rank: its policy, then per source its fires (alone/first) and their precision
    in % (alone/first), and on the dev sets the share of its fires alone on contradicted claims (of the
    sets that label them); the pooled figures and the verdict on them; the template split apart."""
    shown = [*(s for s in POOLED if s in sources), "pooled", *(s for s in sources if s not in POOLED)]
    head = ["rank", "rule", "kind", "scope", "hard", "bound"]
    for source in shown:
        head += [f"{source}{'*' if source == TEMPLATE else ''} fires", "prec %"]
        head += ["contra %"] if source == DEV_SETS else ["verdict"] if source == "pooled" else []
    rows = [head]
    for rule in RULES:
        row = [str(rule.rank), rule.name, rule.kind, rule.scope, "yes" if rule.hard else "no", _bound(rule)]
        for source in shown:
            counted = counts.pooled(rule.name) if source == "pooled" else counts.of(rule.name, [source])
            row += _cells(counted, contra=source == DEV_SETS)
            row += [verdict(counted.alone)] if source == "pooled" else []
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    left = {1, 2, 3}  # rule, kind, scope
    return "\n".join(
        "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in rows
    )


def format_claims(counts: Tally, sources: Sequence[str]) -> str:
    parts = []
    for source in sources:
        c = counts.claims[source]
        contra = f", {c.contradicted} contradicted" if c.labelled else ""
        marked = " (*written by the team)" if source == TEMPLATE else ""
        parts.append(f"{source}{marked} {c.claims} claims ({c.not_supported} not supported{contra})")
    return "; ".join(parts)


def document(counts: Tally, sources: Sequence[str], settings: Mapping[str, Any]) -> dict[str, Any]:
    """The whole table, with each rule's fires per subset of each source."""
    return {
        "settings": dict(settings),
        "pooled": list(POOLED),
        "hard_precision": HARD_PRECISION,
        "min_fires": MIN_FIRES,
        "claims": {source: counts.claims[source].to_dict() for source in sources},
        "rules": [
            {
                "rank": rule.rank,
                "rule": rule.name,
                "kind": rule.kind,
                "scope": rule.scope,
                "hard": rule.hard,
                "overrules_below": rule.overrules_below,
                "verdict": verdict(counts.pooled(rule.name).alone),
                "pooled": counts.pooled(rule.name).to_dict(),
                "sources": {
                    source: counts.of(rule.name, [source]).to_dict()
                    | {
                        "by_subset": {
                            subset: counted.to_dict()
                            for subset, counted in sorted(counts.by_subset[rule.name][source].items())
                        }
                    }
                    for source in sources
                },
            }
            for rule in RULES
        ],
    }


def _rounded(share: float | None) -> float | None:
    return None if share is None else round(share, 4)


def precision_record(counts: Tally) -> dict[str, Any]:
    """What the registry keeps of the measure (rrag/verify/rules/precision.json)."""
    return {
        "about": "each rule's precision asked alone of every claim sentence of the dev sets, HANS and the "
        "paraphrase split, and the claims it fired on; written by python -m rrag rules --write",
        "rules": {
            rule.name: {
                "precision": _rounded(counts.pooled(rule.name).alone.precision),
                "fires": counts.pooled(rule.name).alone.claims,
            }
            for rule in RULES
        },
    }


# --------------------------------------------------------------------------------------------
# Command


def register(subparsers: Any) -> None:
    """Add the `rules` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "rules",
        help="each rule's fires and precision on the dev sets, HANS and the checklist's splits",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--dev", type=Path, default=DEV, metavar="DIR", help=f"the dev sets (default {DEV})")
    p.add_argument(
        "--hans", type=Path, default=checklist.HANS, metavar="PATH", help=f"HANS (default {checklist.HANS})"
    )
    p.add_argument("--seed", type=int, default=checklist.DEFAULT_SEED, help="seed of the checklist's splits")
    p.add_argument(
        "--sample", type=int, metavar="N", help="only the first N claims of each file and split (for tests)"
    )
    p.add_argument("--json", type=Path, metavar="OUT", help="write the whole table to OUT as JSON")
    p.add_argument(
        "--write", action="store_true", help=f"record each rule's pooled precision in {MEASURED.name}"
    )
    p.set_defaults(handler=_cmd_rules)


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.sample is not None and args.sample < 1:
        raise ConfigError(f"--sample must be at least 1, not {args.sample}")
    if args.write and args.sample is not None:
        raise ConfigError("--write records the whole measure: leave out --sample")
    settings = Settings()  # the defaults, not the environment's: the registry records the app's default
    items = [
        *dev_items(args.dev, settings, args.sample),
        *hans_items(args.hans, settings, args.sample),
        *split_items(PARAPHRASE, paraphrase_split.generate(args.seed), args.sample),
        *split_items(TEMPLATE, checklist.generate(args.seed), args.sample),
    ]
    sources = [DEV_SETS, HANS, PARAPHRASE, TEMPLATE]
    started = time.monotonic()
    counts = tally(items, ProgressLine("claims"), len(items))
    seconds = time.monotonic() - started
    about = [
        "The rules' fires and precision (% of the claims fired on that are not supported), alone (each rule "
        "asked of every claim sentence) / first (the rule the verdict rests on, in the order); "
        f"{len(items)} claims read in {seconds:.0f} s.",
        f"{format_claims(counts, sources)}.",
        f"Pooled: {' + '.join(POOLED)}; verdict: 'hard ok' where the pooled precision alone is at least "
        f"{HARD_PRECISION:.0%} over at least {MIN_FIRES} fires. *template: text the team wrote, not pooled.",
    ]
    print("\n".join(textwrap.fill(paragraph, 110) for paragraph in about) + "\n")
    print(format_table(counts, sources))
    if args.json:
        measured = {"seed": args.seed, "sample": args.sample, "chunk_size": settings.chunk_size}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(document(counts, sources, measured), indent=2, ensure_ascii=False)
        args.json.write_text(text + "\n", encoding="utf-8")
    if args.write:
        MEASURED.write_text(json.dumps(precision_record(counts), indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote each rule's pooled precision to {MEASURED}")
    return 0
