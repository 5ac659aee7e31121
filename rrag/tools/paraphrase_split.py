"""The checklist's paraphrase split: minimal pairs whose claims never repeat their evidence's words.

A TEST SET. It is never training data, and nothing is tuned on its sentences, its vocabulary or its
scenes: it measures whether the verifier holds on words nobody fitted it to. It was written apart
from the template split (rrag/tools/checklist_templates.py: none of its sentences, vocabularies or
fill values is reused here), from the judge's training code and data, and from HANS.

Each scene (rrag/tools/paraphrase_scenes_*.py) draws an everyday evidence passage (recipes, leases,
travel, sports, health, finance, manuals, schools, shopping, public services, ...) with seeded
values, and says three kinds of claim about it in other words: other verbs and voice, numbers in
words ("six and a half kilograms" for 6.5 kg), converted units (350°F as 177 degrees Celsius, two
hours as 120 minutes, 1.5 km as 1,500 metres), reordered clauses, synonyms, paraphrased subjects.
- faithful: controls, true by the evidence, that should be supported;
- contradiction: false by the evidence, said in other words (a value changed and said in words or in
  another unit, roles swapped, a condition dropped or turned round, an opposite, a wrong quantifier,
  another name in the same slot, a negation said with another verb), that should be contradicted;
- invented: a plausible addition the evidence never states, that should never be supported.
"""

from __future__ import annotations

from random import Random

from rrag.tools import paraphrase_scenes_amounts, paraphrase_scenes_meaning, paraphrase_scenes_time
from rrag.tools.checklist_pairs import CONTRADICTION, FAITHFUL, INVENTED, Pair
from rrag.tools.paraphrase_kit import Scene

DEFAULT_FILLS = 3
SCENES: list[Scene] = [
    *paraphrase_scenes_amounts.book.scenes,
    *paraphrase_scenes_time.book.scenes,
    *paraphrase_scenes_meaning.book.scenes,
]
# Retrieved beside the evidence: on no scene's topic, with no number and no negation in it.
DISTRACTORS = [
    "The reception desk keeps a stack of local maps for visitors.",
    "Posters about upcoming events hang in the main corridor.",
    "The website has a page of answers to common questions.",
    "A suggestion box stands by the front entrance.",
    "The waiting room has comfortable chairs and a water cooler.",
    "Leaflets about the area are printed in several languages.",
]


def capabilities() -> list[str]:
    return list(dict.fromkeys(scene.capability for scene in SCENES))


def generate(seed: int = 0, fills: int = DEFAULT_FILLS) -> list[Pair]:
    """Every scene drawn `fills` times (distinct evidence), each draw giving its faithful,
    contradicting and invented claims. The same seed gives the same pairs; a scene's draws depend on
    the seed and the scene only, so a scene added or changed leaves the others' pairs alone."""
    pairs: list[Pair] = []
    for scene in SCENES:
        rng = Random(f"{seed}:{scene.capability}:{scene.name}")
        seen: set[str] = set()
        for _ in range(fills * 20):  # few values per slot: draw again when the evidence came out before
            if len(seen) == fills:
                break
            draft = scene.draw(rng)
            if draft.evidence in seen:
                continue
            seen.add(draft.evidence)
            distractor = rng.choice(DISTRACTORS)
            kinds = (
                (FAITHFUL, draft.faithful),
                (CONTRADICTION, draft.contradictions),
                (INVENTED, draft.invented),
            )
            for kind, claims in kinds:
                for k, claim in enumerate(claims):
                    pair_id = f"{scene.capability}-{scene.name}-{len(seen)}-{kind[0]}{k}"
                    pairs.append(
                        Pair(pair_id, scene.capability, scene.domain, kind, draft.evidence, claim, distractor)
                    )
    return pairs
