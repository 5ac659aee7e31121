"""What every rule shares: the `Rule` entry and its policy, the registry `RULES` in policy order, and
what a rule reads and finds at each of its three scopes.

A rule reads (`scope`)
- RECORDS: the claim against the retrieved texts as they are (a structured record's facts), before any
  evidence is aligned; it finds a `RecordClash`;
- WINDOW: the claim against its best evidence window and the rest of the retrieved text (a
  `Comparison`); it finds a `Verdict`;
- SENTENCE: the claim against one sentence of that window (a `Pair`); it finds a `Contrast`. A run of
  sentence rules next to each other in the order is asked of one sentence before the next.

The first rule in the order (`rank`) that finds something decides; the rank of each is the policy the
dev data was measured with (docs/verifier.md). A rule is declared hard evidence (its contradiction
stands against any model: rrag/verify/guarded.py) or names up to which P(supported) of the model it
overrules a yes; the rules of one kind share one policy, since a verdict carries its kind only. Either
holds only where the kind was measured precise on text the team did not write (`Rules.trusted`,
precision.json); else its finding is a sign the combiner reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby
from pathlib import Path
from typing import NamedTuple, TypeVar, cast

from rrag.text import split_sentences, stem, words
from rrag.text.reading import Reading, read
from rrag.types import ClaimStatus, ValueClash, Verdict
from rrag.verify.evidence import evidence_at
from rrag.verify.rules.compared import Statement, Window, share, single_sentences, stated_terms, weighted


@dataclass(frozen=True)
class RecordClash:
    """A record rule's finding: a yes/no fact of a structured record the claim says the other way."""

    claim: str  # the part of the claim that says the opposite
    text: int  # which of the texts states the fact
    start: int  # where that text writes it ('"valet": false', '"Monday": "5:0-17:0"')
    end: int


NAME = "lexical"  # the verifier the rules' verdicts are of
RECORDS, WINDOW, SENTENCE = "records", "window", "sentence"
NEVER, ALWAYS = -1.0, 1.01  # bounds on P(supported): a finding that never / always overrules a yes
SUPPORTED_COVERAGE = 0.8  # share of the claim's (weighted) content words the evidence must hold
PARTIAL_COVERAGE = 0.6  # below this the evidence is about something else


@dataclass(frozen=True)
class Rule:
    kind: str  # the evidence it finds, which a verdict rests on ("value", "another thing")
    rank: int  # its place in the order: lower is asked first
    scope: str  # RECORDS, WINDOW or SENTENCE
    detect: Callable[..., object]
    hard: bool  # its contradiction is hard evidence, decided before any model is asked
    overrules_below: float  # up to which P(supported) of the model it overrules a yes (ALWAYS if hard)
    # The share of the claims it fires on that are not supported, asked alone of every claim sentence
    # of the dev sets, HANS and the checklist's paraphrase split (`python -m rrag rules --write`
    # writes it to precision.json); None where it was never measured or never fired.
    precision: float | None = None
    fires: int = 0  # on how many of those claims it fired

    @property
    def name(self) -> str:
        return self.detect.__name__


