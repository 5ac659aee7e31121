"""Auditing an answer: claims, whether it addresses the question, spans, scores and decisions,
reviewers' corrections."""
