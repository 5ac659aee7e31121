"""Retrieval: the Chroma index, the hybrid (vector + BM25) retriever, and defusing instructions planted
in retrieved chunks."""