class Rules:
    """The rules in the order they are asked, and each kind's policy."""

    def __init__(self) -> None:
        self._rules: list[Rule] = []

    def add(self, rule: Rule) -> None:
        """Take `rule` in its place; refused where its kind has another policy or its rank is taken."""
        if rule.hard and rule.overrules_below != ALWAYS:
            raise ValueError(f"rule {rule.name}: a hard rule always overrules")
        same_kind = self.policy(rule.kind) if rule.kind in self.kinds() else None
        if same_kind and (same_kind.hard, same_kind.overrules_below) != (rule.hard, rule.overrules_below):
            raise ValueError(f"rule {rule.name}: the rules of kind {rule.kind!r} have another policy")
        if any(r.rank == rule.rank for r in self._rules):
            raise ValueError(f"rule {rule.name}: rank {rule.rank} is taken")
        if any(r.name == rule.name for r in self._rules):
            raise ValueError(f"rule {rule.name}: another rule has that name")  # its measures go by name
        self._rules = sorted([*self._rules, rule], key=lambda r: r.rank)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def of(self, scope: str) -> list[Rule]:
        return [r for r in self._rules if r.scope == scope]

    def runs(self, *scopes: str) -> list[tuple[str, list[Rule]]]:
        """The rules of `scopes` (of every scope by default) in order, as runs of one scope: (scope,
        its rules)."""
        kept = [r for r in self._rules if not scopes or r.scope in scopes]
        return [(scope, list(run)) for scope, run in groupby(kept, key=lambda r: r.scope)]

    def kinds(self) -> list[str]:
        return list(dict.fromkeys(r.kind for r in self._rules))

    def policy(self, kind: str) -> Rule:
        """The first rule of `kind`, whose policy every rule of it shares."""
        found = next((r for r in self._rules if r.kind == kind), None)
        if found is None:
            raise KeyError(f"no rule finds evidence of kind {kind!r}")
        return found

    def trusted(self, kind: str) -> bool:
        """Whether the rules of `kind` were measured precise enough to overrule a model: on text the
        team did not write, at least HARD_PRECISION of the claims they fire on (MIN_FIRES at least)
        are not supported."""
        rules = [r for r in self._rules if r.kind == kind]
        fires = sum(r.fires for r in rules)
        right = sum(r.fires * (r.precision or 0.0) for r in rules)
        return fires >= MIN_FIRES and right >= HARD_PRECISION * fires

    def bound(self, kind: str) -> float:
        """Up to which P(supported) of the model evidence of `kind` overrules a yes: its policy where
        it was measured precise (`trusted`), else never (the finding is then a sign the combiner reads,
        and tells a contradiction from an unsupported claim the model already rejects)."""
        return self.policy(kind).overrules_below if self.trusted(kind) else NEVER

    def hard_kinds(self) -> frozenset[str]:
        """The kinds whose contradiction no model may overrule: hard by their policy, and trusted."""
        return frozenset(k for k in self.kinds() if self.policy(k).hard and self.trusted(k))

    def overrules_below(self) -> dict[str, float]:
        """Each kind that is not hard evidence, and up to which P(supported) of the model it overrules
        a yes."""
        hard = self.hard_kinds()
        return {kind: self.bound(kind) for kind in self.kinds() if kind not in hard}

    def remove(self, rule: Rule) -> None:
        self._rules.remove(rule)


# A rule's finding stands against the model only where it was measured this precise, on at least this
# many claims of text the team did not write (the dev sets, HANS, the paraphrase split).
HARD_PRECISION = 0.97
MIN_FIRES = 20
RULES = Rules()
F = TypeVar("F", bound=Callable[..., object])
MEASURED = Path(__file__).with_name("precision.json")  # each rule's measures, by its name


def measured_precision() -> dict[str, tuple[float | None, int]]:
    """Each measured rule's precision and fires, as `python -m rrag rules --write` wrote them last."""
    if not MEASURED.is_file():
        return {}
    rules = json.loads(MEASURED.read_text(encoding="utf-8"))["rules"]
    return {name: (measures["precision"], measures["fires"]) for name, measures in rules.items()}


_MEASURED = measured_precision()


def _rule(scope: str, kind: str, rank: int, overrules_below: float | None) -> Callable[[F], F]:
    def register(detect: F) -> F:
        bound = ALWAYS if overrules_below is None else overrules_below
        precision, fires = _MEASURED.get(detect.__name__, (None, 0))
        RULES.add(Rule(kind, rank, scope, detect, overrules_below is None, bound, precision, fires))
        return detect

    return register


def record_rule(
    kind: str, rank: int, *, overrules_below: float | None = None
) -> Callable[
    [Callable[[str, Sequence[str]], RecordClash | None]], Callable[[str, Sequence[str]], RecordClash | None]
]:
    """Register `detect(claim, texts)`, which reads the retrieved texts; hard unless `overrules_below`."""
    return _rule(RECORDS, kind, rank, overrules_below)


def window_rule(
    kind: str, rank: int, *, overrules_below: float | None = None
) -> Callable[[Callable[[Comparison], Verdict | None]], Callable[[Comparison], Verdict | None]]:
    """Register `detect(comparison)`, which reads the aligned window; hard unless `overrules_below`."""
    return _rule(WINDOW, kind, rank, overrules_below)


def sentence_rule(
    kind: str, rank: int, *, overrules_below: float | None = None
) -> Callable[[Callable[[Pair], Contrast | None]], Callable[[Pair], Contrast | None]]:
    """Register `detect(pair)`, which reads one sentence of the window; hard unless `overrules_below`."""
    return _rule(SENTENCE, kind, rank, overrules_below)


# ------------------------------------------------------------------------------------------------
# What a sentence rule reads and finds


@dataclass(frozen=True)
class Contrast:
    """A sentence rule's finding: its kind, and the words of each side that say it."""

    kind: str
    claim: str
    evidence: str


class Pair(NamedTuple):
    """A claim against one sentence of its evidence."""

    claim: Reading
    evidence: Reading
    retrieved: frozenset[str]  # the stems of every retrieved text: a name stated there is not swapped
    window: tuple[Reading, ...]  # every sentence of the evidence window


