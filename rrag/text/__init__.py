"""The reading: the one text toolkit every stage uses, over the language data of rrag/lang/en:
normalisation that maps back to the original and quote location (`normalise`), the word tokenizer
(`words`), sentences and headings (`sentences`), numbers with their units (`quantities`), values read
by what they measure (`values`), and one reading of a text that holds them all (`reading`). The
language data most readers need is exported here too."""

from rrag.lang.en.dates import MONTH_NAMES
from rrag.lang.en.function_words import PRONOUNS, STOPWORDS
from rrag.lang.en.negation import NEGATIVE_PREFIXES, NEGATIVE_WORDS, NEGATORS
from rrag.lang.en.units import CURRENCY_CODES
from rrag.text.caches import clear_caches
from rrag.text.normalise import clean, clean_map, fuzzy_locate, locate, normalize, normalize_map
from rrag.text.quantities import (
    Quantity,
    is_partitive,
    labelled_numbers,
    month_mentions,
    month_ranges,
    months,
    months_inside,
    quantities,
    same_amount,
)
from rrag.text.sentences import (
    chunk_sentences,
    heading_over,
    is_list_item,
    list_lead_ins,
    list_marker,
    on_list_item,
    sentence_windows,
    split_sentences,
)
from rrag.text.values import values
from rrag.text.words import (
    Negation,
    Span,
    content_words,
    denies,
    has_digit,
    named_as_a_kind,
    negates,
    negation_count,
    negations,
    plain_words,
    stem,
    word_spans,
    words,
)

__all__ = [
    "CURRENCY_CODES",
    "MONTH_NAMES",
    "NEGATIVE_PREFIXES",
    "NEGATIVE_WORDS",
    "NEGATORS",
    "PRONOUNS",
    "Negation",
    "STOPWORDS",
    "Quantity",
    "Span",
    "chunk_sentences",
    "clean",
    "clean_map",
    "clear_caches",
    "content_words",
    "denies",
    "fuzzy_locate",
    "has_digit",
    "is_list_item",
    "list_lead_ins",
    "list_marker",
    "on_list_item",
    "is_partitive",
    "labelled_numbers",
    "locate",
    "month_mentions",
    "month_ranges",
    "months",
    "months_inside",
    "heading_over",
    "named_as_a_kind",
    "negates",
    "negation_count",
    "negations",
    "normalize",
    "normalize_map",
    "plain_words",
    "quantities",
    "same_amount",
    "sentence_windows",
    "split_sentences",
    "stem",
    "values",
    "word_spans",
    "words",
]
