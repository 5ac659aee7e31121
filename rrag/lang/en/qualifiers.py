"""What is said around a value: the qualifiers that say which case it is of ("when full", "per wash",
"for the X400", "of RAM"), and the act a year is of ("built in 1902")."""

from __future__ import annotations

import re

# A state a value is of: "1.2 kg when empty".
STATE = re.compile(r"\b(?:when|if|while)\s+(?:it\s+is\s+|fully\s+|completely\s+)?([^\W\d_]+)", re.IGNORECASE)
# What a rate is per. Not "second": "a second floor", "every second week" are ordinals ("per second" is
# still a rate).
PER_WHAT = (
    "day week month year hour minute use wash cycle load dose session visit person guest night order"
).split()
RATE = re.compile(
    rf"\bper\s+(?:calendar\s+|working\s+|business\s+)?([^\W\d_]+)|\b(?:a|an|each|every)\s+({'|'.join(PER_WHAT)})\b"
    r"|\b(daily|weekly|monthly|yearly|annual|annually|hourly)\b",
    re.IGNORECASE,
)
RATE_OF = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annual": "year"}
RATE_OF |= {"annually": "year", "hourly": "hour"}
# What an amount of a substance or of data is of, just after its unit: "16 GB of RAM" is no "16 GB of
# storage".
OF_WHAT = re.compile(
    r"\s+of\s+(?:(?:the|a|an)\s+)?([^\W\d_]+(?:\s+(?!(?:and|or|but|when|while|with|for|in|on|at|to|by|from)\b)"
    r"[^\W\d_]+){0,2})",
    re.IGNORECASE,
)
# A model a value is of: "for the X400", "on the TX-350".
MODEL = re.compile(r"\b(?:for|on|of|with)\s+(?:the\s+)?([A-Z][A-Za-z]*[-\s]?\d[\w-]*)")
# A preposition before a day or season that opens a sentence ("At weekends it opens at 8:00", a table
# row's "For Tuesday, the opens are 8:30, ...").
LEADING_PREPOSITION = re.compile(r"(?:(?:at|on|during|over|for)\s+)?", re.IGNORECASE)
# What happened in a year: "extended in" 1968, "signed in Vienna in" 1815, "ratified by Prussia in" 1816.
ACT_BEFORE = re.compile(
    r"\b([^\W\d_]{3,})(?:\s+(?:in|at|by|from|to|with|on)\s+(?:the\s+)?[\w-]+(?:\s+[A-Z][\w-]*)?)?\s+in\s+$"
)
PAST_PREFIXES = ("re", "over", "under", "out", "un", "mis", "with")  # "rebuilt", "withdrew"
# A word that joins two values ("58 metres tall when built and 30 metres after the fire").
VALUE_AND = re.compile(r"\b(?:and|or|but)\b", re.IGNORECASE)
# Where the words between two values are cut between them ("58 mg for adults and 17 mg for children").
VALUE_JOINT = re.compile(r"[,;]|\b(?:and|or|but|while|whereas)\b", re.IGNORECASE)
