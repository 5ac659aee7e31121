"""A price the evidence gives "from" (the lowest of several), stated by the claim as the price."""

from __future__ import annotations

from collections.abc import Sequence

from rrag.lang.en.lexicon import FROM_BEFORE, TO_BETWEEN
from rrag.text import CURRENCY_CODES
from rrag.text.values import Value
from rrag.types import ClaimStatus, Verdict
from rrag.verify.rules.base import Comparison, window_rule


def _after_from(text: str, value: Value) -> bool:
    return bool(FROM_BEFORE.search(text, 0, value.quantity.start))


def _lowest(text: str, value: Value, values: Sequence[Value]) -> bool:
    """Whether `text` gives `value` as a lowest price: "from 20 euros", not one end of a range ("from
    20 to 40 euros") or of a change ("cut from 20 euros to 15 euros")."""
    end = max(value.quantity.end, value.quantity.unit_end)
    later = [v for v in values if v.quantity.start > end]
    to_another = any(TO_BETWEEN.match(text[end : v.quantity.start]) for v in later)
    return _after_from(text, value) and not value.bounds and not to_another


@window_rule("a price from", 620, overrules_below=0.9)
def from_price(comparison: Comparison) -> Verdict | None:
    """ "Tickets cost 20 euros" where the evidence says "Tickets cost from 20 euros"."""
    c, e = comparison.claim, comparison.evidence
    for said in c.values:
        if said.measure not in CURRENCY_CODES or said.bound or _after_from(c.text, said):
            continue  # not a price, or not said as the price
        for given in e.values:
            if given.same_amount(said) and _lowest(e.text, given, e.values):
                reason = f"the evidence says 'from {given.written}' where the claim says {said.written!r}"
                return comparison.verdict(ClaimStatus.UNSUPPORTED, 0.75, 0.1, reason)
    return None
