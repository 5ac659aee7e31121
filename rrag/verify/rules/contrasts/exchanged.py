"""Who does what to whom, exchanged, read off the parse: the claim's doer is the thing the evidence
sentence's same verb is done to, and its thing that verb's doer ("The landlord pays the tenant" / "the
tenant pays the landlord"; "The doctor paid the actor" / "The doctor was paid by the actor").

The word-order rule (`role`, names.py) reads the same words in another order; this reads the roles
themselves (rrag/text/clauses.py), so a passive, a relative clause or words around the two names
do not hide the exchange. Asked only where the evidence sentence holds every content word of the
claim but two at most, each of those said there in a word it says or is a kind of (WordNet: "bought"
for "acquired", "taken over" for "acquired", "post" for "job").
"""

from __future__ import annotations

from rrag.lang.en.wordnet import kind_of
from rrag.text.clauses import clauses
from rrag.verify.rules.base import Contrast, Pair, sentence_rule
from rrag.verify.rules.contrasts.base import ROLE, content_tokens

OTHER_WORDS = 2  # the claim's words the evidence says in another word: the act, and one more at most


@sentence_rule(ROLE, 505)
def exchanged(pair: Pair) -> Contrast | None:
    """The claim's doer and thing exchanged on the evidence sentence's verb (or one the claim's says,
    or a kind of), each side asserting its clause with the same polarity."""
    claim_words = content_tokens(pair.claim.tokens)
    lemmas = {t.lemma for t in pair.evidence.tokens}
    others = [t.word for t in claim_words if t.lemma not in lemmas]
    if not claim_words or len(others) > OTHER_WORDS:
        return None
    words = {t.word for t in pair.evidence.tokens}
    if not all(any(kind_of(other, w) for w in words) for other in others):
        return None
    evidence = clauses(pair.evidence.text)
    for c in clauses(pair.claim.text):
        if not (c.asserted and c.doer and c.thing) or c.doer & c.thing:
            continue
        for e in evidence:
            if (
                (e.verb == c.verb or kind_of(c.verb, e.verb))
                and e.asserted
                and e.negated == c.negated
                and e.doer & c.thing
                and e.thing & c.doer
            ):
                return Contrast(ROLE, pair.claim.text, pair.evidence.text)
    return None
