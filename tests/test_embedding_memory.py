"""Embedding memory is bounded by one text, not by how many chunks an ingest embeds."""

from __future__ import annotations

from rrag.backends.embedding import MiniLMEmbedder

SENTENCE = (
    "Contractors in the travel programme must submit a reimbursement form within 14 days under rule TRA-{}. "
)


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 1e6


def test_embedding_many_long_chunks_holds_well_under_a_gigabyte() -> None:
    embedder = MiniLMEmbedder()  # its own onnxruntime session and memory arena
    chunks = ["".join(SENTENCE.format(n * 10 + i) for i in range(8)) for n in range(80)]  # ~1000 chars each
    embedder.embed(chunks[:2])
    before = _resident_mb()
    embedder.embed(chunks)
    # Batches of 64 such chunks made onnxruntime's arena grow by about 900 MB; each text alone, far less.
    assert _resident_mb() - before < 500
