"""The calendar: weekdays, months, seasons, how often, times of day said in words, and what is said of
opening hours ("opens at", "closed on Sundays", "daily")."""

from __future__ import annotations

import re

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_ABBREVIATIONS = frozenset("mon tue wed thu fri sat sun".split())
WEEK_PARTS = ("weekday", "weekend")
# A day a value is of ("09:00 on Saturdays", "on weekdays").
DAY_QUALIFIER = re.compile(
    rf"\b(?:on\s+)?({'|'.join(WEEKDAYS)}|weekday|weekend|public holiday|holiday|weeknight)s?\b",
    re.IGNORECASE,
)

# Each month in full, then its abbreviations.
_MONTHS_WRITTEN = (
    "january jan",
    "february feb",
    "march mar",
    "april apr",
    "may",
    "june jun",
    "july jul",
    "august aug",
    "september sep sept",
    "october oct",
    "november nov",
    "december dec",
)
MONTHS = {m: i + 1 for i, names in enumerate(_MONTHS_WRITTEN) for m in names.split()}  # name -> 1-12
MONTH_NAMES = frozenset(MONTHS)  # in full and short
MONTH_ALTERNATION = "|".join(sorted(MONTH_NAMES, key=len, reverse=True))  # longest first, for a regex
MONTHS_IN_FULL = tuple(names.split()[0] for names in _MONTHS_WRITTEN)
MONTH_ABBREVIATIONS = frozenset(m for names in _MONTHS_WRITTEN for m in names.split()[1:])
# Month names that are verbs too ("may", "mar"): a month only as a date.
VERB_MONTHS = ("may", "mar")
# Words of time before "May" or "Mar" that make it a month ("closed in May").
BEFORE_A_MONTH = re.compile(r"\b(?:in|from|to|until|till|since|during|of|by|early|late|mid|next|last)[\s-]+$")
# What joins the two ends of a range of months: "from December to March", "June-August".
MONTH_RANGE_JOIN = re.compile(r"\s*(?:-|\u2013|to|through|until|till)\s*", re.IGNORECASE)

SEASONS = frozenset({"spring", "summer", "autumn", "winter"})  # not "fall", also a verb
SEASON_QUALIFIER = re.compile(r"\b(?:in\s+(?:the\s+)?)?(winter|summer|spring|autumn)s?\b", re.IGNORECASE)
# A season is a time only after one of these ("in spring 2019"; the Summer Olympics are no time).
BEFORE_A_TIME = frozenset(
    {"in", "during", "by", "until", "since", "from", "this", "last", "next", "early", "late", "every", "each"}
)

# How often, each against every other ("changed weekly" / "changed monthly"); "|" joins one frequency's
# words.
HOW_OFTEN = "hourly daily weekly fortnightly monthly quarterly yearly|annually|annual".split()
# "every month" is monthly, "every Sunday" weekly.
EVERY_UNIT_OFTEN = (
    ("hour", "hourly"),
    ("day", "daily"),
    ("week", "weekly"),
    ("month", "monthly"),
    ("year", "yearly"),
)

# Times of the day: "am" or "pm", or a time said in words (which half of the day a time is in); the
# verb of a time that opens or closes something ("open" and "close" themselves may be states).
NAMED_TIMES = ("midnight", "noon", "midday")
HALF_OF_DAY = re.compile(r"[ap]\.?\s?m\b|\b(?:noon|midday|midnight)\b", re.IGNORECASE)
EVENT_BEFORE = re.compile(
    r"\b(?:(?P<start>open|opens|opening|start|starts|starting|begin|begins|beginning|departs|leaves)"
    r"|(?P<end>close|closes|closing|end|ends|ending|finishes|shut|shuts))(?:\s+at)?\s+$",
    re.IGNORECASE,
)
STATES = frozenset({"open", "close", "shut"})  # "is open at 8:00" is a state, "doors open at 8:00" no
UNTIL = frozenset({"until", "till", "til"})

# Opening hours: a sentence about them, one pair of hours for every day, a hedge that the hours vary,
# a span of days ("Tuesday to Sunday") and the days something is closed on.
ABOUT_HOURS = re.compile(r"\b(?:open|opens|opening|operat\w*|hours|closes?|closing)\b", re.IGNORECASE)
EVERY_DAY = re.compile(
    r"\b(?:daily|every day|(?:seven|7) days a week|all week|monday (?:to|through|-) sunday)\b", re.IGNORECASE
)
HOURS_VARY = re.compile(r"\b(?:or|either|depending|vary|varies|varying|varied)\b", re.IGNORECASE)
DAY_NAME = re.compile(rf"\b({'|'.join(WEEKDAYS)}|weekday|weekend)s?\b", re.IGNORECASE)
DAY_SPAN = re.compile(rf"\s*(?:to|through|thru|until|-|\u2013)\s*(?:{'|'.join(WEEKDAYS)})", re.IGNORECASE)
CLOSED_ON = re.compile(
    rf"\bclosed\s+(?:on\s+|every\s+)?((?:(?:{'|'.join(WEEKDAYS)}|weekend)s?(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)",
    re.IGNORECASE,
)
# The words a sentence about opening hours may use and state nothing else.
HOURS_WORDS = tuple(
    """open opens opening operate operates operating hour close closes closing daily every day
    week all am pm seven midnight noon midday""".split()
)

# A day of every month after its number: "the 5th of each month", "the 15th of the month".
OF_EVERY_MONTH = re.compile(r"\s+of\s+(?:the|each|every|a|any)\s+month\b", re.IGNORECASE)
