"""Reliable RAG: answers from your documents, with every claim checked against them."""
