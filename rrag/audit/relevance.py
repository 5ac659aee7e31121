"""Does the answer answer the question? Every claim can be a faithful quote and the answer still miss
the point: asked for the X400's retail price, an extractive answer quoting its annual-service price is
supported claim by claim, and no verifier notices.

Offline, an answer addresses the question when
1. it shares some of the question's key terms (a quarter, at least one; a word the term names a kind
   of counts: "babies" are said by "children", "campfires" by "open fires"),
2. one of its sentences gives the kind of value the question asks for (a price question needs an
   amount of money, "how many days" a number of days, "how long" a number, "what percentage" a
   percentage, "what time" a time of day, "where" a place, "who" someone the question does not name:
   office hours do not say where to park), and
3. it names what the question qualifies the value with ("retail price": "retail"), and
4. it is about the thing asked: not another row of a table ("For Oven clean, the price ..." for a
   deep clean), another numbered item ("step 128" for step 3), another day ("on weekdays" for
   Saturdays), or another named thing (another shop's hours for the Exeter shop's).
A value's kind is read by the value parser, from its own unit or from the column header a table
sentence puts before it ("the price (GBP) is 25" is money, "the duration (hours) is 4" hours).
With an LLM, a judged score can only lower this: the LLM's word never turns a miss into a hit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rrag.backends.llm import LLM
from rrag.backends.prompts import RELEVANCE
from rrag.errors import LLMError
from rrag.lang.en.dates import MONTH_NAMES, WEEK_PARTS, WEEKDAYS
from rrag.lang.en.function_words import (
    PLACE_DETERMINERS,
    PLACE_PREPOSITIONS,
    REFERRING_BACK,
    STOPWORDS,
    TOWARDS,
)
from rrag.lang.en.lexicon import DERIVING_SUFFIXES
from rrag.lang.en.qualifiers import RATE, RATE_OF
from rrag.lang.en.questions import (
    AGE_BOUND,
    AGE_WORDS,
    ANYONE,
    NEAR_TIME_UNITS,
    NOT_PLACES,
    PLACE_NOUNS,
    YES_NO,
)
from rrag.lang.en.table_rows import column_headers, names_row, rate_said, row_subject
from rrag.lang.en.wordnet import kind_of, of_people, wordnet
from rrag.text import (
    content_words,
    has_digit,
    labelled_numbers,
    stem,
    words,
)
from rrag.text.asked import TIME_UNIT_STEMS, Kind, Question, analyse
from rrag.text.clauses import head_nouns
from rrag.text.contacts import GIVES_CONTACT, names_a_street
from rrag.text.quantities import CALENDAR_YEAR, TIME_OF_DAY, is_measured
from rrag.text.reading import read
from rrag.text.values import MONEY, Value, costs_nothing, gives_money, states_one_of, unit_read, values

MIN_KEY_SHARE = 0.25  # lenient: "medical note" is answered by "medical certificate"
MIN_PREFIX = 4
MIN_JUDGED_SCORE = 0.5


@dataclass(frozen=True)
class Relevance:
    addressed: bool
    reason: str  # why the answer does not address the question; "" when it does


_DAYS = frozenset(stem(w) for w in (*WEEKDAYS, *WEEK_PARTS))
_CALENDAR_WORDS = frozenset((*WEEKDAYS, *MONTH_NAMES))
_CALENDAR_STEMS = frozenset(stem(w) for w in _CALENDAR_WORDS)
_ASKING_NAMES = (Kind.NAME, Kind.PERSON)  # a name the question does not say is what they ask for
_FIRST_PERSON = re.compile(r"I(?:['\u2019][a-z]+)?")  # "I", "I've": capitalised, and no name


def _said(term: str, said: set[str]) -> bool:
    """`term` or a word sharing its first letters: the light stemmer leaves "approver" and "approv",
    "sickness" and "sick" apart; or a short word made a noun ("pay" and "payment")."""
    return term in said or any(
        (min(len(term), len(w)) >= MIN_PREFIX and (w.startswith(term) or term.startswith(w)))
        or (w.startswith(term) and w[len(term) :] in DERIVING_SUFFIXES)
        for w in said
    )


def _kinds_said(question: str, unsaid: set[str], sentences: Sequence[str]) -> set[str]:
    """The key terms of `unsaid` whose noun in the question names a kind of a noun the answer says (as
    WordNet relates them): "Children under 3 stay free" says what "babies" pay. Nouns only: a verb has
    senses enough to be a kind of most ("breaks" of "switch")."""
    if not unsaid:
        return set()
    nouns = {
        w for s in sentences for w in map(str.lower, read(s).words) if content_words(w) and wordnet().noun(w)
    }
    return {
        term
        for w in map(str.lower, read(question).words)
        if (term := next(iter(content_words(w)), "")) in unsaid
        and wordnet().noun(w)
        and any(kind_of(w, noun) for noun in nouns)
    }


def gives_kind(sentence: str, q: Question) -> bool:
    """Whether `sentence` gives the kind of value `q` asks for (a count: no price; a place: not a time)."""
    if q.kind in GIVES_CONTACT:
        return GIVES_CONTACT[q.kind](sentence)
    if q.kind is Kind.NAME:  # a capitalised word the question does not say ("The manager is Sarah Lee"),
        # not a day's or a month's
        return any(
            stem(word) not in q.key_terms and word.removesuffix("s") not in _CALENDAR_WORDS
            for word in read(sentence).capitalised
        )
    if q.kind is Kind.PERSON:
        return _gives_people(sentence, q)
    found = read(sentence).quantities
    units = [unit_read(sentence, n) for n in found]
    if q.kind is Kind.MONEY:  # an amount, nothing, or a share of one ("50% of the total at booking")
        return gives_money(sentence, q.difference) or costs_nothing(sentence) or "%" in units
    if q.kind is Kind.PERCENT:
        return "%" in units
    if q.kind is Kind.DURATION:
        time_units = {TIME_UNIT_STEMS.get(u) for u in units} - {None}
        return bool(time_units) and (
            not q.time_unit or q.time_unit in time_units or _converts(q.time_unit, time_units)
        )
    if q.kind is Kind.NUMBER:
        return bool(found)
    if q.kind is Kind.AGE:  # a number of years, said with a word of age or as a bound ("aged between
        # 21 and 75", "between 21 and 75"; not "the seats are 4")
        said_as_age = bool(AGE_WORDS & set(read(sentence).words)) or bool(AGE_BOUND.search(sentence))
        return said_as_age and any(
            (not is_measured(n) and unit_read(sentence, n) != MONEY) or TIME_UNIT_STEMS.get(n.unit) == "year"
            for n in found
        )
    if q.kind is Kind.SPEED:  # "How fast do they charge?": a speed or a duration, not a price per day
        return any(n.measure[0] in _SPEEDS for n in found)
    if q.kind is Kind.SPAN:  # "How long does the operation take?" is answered by no price nor weight
        return any(n.measure[0] in _SPANS or not is_measured(n) for n in found)
    if q.kind is Kind.DATE:  # a day, a year or a month: "opened in 1998", not "open from 06:00"
        return any(n.unit in _DATES for n in found) or bool(read(sentence).months)
    if q.kind is Kind.TIME:  # "at 11:00", "until 9pm": not "from 24 to 26 December"
        return any(n.unit == TIME_OF_DAY for n in found)
    if q.kind is Kind.LENGTH:
        return any(n.measure[0] == _LENGTH for n in found) and bool(set(q.dimension) & read(sentence).stems)
    if q.kind is Kind.COUNT:  # a number of things: not an amount ("$2 per user", "1 TB"), not a
        # compound's ("two-factor authentication")
        return any(
            not is_measured(n) and unit_read(sentence, n) != MONEY and sentence[n.end : n.end + 1] != "-"
            for n in found
        )
    if q.kind is Kind.PLACE:
        return (
            _gives_place(sentence, q.key_terms)
            or names_a_street(sentence)
            or any(
                stem(noun) in _PLACE_NOUNS
                for header in column_headers(sentence)
                for noun in words(header)[-1:]
            )
        )
    return True


_DATES = frozenset({"date", CALENDAR_YEAR})
_LENGTH = "length"
_SPANS = frozenset({"duration", _LENGTH})
_SPEEDS = frozenset({"duration", "speed"})
_NOT_PLACES = _DAYS | frozenset(stem(w) for w in NOT_PLACES)
_PLACE_NOUNS = frozenset(stem(w) for w in PLACE_NOUNS)
_PLACE_PHRASE_WORDS = 4


def _gives_people(sentence: str, q: Question) -> bool:
    """Whether `sentence` gives someone the question does not name: a name it does not say (a person's,
    a role's: "the Treasurer"), though not one of the same kind as a name it gives ("the Otter Pool" of
    "the head lifeguard at the Minnow Pool"); a noun of people ("residents", "the committee"; not the
    "learner" of "the learner pool"); "anyone"; or a way to reach someone. "The Chair, Margaret Okafor,
    is standing down" names no one new for "Who is taking over from Margaret Okafor as Chair?"."""
    return (
        any(not set(named) <= q.key_terms and not set(named) & q.named for _, named in _names(sentence))
        or any(gives(sentence) for gives in GIVES_CONTACT.values())
        or any(word in ANYONE for word in map(str.lower, read(sentence).words))
        # a day is no one, though WordNet's "Sunday" is also an evangelist
        or any(
            stem(noun) not in q.key_terms | _DAYS | _CALENDAR_STEMS and of_people(noun)
            for noun in head_nouns(sentence)
        )
    )


