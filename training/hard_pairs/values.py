"""Values said otherwise: another number, year, month, weekday or ordinal; numbers in words; units
converted rightly or wrongly."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from num2words import num2words
from spacy.tokens import Doc

MONTHS = "January February March April May June July August September October November December".split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
# Units and their size in a base unit; a conversion says the same amount in another unit of the row.
UNITS = {
    "length": {"km": 1000, "kilometres": 1000, "metres": 1, "m": 1, "cm": 0.01, "miles": 1609.344},
    "mass": {"kg": 1000, "kilograms": 1000, "grams": 1, "g": 1, "tonnes": 10**6, "pounds": 453.592},
    "time": {"hours": 3600, "minutes": 60, "seconds": 1, "days": 86400, "weeks": 604800},
    "money": {"million": 10**6, "billion": 10**9},
}
UNIT_OF = {unit: (kind, size) for kind, units in UNITS.items() for unit, size in units.items()}
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w])")
NAMED = frozenset({"PERSON", "ORG", "WORK_OF_ART", "PRODUCT", "FAC", "GPE", "LAW", "EVENT"})


def _numbers(doc: Doc) -> list[re.Match]:
    """The numbers of a sentence that are values, not part of a name ('Fox 2000 Pictures')."""
    named = [(e.start_char, e.end_char) for e in doc.ents if e.label_ in NAMED]
    return [m for m in NUMBER.finditer(doc.text) if not any(a <= m.start() < b for a, b in named)]


def _value(match: re.Match) -> float:
    return float(match.group(1).replace(",", "") + ("." + match.group(2) if match.group(2) else ""))


def _write(value: float, grouped: bool = True) -> str:
    sep = "," if grouped else ""
    return f"{value:{sep}.0f}" if value == int(value) else f"{value:{sep}.2f}".rstrip("0").rstrip(".")


def number_in_words(doc: Doc, rng: random.Random) -> str | None:
    """'6.5 kg' -> 'six and a half kg'; '3 days' -> 'three days' (dates and years stay figures)."""
    text = doc.text
    dates = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "DATE"]
    found = [m for m in _numbers(doc) if not any(a <= m.start() < b for a, b in dates)]
    found = [m for m in found if not (1000 <= _value(m) <= 2100 and "." not in m.group())]
    if not found:
        return None
    match = rng.choice(found)
    value = _value(match)
    if value != int(value) and value * 2 == int(value * 2):
        words = f"{num2words(int(value))} and a half"
    elif value == int(value) and value < 10**7:
        words = num2words(int(value))
    else:
        return None
    return text[: match.start()] + words + text[match.end() :]


def change_value(doc: Doc, rng: random.Random) -> str | None:
    """Another number, year, month, weekday or ordinal in the same place (a contradiction)."""
    text = doc.text
    options: list[Callable[[], str | None]] = []
    found = _numbers(doc)
    if found:

        def number() -> str | None:
            match = rng.choice(found)
            value = _value(match)
            if 1000 <= value <= 2100 and value == int(value):
                new = value + rng.choice([-5, -3, -2, -1, 1, 2, 4, 10])
            elif value > 10:
                new = value * rng.choice([0.5, 0.8, 1.25, 1.5, 2, 3, 10])
            else:
                new = value + rng.choice([-2, -1, 1, 2, 3, 5])
            new = round(new) if value == int(value) else round(new, 1)
            if new <= 0 or new == value:
                return None
            return text[: match.start()] + _write(new, "," in text) + text[match.end() :]

        options.append(number)
    for names in (MONTHS, WEEKDAYS, ORDINALS):
        hits = [w for w in names if re.search(rf"\b{w}\b", text, re.IGNORECASE)]
        if hits:

            def name(hits: list[str] = hits, names: tuple[str, ...] | list[str] = names) -> str | None:
                old = rng.choice(hits)
                new = rng.choice([n for n in names if n != old])
                pattern = re.compile(rf"\b{old}\b", re.IGNORECASE)
                return pattern.sub(lambda m: new if m.group()[0].isupper() else new.lower(), text, 1)

            options.append(name)
    written = [
        w
        for w in ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
        if re.search(rf"\b{w}\b", text, re.I)
    ]
    if written:

        def word() -> str | None:
            old = rng.choice(written)
            new = rng.choice(
                [w for w in ("two", "three", "four", "five", "six", "seven", "eight") if w != old]
            )
            return re.sub(
                rf"\b{old}\b",
                lambda m: new.capitalize() if m.group()[0].isupper() else new,
                text,
                count=1,
                flags=re.I,
            )

        options.append(word)
    rng.shuffle(options)
    return next((made for make in options if (made := make())), None)


def _nice(value: float) -> bool:
    """A value a writer would give: between 0.5 and 100,000, with at most two decimals that matter."""
    return 0.5 <= value <= 100_000 and abs(value * 100 - round(value * 100)) < 1e-6


def convert_unit(doc: Doc, rng: random.Random, rightly: bool) -> str | None:
    """'2 hours' -> '120 minutes' (rightly) or '12 minutes' (wrongly); only to a unit where the
    amount reads as a writer would give it."""
    text = doc.text
    for match in _numbers(doc):
        unit = re.match(r"\s*([a-zA-Z]+)\b(?![\d²])", text[match.end() :])
        if not unit or unit.group(1) not in UNIT_OF:
            continue
        kind, size = UNIT_OF[unit.group(1)]
        value = _value(match) * size
        others = [(u, value / s) for u, s in UNITS[kind].items() if s != size and _nice(value / s)]
        if not others:
            continue
        other, converted = rng.choice(others)
        if not rightly:
            converted *= rng.choice([0.1, 0.5, 2, 10])
        said = _write(round(converted, 2))
        return text[: match.start()] + f"{said} {other}" + text[match.end() + unit.end() :]
    return None
