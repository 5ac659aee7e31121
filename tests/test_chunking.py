"""Chunking keeps whole sentences, exact offsets, bounded size and overlap, and the starting page."""

from __future__ import annotations

import random
import re

import pytest

from rrag.ingest.chunking import chunk_spans
from rrag.text import split_sentences

WORDS = "leave salary manager request approval policy employee contract travel hotel budget".split()


def _prose(n_sentences: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    sentences = []
    for i in range(n_sentences):
        body = " ".join(rng.choices(WORDS, k=rng.randint(4, 20)))  # every sentence under 200 characters
        sentences.append(f"Rule {i} says the {body}.")
    return " ".join(sentences)


@pytest.mark.parametrize(("size", "overlap"), [(1000, 200), (300, 80), (200, 0)])
def test_chunks_are_exact_bounded_and_end_on_sentences(size: int, overlap: int) -> None:
    text = _prose(200)
    sentence_ends = {s.end for s in split_sentences(text)}
    sentence_starts = {s.start for s in split_sentences(text)}
    chunks = chunk_spans(text, size=size, overlap=overlap)
    assert len(chunks) > 5
    for chunk in chunks:
        assert 0 < chunk.end - chunk.start <= size
        assert chunk.start in sentence_starts and chunk.end in sentence_ends
    for before, after in zip(chunks, chunks[1:]):
        assert before.start < after.start  # always moves forward
        assert before.end - after.start <= overlap  # shared text never exceeds the overlap
    # Nothing is lost: every sentence lies inside some chunk.
    for sentence in split_sentences(text):
        assert any(c.start <= sentence.start and sentence.end <= c.end for c in chunks)


def test_overlap_repeats_whole_trailing_sentences() -> None:
    text = _prose(120)
    chunks = chunk_spans(text, size=400, overlap=150)
    shared = [before.end - after.start for before, after in zip(chunks, chunks[1:])]
    assert sum(s > 0 for s in shared) >= len(shared) // 3
    for before, after in zip(chunks, chunks[1:]):
        if before.end > after.start:
            assert text[after.start : before.end].startswith("Rule ")
            assert text[after.start : before.end].endswith(".")


def test_zero_overlap_gives_disjoint_chunks() -> None:
    chunks = chunk_spans(_prose(100), size=250, overlap=0)
    assert all(before.end < after.start for before, after in zip(chunks, chunks[1:]))


def test_a_sentence_longer_than_the_size_is_cut_at_word_boundaries() -> None:
    long_sentence = "The policy covers " + " ".join(f"item{i}" for i in range(200)) + "."
    text = f"Short intro. {long_sentence} Short outro."
    chunks = chunk_spans(text, size=120, overlap=30)
    for chunk in chunks:
        piece = text[chunk.start : chunk.end]
        assert len(piece) <= 120
        assert re.fullmatch(r"\S.*\S", piece, re.S)  # never starts or ends inside whitespace
        assert chunk.start == 0 or text[chunk.start - 1] == " "  # starts at a word
        assert chunk.end == len(text) or text[chunk.end] in " ."  # ends at a word
    covered = {word for c in chunks for word in re.findall(r"\w+", text[c.start : c.end])}
    assert {f"item{i}" for i in range(200)} <= covered


def test_a_word_longer_than_the_size_is_hard_cut() -> None:
    text = "x" * 350
    chunks = chunk_spans(text, size=100, overlap=10)
    assert [(c.start, c.end) for c in chunks] == [(0, 100), (100, 200), (200, 300), (300, 350)]


def test_each_chunk_knows_the_page_it_starts_on() -> None:
    pages_text = [_prose(10, seed=s) for s in (1, 2, 3)]
    text = "\n\n".join(pages_text)
    pages, offset = [], 0
    for number, page in enumerate(pages_text, start=1):
        pages.append((number, offset, offset + len(page)))
        offset += len(page) + 2
    chunks = chunk_spans(text, size=300, overlap=50, pages=pages)
    for chunk in chunks:
        expected = next(n for n, start, end in pages if start <= chunk.start < end)
        assert chunk.page == expected
    assert {c.page for c in chunks} == {1, 2, 3}


def test_no_pages_means_no_page_number_and_empty_text_no_chunks() -> None:
    assert chunk_spans("One sentence. Another one.", size=100, overlap=10)[0].page is None
    assert chunk_spans("", size=100, overlap=10) == []
    assert chunk_spans("   \n\n ", size=100, overlap=10) == []
