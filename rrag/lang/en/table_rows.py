"""The table-row sentence: how ingest writes a body row of a table with a header row, and how the value
reader and the relevance check read it back.

    For Deep clean, the price (GBP) is 65 and the duration (hours) are 3.

The first cell names the row ("For Deep clean, "; a code with its column's name: "For zone C, ");
every other cell becomes "the <column> is <value>", the column's unit in brackets where its header
gives one. A row whose cells do not match the header (merged or missing cells) is written as its
cells joined by CELL_SEPARATOR, as a table without a header row is.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from rrag.lang.en.qualifiers import RATE_OF
from rrag.lang.en.units import CURRENCY_CODES_WRITTEN, CURRENCY_SYMBOLS

CELL_SEPARATOR = " | "  # between the cells of a row that is written as cells, not as a sentence
_CODE = re.compile(r"[A-Z\d][A-Z\d.-]{0,3}")  # a row's name that is a code: "C", "B2", "12", "4.1"


def table_row(header: list[str], cells: list[str]) -> str:
    """A body row as a sentence that names its columns: "For Berlin, the per-diem per day is €48."
    A bare "Berlin | €48" says nothing on its own to retrieval, to the answerer or to the verifier,
    and "City: Berlin; Per-diem per day: €48." reads as a form, not as an answer."""
    if len(cells) != len(header):  # merged or missing cells: which column is which is unknown
        return CELL_SEPARATOR.join(cells)
    label, *values = (cell.rstrip(" .;") for cell in cells)
    facts = [
        f"the {_lower_first(name)} {_is_or_are(name)} {value}" if name else value
        for name, value in zip(header[1:], values)
        if value
    ]
    if not facts:  # a one-column table, or a row with only its label
        return _sentence(f"{header[0]}: {label}" if header[0] and label else label)
    listed = facts[0] if len(facts) == 1 else ", ".join(facts[:-1]) + " and " + facts[-1]
    if _CODE.fullmatch(label) and header[0]:  # "C" names nothing without its column: "For zone C"
        label = f"{_lower_first(header[0])} {label}"
    return _sentence(f"For {label}, {listed}" if label else listed[0].upper() + listed[1:])


def _lower_first(name: str) -> str:
    """ "Time to decide" -> "time to decide", but "VAT rate" and "SLA" keep their capitals."""
    return name[0].lower() + name[1:] if name[1:2].islower() else name


def _is_or_are(name: str) -> str:
    last = name.split()[-1].lower()
    return "are" if last.endswith("s") and not last.endswith(("ss", "us", "is")) else "is"


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


# --------------------------------------------------------------------------------------------
# Reading a row back. A value of a row has its column header just before it ("the price (GBP) is
# 65"; no digit: not across an earlier value), and the row's name before that.

_HEADER = re.compile(r"\bthe (?P<header>[^,;.\d]{1,60}?) (?:is|are) $", re.IGNORECASE)
_HEADER_REACH = 80  # characters before a value that can hold its header
# In a row's sentence a cell opens after a comma or an "and", and its header runs to its "is": a
# header may hold a number ("the dog under 20 kg is £240") or an "and" ("the dog 20 kg and over is
# £280"), never an earlier cell's "is".
_CELL = re.compile(
    r"(?:,|\band) the (?P<header>(?:(?! (?:is|are) )[^,;.]){1,60}?) (?:is|are) ", re.IGNORECASE
)


def _label(stops: str) -> str:
    """A row's name up to its first comma, one in brackets kept ("For Filling (white, front tooth), the "),
    none of `stops` in it."""
    return rf"(?:[^,({stops}]|\([^(){stops}]{{0,40}}\)){{1,80}}"


# The name of the row whose sentence a value is in ("For Deep clean, the price (GBP) is "), read where
# the value has a column header.
_ROW = re.compile(rf"\bFor (?P<label>{_label('.')}), the [^.]*$")
_ROW_REACH = 200
# The name of the last row a text (rows read as sentences, one after another) opens before a value.
_ROW_NAME = re.compile(rf"(?:^|[.!?]\s+)For ({_label('.')}), the ")
# A sentence that is a row: its name, whatever case it is written in.
_ROW_OPENING = re.compile(rf"\s*For (?P<label>{_label('')}), the ", re.IGNORECASE)
# A column that names its currency: "For Deep clean, the price (GBP) is 65".
_CURRENCY_HEADER = re.compile(
    rf"\((?:in\s+)?({'|'.join(CURRENCY_CODES_WRITTEN)}|[{CURRENCY_SYMBOLS}])\)\s*(?:is|are|was|were|:)?\s*$",
    re.IGNORECASE,
)


def column_header(text: str, at: int) -> str:
    """The column header of the value at `at` ("price (GBP)"), or "": in a row's sentence, of the cell
    it is in, the second value of a cell too ("the E-bike is £1 to unlock, then 20p per minute": 20p is
    the E-bike's); elsewhere the header just before it."""
    start = max(0, at - _HEADER_REACH)
    cells = list(_CELL.finditer(text, start, at)) if row_of_value(text, at) else []
    m = cells[-1] if cells else _HEADER.search(text, start, at)
    return m.group("header") if m else ""


def column_headers(sentence: str) -> list[str]:
    """The column headers of a row's sentence, in order ("day", "start", "room"); [] for another."""
    if row_name(sentence) is None:
        return []
    return [m.group("header") for m in _CELL.finditer(sentence)]


def row_of_value(text: str, at: int) -> str:
    """The name of the row whose sentence holds the value at `at` ("Deep clean"), or ""."""
    m = _ROW.search(text, max(0, at - _ROW_REACH), at)
    return m.group("label") if m else ""


def last_row_name(text: str, at: int) -> str | None:
    """The name of the last row `text` opens before `at`, if `text` is rows read as sentences."""
    rows = [m for m in _ROW_NAME.finditer(text, 0, at)][-1:]
    return rows[0].group(1) if rows else None


def row_names(text: str) -> list[str]:
    """The names of the rows `text` opens, if it is rows read as sentences."""
    return [m.group(1) for m in _ROW_NAME.finditer(text)]


def row_name(sentence: str) -> str | None:
    """The name of the row `sentence` is, or None where it is no row's sentence."""
    m = _ROW_OPENING.match(sentence)
    return m.group("label") if m else None


def row_subject(sentence: str) -> str | None:
    """What the row `sentence` is about (`subject_of` its name); None where it is no row's sentence."""
    name = row_name(sentence)
    return None if name is None else subject_of(name)


def names_row(row: Collection[str], said: Collection[str]) -> bool:
    """Whether a text that says the words `said` names the row whose name's words are `row`: more than
    half of them ("a scale and polish" names "Dental scale and polish", "a cat's annual booster"
    "Annual booster vaccination"; "an oven clean" is no "Deep clean"), a rate's word in any of its
    words ("the yearly booster" names "Annual vaccination booster")."""
    return 2 * sum(w in said or rate_said(w, said) for w in row) > len(row)


def rate_said(word: str, said: Collection[str]) -> bool:
    """Whether `word` is a rate's ("yearly") that another of `said` says ("annual")."""
    return word in RATE_OF and any(RATE_OF.get(w) == RATE_OF[word] for w in said)


def subject_of(name: str) -> str:
    """What a row's name says it is about: the name less an aside in brackets ("Electric (Group E)":
    "Electric"), which a claim or a question need not say."""
    return _ASIDE.sub("", name).strip() or name


_ASIDE = re.compile(r"\s*\([^()]*\)")


def currency_column(text: str, start: int, end: int) -> str | None:
    """The currency (a code or a symbol, as written) that a column header ending `text[start:end]`
    names in brackets ("the price (GBP) is "), if any."""
    m = _CURRENCY_HEADER.search(text, start, end)
    return m.group(1) if m else None
