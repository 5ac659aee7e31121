"""LLM, embedding and prompt backends: what the engine talks to, behind small base classes."""
