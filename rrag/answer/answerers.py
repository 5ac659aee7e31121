"""Answerers compose an answer to a question from retrieved chunks."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from rrag.audit.relevance import asked_rates, gives_kind, gives_rate
from rrag.backends.embedding import Embedder, get_embedder
from rrag.backends.llm import LLM, TextSink
from rrag.backends.prompts import ANSWER, AnswerReply
from rrag.backends.structured import FieldText
from rrag.lang.en.dates import WEEK_PARTS, WEEKDAYS
from rrag.lang.en.questions import WHEN, WHO
from rrag.lang.en.table_rows import names_row, row_subject
from rrag.registry import Registry, require_llm
from rrag.text import (
    PRONOUNS,
    Span,
    content_words,
    has_digit,
    heading_over,
    is_list_item,
    labelled_numbers,
    locate,
    named_as_a_kind,
    normalize,
    on_list_item,
    split_sentences,
    stem,
    words,
)
from rrag.text.asked import TIME_UNIT_STEMS, Kind, analyse
from rrag.text.clauses import named_as_another_kind
from rrag.text.contacts import gives_street_address
from rrag.text.quantities import TIME_OF_DAY
from rrag.text.reading import read
from rrag.text.values import Value, gives_money, states_one_of, values
from rrag.types import Answer, Chunk, Citation, RetrievedChunk

REFUSAL = "I cannot answer this from the indexed documents: nothing relevant was found."

DEFAULT_MAX_SENTENCES = 3
MIN_SENTENCE_WORDS = 4  # shorter "sentences" are headings and labels, not answers
SIMILARITY_WEIGHT = 0.6  # the rest is the share of the question's content words a sentence has
# Added to a sentence that holds the kind of thing the question asks for (a price, a number, a
# name): "How much does the Team plan cost?" is answered by "Team: €19 per user per month", not by
# "Annual billing gives a discount of 15% on the Starter and Team plans", which shares more words.
ANSWER_KIND_BONUS = 0.15
# Added to a sentence that names every name of the question, or is the table row the question names:
# "Are bins collected on Boxing Day?" is answered by "There are no collections on Christmas Day or
# Boxing Day.", not by "Each zone's collection day is the same for all three bins", which the
# embedding puts nearer.
NAMED_BONUS = 0.15
MIN_RELEVANCE = 0.2
RELATIVE_CUTOFF = 0.75  # a sentence far below the best one is off the point
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+\.?\s+(?=\S)")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|\u2026)\s*")


class Answerer(ABC):
    name: str = "base"

    @abstractmethod
    def answer(
        self, question: str, contexts: Sequence[RetrievedChunk], on_text: TextSink | None = None
    ) -> Answer:
        """Answer only from `contexts`; with no contexts return the refusal (`refused=True`).
        `on_text`: the answer's words as they are written, for an answerer that writes them over time
        (the returned Answer is the one that counts)."""


class ExtractiveAnswerer(Answerer):
    """The embedded default: the retrieved sentences that best answer the question, verbatim, each
    cited to its chunk. It never writes a word of its own, so it cannot invent a fact."""

    name = "extractive"

    def __init__(self, embedder: Embedder, *, max_sentences: int = DEFAULT_MAX_SENTENCES) -> None:
        self.embedder = embedder
        self.max_sentences = max_sentences

    def answer(
        self, question: str, contexts: Sequence[RetrievedChunk], on_text: TextSink | None = None
    ) -> Answer:
        candidates = [
            (rc.chunk, _without_section_number(span))
            for rc in contexts
            for span in split_sentences(rc.chunk.text)
            if _states_something(rc.chunk.text, span)
        ]
        if not candidates:
            return Answer(REFUSAL, self.name, refused=True)
        scores = self._relevance(
            question,
            [span.text for _, span in candidates],
            [heading_over(chunk.text, span.start) for chunk, span in candidates],
        )
        picked: list[tuple[Chunk, Span]] = []
        seen: set[str] = set()
        for i in sorted(range(len(candidates)), key=lambda i: -scores[i]):
            if scores[i] < MIN_RELEVANCE or scores[i] < scores.max() * RELATIVE_CUTOFF:
                break
            key = normalize(candidates[i][1].text, punctuation=False)
            if key not in seen:  # overlapping chunks repeat sentences
                seen.add(key)
                picked.append(candidates[i])
            if len(picked) == self.max_sentences:
                break
        if not picked:
            return Answer(REFUSAL, self.name, refused=True)
        picked = _with_antecedents(candidates, _answering_first(question, picked))
        sentences = [" ".join(span.text.split()) for _, span in picked]
        # A list item has no full stop; one is added so that the claim splitter keeps items apart.
        text = " ".join(s if s[-1] in ".!?" else s + "." for s in sentences)
        citations = tuple(
            Citation(chunk.chunk_id, quote, found=is_quoted(quote, chunk.text))
            for (chunk, _), quote in zip(picked, sentences)
        )
        return Answer(text, self.name, citations)

    def _relevance(self, question: str, sentences: list[str], headings: list[str]) -> np.ndarray:
        # A sentence of a FAQ's answer means what it means with its question ("There is no charge." under
        # "What if I get a puncture?"); its own words are what it says.
        read_with = [f"{h} {s}" if h.endswith("?") else s for s, h in zip(sentences, headings)]
        vectors = self.embedder.embed([question, *read_with])
        similarity = vectors[1:] @ vectors[0]
        asked = set(content_words(question))
        names = _names_asked(question)
        terms = [set(content_words(s)) for s in sentences]
        about = [t | _section_words(h, names) for t, h in zip(terms, headings)]
        overlap = np.array([len(asked & t) / len(asked) if asked else 0.0 for t in about])
        wanted = _gives_what_is_asked(question)
        holds = np.array([bool(wanted and wanted(s)) for s in sentences])
        given = values(question)
        named = np.array(
            [
                _names_every(names, t, h) or bool(_row_named(asked, given, s))
                for s, t, h in zip(sentences, terms, headings)
            ]
        )
        return (
            SIMILARITY_WEIGHT * similarity
            + (1 - SIMILARITY_WEIGHT) * overlap
            + ANSWER_KIND_BONUS * holds
            + NAMED_BONUS * named
        )


class LLMAnswerer(Answerer):
    """An answer written by the LLM with citations (passage number + quoted span). A citation of a
    passage the prompt did not show is asked about once more; every quote is then checked against the
    passage it cites, and one that is not there (or cites no shown passage) is a citation mismatch."""

    name = "openai"

    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    def answer(
        self, question: str, contexts: Sequence[RetrievedChunk], on_text: TextSink | None = None
    ) -> Answer:
        if not contexts:
            return Answer(REFUSAL, self.name, refused=True)  # no context, no guess: the LLM is not asked
        prompted = ANSWER.run(
            self.llm,
            contexts,
            check=_cites_outside,
            on_text=FieldText("answer", on_text).feed if on_text else None,
            question=question,
            refusal=REFUSAL,
        )
        reply, shown = prompted.value, prompted.passages
        citations = []
        for cited in reply.citations:
            if 1 <= cited.passage <= len(shown):
                chunk = shown[cited.passage - 1].chunk
                citations.append(
                    Citation(chunk.chunk_id, cited.quote, found=is_quoted(cited.quote, chunk.text))
                )
            else:
                citations.append(Citation("", cited.quote, found=False))
        return Answer(reply.answer or REFUSAL, self.name, tuple(citations), refused=reply.refused)


def _cites_outside(reply: AnswerReply, shown: tuple[RetrievedChunk, ...]) -> str:
    wrong = sorted({c.passage for c in reply.citations if not 1 <= c.passage <= len(shown)})
    if not wrong:
        return ""
    return f"it cites passage {', '.join(map(str, wrong))}, but the passages are numbered 1 to {len(shown)}"


def _answering_first(question: str, picked: list[tuple[Chunk, Span]]) -> list[tuple[Chunk, Span]]:
    """The sentence that gives what the question asks for leads; the others stay only when they add
    to it. Dropped: a sentence sharing no word with the question (or naming it only as a kind the
    question does not say: "a post office" for "your office"), one giving the same kind of value
    about fewer of the question's words than the lead (the price of another service, a monthly pack
    beside the dose per wash) or, where the question names a table row, about something the row is
    not, and one about another numbered item than the one asked ("step 5" for step 3): a second value
    of another thing reads as the answer, or as a disagreement between sources that is not one."""
    asked = set(content_words(question))
    wanted = _gives_what_is_asked(question)
    numbered = labelled_numbers(question)

    def covered(span: Span) -> int:
        # a word named only as a kind the question does not say is another thing ("a post office" for
        # "Where is your office?")
        said = asked & set(content_words(span.text))
        return sum(not named_as_a_kind(span.text, {word}, asked) for word in said)

    def holds(span: Span) -> bool:
        return bool(wanted and wanted(span.text))

    def other_item(span: Span) -> bool:
        given = labelled_numbers(span.text)
        return any(given.get(label) and not numbers & given[label] for label, numbers in numbered.items())

    on_item = [p for p in picked if not other_item(p[1])] or picked  # all off: relevance says so
    # Where the question names a table row, what is said of anything else is another thing's value
    # ("How much does a compact car cost per day?": not the additional driver's price per day)
    given = values(question)
    row = next(
        (subject for p in on_item if holds(p[1]) and (subject := _row_named(asked, given, p[1].text))), None
    )
    candidates = [
        p
        for p in on_item
        if row is None
        or (names_row(row, set(content_words(p[1].text))) and not named_as_a_kind(p[1].text, row, asked))
    ]
    holding = [p for p in candidates if holds(p[1])]
    if row:  # a value per what the question asks first ("For Economy, the daily rate is £32", not
        # "The damage excess is £1,200 for Economy and Compact cars" for "... cost per day?")
        per = asked_rates(question)
        lead = max(holding, key=lambda p: (bool(per) and gives_rate(p[1].text, per), covered(p[1])))
    else:  # in the order of relevance, one of the kind the question names first ("Private Office
        # memberships" is another kind of a monthly membership)
        mine = (p for p in holding if not named_as_another_kind(p[1].text, question))
        lead = next(mine, holding[0]) if holding else on_item[0]
    # Where the lead is of what the question names, a sentence of another section of its document that
    # does not name it is of another thing ("Open Monday to Saturday 09:00 to 18:00." under "Mill
    # Lane", asked of Station Road)
    names = _names_asked(question)
    lead_heading = heading_over(lead[0].text, lead[1].start)

    def of_another_section(p: tuple[Chunk, Span]) -> bool:
        if p[0].doc_id != lead[0].doc_id:
            return False
        heading = heading_over(p[0].text, p[1].start)
        return heading != lead_heading and not _names_every(names, set(content_words(p[1].text)), heading)

    named = _names_every(names, set(content_words(lead[1].text)), lead_heading)
    return [lead] + [
        p
        for p in on_item
        if p is not lead
        and covered(p[1])
        and not (holds(p[1]) and (p not in candidates or covered(p[1]) < covered(lead[1])))
        and not (named and of_another_section(p))
    ]


def _names_asked(question: str) -> set[str]:
    """The names a question asks about (stemmed): its capitalised words but days, which say when, not
    of whom ("Is the Quay Street surgery open on Saturdays?": quay, street)."""
    return {stem(w) for w in read(question).capitalised if w.removesuffix("s") not in _DAYS}


def _section_words(heading: str, names: set[str]) -> set[str]:
    """What a sentence says by the heading it sits under: "You can cancel within 14 days" under "2.
    Cooling-off period" answers how long the cooling-off period is. Not whom it is of (`names`, read
    apart): a document's title names its company over every sentence of its first section; nor the
    section's number ("3. Company cards" is no "3,000 euros"). An FAQ's question is read with its answer
    for what it means (`_relevance`), not lent word for word to each of its sentences ("No. Part-time
    staff cannot." is no answer to whether one can work from abroad)."""
    if heading.endswith("?"):
        return set()
    return {w for w in content_words(heading) if not has_digit(w)} - names


def _names_every(names: set[str], terms: set[str], heading: str) -> bool:
    """Whether a sentence of content words `terms`, read under its section's `heading`, names every one
    of `names` ("Open Monday to Friday 09:00 to 17:30." under "Quay Street")."""
    return bool(names) and names <= terms | set(content_words(heading))


def _row_named(asked: set[str], given: Sequence[Value], sentence: str) -> set[str]:
    """The words of the table row `sentence` is, where the question names it ("How much does a compact
    car cost per day?" of "For Compact (Group B), the daily rate is £36, ...") or gives an amount of
    its own ("What does a 100 sq ft unit cost per month?" of "For Large, the floor area is 100 sq ft,
    ..."); else none."""
    subject = row_subject(sentence)
    said = set(content_words(subject)) if subject else set()
    return said if said and (names_row(said, asked) or states_one_of(sentence, given)) else set()


def _with_antecedents(
    candidates: list[tuple[Chunk, Span]], picked: list[tuple[Chunk, Span]]
) -> list[tuple[Chunk, Span]]:
    """`picked`, a sentence that opens with a pronoun after the sentence just before it in its chunk,
    which says what the pronoun is ("The annual service charge depends on the size of the flat. It is
    billed in two equal instalments"): the answer is read without the document."""
    out: list[tuple[Chunk, Span]] = []
    for chunk, span in picked:
        first = words(span.text)[:1]
        at = candidates.index((chunk, span))
        before = candidates[at - 1] if at else None
        if (
            first
            and first[0].lower() in PRONOUNS
            and before is not None
            and before[0] is chunk
            and not chunk.text[before[1].end : span.start].strip()
        ):
            out.append(before)
        out.append((chunk, span))
    return list(dict.fromkeys(out))  # a sentence picked and pointed back to too is said once, first


def _without_section_number(span: Span) -> Span:
    """ "2.1 MFA is required ..." -> "MFA is required ...": still verbatim, without the numbering."""
    m = _SECTION_NUMBER.match(span.text)
    return Span(span.text[m.end() :], span.start + m.end(), span.end) if m else span


def _states_something(text: str, span: Span) -> bool:
    """Not a question (a FAQ's), not a heading, caption or label: a statement or a list item. A line
    with neither a full stop nor a bullet is a heading ("Daily per-diem allowance by city"), unless it
    gives a street address ("14 Mill Lane, Leeds LS1 4AB": where to find the writer)."""
    sentence = span.text
    if sentence.endswith("?") or len(words(sentence)) < MIN_SENTENCE_WORDS:
        return False
    if sentence[-1] in ".!" or gives_street_address(sentence):
        return True
    return is_list_item(text, span) and not _numbered_heading(text, span)


def _numbered_heading(text: str, span: Span) -> bool:
    """Whether a numbered line with no full stop heads the paragraph after it ("3. Sheds, greenhouses
    and other structures" over "Each plot may have one shed ..."), rather than being one item of a list
    whose next item follows."""
    after = _PARAGRAPH_END.match(text, span.end)
    return after is not None and after.end() < len(text) and not on_list_item(text, after.end())


_PARAGRAPH_END = re.compile(r"[ \t]*\n\s*\n\s*")


# What a question asks for besides a person (`WHO`), an amount of money (read by rrag.text.asked) and
# a time (`WHEN`): a number, by its wording.
_NUMBER_ASKED = re.compile(
    r"\b(?:how (?:much|many|long|often|quickly|soon|far|old|big|fast)|what percentage|when|what time|"
    r"what date|which year|limit|maximum|minimum|rate|deadline)\b",
    re.I,
)
_GIVES_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b", re.I)
_TIME_UNITS = frozenset({TIME_OF_DAY, "date", "calendar year", *TIME_UNIT_STEMS})
_DAYS = frozenset((*WEEKDAYS, *WEEK_PARTS))


def _gives_time(sentence: str) -> bool:
    """A time of day, a date, a year, a span of time, or a day or month named ("Bulky collections take
    place on Wednesdays"); not "three items for £35"."""
    reading = read(sentence)
    return (
        bool(reading.months)
        or any(q.unit in _TIME_UNITS for q in reading.quantities)
        or any(w.lower().removesuffix("s") in _DAYS for w in reading.words)
    )


_NAME = re.compile(r"(?<=\S)\s+(?:the\s+)?[A-Z][a-z]")  # a capitalised word after the first


def _gives_what_is_asked(question: str) -> Callable[[str], object] | None:
    """A test of whether a sentence gives what `question` asks for: the relevance check's own where the
    question asks for a kind of value it reads (one definition: a count is no price, "up to two dogs"
    answers "How many dogs ...?", "£20 per stay" does not), else a name for "who", a time for "when", a
    number for "how soon", "limit" and the like; None where it asks for none of these. A price asked
    for is given by an amount: "... clean the area again at no charge" says what else is free, and led
    for "How much does a window cleaning visit cost?" (data/trust: none is listed)."""
    if WHO.match(question):
        return _NAME.search
    asked = analyse(question)
    if asked.kind is Kind.MONEY:
        return partial(gives_money, differences=asked.difference)
    if asked.kind is not None:
        return partial(gives_kind, q=asked)
    if WHEN.match(question):
        return _gives_time
    return _GIVES_NUMBER.search if _NUMBER_ASKED.search(question) else None


def is_quoted(quote: str, chunk_text: str) -> bool:
    """Whether `quote` is in the chunk word for word, ignoring case and whitespace; an ellipsis may
    stand for left-out text between parts, which must then appear in order."""
    parts = [p for p in _ELLIPSIS.split(quote) if p.strip()]
    position = 0
    for part in parts:
        span = locate(part, chunk_text[position:], punctuation=True)
        if span is None:
            return False
        position += span[1]
    return bool(parts)


ANSWERERS: Registry[Answerer] = Registry(
    "answerer",
    {
        "extractive": lambda settings, llm: ExtractiveAnswerer(get_embedder()),
        "openai": lambda settings, llm: LLMAnswerer(require_llm(llm, "The 'openai' answerer")),
    },
)
