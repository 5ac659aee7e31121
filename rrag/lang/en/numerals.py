"""Numbers in words, scales, fractions, and the words that give an amount as a bound ("at least 18",
"no more than 3") or join two ends of a range."""

from __future__ import annotations

import re

CARDINALS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
# Number words a value may be written with.
WORD_NUMBERS: dict[str, float] = CARDINALS | {
    "hundred": 100,
    "dozen": 12,
    "half": 0.5,
    "twice": 2,
    "once": 1,
    "single": 1,  # only as "a single dose" (rrag.text.quantities reads "a single")
}
# Ordinals, as "3rd" is read: "the third most distributed channel", "the sixteenth century". Not
# "first" (in most sentences it counts nothing) nor "second" (also a unit of time).
ORDINAL_UNITS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9}
WORD_NUMBERS |= ORDINAL_UNITS | {
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "sixtieth": 60,
    "seventieth": 70,
    "eightieth": 80,
    "ninetieth": 90,
    "hundredth": 100,
}
# The number words that join a ten in one number ("twenty-five", "thirty-third").
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# The ordinals of a closed class ("the first floor" is not "the fourth floor"), "first" and "second"
# included: there they count.
ORDINALS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
)
# The ordinals a "first Sunday of each month" is said with.
DAY_OF_MONTH_ORDINALS = ("first", "second", "third", "fourth", "last")
ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")  # "3rd", "21st"
SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}
SCALE_WORD = re.compile(r"\s+(thousand|million|billion)\b", re.IGNORECASE)
# A number said in several words ("three hundred", "one hundred and twenty", "twenty one"): a run of
# cardinals and scales, read whole by text2num.
_CARDINAL = "|".join(sorted(CARDINALS, key=len, reverse=True))
COMPOUND_NUMBER = re.compile(
    rf"\b(?:{_CARDINAL})(?:(?:\s+and)?[\s-]+(?:{_CARDINAL}|hundred|thousand|million|billion))+\b",
    re.IGNORECASE,
)
# "a third", "one half": the counts a singular fraction of something is said with ("" for "half of").
ONE = ("", "a", "an", "one")
DENOMINATORS = {
    "half": 2,
    "halve": 2,
    "third": 3,
    "quarter": 4,
    "fifth": 5,
    "sixth": 6,
    "eighth": 8,
    "tenth": 10,
}
# A fraction of something: "two thirds", "a third of the budget", "half of the seats"; not "a third
# visit" (an ordinal), "an hour and a half" or "a quarter of an hour" (a duration).
FRACTION = re.compile(
    r"(?<!\band )\b(?:(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine)[\s-]+)?"
    r"(?P<d>halves|half|thirds?|quarters?|fifths?|sixths?|eighths?|tenths?)\b(?P<of>\s+of\b(?!\s+an?\b))?",
    re.IGNORECASE,
)
# Words before "half" that make it a period or an ordinal's ("the first half"), not a share.
NO_SHARE_BEFORE = re.compile(r"\b(?:the|first|second|latter|other|last|a|an|and)\s+$", re.IGNORECASE)
# "three of the alleged attackers" counts what "four alleged attackers" does ("of them" counts nothing
# named, and "two of the five patients" leaves the count to "five patients").
PARTITIVE = re.compile(r"\s+of\s+(?:the|these|those|its|their|our|his|her|your|my)\b", re.IGNORECASE)
# A bare number after a list joint, of the unit of the value before it: "30 pages per minute in black
# and 20 in colour", "£12 for adults and 5 for children". Not after a comma: "Two men, one with a dog"
# is one of them.
ELLIPSIS = re.compile(r"(?:\s+[^\W\d]+){0,5}?\s+(?:and|or|but|while)\s+(?:only\s+)?")
ELLIPSIS_AFTER = re.compile(r"\s+(?:in|for|on|at|with|when|during|per|a|an)\b", re.IGNORECASE)
# What joins the two ends of a range: "3-5 days", "20 to 40 minutes".
# "six and a half kilograms", "one and a quarter kilometres", "two and three quarter hours": a whole
# number, then a part of its unit (`part`: "half" or "quarter"; none: three quarters).
AND_A_PART = re.compile(r"\s+and\s+(?:an?\s+(?P<part>half|quarter)|three[\s-]+quarters?)\b", re.IGNORECASE)
PARTS = {"half": 0.5, "quarter": 0.25, "": 0.75}
# The hour a word after a 12 names ("12 noon", "12 midnight"), by the word's stem.
NAMED_TWELVE = {"noon": 12.0, "midday": 12.0, "midnight": 0.0}
RANGE_JOIN = re.compile(r"\s*(?:-|\u2013|to|up\s+to|until|till|and|or)\s*", re.IGNORECASE)
# Between the items of a list of numbers that share the unit of its last: "20, 30 and 40 hours".
LIST_COMMA = re.compile(r"\s*,\s*")
LIST_LAST = re.compile(r",?\s+(?:and|or)\s+", re.IGNORECASE)
# Between two counted or measured values that share the bound said before the first: "up to two
# cats or one dog" is at most one dog.
SHARED_BOUND_JOIN = re.compile(r",?\s+(?:or|and)\s+", re.IGNORECASE)

