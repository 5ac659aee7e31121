"""Near-duplicate chunk removal over word 3-shingles: MinHash LSH for similar chunks, and sampled
shingles for chunks contained in another document.

Within a new document, the longest of near-duplicate chunks is kept. Against the index, a new chunk
is dropped when an indexed chunk at least as long is a near-duplicate of it, or when
most of it is already in one other document (containment |A∩B|/|A|, not symmetric similarity: a
text file holding one section of a PDF policy is contained in the PDF's chunks, though it is a
small part of each, and may straddle two of them). Indexed chunks are never removed here: they
belong to other documents, which must stay intact; a new chunk that is longer than its indexed twin
carries more text and is kept. Each drop names the document that already holds the text.

A text that writes a number the other does not is never its copy, however alike their words: a 2026
price list that changed three of 2025's prices, or rule EXP-21317 beside rule EXP-21318, says
something else, and dropping it would leave the index answering with the other's values. What is
dropped is held, numbers and all, by what is kept.

Containment is measured on a sample of the shingles, those whose hash is 0 modulo SAMPLE_EVERY: a
copy has the same shingles, so the same ones are sampled, and an indexed chunk keeps about 20
numbers (170 bytes in one sorted array) instead of its whole shingle set.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from datasketch import LeanMinHash, MinHash, MinHashLSH

from rrag.errors import ConfigError
from rrag.text import words
from rrag.types import Chunk

NUM_PERM = 128
SHINGLE_WORDS = 3
# datasketch cannot band 128 permutations for thresholds near 1; a lower LSH threshold only yields
# more candidates, and the estimated Jaccard similarity still applies the real threshold.
MAX_LSH_THRESHOLD = 0.9
SAMPLE_EVERY = 8  # one shingle in 8 (by hash) is kept for containment
MIN_SAMPLED = 4  # a text with fewer sampled shingles (under about 30 words) is too short to call a copy
CONTAINMENT = 0.8  # share of a new chunk's sampled shingles found in one other document


@dataclass(frozen=True)
class DedupResult:
    kept: list[int]  # indices of the new texts to index, in their original order
    dropped: int
    already_in: dict[str, int] = field(default_factory=dict)  # source -> texts dropped as copies of it


@dataclass(frozen=True)
class _Indexed:
    doc_id: str
    source: str
    text: str
    signature: LeanMinHash
    sampled: np.ndarray  # sampled shingle hashes, uint32
    numbers: frozenset[str]


def shingles(text: str) -> set[bytes]:
    # The tokenizer without its cache: a chunk is hashed once, and the cache would hold up to 4096
    # chunks' word tuples (about 40 MB) for nothing.
    tokens = words.__wrapped__(text)
    if len(tokens) < SHINGLE_WORDS:
        return {" ".join(tokens).encode()}
    return {" ".join(tokens[i : i + SHINGLE_WORDS]).encode() for i in range(len(tokens) - SHINGLE_WORDS + 1)}


def numbers_in(text: str) -> frozenset[str]:
    """The numbers a text writes, as its word tokens give them ("21317" of "EXP-21317", "2" and "000"
    of "$2,000")."""
    return frozenset(t for t in words.__wrapped__(text) if t.isdigit())


def sampled_shingles(text: str) -> np.ndarray:
    """The hashes of the shingles kept for containment, sorted, without repeats."""
    hashes = np.fromiter((zlib.crc32(s) for s in shingles(text)), dtype=np.uint32)
    return np.unique(hashes[hashes % SAMPLE_EVERY == 0])


class NearDuplicateFilter:
    """Holds the signatures of indexed chunks, kept in step with the index by `reset`/`add`/`remove`,
    so that each ingest hashes only its own chunks."""

    def __init__(self, threshold: float) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ConfigError(f"dedup_threshold must be in (0, 1], not {threshold}")
        self.threshold = threshold
        self._indexed: dict[str, _Indexed] = {}
        self._lsh = self._new_lsh()
        # Every indexed sampled hash, sorted, and the entry each belongs to; rebuilt when stale.
        self._hashes = np.empty(0, dtype=np.uint32)
        self._owners: list[_Indexed] = []
        self._owner_of = np.empty(0, dtype=np.int64)
        self._stale = False

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
            entry = _Indexed(
                chunk.doc_id,
                chunk.source,
                chunk.text,
                _minhash(chunk.text),
                sampled_shingles(chunk.text),
                numbers_in(chunk.text),
            )
            self._indexed[chunk.chunk_id] = entry
            self._lsh.insert(chunk.chunk_id, entry.signature)
            self._stale = True

    def remove(self, chunk_ids: Iterable[str]) -> None:
        for chunk_id in chunk_ids:
            if self._indexed.pop(chunk_id, None) is not None:
                self._lsh.remove(chunk_id)
                self._stale = True

    def filter(self, texts: Sequence[str], *, exclude_doc: str | None = None) -> DedupResult:
        """Which of `texts` to keep; indexed chunks of `exclude_doc` (the version being replaced)
        do not count."""
        signatures = [_minhash(text) for text in texts]
        numbers = [numbers_in(text) for text in texts]
        copies: dict[int, str] = {}  # new text -> the source that already holds it
        for i, signature in enumerate(signatures):
            twin = next(
                (
                    entry
                    for entry in (self._indexed[key] for key in self._lsh.query(signature))
                    if entry.doc_id != exclude_doc
                    and len(entry.text) >= len(texts[i])
                    and self._copies(signature, numbers[i], entry.signature, entry.numbers)
                ),
                None,
            )
            source = twin.source if twin is not None else self._container(texts[i], numbers[i], exclude_doc)
            if source:
                copies[i] = source
        survivors = [i for i in range(len(texts)) if i not in copies]
        kept = self._longest_first(texts, signatures, numbers, survivors)
        return DedupResult(
            kept=kept, dropped=len(texts) - len(kept), already_in=dict(Counter(copies.values()))
        )

    def held_by(self, chunks: Sequence[Chunk]) -> set[str]:
        """The other documents with an indexed chunk that `chunks` (indexed, one document's) now hold
        as `filter` counts it: CONTAINMENT of its sampled shingles, in text at least as long. Such a
        chunk is a copy that `filter` would have dropped had `chunks` been indexed first."""
        mine = [self._indexed[c.chunk_id] for c in chunks if c.chunk_id in self._indexed]
        if not mine:
            return set()
        self._rebuild_if_stale()
        sampled = np.unique(np.concatenate([entry.sampled for entry in mine]))
        first = np.searchsorted(self._hashes, sampled, side="left")
        last = np.searchsorted(self._hashes, sampled, side="right")
        hits = Counter(
            k for begin, end in zip(first.tolist(), last.tolist()) for k in self._owner_of[begin:end].tolist()
        )
        length = sum(len(entry.text) for entry in mine)
        written = frozenset().union(*(entry.numbers for entry in mine))
        own = mine[0].doc_id
        return {
            owner.doc_id
            for owner, count in ((self._owners[k], count) for k, count in hits.items())
            if owner.doc_id != own
            and len(owner.sampled) >= MIN_SAMPLED
            and count >= CONTAINMENT * len(owner.sampled)
            and length >= len(owner.text)
            and owner.numbers <= written
        }

    def _container(self, text: str, numbers: frozenset[str], exclude_doc: str | None) -> str:
        """The source of the other document whose chunks hold CONTAINMENT of `text`'s sampled
        shingles, write its `numbers`, and are, together, at least as long as `text` (a longer text
        carries more); or ""."""
        sampled = sampled_shingles(text)
        if len(sampled) < MIN_SAMPLED:
            return ""
        self._rebuild_if_stale()
        found: Counter[str] = Counter()
        holders: dict[str, set[int]] = {}  # doc -> its chunks holding a sampled shingle
        first = np.searchsorted(self._hashes, sampled, side="left")
        last = np.searchsorted(self._hashes, sampled, side="right")
        for begin, end in zip(first.tolist(), last.tolist()):
            docs: set[str] = set()
            for k in self._owner_of[begin:end].tolist():
                doc_id = self._owners[k].doc_id
                if doc_id != exclude_doc:
                    docs.add(doc_id)
                    holders.setdefault(doc_id, set()).add(k)
            found.update(docs)
        for doc_id, count in found.most_common():
            if count < CONTAINMENT * len(sampled):
                break
            held = [self._owners[k] for k in holders[doc_id]]
            if sum(len(h.text) for h in held) >= len(text) and numbers <= frozenset().union(
                *(h.numbers for h in held)
            ):
                return held[0].source
        return ""

    def _rebuild_if_stale(self) -> None:
        if not self._stale:
            return
        self._owners = list(self._indexed.values())
        lengths = [len(entry.sampled) for entry in self._owners]
        hashes = np.concatenate([e.sampled for e in self._owners]) if self._owners else self._hashes[:0]
        owner_of = np.repeat(np.arange(len(self._owners), dtype=np.int64), lengths)
        order = np.argsort(hashes, kind="stable")
        self._hashes, self._owner_of = hashes[order], owner_of[order]
        self._stale = False

    def _longest_first(
        self,
        texts: Sequence[str],
        signatures: list[LeanMinHash],
        numbers: list[frozenset[str]],
        candidates: list[int],
    ) -> list[int]:
        """The candidates that no kept text copies, longest first (ties to the earliest): a text is a
        copy of a kept one that is its near-duplicate and writes every number it writes."""
        lsh = self._new_lsh()
        kept: list[int] = []
        for i in sorted(candidates, key=lambda i: (-len(texts[i]), i)):
            if any(
                self._copies(signatures[i], numbers[i], signatures[j], numbers[j])
                for j in lsh.query(signatures[i])
            ):
                continue
            lsh.insert(i, signatures[i])
            kept.append(i)
        return sorted(kept)

    def _new_lsh(self) -> MinHashLSH:
        threshold = min(self.threshold, MAX_LSH_THRESHOLD)
        return MinHashLSH(threshold=threshold, num_perm=NUM_PERM, params=_bands_and_rows(threshold))

    def _copies(
        self, signature: LeanMinHash, numbers: frozenset[str], kept: LeanMinHash, kept_numbers: frozenset[str]
    ) -> bool:
        """Whether a text copies a kept one: its near-duplicate, writing no number the kept one does not.
        LSH buckets only suggest candidates; the estimated Jaccard similarity decides."""
        return numbers <= kept_numbers and signature.jaccard(kept) >= self.threshold


@cache
def _bands_and_rows(threshold: float) -> tuple[int, int]:
    """The LSH's bands and rows for `threshold`: datasketch finds them by numerical integration, 12 ms
    each time an LSH is made, once per document ingested."""
    lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
    return lsh.b, lsh.r


def _minhash(text: str) -> LeanMinHash:
    signature = MinHash(num_perm=NUM_PERM)
    signature.update_batch(list(shingles(text)))
    # The filter holds one per indexed chunk: without its copy of the permutations a signature takes
    # 0.7 KB instead of 1.9 (about 120 MB less at 100,000 chunks, in every app process).
    return LeanMinHash(signature)
