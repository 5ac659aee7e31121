"""Near-duplicate chunk removal with MinHash LSH over word 3-shingles.

Within a new document, each cluster of near-duplicates keeps its longest chunk. Against the index,
a new chunk is dropped when an indexed chunk at least as long is a near-duplicate of it. Indexed
chunks are never removed here: they belong to other documents, which must stay intact; a new chunk
that is longer than its indexed twin carries more text and is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from datasketch import MinHash, MinHashLSH

from rrag.types import Chunk

NUM_PERM = 128
SHINGLE_WORDS = 3
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class DedupResult:
    kept: list[int]  # indices of the new texts to index, in their original order
    dropped: int


def shingles(text: str) -> set[bytes]:
    words = _WORD.findall(text.lower())
    if len(words) < SHINGLE_WORDS:
        return {" ".join(words).encode()}
    return {" ".join(words[i : i + SHINGLE_WORDS]).encode() for i in range(len(words) - SHINGLE_WORDS + 1)}


class NearDuplicateFilter:
    """Keeps MinHash signatures of indexed chunks between calls, so only new chunks are hashed."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._indexed: dict[tuple[str, str], MinHash] = {}
        self._indexed_lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)

    def filter(self, new_texts: Sequence[str], indexed: Iterable[Chunk]) -> DedupResult:
        """Which of `new_texts` to keep, given the chunks already indexed (excluding their own document)."""
        lengths = {key: len(key[1]) for key in self._sync(indexed)}
        signatures = [_minhash(text) for text in new_texts]
        survivors = [
            i for i, sig in enumerate(signatures)
            if not any(
                lengths.get(key, 0) >= len(new_texts[i]) and self._similar(sig, self._indexed[key])
                for key in self._indexed_lsh.query(sig)
            )
        ]
        kept = self._longest_per_cluster(new_texts, signatures, survivors)
        return DedupResult(kept=kept, dropped=len(new_texts) - len(kept))

    def _sync(self, indexed: Iterable[Chunk]) -> set[tuple[str, str]]:
        # Keyed by id and text: a replaced document reuses chunk ids for different text.
        current = {(c.chunk_id, c.text) for c in indexed}
        for key in set(self._indexed) - current:
            self._indexed_lsh.remove(key)
            del self._indexed[key]
        for key in current - set(self._indexed):
            self._indexed[key] = _minhash(key[1])
            self._indexed_lsh.insert(key, self._indexed[key])
        return current

    def _longest_per_cluster(
        self, texts: Sequence[str], signatures: list[MinHash], candidates: list[int]
    ) -> list[int]:
        lsh = MinHashLSH(threshold=self.threshold, num_perm=NUM_PERM)
        parent = {i: i for i in candidates}

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in candidates:
            for j in lsh.query(signatures[i]):
                if self._similar(signatures[i], signatures[j]):
                    parent[root(i)] = root(j)
            lsh.insert(i, signatures[i])
        best: dict[int, int] = {}
        for i in candidates:  # ties go to the earliest chunk
            r = root(i)
            if r not in best or len(texts[i]) > len(texts[best[r]]):
                best[r] = i
        return sorted(best.values())

    def _similar(self, a: MinHash, b: MinHash) -> bool:
        # LSH buckets only suggest candidates; the estimated Jaccard similarity decides.
        return a.jaccard(b) >= self.threshold


def _minhash(text: str) -> MinHash:
    signature = MinHash(num_perm=NUM_PERM)
    signature.update_batch(list(shingles(text)))
    return signature