def _gives_place(sentence: str, subject: frozenset[str]) -> bool:
    """Whether `sentence` says where: a preposition of place before words that are neither a time
    nor a manner ("in the team app", "in room 12"; not "on weekdays", "from 9:00", "at no charge"),
    nor only the `subject` asked about (content words): "There is no parking at the practice" does not
    say where the practice is."""
    spans = read(sentence).spans
    tokens = [w.text.lower() for w in spans]
    for i, token in enumerate(tokens):
        towards = token in TOWARDS and i + 1 < len(tokens) and tokens[i + 1] in PLACE_DETERMINERS
        if token not in PLACE_PREPOSITIONS and not towards:
            continue
        phrase: list[str] = []
        for before, word, after in zip(
            spans[i:], spans[i + 1 :], tokens[i + 1 : i + 1 + _PLACE_PHRASE_WORDS]
        ):
            if any(ch in ",;:.()" for ch in sentence[before.end : word.start]):
                break  # the clause ends
            if after in PLACE_DETERMINERS:
                continue
            if after in STOPWORDS:
                break
            phrase.append(after)
        # A number first is a time or an amount ("at 9:00", "in 2024", "in 30 days"); after a noun it
        # names a place ("in room 12", "at gate B4"). A place noun at its end names one whatever comes
        # before it ("on the first floor", not "on the first working day").
        if (
            phrase
            and not has_digit(phrase[0])
            and not {stem(w) for w in phrase} <= subject
            and (
                stem(phrase[-1]) in _PLACE_NOUNS
                or not any(w in MONTH_NAMES or stem(w) in _NOT_PLACES for w in phrase)
            )
        ):
            return True
    return False


