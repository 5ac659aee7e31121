"""What every contrast shares: the kinds of contrast, and what each asks of a claim against an evidence
sentence, read as tokens (`rrag.text.reading`): that it is otherwise the same statement, the words
next to a word in its clause, the words in order, a quote of a run of tokens."""

from __future__ import annotations

from rrag.text.reading import Tokens
from rrag.text.words import NOT_CONTENT
from rrag.verify.rules.base import Pair

OPPOSITE, MODALITY, QUANTIFIER, ENTITY, ROLE = "opposite", "modality", "quantifier", "entity", "role"
ORDER = "order"  # another ordinal, month or weekday in the same slot
# Another thing of the same kind in the same slot ("with tea" / "with coffee"): no contradiction by
# construction, since WordNet's kinds hold near-synonyms too ("the firm" / "the company").
SWAP = "another thing"
SAME_STATEMENT = 0.75  # share of the claim's other words the evidence sentence must hold
MIN_OTHER_TERMS = 1  # a claim with nothing but the word it changes states nothing to compare


def content_tokens(tokens: Tokens) -> Tokens:
    return tuple(t for t in tokens if t.word not in NOT_CONTENT)


def same_statement(claim: Tokens, evidence: Tokens, leave_out: frozenset[str]) -> bool:
    """Whether the evidence holds most of the claim's content words other than `leave_out`."""
    terms = {t.lemma for t in content_tokens(claim)} - leave_out
    held = terms & {t.lemma for t in content_tokens(evidence)}
    return len(terms) >= MIN_OTHER_TERMS and len(held) >= SAME_STATEMENT * len(terms)


def neighbour(tokens: Tokens, at: int, step: int, past_adverbs: bool = False) -> str | None:
    """The lemma of the nearest content word before (step -1) or after (step 1) token `at` in its
    clause; None at the clause's edge. With `past_adverbs`, an adverb in "-ly" is passed over
    ("taught entirely online" / "taught in person")."""
    i = at
    while 0 <= i + step < len(tokens):
        if (tokens[i + 1] if step > 0 else tokens[i]).after_break:
            return None
        i += step
        word = tokens[i].word
        if past_adverbs and len(word) > 4 and word.endswith("ly"):
            continue
        if word not in NOT_CONTENT:
            return tokens[i].lemma
    return None


def in_order(tokens: Tokens, leave_out: frozenset[str]) -> list[str]:
    return [t.lemma for t in content_tokens(tokens) if t.lemma not in leave_out]


def quote(text: str, tokens: Tokens, start: int, end: int) -> str:
    """The words of `text` from token `start` up to (not including) token `end`."""
    end = min(end, len(tokens))
    return text[tokens[start].start : tokens[end - 1].end] if start < end else ""


def unpack(pair: Pair) -> tuple[str, Tokens, str, Tokens]:
    """The claim and the evidence sentence of `pair`, each as written and as tokens."""
    return pair.claim.text, pair.claim.tokens, pair.evidence.text, pair.evidence.tokens
