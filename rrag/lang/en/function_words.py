"""Function words: stop words, pronouns, articles and determiners, prepositions, auxiliaries, and the
conjunctions that end a clause.

Several readers ask "is this an auxiliary?" or "does a clause end here?" of slightly different sets;
each set below is named for what it is asked for, and kept as the rules were measured with it.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto over under about
    as than that this these those there here it its it's is are was were be been being am do does did
    doing have has had having i me my we our you your he him his she her they them their what which
    who whom whose when where why how many much all any both each every few more most other some such only
    own same so too very s t can will just should would could may might must shall also per via up out off
    again further once whether while during before after above below between through until against within
    according based says said states stated document documents text""".split()
)
# Words that open a sentence about what an earlier one named ("It was played in Mexico").
PRONOUNS = frozenset("it they he she this these those that which who its their them".split())
# The pronouns an answer opens with to say something of what was asked ("It costs £35").
REFERRING_BACK = frozenset("it they this these".split())
ARTICLES = frozenset({"the", "a", "an"})
# Words between a preposition and its noun ("with the rice", "in their garage").
NOUN_DETERMINERS = frozenset("the a an his her its their our your my this that these those".split())
# ... and those before a place ("to the main office"; "each", "every", "any" too, not the personal ones).
PLACE_DETERMINERS = frozenset("the a an our your their its this that each every any".split())
# Words before which "only" limits no thing ("not only", "the only coach").
NO_LIMIT_BEFORE_ONLY = frozenset(
    {"not", "if", "the", "a", "an", "his", "her", "its", "their", "our", "my", "your"}
)
# The prepositions of a noun phrase ("with rice", "in the garage").
PREPOSITIONS = frozenset("with on in at for by to from as of into onto via without".split())
# Prepositions of place ("in the team app", "at the wall"), and the two that are one only before an
# article ("to the main office", not "to remove").
PLACE_PREPOSITIONS = frozenset(
    "in at on inside outside behind beside near opposite under above below through via into".split()
)
TOWARDS = frozenset(("to", "from"))
# Forms of "be" (a passive is one of these and a participle).
BE = ("is", "are", "was", "were", "be", "been", "being")
# Copulas a yes/no fact of a record is said with ("WiFi is not available").
COPULAS = frozenset("is are was were isnt arent wasnt werent".split())
# Auxiliaries a heading has none of ("Scope" is a heading, "Staff must" a wrapped line), unless it asks
# ("Who can ride", "What is covered"): the question words it may open with.
HEADING_AUXILIARIES = frozenset(
    "is are was were be must will shall should can may might has have had does do".split()
)
HEADING_QUESTION_WORDS = frozenset("who what when where which why how".split())
# Pronouns a heading may end on ("Switching to us", "Contact us"), where another function word leaves
# the line to go on ("Staff who join the").
HEADING_LAST_PRONOUNS = frozenset("us you me them".split())
# Words before a verb, not a thing: "would love to", "I love".
BEFORE_A_VERB = frozenset(
    "to would will can could may might must shall should i we you they dont doesnt didnt".split()
)
# A form of "be" just before a word ("is open", "remains open").
COPULA_BEFORE = re.compile(r"\b(?:is|are|was|were|be|been|remains?|stays?)\s+$", re.IGNORECASE)

# Where a quoted clause may start: punctuation, a conjunction after it, or a section number at the
# start of a line. Not "or": a clause after it is an alternative, which its sentence does not assert
# ("Pay by Friday, or the booking is cancelled").
CLAUSE_START = re.compile(
    r"(?:(?:^|[.,;:!?()\[\]\"'\n*\u2022-])\s*(?:(?:and|but|while|whereas|although|though|yet|so)\s+)?"
    r"|(?:^|\n)[ \t]*\d{1,3}(?:\.\d{1,3})*\.?[ \t]+)$",
    re.IGNORECASE,
)
# What follows a clause that is one of alternatives: "Refunds go to the card, or to a voucher".
ALTERNATIVE_NEXT = re.compile(r"[\s,;]*or\b", re.IGNORECASE)
# A sentence that opens with a condition asserts none of its clauses on their own: "If the doctor
# arrived, the lawyer left" does not say the lawyer left. (A concession still asserts its main clause:
# "even if", "although", "whether or not".)
_CONDITIONS = r"if|unless|provided|providing|as long as|so long as|assuming|supposing|suppose"
CONDITION_OPENS = re.compile(rf"\s*(?:{_CONDITIONS}|in case)\b", re.IGNORECASE)
# A condition after a clause: "Passes can be refunded within 14 days, provided no ride has been
# taken" does not say passes can be refunded (an "in case" after it gives a reason, no condition).
CONDITION_FOLLOWS = re.compile(rf"[\s,;]*(?:only\s+)?(?:{_CONDITIONS})\b", re.IGNORECASE)
