"""Questions: what kind of value a question asks for ("how many days", "what percentage", "where"),
the words of asking that name no topic, and what a place is not ("on Saturdays", "at no charge")."""

from __future__ import annotations

import re

# A question that asks for a yes or a no ("Can I work from home on Fridays?").
YES_NO = re.compile(
    r"\s*(?:can|could|may|must|should|shall|will|would|is|are|was|were|do|does|did|has|have)\b", re.IGNORECASE
)
# A whole answer of one word to such a question: it states what was asked, or denies it; and the short
# answer ("Yes, it is.": what follows the "yes"), whose auxiliary says which ("No, they can't.").
YES_WORDS = frozenset("yes yeah yep correct sure certainly".split())
NO_WORDS = frozenset("no nope".split())
_AUXILIARY = "is|are|am|was|were|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had"
SHORT_ANSWER = re.compile(
    rf"(?:i|you|we|they|it|he|she|there)\s+(?:(?:{_AUXILIARY})(?P<not>n[\u2019']t|\s+not)?"
    rf"|(?P<cannot>cannot|can[\u2019']t|won[\u2019']t|shan[\u2019']t))\W*",
    re.IGNORECASE,
)
# Words of asking, and words any answer from the corpus is about: not the thing asked about.
ASKING = tuple(
    "get gets give gives need needs tell know explain describe happen happens long far often exactly "
    "allowed possible someone anyone say says mention mentions policy policies company rule rules "
    "information details".split()
)

# How many: a number; of days, weeks, ... a duration. How long or how far: a duration or a length
# ("how far in advance" asks for a time).
HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[\w-]+\s*){1,3})", re.IGNORECASE)
HOW_LONG = re.compile(r"\bhow\s+(?:long|far(?!\s+in\s+advance))\b", re.IGNORECASE)
# How deep, tall or wide: a length, said with a word of its dimension ("2 m deep", "a depth of 2 m";
# "25 metres long" says no depth).
HOW_SIZED = re.compile(r"\bhow\s+(?P<dimension>deep|tall|wide)\b", re.IGNORECASE)
DIMENSIONS = {
    "deep": ("deep", "depth"),
    "tall": ("tall", "height", "high"),
    "wide": ("wide", "width", "across"),
}
# Units of time a "how many" question counts, and the words before a unit that count days
# ("10 working days": the unit is the word after).
TIME_UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
DAY_COUNTING = ("working", "business")
# Units of time an answer may give for another: "how many days" is answered by weeks too.
NEAR_TIME_UNITS = {
    "day": {"week"},
    "week": {"day", "month"},
    "month": {"week", "year"},
    "hour": {"minute", "day"},
}

# How much money: "how much does it cost", the price of a thing ("How much is a day pass?", "How much
# is it to hire a bike?"; not "How much is the storage limit?"), or a noun of price ("the retail price").
MONEY_VERBS = ("cost", "costs", "charge", "charged", "pay", "pays", "paid")
HOW_MUCH = re.compile(r"\bhow\s+much\b", re.IGNORECASE)
HOW_MUCH_MONEY = re.compile(
    rf"\bhow\s+much\b(?:[^?]*\b(?:{'|'.join(MONEY_VERBS)})\b|\s+(?:is|are|was|were)\s+(?:an?|it\s+to)\b)",
    re.IGNORECASE,
)
# A question of how much more one thing is than another asks for a difference ("How much more do
# automatic lessons cost?"): "£4 more per hour than manual ones" answers it, and no question of a price.
DIFFERENCE_ASKED = re.compile(
    r"\bhow\s+much\s+(?:more|less|extra|cheaper|dearer)\b|\bdifference\b|\b(?:more|less|cheaper|dearer)\s+than\b",
    re.IGNORECASE,
)
# Nouns of money, as written: their stems would take "far" for "fare" ("How far in advance ...").
# An insurance excess (a deductible) is the part of a claim the policyholder pays.
MONEY_NOUNS = frozenset(
    "price prices cost costs fee fees fare fares charge charges salary salaries wage wages rent rents "
    "excess excesses deductible deductibles".split()
)

# "What does the service charge cover?" asks what its verb does, not its subject's price; unless that
# verb is the price's ("What does the Plus plan cost?", "What does the shop charge for a tune-up?"; not
# "What does the deposit pay for?").
WHAT_DOES = re.compile(
    r"\W*what\s+(?:do|does|did)\b[^?]*?(?P<money>\b(?:cost|charge|pay)(?:\s+for\s+\w[^?]*)?)?\W*$",
    re.IGNORECASE,
)
# A question of who asks for a person or a body, whatever it names ("Who pays the late fee?").
WHO = re.compile(r"\W*(?:who|whom|whose)\b", re.IGNORECASE)
# Who an answer to "who" may name with no noun ("Anyone aged 18 or over can join").
ANYONE = frozenset("anyone anybody everyone everybody someone somebody nobody whoever".split())
# A question of what a name is asks for a name ("What is the name of the nursery manager?", "What's the
# chef's name?"): "All meals are cooked on site by our chef" gives none.
NAME_ASKED = re.compile(
    r"\W*(?:what|which)(?:[\u2019']s|\s+(?:is|are|was|were))\s+(?:the\s+|your\s+|their\s+|its\s+)?"
    r"(?:names?\s+of\b|[^?]*?[\u2019']s\s+names?\b)",
    re.IGNORECASE,
)

