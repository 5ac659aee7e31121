"""Sentences with offsets: a splitter that keeps abbreviations, list items, table rows and headings apart."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rrag.lang.en.abbreviations import ABBREVIATIONS, NUMBERING_ABBREVIATIONS, TIME_ABBREVIATIONS
from rrag.lang.en.dates import DAY_ABBREVIATIONS, MONTH_ALTERNATION, MONTH_NAMES, WEEKDAYS
from rrag.lang.en.function_words import (
    HEADING_AUXILIARIES,
    HEADING_LAST_PRONOUNS,
    HEADING_QUESTION_WORDS,
    STOPWORDS,
)
from rrag.lang.en.table_rows import row_name
from rrag.text.caches import per_text
from rrag.text.words import Span, words

# ---------------------------------------------------------------------------------------------
# Sentences

_DAY_OR_MONTH = frozenset(WEEKDAYS) | DAY_ABBREVIATIONS | MONTH_NAMES  # after "a.m." or "p.m."
# A single letter after a number is a unit ("8 °C.", "2 m."), not an initial.
_UNIT_LETTER = re.compile(r"\d\s?\u00b0?\s?[A-Za-z]$")
# A short line without terminal punctuation that starts a sentence is a heading ("Scope\nThis
# policy ..."), unless it has a verb or ends in a function word: then it is a line wrapped mid-sentence.
# Up to 4 words any heading; up to 6 in title case ("Security When Working From Home").
MAX_HEADING_WORDS, MAX_TITLE_CASE_HEADING_WORDS = 4, 6
_TABLE_LINE = re.compile(r"^\s*\||\s\|\s")
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")
_BULLET = re.compile(r"(?:[-*\u2022\u2023\u25e6]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]+")
_HEADING = re.compile(r"#{1,6}[ \t]+")
# A candidate end: terminal punctuation and closing quotes/brackets, then whitespace.
_TERMINAL = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]]*(?=\s)")
_LINE_BREAK = re.compile(r"\n")
_INDENT = re.compile(r"[ \t]*")
_NEXT_VISIBLE = re.compile(r"\s*(\S)")


@per_text(maxsize=4096)
def chunk_sentences(text: str) -> tuple[Span, ...]:
    """`split_sentences` of a retrieved chunk, read once: the injection check, the rules, the judge's
    windows and the conflict finder each read every chunk's sentences, claim after claim."""
    return tuple(split_sentences(text))


def sentence_windows(text: str, max_words: int | None = None) -> list[tuple[Span, int]]:
    """Each sentence of `text` alone and joined with the next one, so that a fact spread over two
    sentences is seen together, as (span, how many sentences). With `max_words`, a pair only where
    it is short enough, and a longer sentence as overlapping slices. A row of a table pairs with what
    comes before it only (its caption): it states its row whole, and read with what follows, the next
    row's value passes for its own ("For zone B, the areas are ... Coleford ... For zone C, ... the
    collection day is Thursday"), or the text's after the table ("For Electric (Group E), the daily
    rate is £55 ... Excess Reduction cover costs £12 per day")."""
    sentences = chunk_sentences(text)
    rows = [row_name(sentence.text) is not None for sentence in sentences]
    out: list[tuple[Span, int]] = []
    for i, sentence in enumerate(sentences):
        out.extend((piece, 1) for piece in (_slices(sentence, max_words) if max_words else [sentence]))
        if i + 1 < len(sentences) and not rows[i]:
            nxt = sentences[i + 1]
            if max_words is None or len(sentence.text.split()) + len(nxt.text.split()) <= max_words:
                out.append((Span(text[sentence.start : nxt.end], sentence.start, nxt.end), 2))
    return out


def _slices(sentence: Span, max_words: int) -> list[Span]:
    if len(sentence.text.split()) <= max_words:  # most sentences: counted without building matches
        return [sentence]
    tokens = list(re.finditer(r"\S+", sentence.text))
    step = max_words // 2
    out = []
    for first in range(0, len(tokens) - step, step):
        last = min(first + max_words, len(tokens)) - 1
        start, end = tokens[first].start(), tokens[last].end()
        out.append(Span(sentence.text[start:end], sentence.start + start, sentence.start + end))
    return out


