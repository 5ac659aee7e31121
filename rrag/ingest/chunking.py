"""Sentence-aware chunking with exact character offsets into the extracted text.

Chunks are packed from whole sentences up to `size` characters; consecutive chunks share up to
`overlap` characters of whole trailing sentences. Only a sentence longer than `size` is cut, at word
boundaries. Because a chunk is always `text[start:end]`, evidence can later be shown in place.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from rrag.text import split_sentences


@dataclass(frozen=True)
class TextSpan:
    """A chunk's place in the text: `text[start:end]`, and the page it starts on when pages are known."""

    start: int
    end: int
    page: int | None = None


def chunk_spans(
    text: str, *, size: int, overlap: int, pages: Sequence[tuple[int, int, int]] = ()
) -> list[TextSpan]:
    """Pack sentences into chunks of at most `size` characters sharing up to `overlap` characters."""
    units = [
        piece
        for sentence in split_sentences(text)
        for piece in _split_long(text, (sentence.start, sentence.end), size)
    ]
    page_starts = [start for _, start, _ in pages]
    chunks: list[TextSpan] = []
    first = 0  # index of the first unit of the chunk being built
    while first < len(units):
        last = first
        while last + 1 < len(units) and units[last + 1][1] - units[first][0] <= size:
            last += 1
        start, end = units[first][0], units[last][1]
        chunks.append(TextSpan(start, end, _page_at(pages, page_starts, start)))
        if last + 1 == len(units):
            break
        first = _overlap_start(units, first, last, overlap, size)
    return chunks


def _overlap_start(units: list[tuple[int, int]], first: int, last: int, overlap: int, size: int) -> int:
    """First unit of the next chunk: trailing whole sentences of this one that fit in `overlap`,
    leaving room for the next sentence, and always moving forward."""
    next_end = units[last + 1][1]
    candidate = last + 1
    while (
        candidate - 1 > first
        and units[last][1] - units[candidate - 1][0] <= overlap
        and next_end - units[candidate - 1][0] <= size
    ):
        candidate -= 1
    return candidate


def _split_long(text: str, span: tuple[int, int], size: int) -> list[tuple[int, int]]:
    """Cut a sentence longer than `size` at the last space before each limit (hard cut if none)."""
    start, end = span
    pieces = []
    while end - start > size:
        cut = text.rfind(" ", start + 1, start + size + 1)
        if cut <= start:
            cut = start + size
        piece_end = cut
        while piece_end > start and text[piece_end - 1].isspace():
            piece_end -= 1
        pieces.append((start, piece_end))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    pieces.append((start, end))
    return pieces


def _page_at(pages: Sequence[tuple[int, int, int]], page_starts: list[int], offset: int) -> int | None:
    if not pages:
        return None
    index = max(bisect.bisect_right(page_starts, offset) - 1, 0)
    return pages[index][0]
