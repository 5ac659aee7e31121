"""Hard pairs for the judge: what the rules know, turned into training data instead of verdicts.

Each pair starts from an NLI pair whose hypothesis the premise entails (MNLI, SNLI, FEVER-NLI, CAD-SNLI
of ../shared/train, never a held-out premise) and edits the *hypothesis*, which already says the
premise's facts in other words, or wraps the premise's sentence in a frame. It never copies an evidence
sentence. The edits are read off a dependency parse (spaCy's en_core_web_sm), not surface patterns:

  not entailed   roles exchanged (subject and object, or the two sides of a passive), a noun of a
                 modifier made the subject ("the president of the club resigned" -> "the club
                 resigned"), another name of the premise in a name's place, a number, year, month,
                 weekday or ordinal changed, a unit converted wrongly, a quantifier strengthened, a
                 negation added or removed, an antonym, a refusal ("refused to sign"), the sentence put
                 under a condition, a belief, a hedge, a question or a disjunction;
  entailed       the same facts in the passive voice, a modifier dropped, numbers in words, a unit
                 converted rightly, a fronted phrase moved to the end, the sentence under a fact-giving
                 frame ("it was confirmed that", "because ...", "..., and ...").

Every edited pair comes with its unedited twin, so that the edit is all that tells them apart. Labels
follow what the edit does: a changed value, a negation and an antonym contradict; a swap, a frame or a
stronger quantifier leaves the hypothesis unstated or contradicted ("not_entailment", a partial label).

This is training data only. The test sets are other text: HANS (its templates, nouns and verbs are not
used here), the checklist and its paraphrase split (rrag/tools/), the dev sets.

    python -m training.hard_pairs --out training/cache/hard_pairs.jsonl --count 30000
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from spacy.tokens import Doc

from training.data import load_mix, read_jsonl
from training.hard_pairs.frames import ASSERTED, FALSIFIED, UNASSERTED, best_sentence, frame
from training.hard_pairs.parse import (
    active,
    antonym,
    as_clause,
    drop_clause,
    drop_conjunct,
    drop_modifier,
    front_to_end,
    join,
    modifier_noun_as_subject,
    negate,
    nlp,
    passive,
    refuse,
    sentence_case,
    strengthen_quantifier,
    swap_name,
    swap_roles,
    swapped_passive,
)
from training.hard_pairs.values import NUMBER, change_value, convert_unit, number_in_words
from training.synthetic import drop_negation

SOURCES = {"mnli.jsonl": 10**6, "snli.jsonl": 12000, "fever_nli.jsonl": 10**6, "cad_snli.jsonl": 3000}
Pair = dict[str, str]

KINDS = {
    "roles": "not_entailment",
    "passive": "entailment",
    "swapped_passive": "not_entailment",
    "modifier_subject": "not_entailment",
    "drop_modifier": "entailment",
    "reorder": "entailment",
    "in_words": "entailment",
    "unit_right": "entailment",
    "unit_wrong": "contradiction",
    "value": "contradiction",
    "quantifier": "not_entailment",
    "refusal": "contradiction",
    "negation": "contradiction",
    "antonym": "contradiction",
    "name": "not_entailment",
    "unasserted": "neutral",
    "asserted": "entailment",
    "falsified": "contradiction",
    "asserted_other": "entailment",
    "sentence_in_words": "entailment",
    "sentence_unit_right": "entailment",
    "sentence_unit_wrong": "contradiction",
    "condition_only": "neutral",
}


def edits(premise: Doc, hypothesis: Doc, other: str, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """(kind, premise, hypothesis) of every edit that applies to one entailment pair."""
    p, h = premise.text, hypothesis.text
    by_hypothesis: dict[str, str | None] = {
        "roles": swap_roles(hypothesis),
        "passive": passive(hypothesis),
        "swapped_passive": swapped_passive(hypothesis),
        "modifier_subject": modifier_noun_as_subject(hypothesis),
        "drop_modifier": drop_modifier(hypothesis),
        "reorder": front_to_end(hypothesis),
        "in_words": number_in_words(hypothesis, rng),
        "unit_right": convert_unit(hypothesis, rng, rightly=True),
        "unit_wrong": convert_unit(hypothesis, rng, rightly=False),
        "value": change_value(hypothesis, rng),
        "quantifier": strengthen_quantifier(hypothesis),
        "refusal": refuse(hypothesis),
        "negation": negate(hypothesis) or drop_negation(h),
        "antonym": antonym(h, rng),
        "name": swap_name(hypothesis, premise),
    }
    # Values said otherwise in a sentence of a several-sentence premise: NLI hypotheses seldom
    # carry a number with a unit, and a value in words or in another unit is still the same value.
    for sentence in list(premise.sents)[:8] if len(list(premise.sents)) > 1 else []:
        if NUMBER.search(sentence.text):
            said = sentence.as_doc()
            by_hypothesis["sentence_in_words"] = number_in_words(said, rng)
            by_hypothesis["sentence_unit_right"] = convert_unit(said, rng, rightly=True)
            by_hypothesis["sentence_unit_wrong"] = convert_unit(said, rng, rightly=False)
            break
    for kind, made in by_hypothesis.items():
        if made and made.strip() != h.strip():
            yield kind, p, made
    best = best_sentence(premise, hypothesis) if other else None
    if best is not None:
        sentence, alone = best
        before, after = p[: sentence.start_char], p[sentence.end_char :]
        if alone:
            wrapped = frame(sentence, other, UNASSERTED, rng)
            yield "unasserted", (before + wrapped + " " + after).strip(), h
            wrapped = frame(sentence, other, FALSIFIED, rng)
            yield "falsified", (before + wrapped + " " + after).strip(), h
        wrapped = frame(sentence, other, ASSERTED, rng)
        yield "asserted", (before + wrapped + " " + after).strip(), h
        if other in wrapped:
            yield "asserted_other", (before + wrapped + " " + after).strip(), sentence_case(other) + "."
        # "If C, S" states neither C nor S.
        conditional = join([f"If {as_clause(sentence)}, {other}."])
        yield (
            "condition_only",
            (before + conditional + " " + after).strip(),
            sentence_case(as_clause(sentence)) + ".",
        )


def entailed_pairs(seed: int) -> list[Pair]:
    rows = load_mix(SOURCES, seed)
    return [r for r in rows if r["label"] == "entailment" and len(r["hypothesis"].split()) >= 4]


def build(count: int, seed: int) -> list[dict]:
    """About `count` pairs: each entailment pair gives its twin and up to two edits, kinds drawn so
    that rare ones are not crowded out; pairs of one kind capped at a share of the whole."""
    rng = random.Random(seed)
    rows = entailed_pairs(seed)
    rng.shuffle(rows)
    cap = {kind: max(200, int(count * (0.04 if kind.startswith("sentence_") else 0.1))) for kind in KINDS}
    made: Counter[str] = Counter()
    out: list[dict] = []
    parser = nlp()
    premises = parser.pipe((r["premise"] for r in rows), batch_size=64)
    hypotheses = parser.pipe((r["hypothesis"] for r in rows), batch_size=256)
    for row, premise, hypothesis in zip(rows, premises, hypotheses):
        if len(out) >= count:
            break
        other = as_clause(parser(rng.choice(rows)["hypothesis"]))
        found = [e for e in edits(premise, hypothesis, other, rng) if made[e[0]] < cap[e[0]]]
        if not found:
            continue
        found.sort(key=lambda e: made[e[0]] + rng.random())
        out.append(
            {
                "premise": row["premise"],
                "hypothesis": row["hypothesis"],
                "label": "entailment",
                "kind": "twin",
                "source": row["dataset"],
            }
        )
        for kind, premise_text, hypothesis_text in found[:2]:
            made[kind] += 1
            out.append(
                {
                    "premise": premise_text,
                    "hypothesis": hypothesis_text,
                    "label": KINDS[kind],
                    "kind": kind,
                    "source": row["dataset"],
                }
            )
    print(
        f"{len(out)} pairs from {sum(1 for r in out if r['kind'] == 'twin')} entailment pairs: "
        + ", ".join(f"{k} {n}" for k, n in made.most_common()),
        flush=True,
    )
    return out


# The premise's own sentence edited in its structure: the same words, told apart only by who does what
# to whom (kind -> label). Few NLI hypotheses are transitive clauses; many premise sentences are.
STRUCTURE = {
    "sentence_roles": "not_entailment",
    "sentence_swapped_passive": "not_entailment",
    "sentence_modifier_subject": "not_entailment",
    "sentence_passive": "entailment",
    "sentence_active": "entailment",
    "sentence_drop_modifier": "entailment",
    "sentence_drop_clause": "entailment",
    "sentence_drop_conjunct": "entailment",
}
BALANCE = 0.35  # the share of sentences with entailed forms only that give one
STRUCTURE_SOURCES = {"snli.jsonl": 10**6, "mnli.jsonl": 10**6, "fever_nli.jsonl": 10**6}


def structure_pairs(count: int, seed: int) -> list[dict]:
    """About `count` pairs from the premises' sentences, against the whole premise: a sentence whose
    roles can be exchanged, or whose subject's modifier holds a noun, gives one such edit (not
    entailed) and, beside it, the same sentence said otherwise (passive or active, without a modifier,
    a relative clause or one of two subjects: entailed)."""
    rng = random.Random(seed)
    premises = sorted({r["premise"] for r in load_mix(STRUCTURE_SOURCES, seed)})
    rng.shuffle(premises)
    parser = nlp()
    out: list[dict] = []
    for premise, doc in zip(premises, parser.pipe(premises, batch_size=64)):
        if len(out) >= count:
            break
        for sentence in doc.sents:
            if not 5 <= len(sentence) <= 30:
                continue
            said = sentence.as_doc()
            against = [
                (k, made)
                for k, made in (
                    ("sentence_roles", swap_roles(said)),
                    ("sentence_swapped_passive", swapped_passive(said)),
                    ("sentence_modifier_subject", modifier_noun_as_subject(said)),
                )
                if made
            ]
            kept = [
                (k, made)
                for k, made in (
                    ("sentence_passive", passive(said)),
                    ("sentence_active", active(said)),
                    ("sentence_drop_modifier", drop_modifier(said)),
                    ("sentence_drop_clause", drop_clause(said)),
                    ("sentence_drop_conjunct", drop_conjunct(said)),
                )
                if made
            ]
            # As many sentences said otherwise but still entailed as edited into another fact, so that
            # a change of structure alone tells nothing: a sentence with no edit against it gives its
            # entailed form now and then.
            chosen = [rng.choice(against)] if against else []
            if kept and (against or rng.random() < BALANCE):
                # a form that keeps every word goes first: a shorter one is the commonest
                reworded = [k for k in kept if k[0] != "sentence_drop_modifier"]
                chosen.append(rng.choice(reworded or kept))
            for kind, made in chosen:
                out.append({"premise": premise, "hypothesis": made, "label": STRUCTURE[kind], "kind": kind})
            if chosen:
                break
    print(
        f"{len(out)} structure pairs: "
        + ", ".join(f"{k} {n}" for k, n in Counter(r["kind"] for r in out).items())
    )
    return out


CACHE = Path(__file__).resolve().parents[1] / "cache"


def cached(count: int, seed: int, structure: bool = False) -> list[dict]:
    """build(count, seed) (structure_pairs with `structure`), kept in training/cache/ (parsing takes
    minutes) so a resumed run reuses it."""
    path = CACHE / f"{'structure' if structure else 'hard'}_pairs-{count}-{seed}.jsonl"
    if not path.exists():
        write((structure_pairs if structure else build)(count, seed), path)
    return read_jsonl(path)


def write(pairs: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs), encoding="utf-8")
    tmp.replace(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=20261122)
    args = ap.parse_args()
    write(build(args.count, args.seed), args.out)
