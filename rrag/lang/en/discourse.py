"""Discourse: what states nothing a source could hold (an answer's preamble, a leading hedge, words of
conversation), and the speaker's own words."""

from __future__ import annotations

import re

# An answer's preamble: "Based on the given passages, ...".
PREAMBLE = re.compile(
    r"\W*(?:based on|according to|from|in)\s+(?:the\s+)?(?:given|provided|above|available|retrieved)?\s*"
    r"(?:passages?|context|documents?|information|texts?|sources?)\s*,",
    re.IGNORECASE,
)
# The words of a leading hedge ("I'm not sure, but ...", "Not really, ..."), besides its negation.
HEDGE_WORDS = tuple("im m know sure really think certain remember recall believe idea".split())
# Words of conversation ("Yes, like good riddance").
DISCOURSE_WORDS = tuple(
    """yes yeah yep hi hello hey oh ok okay actually basically
    however moreover furthermore additionally indeed overall""".split()
)
# The speaker's own words: "I" as written, and the other first-person forms in any case but "US" (the
# country).
FIRST_PERSON = re.compile(r"\bI\b|\b(?i:me|my|mine|myself|we|our|ours|ourselves)\b|\b(?:us|Us)\b")
