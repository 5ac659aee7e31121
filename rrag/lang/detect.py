"""Which language a text is written in, and whether the rules can read it.

The detector is py3langid's: a naive Bayes model over byte n-grams, 140 languages, shipped in its
wheel (nothing is downloaded); loaded once per process, on first use (about a second).

A text is read sentence by sentence (line by line in a list), and is in the language that more than
half of its words are surely in. A whole passage read at once can be misheard: English about Myanmar,
full of its names, is "Burmese" to the detector, each of its sentences English. The rules and the judge
read English only (`rrag.lang.en`): any other language detected is one they cannot read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache

import iso639
from py3langid.langid import MODEL_FILE, LanguageIdentifier

ENGLISH = "en"  # the one language the rules (rrag/lang/en) and the judge read
SURE = 0.7  # the detector's probability from which a sentence's language counts as detected
# ... unless that language is not English and English keeps this much: the model knows English-based
# creoles, and hears Nigerian Pidgin in "The asthma study ran from September 1906 until January 1908."
ENGLISH_DOUBT = 0.05
MIN_WORDS = 4  # a shorter sentence says too little about its language ("25 Tage", "Law Report")
SAMPLE_CHARS = 100_000  # a document's language is read from its beginning: enough, and bounded
# Scripts written without spaces between words (Thai, Lao, Khmer, Japanese kana, Chinese): there each
# character counts as a word, or no sentence of theirs would reach MIN_WORDS. (Burmese spaces its
# phrases: counted by character, a few lines of it outweigh a page of English beside them.)
_UNSPACED = "\u0e00-\u0eff\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(f"[{_UNSPACED}]|[^\\W\\d_{_UNSPACED}]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")
_NO_LANGUAGE = "zxx"  # the detector's label for text with no linguistic content (codes, numbers)


@cache
def _identifier() -> LanguageIdentifier:
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@lru_cache(maxsize=1024)  # an audit asks it of each passage once per claim and per stage
def detect_language(text: str) -> str:
    """The ISO 639 code of the language `text` is written in ("de", "fr"), or "" when that cannot be
    told: no language is surely that of more than half of its words (in sentences of MIN_WORDS)."""
    words_in: Counter[str] = Counter()
    total = 0
    for sentence in _SENTENCE_END.split(text[:SAMPLE_CHARS]):
        words = len(_WORD.findall(sentence))
        if words < MIN_WORDS:
            continue
        total += words
        ranked = _identifier().rank(sentence)
        code, probability = ranked[0]
        doubted = code != ENGLISH and dict(ranked)[ENGLISH] >= ENGLISH_DOUBT
        if probability >= SURE and code != _NO_LANGUAGE and not doubted:
            words_in[code] += words
    code, words = words_in.most_common(1)[0] if words_in else ("", 0)
    return code if words * 2 > total else ""


def foreign_language(text: str) -> str:
    """The language of `text` where it is one the rules do not read, else "" (English, or not told)."""
    code = detect_language(text)
    return "" if code == ENGLISH else code


def language_name(code: str) -> str:
    """ "German" for "de"; the code itself where ISO 639 has no name for it, "" for ""."""
    if not code:
        return ""
    try:
        return str(iso639.Language.match(code).name)
    except iso639.LanguageNotFoundError:
        return code


def names_of(codes: Iterable[str]) -> str:
    """ "German", "German and French", "German, French and Dutch": the languages, in order, once each."""
    names = list(dict.fromkeys(language_name(code) for code in codes if code))
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
