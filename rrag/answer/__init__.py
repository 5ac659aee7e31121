"""Answering: the extractive answerer that needs no API, and the LLM answerer."""
