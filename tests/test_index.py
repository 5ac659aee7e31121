"""The offline MiniLM embedder and the Chroma chunk index, on a real PersistentClient in tmp."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rrag.backends.embedding import (
    EMBEDDERS,
    MODEL_DIR,
    MODEL_FILE,
    PORTABLE_MODEL_FILE,
    MiniLMEmbedder,
    get_embedder,
)
from rrag.errors import ConfigError, IndexError_
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.types import Chunk

LEAVE = "Every full-time employee receives 25 days of paid annual leave per calendar year."
VACATION = "How many vacation days do staff get each year?"
MONGOLIA = "Ulaanbaatar is the capital and largest city of Mongolia."


# -- embedder --------------------------------------------------------------------------------------


def test_embeddings_are_unit_length_384_float32() -> None:
    vectors = get_embedder().embed([LEAVE, VACATION, MONGOLIA, ""])
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert get_embedder().embed([]).shape == (0, 384)


def test_embeddings_carry_meaning() -> None:
    leave, vacation, mongolia = get_embedder().embed([LEAVE, VACATION, MONGOLIA])
    assert leave @ vacation > 0.5
    assert leave @ vacation > leave @ mongolia + 0.3


def test_a_texts_vector_does_not_depend_on_the_texts_beside_it() -> None:
    texts = [f"Sentence number {i} about {'leave ' * (i % 7)}policy." for i in range(150)]
    together = get_embedder().embed(texts)
    alone = np.stack([get_embedder().embed([t])[0] for t in texts[:10]])
    assert np.array_equal(together[:10], alone)  # each text runs alone; rows stay in input order
    assert np.array_equal(get_embedder().embed(texts[::-1])[::-1], together)


def test_the_copy_this_cpu_runs_embeds_as_the_exact_uint8_copy() -> None:
    for copy in (MODEL_FILE, PORTABLE_MODEL_FILE):
        assert (MODEL_DIR / copy).is_file(), copy  # both shipped: a CPU without VNNI needs the uint8 one
    texts = [LEAVE, VACATION, MONGOLIA]
    exact = MiniLMEmbedder(threads=1, model_file=PORTABLE_MODEL_FILE).embed(texts)
    assert np.abs(get_embedder().embed(texts) - exact).max() < 1e-4


def test_a_missing_embedding_model_is_a_config_error_that_names_its_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=re.escape(f"embedding model is missing from {tmp_path}")):
        MiniLMEmbedder(tmp_path)


def test_long_text_is_truncated_not_refused() -> None:
    long_text = "policy " * 5000
    assert get_embedder().embed([long_text]).shape == (1, 384)


def test_embedder_registry_caches_one_instance() -> None:
    assert get_embedder("minilm") is get_embedder()
    assert EMBEDDERS["minilm"] is MiniLMEmbedder
    with pytest.raises(ConfigError, match="unknown embedder 'bert'"):
        get_embedder("bert")


# -- index -----------------------------------------------------------------------------------------


def _chunks(doc_id: str, texts: list[str], page: int | None = None) -> list[Chunk]:
    out, offset = [], 0
    for n, text in enumerate(texts):
        out.append(Chunk(f"{doc_id}:{n}", doc_id, f"{doc_id}.pdf", text, offset, offset + len(text), page, n))
        offset += len(text) + 1
    return out


@pytest.fixture
def index(settings: Settings) -> ChunkIndex:
    return ChunkIndex(settings, get_embedder())


def test_add_then_read_back_in_document_order(index: ChunkIndex) -> None:
    chunks = _chunks("hr", [LEAVE, "Sick pay lasts 20 days.", "Hotels cost up to 150 euros."], page=3)
    index.add(list(reversed(chunks)))
    assert index.get_chunks("hr") == chunks
    assert index.count() == 3
    assert index.get(["hr:2", "missing:9", "hr:0"]) == [chunks[2], chunks[0]]
    assert sorted(index.chunk_versions("hr")) == ["hr:0", "hr:1", "hr:2"]
    assert sorted(index.all_chunks(), key=lambda c: c.chunk_id) == chunks


def test_page_none_round_trips(index: ChunkIndex) -> None:
    index.add(_chunks("notes", [LEAVE]))
    assert index.get_chunks("notes")[0].page is None


def test_query_returns_cosine_similarity_best_first(index: ChunkIndex) -> None:
    texts = [LEAVE, MONGOLIA, "Passwords must be at least 14 characters long."]
    index.add(_chunks("hr", texts))
    hits = index.query(VACATION, k=10)
    assert [c.text for c, _ in hits][0] == LEAVE
    assert len(hits) == 3  # k above the count is fine
    expected = get_embedder().embed([VACATION]) @ get_embedder().embed(texts).T
    for chunk, similarity in hits:
        assert similarity == pytest.approx(float(expected[0][texts.index(chunk.text)]), abs=1e-3)
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)


def test_query_on_an_empty_index_or_blank_text_is_empty(index: ChunkIndex) -> None:
    assert index.query(VACATION, k=5) == []
    index.add(_chunks("hr", [LEAVE]))
    assert index.query("   ", k=5) == []


def test_nearest_many_gives_each_texts_ids_and_similarities_without_reading_chunks(index: ChunkIndex) -> None:
    index.add(_chunks("hr", [LEAVE, MONGOLIA, "Passwords must be at least 14 characters long."]))
    nearest = index.nearest_many([VACATION, "  ", "capital of Mongolia"], k=2)
    assert nearest[1] == [] and [len(n) for n in nearest] == [2, 0, 2]
    for text, found in zip([VACATION, "capital of Mongolia"], [nearest[0], nearest[2]]):
        expected = [(chunk.chunk_id, similarity) for chunk, similarity in index.query(text, k=2)]
        assert [i for i, _ in found] == [i for i, _ in expected]
        assert [s for _, s in found] == pytest.approx([s for _, s in expected], abs=1e-6)
    assert index.nearest_many([VACATION], k=0) == [[]]


def test_similarities_read_stored_vectors_as_the_search_scores_them(index: ChunkIndex) -> None:
    index.add(_chunks("hr", [LEAVE, MONGOLIA, "Passwords must be at least 14 characters long."]))
    asked = index.query_vectors([VACATION, "  "])
    assert asked[1] is None  # a blank text has no vector, and no similarity
    everything = dict(index.nearest(asked, 3)[0])
    read = index.similarities(asked, [[*everything, "hr:404"], list(everything)])
    assert read[0] == pytest.approx(everything, abs=1e-4) and read[1] == {}
    assert index.similarities(asked, [[], []]) == [{}, {}]


def test_upsert_by_id_never_duplicates(index: ChunkIndex) -> None:
    index.add(_chunks("hr", [LEAVE, MONGOLIA]))
    index.add(_chunks("hr", ["Replaced text.", MONGOLIA]))
    assert index.count() == 2
    assert index.get(["hr:0"])[0].text == "Replaced text."


def test_delete_document_and_chunks_and_version_changes(index: ChunkIndex) -> None:
    versions = {index.version}
    index.add(_chunks("a", [LEAVE, MONGOLIA]))
    versions.add(index.version)
    index.add(_chunks("b", ["Other document text."]))
    versions.add(index.version)
    index.delete(["a:1"])
    versions.add(index.version)
    assert list(index.chunk_versions("a")) == ["a:0"]
    index.delete_document("a")
    versions.add(index.version)
    assert index.get_chunks("a") == [] and index.count() == 1
    assert len(versions) == 5
    assert [c.doc_id for c in index.all_chunks()] == ["b"]


def test_two_indexes_on_one_path_share_a_client_and_see_each_other(settings: Settings) -> None:
    first = ChunkIndex(settings, get_embedder())
    second = ChunkIndex(settings, get_embedder())
    before = second.version
    first.add(_chunks("hr", [LEAVE]))
    assert second.count() == 1 and second.version != before


def test_chunks_persist_on_disk_for_a_new_process(index: ChunkIndex, settings: Settings) -> None:
    index.add(_chunks("hr", [LEAVE, MONGOLIA]))
    code = (
        "from pathlib import Path; from rrag.settings import Settings;"
        "from rrag.retrieval.index import ChunkIndex;"
        "from rrag.backends.embedding import get_embedder;"
        f"i = ChunkIndex(Settings(data_dir=Path({str(settings.data_dir)!r})), get_embedder());"
        "print(i.count(), i.query('vacation days', 1)[0][0].chunk_id)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split() == ["2", "hr:0"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_chroma_server_is_an_index_error(settings: Settings) -> None:
    with pytest.raises(IndexError_, match="vector index could not connect"):
        ChunkIndex(settings.replace(chroma_host="127.0.0.1", chroma_port=_closed_port()), get_embedder())


def test_a_bad_collection_name_is_an_index_error(settings: Settings) -> None:
    with pytest.raises(IndexError_, match="could not open the collection"):
        ChunkIndex(settings.replace(collection="no spaces allowed!"), get_embedder())


def test_data_dir_is_created(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "new" / "nested")
    ChunkIndex(settings, get_embedder()).add(_chunks("hr", [LEAVE]))
    assert settings.chroma_dir.is_dir()


def test_a_chunks_vector_is_the_mean_of_its_sentences_each_embedded_once(index: ChunkIndex) -> None:
    passwords = "Passwords must be at least 14 characters long."
    texts = [f"{LEAVE} {MONGOLIA}", f"{MONGOLIA} {passwords}"]  # an overlap: Mongolia in both
    calls: list[list[str]] = []
    embed = index.embed
    index.embed = lambda batch: calls.append(list(batch)) or embed(batch)  # type: ignore[method-assign]
    vectors, of_chunks = index.embed_chunks(texts)
    assert calls == [[LEAVE, MONGOLIA, passwords]]  # one call, each sentence once
    alone = embed([LEAVE, MONGOLIA, passwords])
    assert [rows.shape for rows in of_chunks] == [(2, 384), (2, 384)]
    assert np.allclose(of_chunks[0][1], alone[1], atol=1e-3)
    assert np.array_equal(of_chunks[0][1], of_chunks[1][0])
    mean = alone[:2].mean(axis=0)
    assert np.allclose(vectors[0], mean / np.linalg.norm(mean), atol=1e-3)
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0], abs=1e-5)
    # Sentences a document had are not embedded again, and give the same chunk vector.
    again, _ = index.embed_chunks([texts[1]], {MONGOLIA: of_chunks[1][0], passwords: of_chunks[1][1]})
    assert len(calls) == 1 and np.array_equal(again[0], vectors[1])
    # What the index stores for a chunk added without vectors is the same.
    index.add(_chunks("hr", texts[:1]))
    assert dict(index.nearest([vectors[0]], 1)[0])["hr:0"] == pytest.approx(1.0, abs=1e-4)
