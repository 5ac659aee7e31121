"""The rules: what the lexical verifier (rrag/verify/lexical.py) and the guard over the judge
(rrag/verify/guarded.py) read a claim against its evidence for.

Each rule is one entry of `RULES` (base.py): the kind of evidence it finds, whether that is hard
evidence or up to which P(supported) of the model it overrules a yes, its detector, and its measured
precision. Rules register themselves where they are defined, in the order of their rank, which is the
policy: records (records.py), values (values.py), negation (negation.py), contrasts of words, names
and quantifiers (contrasts/). What they compare is read once per text (rrag.text.read), as a
`Statement` (compared.py) less a preamble or hedge (asserted.py).
"""

from importlib import import_module
from pkgutil import walk_packages

from rrag.verify.rules.base import RULES, Rule

# Every module of this package is imported, so a rule module takes part as soon as it is written:
# its decorators register its rules, and no import line elsewhere names it.
for _module in walk_packages(__path__, f"{__name__}."):
    import_module(_module.name)

HARD_EVIDENCE = RULES.hard_kinds()  # the kinds of a contradiction no model may overrule

__all__ = ["HARD_EVIDENCE", "RULES", "Rule"]