def pairs(claim: str, evidence: str, retrieved: frozenset[str]) -> list[Pair]:
    """The claim against each sentence of `evidence`."""
    window = tuple(read(sentence.text) for sentence in split_sentences(evidence))
    return [Pair(read(claim), sentence, retrieved, window) for sentence in window]


def first_contrast(run: Sequence[Rule], sentences: Sequence[Pair]) -> tuple[Contrast, Rule] | None:
    """The first finding of a run of sentence rules, and the rule that found it: every rule of the run
    on the first sentence, then on the next."""
    for pair in sentences:
        for rule in run:
            found = cast("Contrast | None", rule.detect(pair))
            if found is not None:
                return found, rule
    return None


# ------------------------------------------------------------------------------------------------
# What a window rule reads


@dataclass(frozen=True)
class Comparison:
    """A claim sentence (as written, and read as a `Statement`) against its best evidence window, among
    every window of the retrieved chunks."""

    text: str
    claim: Statement
    best: Window
    candidates: Sequence[Window]

    @property
    def evidence(self) -> Statement:
        return self.best.statement

    @cached_property
    def single(self) -> list[Statement]:
        """What the retrieved text states elsewhere: its single sentences."""
        return single_sentences(self.candidates)

    @cached_property
    def topic(self) -> float:
        """The share of the claim's topic the evidence's has."""
        return share(self.claim.topic, self.evidence.topic)

    @cached_property
    def unstated_months(self) -> frozenset[int]:
        return self.claim.months_unstated_by(self.evidence)

    @cached_property
    def pairs(self) -> list[Pair]:
        """The claim against each sentence of the window; a name stated anywhere retrieved is no swap."""
        stems = frozenset().union(*(s.stems for s in self.single))
        return pairs(self.text, self.evidence.text, frozenset(stem(s) for s in stems))

    def verdict(
        self,
        status: ClaimStatus,
        confidence: float,
        support: float,
        reason: str,
        clash: ValueClash | None = None,
    ) -> Verdict:
        """A verdict with the window as its evidence."""
        evidence = evidence_at(self.best.chunk, self.best.start, self.best.end)
        return Verdict(status, confidence, NAME, reason, evidence, support_score=support, clash=clash)

    def contrasted(self, found: Contrast) -> Verdict:
        """The verdict of a sentence rule's finding: contradicted where its kind is hard evidence, else
        unsupported."""
        reason = f"the evidence says {found.evidence!r} where the claim says {found.claim!r}"
        if RULES.policy(found.kind).hard:
            return self.verdict(ClaimStatus.CONTRADICTED, 0.7, 0.1, reason)
        return self.verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason)

    def by_words(self) -> Verdict:
        """The verdict of the words, where no rule finds evidence: supported, partial or unsupported by
        how much of the claim's (weighted) content words the window states."""
        c, e = self.claim, self.evidence
        stated = stated_terms(c, e)
        coverage = weighted(c, stated)
        absent = _absent_words(self.text, c.terms - stated)
        if coverage >= SUPPORTED_COVERAGE:
            confidence = 0.6 + 0.35 * (coverage - SUPPORTED_COVERAGE) / (1 - SUPPORTED_COVERAGE)
            extra = f"; not in it: {absent}" if absent else ""
            reason = f"the evidence states the claim's facts{extra}"
            return self.verdict(ClaimStatus.SUPPORTED, confidence, coverage, reason)
        if coverage >= PARTIAL_COVERAGE:
            reason = f"the evidence states part of the claim; not in it: {absent}"
            return self.verdict(ClaimStatus.PARTIAL, 0.5, coverage, reason)
        confidence = 0.6 + 0.35 * (PARTIAL_COVERAGE - coverage) / PARTIAL_COVERAGE
        reason = f"no retrieved text states it; not found: {absent}"
        return self.verdict(ClaimStatus.UNSUPPORTED, confidence, coverage / 2, reason)


def _absent_words(text: str, absent: frozenset[str]) -> str:
    """The claim's own words (not stems) of the `absent` terms, for the reason a user reads."""
    shown = list(dict.fromkeys(w for w in words(text) if stem(w) in absent))
    return ", ".join(repr(w) for w in shown[:5])


def first_finding(comparison: Comparison) -> tuple[Verdict, Rule | None]:
    """The verdict of the first window or sentence rule, in order, that finds evidence, and that rule;
    else the verdict of the words."""
    for scope, run in RULES.runs(WINDOW, SENTENCE):
        if scope == SENTENCE:
            found = first_contrast(run, comparison.pairs)
            if found is not None:
                return comparison.contrasted(found[0]), found[1]
            continue
        for rule in run:
            verdict = cast("Verdict | None", rule.detect(comparison))
            if verdict is not None:
                return verdict, rule
    return comparison.by_words(), None
