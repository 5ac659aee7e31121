"""A chunk's vectors: one per sentence, kept in the keyword index's row, and the chunk's as their mean.

A chunk of several topics (a course's hours, prices and deposit) has a vector near none of them, so a
question about one topic found nothing above the relevance floor. A chunk is therefore as near to a
question as its nearest sentence. Ingest embeds each sentence once (as costly as embedding the whole
chunk: the tokens are the same) and derives the chunk's vector, which the vector search ranks, from
them; the sentence vectors are stored in half precision in the chunk's keyword row (written in the
transaction that lists the document) and read with the retrieval candidates' terms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from rrag.text import split_sentences

STORED = np.float16  # 768 bytes a sentence at 384 dimensions; cosine moves by under 0.001


def sentences_of(text: str) -> list[str]:
    """The sentences a chunk's vectors are of, in order (the text itself where it has none)."""
    return [span.text for span in split_sentences(text)] or [text]


def embed_chunks(
    embed: Callable[[Sequence[str]], np.ndarray], texts: Sequence[str], had: Mapping[str, np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """The vectors of chunks with these texts and of their sentences (rows in STORED precision): each
    distinct sentence not in `had` (sentence -> vector of the document's previous version) is
    embedded once, in one call. The chunk's vector is the normalised mean of its sentences', computed
    from the stored rows, so the same sentences always give the same chunk vector."""
    split = [sentences_of(text) for text in texts]
    new = list(dict.fromkeys(s for sentences in split for s in sentences if s not in had))
    made = dict(zip(new, embed(new).astype(STORED))) if new else {}
    of_chunks = [np.stack([had[s] if s in had else made[s] for s in sentences]) for sentences in split]
    return np.stack([_normalised_mean(rows) for rows in of_chunks]), of_chunks


def _normalised_mean(rows: np.ndarray) -> np.ndarray:
    mean = rows.astype(np.float32).mean(axis=0)
    return mean / max(float(np.linalg.norm(mean)), 1e-12)


def pack(rows: np.ndarray) -> bytes:
    return np.ascontiguousarray(rows, dtype=STORED).tobytes()


def unpack(blob: bytes, dim: int) -> np.ndarray:
    return np.frombuffer(blob, dtype=STORED).reshape(-1, dim)


def by_sentence(stored: Iterable[tuple[str, bytes]], dim: int) -> dict[str, np.ndarray]:
    """Sentence -> stored vector, from (chunk text, its stored rows) pairs: a document's previous
    version, whose unchanged sentences are not embedded again. A chunk whose rows do not match its
    sentences (split by an older release) gives none."""
    known: dict[str, np.ndarray] = {}
    for text, blob in stored:
        sentences, rows = sentences_of(text), unpack(blob, dim)
        if len(sentences) == len(rows):
            known.update(zip(sentences, rows))
    return known


def nearest_sentence(vector: np.ndarray, blobs: Mapping[str, bytes]) -> dict[str, float]:
    """Chunk id -> the cosine similarity of its nearest sentence to `vector` (a normalised query)."""
    return {
        chunk_id: float((unpack(blob, len(vector)).astype(np.float32) @ vector).max())
        for chunk_id, blob in blobs.items()
        if blob
    }
