"""Units: currencies, units of time, length, mass, volume, data and speed (by their stem, as
`rrag.text.stem` writes it), the words between a number and its unit, and the phrases that give a
unit without a number ("within a week", "every hour")."""

from __future__ import annotations

import re

# Currencies by symbol, code or (stemmed) name: "$10", "USD 10" and "10 dollars" are one unit.
CURRENCIES = {
    "$": "USD",
    "usd": "USD",
    "dollar": "USD",
    "\u20ac": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "\u00a3": "GBP",
    "gbp": "GBP",
    "pound": "GBP",
    "chf": "CHF",
    "franc": "CHF",
    "\u00a5": "JPY",
    "jpy": "JPY",
    "yen": "JPY",
    "cad": "CAD",
    "aud": "AUD",
}
# A currency's hundredth by its (stemmed) name: "50p" and "50 pence" are £0.50. Not after a video's
# lines: "1080p" is no £10.80.
HUNDREDTHS = {"p": "GBP", "penc": "GBP", "penny": "GBP"}
VIDEO_LINES = frozenset({"240", "360", "480", "576", "720", "1080", "1440", "2160"})
# Cents are hundredths of the dollar, the euro and more, and a text seldom says of which: an amount of
# money in a unit of its own ("50 cents" is no "$50").
CENTS = "cent"
CURRENCY_CODES = frozenset(CURRENCIES.values()) | {CENTS}  # the unit of every amount of money
CURRENCY_CODES_WRITTEN = ("usd", "eur", "gbp", "chf", "jpy", "cad", "aud")
CURRENCY_SYMBOLS = "$\u20ac\u00a3\u00a5"
DAYS_PER = {  # the days in a unit of time (stemmed)
    "second": 1 / 86400,
    "sec": 1 / 86400,
    "minut": 1 / 1440,
    "min": 1 / 1440,
    "hour": 1 / 24,
    "hr": 1 / 24,
    "day": 1.0,
    "week": 7.0,
    "wk": 7.0,
    "fortnight": 14.0,
    "month": 30.4375,
    "year": 365.25,
    "yr": 365.25,
    "decad": 3652.5,
}
# Durations in days, lengths in metres, masses in grams, volumes in litres, by the (stemmed) unit:
# "1.4 kg" is "1,400 grams", and "150 feet" is no "150 metres". Not "pound" (money, `CURRENCIES`,
# unless weighed) nor "m" (million).
BASE_UNITS = {
    "duration": DAYS_PER,
    "length": {
        "metr": 1, "meter": 1, "km": 1e3, "kilometr": 1e3, "kilometer": 1e3, "cm": 1e-2,
        "centimetr": 1e-2, "centimeter": 1e-2, "mm": 1e-3, "millimetr": 1e-3, "millimeter": 1e-3,
        "mile": 1609.344, "mil": 1609.344, "feet": 0.3048, "foot": 0.3048, "ft": 0.3048, "inch": 0.0254,
        "yard": 0.9144,
    },
    "mass": {
        "gram": 1, "kg": 1e3, "kilogram": 1e3, "kilo": 1e3, "mg": 1e-3, "milligram": 1e-3, "tonn": 1e6,
        "lb": 453.592, "lbs": 453.592, "oz": 28.3495, "ounc": 28.3495,
    },
    "volume": {"litr": 1, "liter": 1, "ml": 1e-3, "millilitr": 1e-3, "milliliter": 1e-3, "cl": 1e-2},
    "data": {
        "kb": 1e-6, "mb": 1e-3, "gb": 1, "tb": 1e3, "kbyt": 1e-6, "mbyt": 1e-3, "gbyt": 1, "tbyt": 1e3,
        "kilobyt": 1e-6, "megabyt": 1e-3, "gigabyt": 1, "terabyt": 1e3,
    },
}  # fmt: skip
# Speeds in km/h: "40 km/h", "25 mph", "60 miles per hour" (a length an hour, `PER_HOUR`).
BASE_UNITS["speed"] = {"mph": 1.609344, "kph": 1.0, "knot": 1.852} | {
    f"{unit}/h": metres / 1e3 for unit, metres in BASE_UNITS["length"].items()
}
# Data rates in megabits a second, by the word as written: "1 Gbps" is 1,000 Mbps (its stem, "gbp",
# is the pound sterling's code).
DATA_RATE_WORDS = {"kbps": "kbit/s", "mbps": "mbit/s", "gbps": "gbit/s"}
BASE_UNITS["data rate"] = {"kbit/s": 1e-3, "mbit/s": 1.0, "gbit/s": 1e3}
# Words between a number and what it counts: "5 working days" counts days, "15 free minutes" minutes.
UNIT_QUALIFIERS = frozenset(
    "working business calendar consecutive full whole clear additional extra further more free paid "
    "unpaid".split()
)
# The units of time an age is given in ("a 34-year-old teacher").
AGE_UNITS = ("year", "month", "week")
PER_HOUR = re.compile(r"\s*(?:/\s*h(?:r|our)?\b|per\s+hour\b|an\s+hour\b)", re.IGNORECASE)
WEIGHED = re.compile(r"\b(?:weigh\w*|heav\w*)\b", re.IGNORECASE)  # "weighs 5 pounds" is a mass
# "85 m tall" is metres, "$5m" a million.
METRES_AFTER = re.compile(
    r"\s+(?:tall|high|long|wide|deep|away|from|above|below|in (?:length|height|depth|diameter))\b"
)
# "42 percentage chance" is 42%; "5 percentage points" is no share of the whole
PERCENT = re.compile(r"\s?%|\s(?:percent|per cent|percentage(?!\s+points?\b))\b", re.IGNORECASE)
DEGREES = re.compile(r"\s+(celsius|centigrade|fahrenheit|C|F)\b", re.IGNORECASE)
# "once a day", "twice weekly": times a unit of time.
TIMES_PER = re.compile(
    r"\s+(?:a|an|per|every|each)\s+(?:day|week|month|year|hour)\b|\s+(?:daily|weekly)\b", re.I
)
# A span of time given by "a": "ready within a week", "for an hour", "a week after the operation"; not
# the "a" of a rate ("once a week", "£10 a month"), which follows its amount, nor "an hour and a half",
# "a quarter of an hour" or "half an hour".
_SPAN_UNITS = "minute|hour|day|week|fortnight|month|year|decade"
A_SPAN = re.compile(rf"\ban?\s+(?P<unit>{_SPAN_UNITS})\b(?!\s+and\s+a\s+half)", re.IGNORECASE)
# What makes "a week" a span: a preposition before it, or a word after it that dates from it.
SPAN_BEFORE = re.compile(
    r"\b(?:within|in|for|after|over|under|than|about|around|nearly|almost|up to)\s+$", re.IGNORECASE
)
SPAN_AFTER = re.compile(r"\s+(?:after|before|later|earlier|ago|from now)\b", re.IGNORECASE)
NO_SPAN_BEFORE = re.compile(r"\b(?:of|half)\s+$", re.IGNORECASE)
# One of a unit of time given by "every": "every hour" is every 1 hour, against "every 30 minutes".
EVERY_UNIT = re.compile(r"\bevery\s+(?P<unit>minute|hour|day|week|fortnight|month|year)\b", re.IGNORECASE)
# Nouns that number what follows them: "Section 4" and "Section 7" are two different sections; "the
# number 12 bus" is a bus of route 12, not 12 buses.
REFERENCE_NOUNS = (
    "section chapter article clause paragraph appendix annex schedule step page part table figure "
    "room gate platform floor level version stage phase tier zone route item rule number"
).split()
