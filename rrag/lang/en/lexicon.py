"""A lexicon: irregular verbs, words of price and of having, opposite words and the phrases read as a
word, and closed classes of words that exclude each other in one slot (materials, colours)."""

from __future__ import annotations

import re
from itertools import combinations

from rrag.lang.en.dates import EVERY_UNIT_OFTEN, HOW_OFTEN, WEEKDAYS
from rrag.lang.en.function_words import BE, STOPWORDS
from rrag.lang.en.numerals import DAY_OF_MONTH_ORDINALS
from rrag.lang.en.wordnet import ANTONYM_PAIRS

# What makes a short verb a noun or an adjective: "payment", "payable", "arrival", "player".
DERIVING_SUFFIXES = frozenset({"ment", "er", "able", "al"})

# Irregular past forms and their verb: "Ann Lee wrote the guide" is read against "written by Tom Ray",
# "should be taken" against "take".
IRREGULAR_FORMS = {
    form: verb
    for verb, forms in {
        "write": "wrote written",
        "pay": "paid",
        "build": "built",
        "make": "made",
        "sell": "sold",
        "buy": "bought",
        "hold": "held",
        "keep": "kept",
        "send": "sent",
        "spend": "spent",
        "teach": "taught",
        "tell": "told",
        "find": "found",
        "give": "gave given",
        "take": "took taken",
        "choose": "chose chosen",
        "draw": "drew drawn",
        "win": "won",
        "begin": "began begun",
        "bring": "brought",
        "lead": "led",
        "run": "ran",
        "sing": "sang sung",
        "speak": "spoke spoken",
        "drive": "drove driven",
        "grow": "grew grown",
        "know": "knew known",
        "throw": "threw thrown",
        "break": "broke broken",
        "steal": "stole stolen",
        "fight": "fought",
        "catch": "caught",
        "feed": "fed",
        "leave": "left",
        "lose": "lost",
        "meet": "met",
        "drink": "drank drunk",
        "eat": "ate eaten",
        "freeze": "froze frozen",
        "wear": "wore worn",
        "ride": "rode ridden",
        "hide": "hid hidden",
        "forget": "forgot forgotten",
        "shake": "shook shaken",
        "swim": "swam swum",
        "fly": "flew flown",
        "sleep": "slept",
        "hear": "heard",
        "stand": "stood",
        "understand": "understood",
    }.items()
    for form in forms.split()
}
# A form of "be", a word at most (an adverb, a "not"), and a participle: "-ed", "-en" or irregular ("sold")
PASSIVE = re.compile(
    rf"\b(?:{'|'.join(BE)})\s+(?:\w+\s+)?(?:\w+(?:ed|en)|{'|'.join(IRREGULAR_FORMS)})\b", re.IGNORECASE
)

# ------------------------------------------------------------------------------------------------
# Price

PRICED = frozenset("cost costs costing charge charges charged pay pays paying paid".split())
PRICE_NOUNS = ("price", "fee", "fare")
# Verbs that say a thing is paid for with no price given ("charges guests for parking"); not "cost"
# or "charge", nouns too ("at reduced cost").
PAYING = frozenset("pay pays paying paid charges charged charging".split())
# Free, and a price: "Parking is free after 6 pm" / "Parking costs £2 after 6 pm". Not "gluten-free",
# "free to choose" or "feel free".
FREE = re.compile(
    rf"(?<![-\w])free(?! to\b)(?:\s+of\s+charge)?\b|\b(?:{'|'.join(PRICED)})\s+nothing\b"
    r"|\b(?:no|without)\s+(?:extra\s+)?(?:charge|cost|fee)\b|\bcomplimentary\b",
    re.IGNORECASE,
)
NOT_FREE_BEFORE = re.compile(r"\b(?:feel|set|break|broke|go|went|walk|walked|duty|tax)\s+$", re.IGNORECASE)

# ------------------------------------------------------------------------------------------------
# Having: what a thing is made with and without: "contains garlic" / "made without garlic", "free of
# gluten", "gluten-free". The verbs that say so differ ("contains" / "made"), so they are no words
# compared.