def _converts(asked: str, given: set[str | None]) -> bool:
    """ "How many days" is answered by weeks too; not by hours or years."""
    return bool(NEAR_TIME_UNITS.get(asked, set()) & given)


def assess(
    question: str, sentences: Sequence[str], headings: Sequence[str] = (), documents: Sequence[str] = ()
) -> Relevance:
    """Whether `sentences` (the answer's claims) address `question`, by the rules above. `headings`:
    the headings their evidence sits under, which say what they are about ("If your car breaks down"
    over "... call Roadside Help on 0800 123 4455"); `documents`: the retrieved text of each document,
    whose most common names are the documents' own (`_another_name`)."""
    q = analyse(question)
    # What a value is asked per is no topic ("How much does a convertible cost per day?" is not
    # answered by what costs "£15 a day"): `_another_case` reads the rate.
    q = replace(q, key_terms=q.key_terms - asked_rates(question))
    if not q.key_terms and q.kind is None:
        return Relevance(True, "")
    said = {t for s in sentences for t in read(s).content_words}
    said |= _kinds_said(question, {t for t in q.key_terms if not _said(t, said)}, sentences)
    shared = sum(_said(t, said) for t in q.key_terms)
    share = shared / len(q.key_terms) if q.key_terms else 1.0
    # An answer that opens with a pronoun says it of what was asked ("It costs £35 for up to three items");
    # one whose headings say what it does not, with it, all that was asked (not "Nimbus" alone of "Who is
    # the CEO of Nimbus?" under "Nimbus Notes plans and pricing")
    refers_back = bool(sentences) and next(iter(words(sentences[0])), "") in REFERRING_BACK
    under = said | {t for h in headings for t in read(h).content_words}
    headed = bool(headings) and all(_said(t, under) for t in q.key_terms)
    if q.key_terms and (not shared or share < MIN_KEY_SHARE) and not (refers_back or headed):
        return Relevance(False, "the answer is about something else than what was asked")
    # A name asked about is named by the answer itself: a heading over another thing may name it ("the
    # store in Exeter is closing" over the other stores' hours).
    off_target = _off_target(question, q, sentences) or (
        q.kind not in _ASKING_NAMES and _another_name(question, sentences, said, documents)
    )
    if off_target:
        return Relevance(False, off_target)
    asked_terms = set(read(question).content_words)
    given = values(question)
    typed = [s for s in sentences if gives_kind(s, q) and not _other_row(s, asked_terms, q.key_terms, given)]
    if not typed:
        return Relevance(False, f"the question asks for {_asked(q)}, which the answer does not give")
    if q.qualifier and not _said(q.qualifier, said) and not _rate_said(q.qualifier, sentences, under):
        return Relevance(
            False, f"the question asks about {_qualified(question, q)}; the answer gives another value"
        )
    return Relevance(True, "")


