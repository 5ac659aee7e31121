"""Normalisation that maps back to the original, and quote location (exact and fuzzy)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from rapidfuzz import fuzz

from rrag.text.caches import per_text

_CHAR_MAP = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2033": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
}
# Invisible format characters: zero-width space, non-joiner and joiner, word joiner, byte-order mark,
# and the bidi marks, embeddings, overrides and isolates. They hide inside words and numbers
# ("2\u200b5 days" reads "25 days") and say nothing a reader can see, so every comparison drops them.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_INVISIBLE = frozenset(INVISIBLE)
_KEPT_SYMBOLS = frozenset("%$\u20ac\u00a3")  # they change a claim's meaning; other punctuation does not
_CITATION_MARK = re.compile(r"\[(?:[^\[\]\n]{1,40})\]")  # "[1]", "[chunk 3]" in LLM answers
_VISIBLE_RUN = re.compile(r"\S+")
# Letters and digits, the kept symbols, invisible characters (dropped later: "2\u200b5" is one
# run), and "." or "," between digits ("3.5", "1,000").
_PLAIN_RUN = re.compile(rf"(?:[^\W_]|[%$\u20ac\u00a3{INVISIBLE}]|(?<=\d)[.,](?=\d))+")


def plain_char(c: str) -> str:
    """What one character means to a reader: "" for an invisible one, an ASCII digit for any decimal
    digit ("\uff12", Arabic-Indic "\u0662" -> "2"), a space for any other space (NBSP, thin, narrow
    no-break); else the character itself. Line breaks and tabs stay: they shape sentences."""
    if c.isascii():
        return c
    if c in _INVISIBLE:
        return ""
    digit = unicodedata.decimal(c, None)
    if digit is not None:
        return str(digit)
    return " " if unicodedata.category(c) == "Zs" else c


def clean_map(text: str) -> tuple[str, tuple[int, ...]]:
    """`text` as every comparison reads it (see `plain_char`), case and punctuation kept, with, for
    each character of the result, its index in `text`. Documents are stored cleaned; answers keep
    their own text and map claims back with the index."""
    if text.isascii():
        return text, tuple(range(len(text)))
    out: list[str] = []
    index: list[int] = []
    for i, c in enumerate(text):
        for plain in plain_char(c):
            out.append(plain)
            index.append(i)
    return "".join(out), tuple(index)


def clean(text: str) -> str:
    """`clean_map(text)` without the offsets."""
    return text if text.isascii() else "".join(map(plain_char, text))


def normalize(text: str, *, punctuation: bool = True) -> str:
    """Case-folded, NFKC, invisible characters dropped, digits and spaces as in `plain_char`, quotes
    and dashes unified, whitespace collapsed; see `normalize_map`."""
    if text.isascii():  # the common cases, without building an offset map
        if punctuation:
            return " ".join(text.split()).lower()
        if "[" not in text:  # no citation mark to drop
            return " ".join(_PLAIN_RUN.findall(text)).lower()
    return " ".join(piece for piece, _, _ in _normalized_runs(text, punctuation))


@per_text(maxsize=1024)  # verifiers look up many claims in the same few chunks
def normalize_map(text: str, *, punctuation: bool = True) -> tuple[str, tuple[int, ...]]:
    """Normalise `text` and return, for each character of the result, its index in `text`.

    With `punctuation=False`, punctuation becomes a space, except `% $ € £` and the `.`/`,` inside
    numbers, and bracketed citation marks are dropped, so "3.5%" and "[2]" behave as they should.
    """
    out: list[str] = []
    index: list[int] = []
    for piece, start, positions in _normalized_runs(text, punctuation):
        if out:  # one space for whatever separated this run from the previous one
            out.append(" ")
            index.append(start - 1)
        out.append(piece)
        index.extend(positions)
    return "".join(out), tuple(index)


def _normalized_runs(text: str, punctuation: bool) -> Iterator[tuple[str, int, Sequence[int]]]:
    """Each run of `text` that normalises to something: normalised, where the run starts in `text`,
    and the index in `text` of each of its characters."""
    cited = [] if punctuation else [m.span() for m in _CITATION_MARK.finditer(text)]
    for m in (_VISIBLE_RUN if punctuation else _PLAIN_RUN).finditer(text):
        start, end = m.span()
        if any(a <= start < b for a, b in cited):
            continue
        positions: Sequence[int]
        if m.group().isascii():  # the common case: NFKC and case folding change no length
            piece, positions = m.group().lower(), range(start, end)
        else:
            piece, positions = _normalize_chars(text, start, end, punctuation)
        if piece:
            yield piece, start, positions


def _normalize_chars(text: str, start: int, end: int, punctuation: bool) -> tuple[str, list[int]]:
    """The slow path for a run with non-ASCII characters: NFKC may turn one character into several."""
    chars: list[str] = []
    positions: list[int] = []
    for i in range(start, end):
        for c in unicodedata.normalize("NFKC", _CHAR_MAP.get(text[i], plain_char(text[i]))).casefold():
            if c.isspace() or (
                not punctuation and not c.isalnum() and c not in _KEPT_SYMBOLS and c not in ".,"
            ):
                continue
            chars.append(c)
            positions.append(i)
    return "".join(chars), positions


def locate(needle: str, haystack: str, *, punctuation: bool = False) -> tuple[int, int] | None:
    """Where `needle` occurs in `haystack` ignoring case, whitespace (and punctuation), on word
    boundaries; offsets are into `haystack`. None when it does not occur."""
    norm_needle = normalize(needle, punctuation=punctuation)
    if not norm_needle:
        return None
    norm_hay, index = normalize_map(haystack, punctuation=punctuation)
    pos = norm_hay.find(norm_needle)
    while pos != -1:
        end = pos + len(norm_needle)
        if _word_edge(norm_hay, pos - 1, pos) and _word_edge(norm_hay, end - 1, end):
            return index[pos], index[end - 1] + 1
        pos = norm_hay.find(norm_needle, pos + 1)
    return None


def _word_edge(s: str, left: int, right: int) -> bool:
    if left < 0 or right >= len(s):
        return True
    return not (s[left].isalnum() and s[right].isalnum())


def fuzzy_locate(needle: str, haystack: str, *, min_ratio: float = 0.9) -> tuple[int, int, float] | None:
    """Best approximate occurrence of `needle` in `haystack` (ratio 0..1 >= `min_ratio`), widened
    to whole words; offsets are into `haystack`."""
    norm_needle = normalize(needle, punctuation=False)
    norm_hay, index = normalize_map(haystack, punctuation=False)
    if not norm_needle or not norm_hay:
        return None
    hit = fuzz.partial_ratio_alignment(norm_needle, norm_hay, score_cutoff=min_ratio * 100)
    if hit is None or hit.dest_end <= hit.dest_start:
        return None
    start, end = index[hit.dest_start], index[hit.dest_end - 1] + 1
    while start > 0 and haystack[start - 1].isalnum():
        start -= 1
    while end < len(haystack) and haystack[end].isalnum():
        end += 1
    return start, end, hit.score / 100


# ---------------------------------------------------------------------------------------------
# Words