HAVING = frozenset({"contain", "contains", "containing", "include", "includes", "including", "with", "has"})
SAID_WITH = tuple("contains includes has made make makes come comes served cooked prepared free".split())

# ------------------------------------------------------------------------------------------------
# Opposite words: "rose" / "fell", "before" / "after", "at most" / "minimum". These are the pairs
# WordNet's antonyms (added below) lack, or drop with a stopword.

ANTONYMS = [
    ("mandatory", "optional"),
    ("required", "optional"),
    ("required", "forbidden"),
    ("allowed", "prohibited"),
    ("allowed", "forbidden"),
    ("permitted", "prohibited"),
    ("permitted", "forbidden"),
    ("increases", "decreases"),
    ("rises", "falls"),
    ("rose", "fell"),
    ("risen", "fallen"),
    ("included", "excluded"),
    ("before", "after"),
    ("accepted", "rejected"),
    ("approved", "rejected"),
    ("always", "never"),
    ("full", "part"),
    ("enabled", "disabled"),
    ("highest", "lowest"),
    ("largest", "smallest"),
    ("succeeded", "failed"),
    ("waived", "pay"),
    ("waived", "charged"),
    ("waived", "apply"),  # a fee
    ("void", "valid"),  # a warranty, a ticket
    ("permits", "prohibits"),
    ("permits", "forbids"),
    ("cut", "raise"),
    ("cut", "increase"),
    ("increase", "reduce"),  # and every form of each: "increased", "reduces"
    ("improved", "worsened"),  # a condition, a score; and every form of each
    ("extended", "shortened"),
    ("lengthened", "shortened"),
    ("passed", "rejected"),  # a bill, a motion
    ("passed", "failed"),  # an exam, an inspection
    ("fixed", "variable"),  # a rate
    ("personal", "commercial"),  # a use, a licence
    ("online", "offline"),  # and "in person" (`PHRASES`)
    ("punctual", "delayed"),  # "on time" (`PHRASES`)
    ("postponed", "advanced"),  # "brought forward" (`PHRASES`)
    ("allowed", "banned"),
    ("permitted", "banned"),
    ("cold", "warm"),
    ("automatically", "manually"),
    ("start", "end"),
]
# Comparatives, which "than" turns round ("A is higher than B" is "B is lower than A"): opposites only
# where neither side compares with "than" ("a lower dose" / "a higher dose").
COMPARATIVES = [("higher", "lower"), ("earlier", "later"), ("longer", "shorter"), ("older", "younger")]
COMPARATIVES += [("faster", "slower"), ("larger", "smaller"), ("bigger", "smaller"), ("heavier", "lighter")]
ANTONYMS += COMPARATIVES
# How often, each against every other: "changed weekly" / "changed monthly".
ANTONYMS += [
    (a, b) for one, other in combinations(HOW_OFTEN, 2) for a in one.split("|") for b in other.split("|")
]
# "The first Sunday of each month" (`PHRASES`) is as often as "monthly", and on one of the days "every
# Sunday" names: a claim of it is no contradiction of evidence of "every Sunday" (the opposite rule).
DAY_A_MONTH = "dayamonth"
ANTONYMS += [(DAY_A_MONTH, w) for often in HOW_OFTEN if often != "monthly" for w in often.split("|")]
# ... and the single-word antonyms of WordNet 3.0, but for words of `STOPWORDS` ("all" / "some" is a
# quantifier) and pairs that name no contradiction in the training pairs (`NOT_OPPOSED`): relations
# that turn round with their arguments ("sold to" is "bought by"), steps of one process ("start" /
# "finish" syncing), and senses apart ("a civilian target" / "a military one"). A direction turns
# round only as a relation ("A lies north of B"); "after that" orders what was said before it.
NOT_OPPOSED = {
    frozenset(pair.split("/"))
    for pair in """come/go buy/sell borrow/lend keep/lose start/finish
    moving/still flat/sharp civilian/military artificial/natural praise/criticize general/local""".split()
}
DIRECTIONS = ("north", "south", "east", "west")
EVENT_ORDER = ("before", "after")
ANTONYMS += [
    (a, b)
    for a, b in ANTONYM_PAIRS
    if a not in STOPWORDS and b not in STOPWORDS and {a, b} not in NOT_OPPOSED
]
# Phrases read as the word they mean: "at least 6 nights" is a minimum of 6.
PHRASES = {("at", "least"): "minimum", ("no", "less", "than"): "minimum", ("at", "most"): "maximum"}
PHRASES |= {("no", "more", "than"): "maximum", ("up", "to"): "maximum", ("prior", "to"): "before"}
PHRASES |= {("in", "person"): "offline", ("on", "time"): "punctual", ("brought", "forward"): "advanced"}
# "voted against the plan" rejected it; "Napoleon was defeated" lost
PHRASES |= {(vote, "for"): "approved" for vote in ("vote", "voted", "votes")}
PHRASES |= {(vote, "against"): "rejected" for vote in ("vote", "voted", "votes")}
PHRASES |= {(be, "defeated"): "lost" for be in ("was", "were", "is", "are", "been")}
# "every month" is monthly, "every Sunday" weekly (`HOW_OFTEN`)
PHRASES |= {
    (each, unit): often
    for each in ("every", "each")
    for unit, often in (*EVERY_UNIT_OFTEN, *((day, "weekly") for day in WEEKDAYS))
}
# ... and "the first Sunday of each month" monthly, on one of the days "every Sunday" names
PHRASES |= {
    (nth, day, "of", each, "month"): DAY_A_MONTH
    for nth in DAY_OF_MONTH_ORDINALS
    for day in WEEKDAYS
    for each in ("each", "every", "the")
}
# An open question states neither side: "I wonder if the store is open" / "... is closed".
OPEN_QUESTION = frozenset({"whether", "wonder", "wondering", "wondered"})