# A question of how old, or of an age limit, asks for an age ("How old do I have to be to rent a car?",
# "What is the minimum age?"); an age is a number said with a word of age ("aged between 21 and 75",
# "drivers under 25 pay a young driver surcharge", "18 or older").
AGE_ASKED = re.compile(
    r"\bhow\s+old\b|\b(?:what|which)\s+(?:is\s+the\s+)?(?:minimum\s+|maximum\s+)?age\b|\bage\s+limits?\b",
    re.IGNORECASE,
)
AGE_WORDS = frozenset("age ages aged old older young younger".split())
AGE_BOUND = re.compile(r"\b(?:between|under|over|least|from)\s+\d", re.IGNORECASE)

# A question of how fast asks for a speed or the time a thing takes ("How fast do the electric cars
# charge?", "How quickly are refunds paid?"): not a price nor a count.
SPEED_ASKED = re.compile(r"\bhow\s+(?:fast|quickly)\b", re.IGNORECASE)
SPEED_WORDS = ("fast", "quickly")  # of asking, not the topic

PERCENT_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:percentage|percent|share)\b|\bhow\s+many\s+percent\b", re.IGNORECASE
)

WHERE = re.compile(r"\W*where\b", re.IGNORECASE)
# A question that asks how to reach someone: for a phone number ("What is the assistance line's
# number?", "What number do I call ...?"; not "What is the policy number?"), an email address or a
# web address.
PHONE_ASKED = re.compile(
    r"\b(?:(?:tele)?phone|contact|help\s*line|hotline|line(?:[\u2019']s)?|fax|mobile)\s+numbers?\b"
    r"|\b(?:what|which)\s+number\b[^?]*\b(?:call|ring|dial|phone|text)\b",
    re.IGNORECASE,
)
EMAIL_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:is\s+the\s+)?e-?mail(?:\s+address(?:es)?)?\b|\be-?mail\s+address(?:es)?\b",
    re.IGNORECASE,
)
WEB_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:is\s+the\s+)?web\s*site(?:\s+address(?:es)?)?\b"
    r"|\b(?:web\s*(?:site\s+)?address(?:es)?|urls?)\b",
    re.IGNORECASE,
)
# A question that asks for a postal address (after an email or web address is ruled out): "What is the
# hotel's address?" asks for a place.
ADDRESS_ASKED = re.compile(r"\b(?<!ip\s)(?:postal\s+|street\s+)?address(?:es)?\b", re.IGNORECASE)
# What answers a phone number question with fewer digits than a full number: "call 999", "dial 111".
CALLING = re.compile(r"\b(?:call|dial|ring|phone|text)(?:\s+us)?(?:\s+on)?\s*$", re.IGNORECASE)
# A question of when a thing was done, or of its year, asks for a date ("When did the centre open?": not
# its opening hours).
WHEN_DONE = re.compile(r"\W*(?:when\s+(?:did|was|were)|(?:in\s+)?(?:what|which)\s+year)\b", re.IGNORECASE)
# A question of how something is done asks for a way, whatever price it names ("How can I pay the
# fees?"); not "how much", "how long", "how many".
HOW_DONE = re.compile(
    r"\W*how\s+(?:can|could|do|does|did|should|must|may|will|would|is|are|was|were)\b", re.IGNORECASE
)
# "What time" asks for a time of day ("What time does the museum close?": not the days it is closed);
# "what time of year" for a date or a season.
WHAT_TIME = re.compile(
    r"\W*(?:at\s+)?what\s+time\b(?!\s+of\s+(?:the\s+)?(?:year|month|week|season))", re.IGNORECASE
)
# A question of when asks for a time or a date, whatever it names ("When do the new prices apply?").
WHEN = re.compile(r"\W*(?:when|what\s+(?:time|date|day)|which\s+(?:date|day))\b", re.IGNORECASE)
# A table's column that says where ("For Spin 45, ... the room is Studio Cedar"): its header's noun.
PLACE_NOUNS = tuple("room location venue place site address building floor hall area gate platform".split())
# The last word of a street's name in a postal address ("14 Harbour Road"): an address says where.
STREET_WORDS = tuple(
    "road street lane avenue way drive close square place crescent terrace court row walk parade quay "
    "wharf mews yard hill boulevard highway".split()
)
# Words that make "on/at/in ..." a time or a manner, not a place: "on Saturdays", "at the agreed
# time", "on the first working day", "at no charge", "in writing" (and the days of the week).
NOT_PLACES = tuple(
    (
        "time times date day week month year hour minute second morning afternoon evening night noon "
        "midnight holiday period moment start end beginning first last next same least most all once no "
        "advance writing full total general particular addition order case request average behalf demand "
        "charge cost price accordance line"
    ).split()
)
