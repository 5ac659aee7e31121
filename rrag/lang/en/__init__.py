"""English: stop words and other function words (`function_words`), negation (`negation`), numbers
and bounds (`numbers`), units (`units`), the calendar (`calendar`), what is said around a value
(`values`), modality and quantifiers (`modality`, `quantifiers`), a lexicon of verbs, opposites and
closed classes (`lexicon`), discourse and questions (`discourse`), abbreviations (`abbreviations`),
the words of structured records (`records`), the table-row sentence (`table_rows`), and WordNet 3.0's
relations and antonyms (`wordnet`, with its data files and licence).

Words are given as written; a reader stems them as it compares them. A set that differs from another
of the same concept ("the negators a bound's "not" reads" against all negators) is a named subset of
it, with the reason it differs: each is what the rules were measured with (docs/verifier.md).
"""
