"""Language data: the words and phrases the reading (rrag/text) and the rules (rrag/verify) know, one
package per language, apart from the code that reads them (spaCy's `lang/` shape).

Only English (`en`) is known. Each concept is defined once, in the module named for it; the readers
and rules import it from there and spell no word list of their own (tests/test_language_data.py).
"""