def split_sentences(text: str) -> list[Span]:
    """Sentences, list items and headings of `text`, with offsets; bullet markers are left out.

    A single line break only ends a sentence when the line ends with terminal punctuation or a
    colon, or the next line starts a list item or heading: extracted PDFs wrap lines mid-sentence.
    """
    cuts = {0, len(text)}
    for m in _TERMINAL.finditer(text):
        if not _is_abbreviation(text, m.start()) and _starts_sentence(text, m.end()):
            cuts.add(m.end())
    # Every test below looks at a bounded neighbourhood of the break: slicing the whole text before
    # or after it would make splitting quadratic in the length of a document.
    for m in _LINE_BREAK.finditer(text):
        previous = _last_visible(text, m.start())
        next_line = _INDENT.match(text, m.end()).end()  # type: ignore[union-attr]
        if (
            previous in ("", "\n")  # the text starts here, or the line before is blank
            or previous in ".!?:;\u2026"
            or _BULLET.match(text, next_line)
            or _HEADING.match(text, next_line)
            or next_line == len(text)
            or text[next_line] == "\n"  # blank line: paragraph break
            or _HEADING.match(_line_at(text, m.start()))
            or _is_table_line(text, m.start())
            or _is_table_line(text, next_line)
            or _is_heading_line(text, m.start(), next_line)
            or (_ends_with_date(text, m.start()) and _opens_sentence(text, next_line))
        ):
            cuts.add(m.end())
    bounds = sorted(cuts)
    spans = []
    for start, end in zip(bounds, bounds[1:]):
        span = _trim(text, start, end)
        if span is not None:
            spans.append(span)
    return spans


def is_list_item(text: str, span: Span) -> bool:
    """Whether `span` (from `split_sentences(text)`) is a bullet or numbered item of a list."""
    return bool(list_marker(text, span.start))


def list_marker(text: str, start: int) -> str:
    """The bullet or number ("- ", "2. ") before `start` where a list item starts there, else ""."""
    line = _line_at(text, start)
    return line if _BULLET.fullmatch(line) else ""


def on_list_item(text: str, pos: int) -> bool:
    """Whether offset `pos` lies on a line that is an item of a list."""
    line_start = text.rfind("\n", 0, pos) + 1
    return bool(_BULLET.match(text, _INDENT.match(text, line_start).end()))  # type: ignore[union-attr]


def list_lead_ins(text: str, spans: Sequence[Span]) -> list[Span | None]:
    """For each span of `split_sentences(text)`, the lead-in its list is said under ("The plan
    covers:" above "- dental"), or None where it is no item of a list under one."""
    out: list[Span | None] = []
    lead_in = None
    for i, span in enumerate(spans):
        if is_list_item(text, span):
            out.append(lead_in)
            continue
        heads_a_list = span.text.endswith(":") and i + 1 < len(spans) and is_list_item(text, spans[i + 1])
        lead_in = span if heads_a_list else None
        out.append(None)
    return out


def _is_abbreviation(text: str, dot: int) -> bool:
    if text[dot] != ".":
        return False
    # Only the last few characters can hold the word: searching the whole prefix made splitting quadratic.
    word = re.search(r"[\w.]*$", text[max(0, dot - 100) : dot]).group(0).lower()  # type: ignore[union-attr]
    if word.isdigit() and not _line_at(text, dot - len(word)):
        return True  # "1. First item": a list number, not the end of a sentence
    if word in TIME_ABBREVIATIONS:
        following = _NEXT_WORD.match(text, dot + 1)
        return not following or following.group(1).lower() in _DAY_OR_MONTH
    # Single letters are initials ("J. Smith"), except after a number, where they are units.
    if len(word) == 1 and _UNIT_LETTER.search(text, max(0, dot - 6), dot):
        return False
    if word in NUMBERING_ABBREVIATIONS:
        following = _NEXT_VISIBLE.match(text, dot + 1)
        return bool(following and following.group(1).isdigit())
    return word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def _is_table_line(text: str, pos: int) -> bool:
    """Whether the line holding `pos` is a table row ("Berlin | €48", "| Berlin | €48 |")."""
    start, end = text.rfind("\n", 0, pos) + 1, text.find("\n", pos)
    return bool(_TABLE_LINE.search(text[start : end if end != -1 else len(text)]))


def heading_over(text: str, at: int) -> str:
    """The heading the text at `at` sits under: the nearest paragraph before it that is a title or a
    question ("If your car breaks down", "Do you do home visits?"), short and not ending a sentence;
    "" where there is none."""
    for paragraph in reversed(_PARAGRAPH_BREAK.split(text[:at])[:-1]):
        # A PDF's numbered heading is read on a line of its own after the last sentence of the section
        # before ("... a rolling term of 1 month.\n2. Cooling-off period"): its last line heads this one.
        *before, last = paragraph.strip().split("\n")
        if before and before[-1].rstrip().endswith((".", "!", "?")) and _is_heading(last.strip()):
            return last.strip()
        line = " ".join(paragraph.split())
        if _is_heading(line):
            return line
    return ""


