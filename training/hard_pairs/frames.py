"""Frames around a sentence of the premise: under a condition, a belief, a hedge, a question or a
disjunction it is not asserted; under a fact-giving frame it is; under a denial it is false."""

from __future__ import annotations

import random

from spacy.tokens import Doc, Span

from training.hard_pairs.parse import as_clause, join, sentence_case

# Who a frame attributes a sentence to: none of them a noun of HANS's vocabulary.
SPEAKERS = (
    "Some reports",
    "Several witnesses",
    "The spokesperson",
    "Local media",
    "A neighbour",
    "Her colleagues",
    "The committee",
    "One analyst",
    "Officials",
    "Critics",
    "His family",
    "The company",
)
# Frames under which a sentence is not asserted ({s}: the sentence, {c}: another clause).
UNASSERTED = (
    "If {c}, {s}",
    "{S} only if {c}",
    "{S} if {c}",
    "Unless {c}, {s}",
    "{who} believed that {s}",
    "{who} claimed that {s}",
    "{who} suspected that {s}",
    "{who} hoped that {s}",
    "{who} doubted that {s}",
    "{who} denied that {s}",
    "{who} asked whether {s}",
    "It is possible that {s}",
    "It remains unclear whether {s}",
    "Nobody knows whether {s}",
    "Perhaps {s}",
    "Possibly {s}",
    "Supposedly, {s}",
    "Allegedly, {s}",
    "Either {s}, or {c}",
    "{S}, or {c}",
)
# Frames that say the sentence is false.
FALSIFIED = ("It is not true that {s}", "{who} wrongly said that {s}", "{who} falsely claimed that {s}")
# Frames that assert the sentence.
ASSERTED = (
    "{who} confirmed that {s}",
    "{who} knew that {s}",
    "{who} noticed that {s}",
    "{who} learned that {s}",
    "It is well known that {s}",
    "It is true that {s}",
    "Clearly, {s}",
    "Indeed, {s}",
    "Of course, {s}",
    "Because {c}, {s}",
    "{S} because {c}",
    "Although {c}, {s}",
    "After {c}, {s}",
    "{S}, and {c}",
    "{C}, and {s}",
    "{S}; meanwhile, {c}",
)


def frame(sentence: Span | Doc, other: str, frames: tuple[str, ...], rng: random.Random) -> str:
    s = as_clause(sentence)
    template = rng.choice(frames)
    return join(
        [
            template.format(
                s=s, S=sentence_case(s), c=other, C=sentence_case(other), who=rng.choice(SPEAKERS)
            )
            + "."
        ]
    )


def best_sentence(premise: Doc, hypothesis: Doc) -> tuple[Span, bool] | None:
    """The premise's sentence that shares most of the hypothesis's content words, and whether it is
    the only one that shares much (else a frame around it would leave the hypothesis stated)."""
    wanted = {t.lemma_.lower() for t in hypothesis if t.is_alpha and not t.is_stop}
    if not wanted:
        return None
    scored = sorted(
        ((len(wanted & {t.lemma_.lower() for t in s}) / len(wanted), s) for s in premise.sents),
        key=lambda x: -x[0],
    )
    best, sentence = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    clean = len(sentence) >= 5 and sentence.text[:1].isupper() and sentence[-1].text in ".!?"
    return (sentence, runner_up < 0.3) if best >= 0.5 and clean else None


# The kinds of pair, each with its label: (name, label).
