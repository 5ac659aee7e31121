"""What the paraphrase split's scenes are made of (rrag/tools/paraphrase_split.py says what the split
is for): a scene draws everyday values with a seeded random generator and returns a `Draft`, one
evidence passage and the claims said about it in other words; the helpers here say numbers in words,
convert units and pick another value for the same slot.

Part of a TEST set, written apart from rrag/tools/checklist_templates.py and from the judge's
training data: never a source of training data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from num2words import num2words

T = TypeVar("T")


@dataclass(frozen=True)
class Draft:
    """One evidence passage and what is said about it, none of it in the evidence's words."""

    evidence: str
    faithful: tuple[str, ...]  # reworded and still true: should be supported
    contradictions: tuple[str, ...]  # reworded and false by the evidence: should be contradicted
    invented: tuple[str, ...]  # a plausible addition the evidence never states: never supported


@dataclass(frozen=True)
class Scene:
    capability: str
    domain: str
    name: str
    draw: Callable[[Random], Draft]


class SceneBook:
    """The scenes of one module, in the order they are written: `@book.scene(capability, domain)`."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    def scene(
        self, capability: str, domain: str
    ) -> Callable[[Callable[[Random], Draft]], Callable[[Random], Draft]]:
        def add(draw: Callable[[Random], Draft]) -> Callable[[Random], Draft]:
            self.scenes.append(Scene(capability, domain, draw.__name__, draw))
            return draw

        return add


def draft(
    evidence: str, faithful: Sequence[str], contradictions: Sequence[str], invented: Sequence[str]
) -> Draft:
    return Draft(evidence, tuple(faithful), tuple(contradictions), tuple(invented))


# --------------------------------------------------------------------------------------------
# Numbers in words


def words(n: int) -> str:
    """21 -> "twenty-one", 1500 -> "one thousand five hundred"."""
    return num2words(n).replace(",", "")


def ordinal(n: int) -> str:
    """3 -> "third"."""
    return num2words(n, to="ordinal")


def year_words(year: int) -> str:
    """1964 -> "nineteen sixty-four"."""
    return num2words(year, to="year")


FRACTION_WORDS = {0.25: "a quarter", 0.5: "a half", 0.75: "three quarters"}


def amount_words(x: float) -> str:
    """6.5 -> "six and a half", 2.25 -> "two and a quarter", 4 -> "four" (whole or quarter amounts)."""
    whole, part = int(x), round(x - int(x), 2)
    if part == 0:
        return words(whole)
    if part not in FRACTION_WORDS:
        raise ValueError(f"{x} is not a whole or quarter amount")
    return f"{words(whole)} and {FRACTION_WORDS[part]}" if whole else FRACTION_WORDS[part]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def number(x: float) -> str:
    """6.5 -> "6.5", 6.0 -> "6", 2000 -> "2,000"."""
    return f"{x:,.2f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x):,}"


# --------------------------------------------------------------------------------------------
# Conversions (said in the other unit a reader would use)


def celsius(fahrenheit: float) -> int:
    return round((fahrenheit - 32) * 5 / 9)


def fahrenheit(celsius_degrees: float) -> str:
    """38.0 -> "100.4 degrees Fahrenheit"."""
    return f"{round(celsius_degrees * 9 / 5 + 32, 1):g} degrees Fahrenheit"


# --------------------------------------------------------------------------------------------
# Drawing values


def other(rng: Random, choices: Sequence[T], *taken: T) -> T:
    """One of `choices` that is none of `taken`."""
    return rng.choice([c for c in choices if c not in taken])


def far(rng: Random, value: int, choices: Sequence[int], gap: int) -> int:
    """One of `choices` at least `gap` away from `value`: clearly another amount, not a rounding."""
    return rng.choice([c for c in choices if abs(c - value) >= gap])


# Names written for this split (people, places, teams, firms): fictional, and none of the template
# split's vocabulary.
PEOPLE = ["Nadia Okafor", "Felix Lindqvist", "Grace Tanaka", "Owen Mercer", "Lucia Ferraro", "Samir Haddad"]
TOWNS = ["Aberdeen", "Bruges", "Valencia", "Krakow", "Galway", "Salzburg", "Tampere", "Seville"]
TEAMS = [
    "the Harbour Hawks",
    "Millbrook Rovers",
    "the Eastfield Owls",
    "Kingsgate United",
    "the Tidewater Foxes",
]
FIRMS = ["Norvik Foods", "Calder Systems", "Brightwell Energy", "Pellham Logistics", "Ostara Health"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