# "no more than 3 bags" and "not less than 18" state a bound, not a denial; so do "not under 70 kg" and
# "must not exceed 8 kg".
BOUND_PREPOSITIONS = frozenset({"under", "over", "above", "below"})
BOUND_VERBS = frozenset({"exceed", "exceeds", "exceeded", "exceeding"})
BOUND_COMPARATIVES = frozenset(
    "more less fewer greater higher lower later earlier longer shorter sooner".split()
)
# Words that give a bound of an amount just after a noun: "orders over £50", "bags of more than 7 kg".
BOUND_AFTER_A_NOUN = frozenset(
    {"over", "above", "under", "below", "exceeding", "more", "less", "least", "up"}
)
# ... and the words that bound an amount after "or" or "and" ("rentals of 7 days or more", "loans of
# 30 days or longer")
BOUND_AFTER_AN_AMOUNT = BOUND_AFTER_A_NOUN | {"longer", "shorter", "fewer", "older", "younger"}
# The bound an amount is given as: "at least 18 years", "more than 3 million copies", "up to 40
# minutes", "5 days or more", "exceeds 8 kg" (a verb's "not" turns it round: "must not exceed 8 kg" is
# at most 8 kg). Alternatives that start further left win a search, so "no more than"
# is read before "more than".
_BOUND_VERBS = "|".join(sorted(BOUND_VERBS))
_UPPER_BEFORE = (
    "no more than|not more than|not exceeding|less than|fewer than|younger than|at most|up to"
    "|under|below|a maximum of|maximum of|capped at|limited to"
)
_LOWER_BEFORE = (
    "no less than|not less than|no fewer than|more than|greater than|older than"
    f"|at least|over|above|upwards of|a minimum of|minimum of|{_BOUND_VERBS}"
)
BOUND_BEFORE = re.compile(rf"\b(?:(?P<upper>{_UPPER_BEFORE})|(?P<lower>{_LOWER_BEFORE}))\s+$", re.IGNORECASE)
# ... and a year's: "before 2005" holds 2001, "after 1990" holds 1994.
YEAR_BOUND_BEFORE = re.compile(r"\b(?:(?P<upper>before|prior to)|(?P<lower>after))\s+$", re.IGNORECASE)
# A verb of moving before "up to", which then gives the amount reached, no bound ("shot up to 90").
MOVED_UP = re.compile(
    r"\b(?:shot|went|go|goes|going|gone|rose|risen|rises|rising|climbed|jumped|moved|ran|walked|stepped|sped)\s+$",
    re.IGNORECASE,
)
# An age said by comparing: the number is an age whatever word follows it ("younger than twenty-one
# may hire a van" is no 21 May).
AGE_COMPARATIVES = frozenset({"younger", "older"})
_AGES = "|".join(sorted(AGE_COMPARATIVES))
AGE_COMPARED_BEFORE = re.compile(rf"\b(?:{_AGES})\s+than\s+$", re.IGNORECASE)
AGE_COMPARED_AFTER = re.compile(rf"\s+(?:and|or)\s+(?:{_AGES})\b", re.IGNORECASE)
# A number said of who is "aged" is an age, either end of a range ("aged 60 and over", "aged 5 to 15",
# "aged between 21 and 75").
AGED_BEFORE = re.compile(
    r"\baged\s+(?:(?:between|from|under|over)\s+)?(?:[\w.]+\s+(?:to|and|-)\s+)?$", re.IGNORECASE
)
_UPPER_AFTER = "or (?:less|fewer|younger|under|below)|at most|at the most"
_LOWER_AFTER = "or (?:more|over|older|above)|and (?:over|above|older)|at least"
BOUND_AFTER = re.compile(rf"\s+(?:(?P<upper>{_UPPER_AFTER})|(?P<lower>{_LOWER_AFTER}))\b", re.IGNORECASE)
# An amount given as the gap between two things, no amount of either: "£4 more per hour than manual
# ones", "£10 an hour more", "two years older", "10% cheaper". Its direction: "more" or "less".
_MORE = "more|greater|higher|longer|older|dearer|bigger|larger|faster|heavier"
_LESS = "less|fewer|lower|shorter|younger|cheaper|smaller|slower|lighter"
DIFFERENCE_AFTER = re.compile(
    rf"(?:\s+(?:per|a|an|each|every)\s+[^\W\d_]+)?\s+(?:(?P<more>{_MORE})|(?P<less>{_LESS}))\b", re.IGNORECASE
)
# A bound said anywhere, before its amount or after it: "under 20 kg" and "20 kg or less" say one bound.
BOUND_SAID = re.compile(
    rf"\b(?:(?P<upper>{_UPPER_BEFORE}|{_UPPER_AFTER})|(?P<lower>{_LOWER_BEFORE}|{_LOWER_AFTER}))\b",
    re.IGNORECASE,
)
