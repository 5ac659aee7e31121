"""English: stop words and other function words (`function_words`), negation and what a negator
reaches (`negation`), number words, fractions and bounds (`numerals`), units (`units`), weekdays,
months, seasons and opening hours (`dates`), what is said around a value (`qualifiers`), modality and
quantifiers (`modality`, `quantifiers`), a lexicon of verbs, price, opposites, roles and closed
classes (`lexicon`), discourse (`discourse`), what a question asks for (`questions`), abbreviations
(`abbreviations`), the words of structured records (`records`), the table-row sentence and its
reader (`table_rows`), and WordNet 3.0's relations and antonyms (`wordnet`, with its data files and
licence).

Words are given as written; a reader stems them as it compares them. A set that differs from another
of the same concept (the negators before a bound against all negators) is a named subset, with the
reason it differs: each is what the rules were measured with (docs/verifier.md).
"""
