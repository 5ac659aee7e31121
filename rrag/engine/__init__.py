"""The engine that answers and audits: `ReliableRAG` (pipeline), the stages one question runs on, the
answer streamed as it is written, and who may make which call (access).

Nothing is imported here, so that the light modules (access) load without the vector index.
"""