# ------------------------------------------------------------------------------------------------
# Roles: who does what to whom.

# Two values of one relation, with no roles: "A and B met", "between A and B".
SYMMETRIC = re.compile(r"\b(?:by|and|or|with|between|versus|vs|both)\b", re.IGNORECASE)
# The two ends of a way, one word each: "moved from Monday to Wednesday" (the word before the first
# end, and the words between the two).
FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+)?$", re.IGNORECASE)
TO_BETWEEN = re.compile(r"^\s+(?:to|until|till|into)\s+(?:the\s+)?$", re.IGNORECASE)
# ... or the two sides of an order or a comparison: "at the station before the hospital", "taller than".
ORDERED_BETWEEN = re.compile(r"^\s+(?:the\s+)?(?:before|after|than)\s+(?:the\s+)?$", re.IGNORECASE)


# ------------------------------------------------------------------------------------------------
# Closed classes: words whose members exclude each other in one slot.

# What a thing is made of ("a steel bridge" is no "wooden bridge").
MATERIALS = frozenset(
    "steel wood wooden timber plastic glass aluminium aluminum iron copper brass bronze concrete stone "
    "brick leather cotton wool woollen silk linen paper cardboard ceramic porcelain rubber marble "
    "titanium nylon polyester oak pine bamboo".split()
)
COLOURS = frozenset("red blue green yellow black white orange purple pink brown grey".split())
# Words of things so general that another thing is a kind of them, whatever WordNet's senses.
GENERAL = frozenset(
    "thing things something stuff item items object objects people person persons human humans "
    "individual individuals someone place places area areas".split()
)
# Last words of a name that name the kind of a thing, not which one: "Acme Corp" is "Acme Inc".
KIND_WORDS = frozenset(
    "inc corp corporation co company ltd limited llc plc gmbh ag sa group holdings street st road rd "
    "avenue ave lane ln square sq".split()
)
# "-est" words that are no superlatives ("interest", "forest").
NOT_SUPERLATIVE = frozenset(
    "interest forest request guest honest modest harvest protest contest test west rest nest chest quest "
    "suggest digest invest arrest manifest conquest".split()
)
# Affixes that make a word of another ("preheat", "delivery"), for a base long enough to tell.
PREFIXES = frozenset({"pre", "re", "sub", "over", "under", "co"})
SUFFIXES = frozenset({"y", "ion", "ation", "ment", "al", "er", "or"})