def _is_heading(line: str) -> bool:
    """Whether a paragraph's text reads as a title or a question: short, and ending no sentence."""
    limit = MAX_QUESTION_HEADING_WORDS if line.endswith("?") else MAX_SECTION_HEADING_WORDS
    return bool(line) and len(words(line)) <= limit and not line.endswith((".", ":", ";", ","))


_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
MAX_SECTION_HEADING_WORDS = 12
# An FAQ's question heads its answer however fully it is asked ("Can I switch to you if I owe money to
# my current supplier?"); skipped, the answer was read under the question before it.
MAX_QUESTION_HEADING_WORDS = 30


def _is_heading_line(text: str, line_end: int, next_line: int, headings_before: int = 2) -> bool:
    """Whether the line ending at `line_end` is a heading over the sentence on the next line; it may sit
    under up to `headings_before` headings ("Membership terms" / "Who can ride" / "You must be ...")."""
    line_start = text.rfind("\n", 0, line_end) + 1
    line = text[line_start:line_end].strip()
    tokens = words(line)
    title_case = all(w[0].isupper() for w in line.split() if len(w) >= 4)
    limit = MAX_TITLE_CASE_HEADING_WORDS if title_case else MAX_HEADING_WORDS
    if not tokens or len(tokens) > limit or not (line[0].isupper() or line[0].isdigit()):
        return False
    asks = tokens[0].lower() in HEADING_QUESTION_WORDS
    if (tokens[-1] in STOPWORDS and tokens[-1] not in HEADING_LAST_PRONOUNS) or (
        not asks and any(t in HEADING_AUXILIARIES for t in tokens)
    ):
        return False
    before = _last_visible(text, text.rfind("\n", 0, line_end) if line_start else 0)
    starts_sentence = (
        line_start == 0
        or before in ("", "\n")
        or before in ".!?:;\u2026"
        # "1. Switching to us": numbered after a line that is no item of a list, a section opens
        or (on_list_item(text, line_start) and not (line_start > 0 and on_list_item(text, line_start - 1)))
        or (line_start > 0 and _ends_with_date(text, line_start - 1))
        or (headings_before > 0 and _is_heading_line(text, line_start - 1, line_start, headings_before - 1))
    )
    return starts_sentence and _opens_sentence(text, next_line)


def _opens_sentence(text: str, at: int) -> bool:
    return at < len(text) and (text[at].isupper() or text[at].isdigit())


# A line that ends with a date is a line of its own, a dateline ("Last updated 2 January 2027", "Version
# 9, effective 1 October 2026"), where the next opens a sentence: no wrapped sentence goes on after a
# year with a capital.
_DATE_AT_LINE_END = re.compile(
    rf"\b(?:{MONTH_ALTERNATION})\.?\s+(?:\d{{1,2}},?\s+)?\d{{4}}[ \t]*$",
    re.IGNORECASE,
)


def _ends_with_date(text: str, line_end: int) -> bool:
    line_start = text.rfind("\n", 0, line_end) + 1
    return bool(_DATE_AT_LINE_END.search(text[line_start:line_end]))


def _starts_sentence(text: str, pos: int) -> bool:
    m = _NEXT_VISIBLE.match(text, pos)
    if m is None:
        return False
    first = m.group(1)
    return first.isupper() or first.isdigit() or first in "\"'\u201c\u2018([#*-\u2022"


def _last_visible(text: str, pos: int) -> str:
    """The last character before `pos` that is not a space or tab ("" at the start of the text)."""
    while pos > 0 and text[pos - 1] in " \t":
        pos -= 1
    return text[pos - 1] if pos else ""


def _line_at(text: str, pos: int) -> str:
    return text[text.rfind("\n", 0, pos) + 1 : pos].lstrip(" \t")


def _trim(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    at_line_start = not text[text.rfind("\n", 0, start) + 1 : start].strip()
    marker = at_line_start and (_BULLET.match(text, start, end) or _HEADING.match(text, start, end))
    if marker:
        start = marker.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end or not any(ch.isalnum() for ch in text[start:end]):
        return None
    return Span(text[start:end], start, end)


# ---------------------------------------------------------------------------------------------
# Normalisation with an offset map back to the original text
