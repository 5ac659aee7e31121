"""Near-duplicate chunk removal with MinHash LSH over word 3-shingles.

Within a new document, each cluster of near-duplicates keeps its longest chunk. Against the index,
a new chunk is dropped when an indexed chunk at least as long is a near-duplicate of it. Indexed
chunks are never removed here: they belong to other documents, which must stay intact; a new chunk
that is longer than its indexed twin carries more text and is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from datasketch import LeanMinHash, MinHash, MinHashLSH

from rrag.errors import ConfigError
from rrag.types import Chunk

NUM_PERM = 128
SHINGLE_WORDS = 3
# datasketch cannot band 128 permutations for thresholds near 1; a lower LSH threshold only yields
# more candidates, and the estimated Jaccard similarity still applies the real threshold.
MAX_LSH_THRESHOLD = 0.9
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class DedupResult:
    kept: list[int]  # indices of the new texts to index, in their original order
    dropped: int


@dataclass(frozen=True)
class _Indexed:
    doc_id: str
    text: str
    signature: LeanMinHash


def shingles(text: str) -> set[bytes]:
    words = _WORD.findall(text.lower())
    if len(words) < SHINGLE_WORDS:
        return {" ".join(words).encode()}
    return {" ".join(words[i : i + SHINGLE_WORDS]).encode() for i in range(len(words) - SHINGLE_WORDS + 1)}


class NearDuplicateFilter:
    """Holds the signatures of indexed chunks, kept in step with the index by `reset`/`add`/`remove`,
    so that each ingest hashes only its own chunks."""

    def __init__(self, threshold: float) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ConfigError(f"dedup_threshold must be in (0, 1], not {threshold}")
        self.threshold = threshold
        self._indexed: dict[str, _Indexed] = {}
        self._lsh = self._new_lsh()

    def reset(self, indexed: Iterable[Chunk]) -> None:
        """Mirror exactly these indexed chunks; signatures of unchanged chunks are reused."""
        current = {c.chunk_id: c for c in indexed}
        self.remove(
            [
                chunk_id
                for chunk_id, entry in self._indexed.items()
                if chunk_id not in current or current[chunk_id].text != entry.text
            ]
        )
        self.add(c for c in current.values() if c.chunk_id not in self._indexed)

    def add(self, chunks: Iterable[Chunk]) -> None:
        for chunk in chunks:
            self.remove([chunk.chunk_id])
            entry = _Indexed(chunk.doc_id, chunk.text, _minhash(chunk.text))
            self._indexed[chunk.chunk_id] = entry
            self._lsh.insert(chunk.chunk_id, entry.signature)

    def remove(self, chunk_ids: Iterable[str]) -> None:
        for chunk_id in chunk_ids:
            if self._indexed.pop(chunk_id, None) is not None:
                self._lsh.remove(chunk_id)

    def filter(self, texts: Sequence[str], *, exclude_doc: str | None = None) -> DedupResult:
        """Which of `texts` to keep; indexed chunks of `exclude_doc` (the version being replaced)
        do not count."""
        signatures = [_minhash(text) for text in texts]
        survivors = [
            i
            for i, signature in enumerate(signatures)
            if not any(
                entry.doc_id != exclude_doc
                and len(entry.text) >= len(texts[i])
                and self._similar(signature, entry.signature)
                for entry in (self._indexed[key] for key in self._lsh.query(signature))
            )
        ]
        kept = self._longest_per_cluster(texts, signatures, survivors)
        return DedupResult(kept=kept, dropped=len(texts) - len(kept))

    def _longest_per_cluster(
        self, texts: Sequence[str], signatures: list[LeanMinHash], candidates: list[int]
    ) -> list[int]:
        lsh = self._new_lsh()
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

    def _new_lsh(self) -> MinHashLSH:
        return MinHashLSH(threshold=min(self.threshold, MAX_LSH_THRESHOLD), num_perm=NUM_PERM)

    def _similar(self, a: LeanMinHash, b: LeanMinHash) -> bool:
        # LSH buckets only suggest candidates; the estimated Jaccard similarity decides.
        return a.jaccard(b) >= self.threshold


def _minhash(text: str) -> LeanMinHash:
    signature = MinHash(num_perm=NUM_PERM)
    signature.update_batch(list(shingles(text)))
    # The filter holds one per indexed chunk: without its copy of the permutations a signature takes
    # 0.7 KB instead of 1.9 (about 120 MB less at 100,000 chunks, in every app process).
    return LeanMinHash(signature)
