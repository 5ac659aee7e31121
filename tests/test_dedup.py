"""Near-duplicate removal: within a document (longest of a cluster kept) and against the index."""

from __future__ import annotations

import random

import pytest

from rrag.errors import ConfigError
from rrag.ingest.dedup import NearDuplicateFilter, shingles
from rrag.types import Chunk

VOCABULARY = [f"word{i}" for i in range(2000)]


def _text(seed: int, n_words: int = 150) -> str:
    return " ".join(random.Random(seed).choices(VOCABULARY, k=n_words)) + "."


def _one_word_changed(text: str) -> str:
    words = text.split()
    words[len(words) // 2] = "changed"
    return " ".join(words)


def _chunk(chunk_id: str, text: str) -> Chunk:
    doc_id = chunk_id.split(":")[0]
    return Chunk(chunk_id, doc_id, f"{doc_id}.txt", text, 0, len(text))


def test_within_a_document_the_longest_of_each_cluster_is_kept() -> None:
    a, b = _text(1), _text(2)
    longer_a = a + " And one more sentence."
    result = NearDuplicateFilter(0.85).filter([a, b, _one_word_changed(a), longer_a, b])
    assert result.kept == [1, 3]
    assert result.dropped == 3


def test_distinct_and_merely_similar_texts_are_kept() -> None:
    a = _text(1)
    half = " ".join(a.split()[:75]) + " " + _text(9, 75)  # shares half its words: not a duplicate
    texts = [a, _text(2), _text(3), half]
    assert NearDuplicateFilter(0.85).filter(texts).kept == [0, 1, 2, 3]


def test_a_new_chunk_is_dropped_when_an_indexed_one_is_at_least_as_long() -> None:
    a, b = _text(1), _text(2)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("old:0", a)])
    result = dedup.filter([_one_word_changed(a), b])
    assert (result.kept, result.dropped) == ([1], 1)


def test_a_longer_new_chunk_is_kept_and_the_indexed_one_is_left_alone() -> None:
    a = _text(1)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("old:0", a)])
    assert dedup.filter([a + " Extra words."]).kept == [0]


def test_the_document_being_replaced_does_not_count() -> None:
    a = _text(1)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("doc:0", a)])
    assert dedup.filter([a], exclude_doc="doc").kept == [0]
    assert dedup.filter([a], exclude_doc="other").kept == []


def test_reset_and_remove_keep_the_filter_in_step_with_the_index() -> None:
    a, b = _text(1), _text(2)
    dedup = NearDuplicateFilter(0.85)
    dedup.reset([_chunk("x:0", a), _chunk("x:1", b)])
    assert dedup.filter([a, b]).dropped == 2
    dedup.remove(["x:0"])
    assert dedup.filter([a, b]).kept == [0]
    dedup.reset([_chunk("x:1", _text(3))])  # same id, new text: the old text no longer counts
    assert dedup.filter([a, b]).kept == [0, 1]


def test_threshold_decides() -> None:
    a = _text(1, n_words=40)
    near = _one_word_changed(a)  # about 3 of 38 shingles differ: Jaccard near 0.85
    assert NearDuplicateFilter(0.5).filter([a, near]).dropped == 1
    assert NearDuplicateFilter(0.99).filter([a, near]).dropped == 0
    assert NearDuplicateFilter(1.0).filter([a, a]).dropped == 1  # exact copies only


def test_a_threshold_outside_0_to_1_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="dedup_threshold"):
        NearDuplicateFilter(0.0)
    with pytest.raises(ConfigError, match="dedup_threshold"):
        NearDuplicateFilter(1.5)


def test_shingles_are_word_trigrams_and_short_texts_still_hash() -> None:
    assert shingles("The cat sat on the mat") == {b"the cat sat", b"cat sat on", b"sat on the", b"on the mat"}
    assert shingles("Hello, World") == {b"hello world"}


def test_a_text_contained_in_another_document_is_dropped_though_it_straddles_two_chunks() -> None:
    a, b = _text(1), _text(2)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("policy:0", a + " " + b), _chunk("policy:1", b + " " + _text(3))])
    section = " ".join(a.split()[100:]) + " " + " ".join(b.split()[:30])  # 80 words across the seam
    other = _text(4)
    result = dedup.filter([section, other])
    assert (result.kept, result.dropped, result.already_in) == ([1], 1, {"policy.txt": 1})
    assert dedup.filter([section], exclude_doc="policy").kept == [0]  # the document being replaced


def test_a_text_mostly_new_or_longer_than_what_holds_it_is_kept() -> None:
    a = _text(1)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("policy:0", a)])
    half_new = " ".join(a.split()[:60]) + " " + _text(5, 60)
    assert dedup.filter([half_new, a + " " + _text(6, 20)]).kept == [0, 1]


def _numbers_changed(text: str, *numbers: int) -> str:
    words = text.split()
    for at, number in zip((10, 70, 130), numbers):
        words[at] = str(number)
    return " ".join(words)


def test_texts_that_write_other_numbers_are_no_copies() -> None:
    # Three numbers changed in 150 words: Jaccard about 0.89, over the threshold, yet another text (a
    # price list of another year); the same numbers with a word changed remain a copy.
    a = _numbers_changed(_text(1), 25, 49, 2025)
    b = _numbers_changed(_text(1), 27, 52, 2026)
    assert NearDuplicateFilter(0.85).filter([a, b]).kept == [0, 1]
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("prices2025:0", a)])
    assert dedup.filter([b, _one_word_changed(a)]).kept == [0]


def test_a_section_that_writes_other_numbers_is_not_contained() -> None:
    a, b = _text(1), _text(2)
    dedup = NearDuplicateFilter(0.85)
    dedup.add([_chunk("policy:0", _numbers_changed(a, 14, 30, 90) + " " + b)])
    section = " ".join(_numbers_changed(a, 14, 30, 90).split()[40:])
    assert dedup.filter([section]).dropped == 1  # the same numbers: contained
    assert dedup.filter([" ".join(_numbers_changed(a, 14, 45, 90).split()[40:])]).kept == [0]