def _other_row(
    sentence: str, asked_terms: set[str], key_terms: frozenset[str], given: Sequence[Value]
) -> str:
    """The row label of a table sentence that is about something the question does not name ("Oven
    clean" for a deep clean's price); "" when the sentence is not a row or is the row asked about: by
    its label, where the row says every key term of the question ("Which zone is Hatton Green
    in?": "For zone C, the areas are Brindle, Hatton Green, ..."; "How much medical cover do I get?":
    "For Medical expenses, the cover limit is ..."; not "Does Studio Birch have air conditioning?":
    "For Yoga Flow, ... the room is Studio Birch"), or by a value of its own that the question gives
    (`given`: "What does a 100 sq ft unit cost per month?" asks of the row whose floor area is 100 sq ft)."""
    label = row_subject(sentence)
    if label is None:
        return ""
    named = [t for t in content_words(label) if not t.isdigit()]
    row = set(content_words(sentence))
    asked = {t for t in named if _said(t, asked_terms)}
    return "" if names_row(named, asked) or key_terms <= row or states_one_of(sentence, given) else label


def _off_target(question: str, q: Question, sentences: Sequence[str]) -> str:
    """Why the answer is about another item or day than the one asked ("" when it is not): it names
    the question's label with other numbers only ("step 128" for step 3), or other days only."""
    answer = " ".join(sentences)
    given = labelled_numbers(answer)
    for label, asked in labelled_numbers(question).items():
        if given.get(label) and not asked & given[label]:
            return (
                f"the question asks about {label} {_numbers(asked)}; the answer gives {label} "
                f"{_numbers(given[label])}"
            )
    asked_days = {t for t in read(question).content_words if t in _DAYS}
    given_days = {t for t in read(answer).content_words if t in _DAYS}
    # "Can I work from home on Fridays?" is answered by "only on Mondays and Tuesdays"; "When ... on
    # Saturdays?" is not answered by weekday hours.
    if asked_days and given_days and not asked_days & given_days and not YES_NO.match(question):
        return f"the question asks about {', '.join(sorted(asked_days))}; the answer is about other days"
    asked_terms = set(read(question).content_words)
    rows = [_other_row(s, asked_terms, q.key_terms, values(question)) for s in sentences]
    if rows and all(rows):
        return f"the question does not ask about {', '.join(dict.fromkeys(rows))}, which the answer is about"
    return "" if YES_NO.match(question) else _another_case(question, answer)


def _another_name(question: str, sentences: Sequence[str], said: set[str], documents: Sequence[str]) -> str:
    """Why the answer is about another named thing than the one asked ("" when it is not): the question
    names a thing that the answer does not say ("the store in Exeter"), and each of the answer's
    sentences names one that the question does not ("Bayside Taunton, 5 Fore Street (open ... Sunday)").
    A name that most of the retrieved documents say is theirs (a firm's, a service's): an answer need
    not repeat it ("What does Kestrel charge for a paper bill?": "Paper bills cost ..."). The documents
    are read only where the rest holds."""
    asked_words = set(read(question).content_words)
    unsaid = [
        (name, named) for name, named in _names(question) if named and not any(_said(t, said) for t in named)
    ]
    others = [
        [name for name, named in _names(s) if not all(t in asked_words for t in named)] for s in sentences
    ]
    if not unsaid or not others or not all(others):
        return ""
    owned = [set(read(d).content_words) for d in documents]
    missing = [
        name for name, named in unsaid if sum(set(named) <= words for words in owned) * 2 <= len(owned)
    ]
    if not missing:
        return ""
    given = dict.fromkeys(name for names in others for name in names)
    return f"the question asks about {', '.join(missing)}; the answer is about {', '.join(given)}"


