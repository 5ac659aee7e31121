"""Negation: the negators, the words and prefixes that deny as a "not" does, and the phrases that read a
negator before a value or a word.

NEGATORS is the one list of negators (as `rrag.text.words` writes tokens: "don't" is "dont"). The
patterns below read a negator in raw text, before its words are tokenised; each names the negators
it reads and why they are fewer: a pattern's set is what its rule was measured with.
"""

from __future__ import annotations

import re

NEGATORS = frozenset(
    """not no never none nobody nothing neither nor nowhere cannot without cant dont doesnt didnt
    isnt arent wasnt werent wont wouldnt shouldnt couldnt hasnt havent hadnt mustnt neednt nt""".split()
)  # "nt": "are n't", as tokenised text writes it
# The negators that deny the word just after them only ("no overall charge": the charge is there).
NEGATING_DETERMINERS = frozenset({"no", "none", "without", "nobody", "nothing", "nowhere"})
# Where a negator's reach ends: punctuation or a conjunction ("not X and Y" denies X alone).
NEGATION_SCOPE_BREAK = re.compile(r"[,;:.!?()\[\]\"]|\s(?:but|and|or|although|though|while)\s")
# Where the clause a negation is in ends ("and" joins within a clause: "not cats and dogs").
CLAUSE_JOINS = frozenset({"but", "although", "though", "while", "whereas"})
NEGATED_CLAUSE_BREAK = re.compile(r"[,;:.!?()\[\]\"]|\s(?:" + "|".join(sorted(CLAUSE_JOINS)) + r")\s")
# How many words after a negator a "without" can be and cancel it ("No rider may take part in the
# horse-riding trial without a helmet": nine).
CANCEL_REACH = 10
# A phrase before the clause it belongs to ("In the east wing, camping is not allowed"): its comma
# ends no clause.
FRONTED_PHRASE = re.compile(
    r"^\s*(?:in|on|at|for|during|from|after|before|within|under|inside|outside)\b[^,;:.!?]{0,40},", re.I
)
# An auxiliary a "but not X" would have if it had a verb of its own ("but no remake has been produced").
_AUXILIARIES = "is are was were be been has have had do does did will would can could".split()
AUXILIARY = re.compile(rf"\b(?:{'|'.join(_AUXILIARIES)})\b", re.I)
# Words that deny as a "not" does: "avoid allowing", "it is unclear if", "failed to", "rather than",
# "excludes" (a policy that excludes a loss does not cover it), "forbidden" (must not), "has stopped"
# (no longer).
NEGATIVE_WORDS = frozenset(
    """avoid unclear unlikely fail failed lack lacks unable refuse refused rather instead exclude
    excludes excluded excluding forbid forbids forbidden prohibit prohibits prohibited banned stopped
    ceased discontinued""".split()
)
# ... of which a negator does not turn these round: "not unlikely", "not rather" say something else.
NOT_FLIPPED = frozenset({"rather", "instead", "unclear", "unlikely", "unable"})
# Verbs that deny themselves: "has not stopped them" says they went on.
SELF_DENYING_VERBS = frozenset("stopped prevented failed avoided lacked refused denied".split())
# Prefixes that deny the word they start: "unsuitable", "non-refundable" (none is the start of another).
NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")
# Words that start like a denial and are none: "improve" says no "not prove".
NOT_DENIED = tuple(
    """nonsense unless unlike unrest undead disappoint discharge disclose discount discourse discover
    disfigure dismiss disorder dispatch displace display dispose disposition dissolution distribute disregard
    disinformation dissent disgust distill distress discuss disarray discard disband disease dispense income
    incoming indian indiana indies infront infield inform information informer informant inside insight
    install intend intent invest invoice inmate inland indoor indoors injury infamous infringe infusion
    intuition incorporate incorporation inbound insect inspector intake inline inroad increase indeed
    instance intact intern inhabit indent inflow infuse insure inward incline include invent inspire
    inscribe intrude intone image imaging immigrate immigration impair impart impeach implant import impose
    imposition impress imprint improve impulse irrespective""".split()
)
# Words that deny a record's fact after its copula ("WiFi is unavailable"); "under review",
# "unlimited" or "unreliable" deny nothing.
ABSENT = frozenset("unavailable unoffered unsupported inaccessible unusable absent".split())

# A negator earlier in a value's clause: "did not open in 1995" says nothing of the year it did open.
# Every negator that can stand before a verb; not "none", "nobody", "nothing", "nowhere", "without"
# (they deny a thing, not the clause).
DENIED_BEFORE = re.compile(r"(?:\b(?:not|never|no|cannot|neither|nor)\b|n't)[^,;:.!?]*$", re.IGNORECASE)
# A bound a verb's "not" denies is the other bound ("do not take more than 4 tablets": at most 4): the
# negators of a verb, one word at most before the bound.
DENIED_BOUND = re.compile(r"(?:\b(?:not|never|cannot|nor)|\b\w+n't)\s+(?:[\w']+\s+)?$", re.IGNORECASE)
# ... and so is a bound of the predicate of a denied subject: "No bag may weigh more than 23 kg" says
# every bag weighs at most 23 kg. An auxiliary between the two tells the predicate's bound from one
# within the subject ("No one under 18 is admitted", "No vehicle over 3.5 tonnes may cross").
SUBJECT_NEGATORS = frozenset({"no", "none", "nobody", "neither"})
AUXILIARIES = frozenset(_AUXILIARIES + "may might must shall should".split())
AROUND_AUXILIARY = 5  # words at most between the negator and the auxiliary, and it and the bound
DENIED_SUBJECT_BOUND = re.compile(
    rf"\b(?:{'|'.join(sorted(SUBJECT_NEGATORS))})\s+(?:[\w'-]+\s+){{0,{AROUND_AUXILIARY}}}"
    rf"(?:{'|'.join(sorted(AUXILIARIES))})\s+(?:[\w'-]+\s+){{0,{AROUND_AUXILIARY}}}$",
    re.IGNORECASE,
)
# The negators of a verb (`DENIED_BOUND`'s, as tokens: "don't" is "dont").
VERB_NEGATORS = NEGATORS - NEGATING_DETERMINERS - {"neither"}
# ... one further from its "not", or under a "no", is no bound a value can be compared by ("does not
# visit the gym at least once a day", "no one under 18 is admitted").
NO_BOUND = re.compile(
    r"(?:\b(?:no|none|without|not|never|cannot|neither|nor)|n't)(?:\s+[\w']+){0,3}\s*$", re.IGNORECASE
)
# A condition, which turns a negation round ("if Nancy is not a pirate").
CONDITIONAL = re.compile(r"\b(?:if|unless|whether|in other cases|otherwise)\b", re.IGNORECASE)
