"""The Chroma index of chunks: embedded on disk (PersistentClient) or on a Chroma server (HttpClient).

Chroma's default embedding function downloads a model at run time, so every collection is opened
with our own registered function around an `Embedder`. Every chromadb failure (server down, refused
write) surfaces as `IndexError_`, and every call is waited for at most `index_timeout_s`: a call that
stalls (a full disk once held an upsert for 600 s with no CPU use; a server that stopped answering) is
reported as `IndexTimeoutError` and left running on its own thread. Chunks are embedded before they
are handed to Chroma, so the timeout bounds Chroma's own work, not the embedding model's.

Embedded Chroma writes to its folder on open, so the index of a read-only data folder is opened from
a private copy, removed when the process exits (the store refuses every write there first: the copy is
only read).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

import chromadb
import numpy as np
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.config import Settings as ChromaSettings
from chromadb.utils.embedding_functions import register_embedding_function

from rrag.backends.embedding import Embedder, get_embedder
from rrag.errors import IndexError_, IndexTimeoutError, RRAGError
from rrag.locks import process_lock
from rrag.retrieval.purge import purge_deleted_text
from rrag.retrieval.sentence_vectors import embed_chunks
from rrag.settings import Settings
from rrag.store.health import read_only_folder
from rrag.types import Chunk

SPACE = "cosine"
WRITE_BATCH = 512  # chunks per upsert: bounds memory while embedding large documents
READ_PAGE = 5000
VERSIONS_PAGE = 500
T = TypeVar("T")

# Chroma allows one client per path per process (a second one with other settings raises), and
# several ChunkIndex objects may share a location, so clients and write counters are per location.
_clients: dict[str, ClientAPI] = {}
_writes: dict[str, int] = {}
_lock = threading.Lock()


@register_embedding_function
class RRAGEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma's view of an rrag Embedder; the config names the embedder so Chroma can rebuild it."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    def __call__(self, input: Documents) -> Embeddings:
        return list(self._embedder.embed(list(input)))

    @staticmethod
    def name() -> str:
        return "rrag"

    def get_config(self) -> dict[str, Any]:
        return {"embedder": self._embedder.name}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> RRAGEmbeddingFunction:
        return RRAGEmbeddingFunction(get_embedder(config["embedder"]))

    def default_space(self) -> str:  # type: ignore[override]
        return SPACE

    def supported_spaces(self) -> list[str]:  # type: ignore[override]
        return [SPACE]


def _bounded(timeout_s: float, action: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`call(*args, **kwargs)`, its failures as IndexError_, waited for at most `timeout_s` seconds."""
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call(*args, **kwargs)))
        except BaseException as exc:  # handed to the waiting thread
            outcome.append((False, exc))

    # A daemon thread: one stalled for good must not keep the process from exiting.
    worker = threading.Thread(target=run, name=f"rrag-index: {action}", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if not outcome:
        raise IndexTimeoutError(
            f"the vector index did not {action} within {timeout_s:g} s (RRAG_INDEX_TIMEOUT_S): it may be "
            "out of disk space, or its server may have stopped answering. Nothing was changed that the "
            "next open does not repair; try again once it answers."
        )
    done, value = outcome[0]
    if done:
        return value
    if isinstance(value, RRAGError):
        raise value
    # chromadb raises its own errors, httpx errors and ValueErrors
    raise IndexError_(f"the vector index could not {action}: {value}") from value


def _location(settings: Settings) -> str:
    if settings.chroma_host:
        return f"http://{settings.chroma_host}:{settings.chroma_port}"
    return str(settings.chroma_dir.resolve())


def _client(settings: Settings, location: str) -> ClientAPI:
    with _lock:
        if location not in _clients:
            _clients[location] = _bounded(
                settings.index_timeout_s, f"connect to {location}", _new_client, settings
            )
        return _clients[location]


def _new_client(settings: Settings) -> ClientAPI:
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_host:
        return chromadb.HttpClient(
            host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
        )
    if read_only_folder(settings.data_dir):
        return chromadb.PersistentClient(str(_private_copy(settings.chroma_dir)), settings=chroma_settings)
    settings.chroma_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(str(settings.chroma_dir), settings=chroma_settings)


def _private_copy(chroma_dir: Path) -> Path:
    copy = Path(tempfile.mkdtemp(prefix="rrag-index-")) / "chroma"  # 0700: the documents' text is in it
    atexit.register(shutil.rmtree, copy.parent, ignore_errors=True)
    if chroma_dir.is_dir():
        shutil.copytree(chroma_dir, copy)
    return copy


def _opening(settings: Settings) -> AbstractContextManager[None]:
    """Embedded Chroma creates its own schema on first open and races when several processes open
    a new folder at once ("table collections already exists"): they open it one at a time (not on a
    read-only folder, where the lock cannot be created and the private copy is this process's own)."""
    if settings.chroma_host or read_only_folder(settings.data_dir):
        return nullcontext()
    return process_lock(settings.chroma_dir.with_suffix(".lock"))


class ChunkIndex:
    """Chunks with their embeddings; similarity is cosine, reported in -1..1 (higher is closer)."""

    def __init__(self, settings: Settings, embedder: Embedder) -> None:
        self._location = _location(settings)
        self._chroma_dir = None if settings.chroma_host else settings.chroma_dir
        self._collection_name = settings.collection
        self._embedding_function = RRAGEmbeddingFunction(embedder)
        self.dim = embedder.dim
        self._timeout_s = settings.index_timeout_s
        with _opening(settings):
            self._client = _client(settings, self._location)
            self._collection: Collection = self._chroma(
                f"open the collection {settings.collection!r} at {self._location}",
                self._client.get_or_create_collection,
                settings.collection,
                embedding_function=self._embedding_function,
                configuration={"hnsw": {"space": SPACE}},
            )
        self._all_cache: tuple[str, list[Chunk]] | None = None

    @property
    def location(self) -> str:
        return self._location

    @property
    def version(self) -> str:
        """Changes whenever the indexed chunks change (writes here, or a count change from elsewhere)."""
        return f"{_writes.get(self._write_key, 0)}:{self.count()}"

    @property
    def _write_key(self) -> str:
        return f"{self._location}#{self._collection_name}"

    def _chroma(self, action: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return _bounded(self._timeout_s, action, call, *args, **kwargs)

    def count(self) -> int:
        return self._chroma("count chunks", self._collection.count)

    def add(self, chunks: Sequence[Chunk], embeddings: np.ndarray | None = None) -> None:
        """Insert or overwrite chunks by id (so a retried ingest cannot create duplicates).
        `embeddings`: rows computed elsewhere (`embed_chunks`, the benchmark's cheap corpus);
        default: `embed_chunks`' of the chunks' texts."""
        for begin in range(0, len(chunks), WRITE_BATCH):
            batch = chunks[begin : begin + WRITE_BATCH]
            texts = [c.text for c in batch]
            self._chroma(
                "store chunks",
                self._collection.upsert,
                ids=[c.chunk_id for c in batch],
                documents=texts,
                metadatas=[_metadata(c) for c in batch],
                embeddings=(
                    self.embed_chunks(texts)[0]
                    if embeddings is None
                    else embeddings[begin : begin + WRITE_BATCH]
                ),
            )
            self._touch()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's vector, as the embedder gives it (a question's, a sentence's)."""
        return np.asarray(self._embedding_function(list(texts)), dtype=np.float32)

    def embed_chunks(
        self, texts: Sequence[str], had: dict[str, np.ndarray] | None = None
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        """The vectors the index stores for chunks of these texts, and their sentences' (to keep in the
        keyword index): rrag/retrieval/sentence_vectors.py; `had`: sentence -> vector already made."""
        return embed_chunks(self.embed, texts, had or {})

    def delete(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids:
            self._chroma("delete chunks", self._collection.delete, ids=list(chunk_ids))
            self._touch()

    def delete_document(self, doc_id: str) -> None:
        self._chroma(f"delete the chunks of {doc_id}", self._collection.delete, where={"doc_id": doc_id})
        self._touch()

    def purge_deleted(self) -> None:
        """Remove the text of deleted chunks from what embedded Chroma keeps on disk (see purge.py).
        A Chroma server's files are its operator's to compact."""
        if self._chroma_dir is not None:
            purge_deleted_text(self._chroma_dir)

    def chunk_versions(self, doc_id: str) -> dict[str, int]:
        """Chunk id -> the version of the document that wrote it (1 for chunks written before versions)."""
        versions: dict[str, int] = {}
        while True:  # a page at a time: one read of a large document's metadata took ~6 KB a chunk
            page = self._chroma(
                f"list the chunks of {doc_id}",
                self._collection.get,
                where={"doc_id": doc_id},
                include=["metadatas"],
                limit=VERSIONS_PAGE,
                offset=len(versions),
            )
            for i, meta in zip(page["ids"], page["metadatas"] or []):
                versions[i] = int(str((meta or {}).get("version", 1)))
            if len(page["ids"]) < VERSIONS_PAGE:
                return versions

    def chunk_owners(self) -> dict[str, tuple[str, int]]:
        """Chunk id -> (document id, version) of every indexed chunk, read a page of metadata at a time."""
        owners: dict[str, tuple[str, int]] = {}
        while True:
            page = self._chroma(
                "list the indexed chunks",
                self._collection.get,
                include=["metadatas"],
                limit=READ_PAGE,
                offset=len(owners),
            )
            for i, meta in zip(page["ids"], page["metadatas"] or []):
                meta = meta or {}
                owners[i] = (str(meta.get("doc_id", "")), int(str(meta.get("version", 1))))
            if len(page["ids"]) < READ_PAGE:
                return owners

    def get_chunks(self, doc_id: str) -> list[Chunk]:
        """The chunks of one document, in document order."""
        result = self._chroma(
            f"read the chunks of {doc_id}",
            self._collection.get,
            where={"doc_id": doc_id},
            include=["documents", "metadatas"],
        )
        return sorted(_chunks(result), key=lambda c: c.ordinal)

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks with these ids, in the order asked; unknown ids are left out."""
        if not chunk_ids:
            return []
        result = self._chroma(
            "read chunks", self._collection.get, ids=list(chunk_ids), include=["documents", "metadatas"]
        )
        found = {c.chunk_id: c for c in _chunks(result)}
        return [found[i] for i in chunk_ids if i in found]

    def all_chunks(self) -> list[Chunk]:
        """Every indexed chunk; cached until the index version changes."""
        version = self.version
        if self._all_cache is None or self._all_cache[0] != version:
            chunks: list[Chunk] = []
            while True:
                page = self._chroma(
                    "read all chunks",
                    self._collection.get,
                    include=["documents", "metadatas"],
                    limit=READ_PAGE,
                    offset=len(chunks),
                )
                chunks.extend(_chunks(page))
                if len(page["ids"]) < READ_PAGE:
                    break
            self._all_cache = (version, chunks)
        return self._all_cache[1]

    def query(self, text: str, k: int) -> list[tuple[Chunk, float]]:
        """The `k` nearest chunks to `text` with their cosine similarity, best first."""
        vector = self.query_vectors([text])[0]
        result = self._search([] if vector is None else [vector], k, ["documents", "metadatas", "distances"])
        if result is None:
            return []
        found = {key: result[key][0] for key in ("ids", "documents", "metadatas")}
        return [(chunk, 1.0 - float(d)) for chunk, d in zip(_chunks(found), result["distances"][0])]

    def nearest_many(self, texts: Sequence[str], k: int) -> list[list[tuple[str, float]]]:
        """The ids of the `k` nearest chunks to each text, with their cosine similarity, best first: one
        embedding batch and one search for them all, and no chunk read (most candidates are not kept)."""
        return self.nearest(self.query_vectors(texts), k)

    def query_vectors(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """Each text's vector, None for a blank one (nothing to search for)."""
        asked = [i for i, text in enumerate(texts) if text.strip()]
        vectors = self.embed([texts[i] for i in asked]) if asked else np.zeros((0, 0), dtype=np.float32)
        out: list[np.ndarray | None] = [None] * len(texts)
        for row, i in enumerate(asked):
            out[i] = vectors[row]
        return out

    def nearest(self, vectors: Sequence[np.ndarray | None], k: int) -> list[list[tuple[str, float]]]:
        """`nearest_many` for vectors of `query_vectors`: one search for them all."""
        asked = [i for i, vector in enumerate(vectors) if vector is not None]
        out: list[list[tuple[str, float]]] = [[] for _ in vectors]
        result = self._search([vectors[i] for i in asked], k, ["distances"])
        for row, i in enumerate(asked if result is not None else []):
            ids, distances = result["ids"][row], result["distances"][row]
            out[i] = [(chunk_id, 1.0 - float(d)) for chunk_id, d in zip(ids, distances)]
        return out

    def similarities(
        self, vectors: Sequence[np.ndarray | None], chunk_ids: Sequence[Sequence[str]]
    ) -> list[dict[str, float]]:
        """For each vector, the cosine similarity of each of its chunk ids' stored vectors (ids the
        index lacks are left out): one read for them all."""
        wanted = sorted({c for ids in chunk_ids for c in ids})
        if not wanted:
            return [{} for _ in vectors]
        stored = self._chroma("read vectors", self._collection.get, ids=wanted, include=["embeddings"])
        rows = stored["embeddings"]
        found = dict(zip(stored["ids"], [] if rows is None else np.asarray(rows, dtype=np.float32)))
        return [
            {c: _cosine(vector, found[c]) for c in ids if c in found} if vector is not None else {}
            for vector, ids in zip(vectors, chunk_ids)
        ]

    def _search(self, vectors: Sequence[np.ndarray | None], k: int, include: list[str]) -> Any:
        """Chroma's query result for `vectors` (none of them None); None when there is nothing to search
        (k < 1, or no vector)."""
        if k < 1 or not vectors:
            return None
        return self._chroma(
            "search", self._collection.query, query_embeddings=list(vectors), n_results=k, include=include
        )

    def _touch(self) -> None:
        with _lock:
            _writes[self._write_key] = _writes.get(self._write_key, 0) + 1


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)


def _metadata(chunk: Chunk) -> dict[str, str | int]:
    meta: dict[str, str | int] = {
        "doc_id": chunk.doc_id,
        "source": chunk.source,
        "start": chunk.start,
        "end": chunk.end,
        "ordinal": chunk.ordinal,
        "version": chunk.version,
    }
    if chunk.page is not None:
        meta["page"] = chunk.page
    if chunk.language is not None:
        meta["language"] = chunk.language
    return meta


def _chunks(result: Any) -> list[Chunk]:
    return [
        Chunk(
            chunk_id=chunk_id,
            doc_id=str(meta["doc_id"]),
            source=str(meta["source"]),
            text=text,
            start=int(meta["start"]),
            end=int(meta["end"]),
            page=int(meta["page"]) if meta.get("page") is not None else None,
            ordinal=int(meta["ordinal"]),
            version=int(meta.get("version", 1)),
            language=str(meta["language"]) if meta.get("language") is not None else None,
        )
        for chunk_id, text, meta in zip(result["ids"], result["documents"], result["metadatas"])
    ]