def _names(text: str) -> list[tuple[str, list[str]]]:
    """The names `text` gives, each with its content words ("Mill Meadow": mill, meadow); not a day's
    or a month's, nor a unit's ("35p per kWh", "a 100 Mbps line")."""
    reading = read(text)
    units = [
        (q.start, max(q.end, q.unit_end)) for q in reading.quantities if has_digit(text[q.start : q.end])
    ]
    out = []
    for (a, _), (start, _, name) in zip(reading.names, reading.named):
        named = [t for t in read(name).content_words if not t.isdigit()]
        after_amount = a > 0 and (
            reading.tokens[a - 1].word == "per" or any(v == reading.tokens[a - 1].end for _, v in units)
        )
        of_a_unit = after_amount or any(u <= start < v for u, v in units)
        if of_a_unit or set(named) <= _DAYS | _CALENDAR_STEMS or _FIRST_PERSON.fullmatch(name):
            continue
        out.append((name, named))
    return out


def _another_case(question: str, answer: str) -> str:
    """Why an answer giving a value is of another case than the one a question asks the value of ("" when
    it is not): the question's count given otherwise ("How much does an office for four people cost?":
    "for 2 people"), or its rate ("How much is a desk per year?": "£260 per month")."""
    given = values(answer)
    for asked in values(question):
        same = [v for v in given if v.measure == asked.measure]
        if same and not any(v.holds(asked) or v.bound_holds(asked) for v in same):
            return f"the question asks about {asked.written}; the answer gives {same[0].written}"
    per = asked_rates(question)
    rates = {what for v in given for axis, what in v.qualifiers if axis == "per"}
    if per and rates and not per & rates:
        return f"the question asks for a value per {min(per)}; the answer gives one per {min(rates)}"
    return ""


def _rate_said(qualifier: str, sentences: Sequence[str], under: set[str]) -> bool:
    """Whether a rate the question qualifies a value with ("the yearly rent") is said by another word
    of it in the answer or its headings ("Annual plot rents" over a table's rows), or by the answer's
    values ("£52 per year")."""
    return rate_said(qualifier, under) or (
        qualifier in RATE_OF and any(gives_rate(s, {stem(RATE_OF[qualifier])}) for s in sentences)
    )


def asked_rates(question: str) -> set[str]:
    """What the values a question asks for are per ("day" of "How much is a kayak per day?")."""
    return {_rate(m) for m in RATE.finditer(question)} - {""}


def gives_rate(sentence: str, rates: set[str]) -> bool:
    """Whether `sentence` gives a value per one of `rates` ("the daily rate is £32": per day)."""
    return any(axis == "per" and what in rates for v in values(sentence) for axis, what in v.qualifiers)


def _rate(m: re.Match[str]) -> str:
    """What a question's rate is per ("per year"; "a month", "monthly" at its end); "" for a word of
    the thing asked about ("a weekly pass", "a day pass")."""
    per, each, often = m.groups()
    if not per and not _ENDS.match(m.string, m.end()):
        return ""
    return stem((per or each or RATE_OF[often.lower()]).lower())


_ENDS = re.compile(r"\s*[?.!]?\s*$")


def _numbers(values: set[float]) -> str:
    return ", ".join(f"{v:g}" for v in sorted(values))


def _asked(q: Question) -> str:
    if q.kind is Kind.DURATION and q.time_unit:
        return f"a number of {q.time_unit}s"
    return q.kind.value if q.kind else "something else"


def _qualified(question: str, q: Question) -> str:
    m = re.search(rf"\b(\w*{re.escape(q.qualifier)}\w*)\s+(\w+)", question, re.IGNORECASE)
    return f"the {m.group(1)} {m.group(2)}".lower() if m else f"the {q.qualifier} value"


def judge(llm: LLM, question: str, answer: str, offline: Relevance) -> Relevance:
    """The LLM's score, which may only lower the offline result; on failure the offline result stands."""
    if not offline.addressed:
        return offline
    try:
        judged = RELEVANCE.run(llm, question=question, answer=answer).value
    except LLMError:
        return offline
    if judged.score >= MIN_JUDGED_SCORE:
        return offline
    return Relevance(False, judged.reason or "the LLM judged that the answer does not address the question")
