"""Claim extractors split an answer into atomic claims that keep their span in the answer."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import replace

from rrag.answer.answerers import REFUSAL
from rrag.audit.grounding import (
    VERB_CUE,
    has_verb,
    is_fragment,
    is_placeholder,
    is_reply,
    rejected,
    with_question,
)
from rrag.backends.llm import LLM
from rrag.backends.prompts import CLAIMS
from rrag.errors import LLMError
from rrag.registry import Registry, require_llm
from rrag.text import (
    PRONOUNS,
    STOPWORDS,
    Span,
    clean,
    clean_map,
    content_words,
    fuzzy_locate,
    is_list_item,
    list_lead_ins,
    locate,
    quantities,
    split_sentences,
    words,
)
from rrag.text.clauses import hangs_over, verb_starts
from rrag.types import Claim

LOCATE_MIN_RATIO = 0.85  # an LLM claim this close to a stretch of the answer is placed there
BARE_REPLY = "a yes or no, which says nothing without its question"
NO_ANSWER = "no answer"  # the reason of the one claim of an empty or placeholder answer ("...", "N/A")


class ClaimExtractor(ABC):
    name: str = "base"

    @abstractmethod
    def extract(self, answer: str, question: str = "") -> list[Claim]:
        """Claims in answer order; non-factual sentences come back with `checkable=False`."""

    def extract_with_notes(self, answer: str, question: str = "") -> tuple[list[Claim], list[str]]:
        """Claims plus notes for the report, such as a fallback to another extractor."""
        return self.extract(answer, question), []

    def claims_of(self, answer: str, question: str = "") -> tuple[list[Claim], list[str]]:
        """`extract_with_notes` on the answer as every comparison reads it (`rrag.text.clean`: no
        invisible characters, ASCII digits, plain spaces), each claim's span mapped back to `answer`
        as written; the claim's text is the cleaned one, which the verifiers compare."""
        plain, index = clean_map(answer)
        claims, notes = self.extract_with_notes(plain, clean(question))
        if plain == answer:
            return claims, notes
        return [
            replace(c, start=_written(index, c.start, len(answer)), end=_written_end(index, c.end))
            for c in claims
        ], notes


_FILLER = r"(?:sure|certainly|of course|yes|no|okay|ok|well|great question|good question)"
_DOCS = (
    r"(?:(?:the|these|your|our)\s+)?(?:provided\s+|given\s+|available\s+|retrieved\s+)?"
    r"(?:documents?|context|sources?|excerpts?|texts?|materials?)"
)
# Attribution to a named document ("according to the policy, ...") is stripped like "the documents".
_SOURCE = r"(?:" + _DOCS + r"|(?:the\s+)?(?:information|handbook|policy|policies))"
# A lead-in that attributes the rest of the sentence to the documents: stripped, the rest is checked.
_META_PREFIX = re.compile(
    rf"^(?:{_FILLER}\s*[,!.:]\s*)?(?:(?:based\s+on|according\s+to|from|per|as\s+stated\s+in)\s+{_SOURCE}\s*,\s*"
    rf"|{_SOURCE}\s+(?:says?|states?|shows?|indicates?|mentions?|explains?|specif(?:y|ies))\s+that\s+"
    rf"|(?:{_FILLER}|in\s+summary|in\s+short|to\s+summari[sz]e|overall|in\s+conclusion)\s*[,!]\s+)",
    re.IGNORECASE,
)
_NOT_CHECKABLE: list[tuple[str, re.Pattern[str]]] = [
    (
        "greeting or closing",
        re.compile(
            r"^(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon|evening)|thanks?|thank\s+you|you'?re\s+welcome"
            r"|i\s+hope\s+(?:this|that)\s+helps|hope\s+(?:this|that)\s+helps|let\s+me\s+know|feel\s+free|happy\s+to\s+help"
            r"|glad\s+to\s+help)\b|^(?:of\s+course|okay|ok|well|great\s+question|good\s+question)\s*[.!]?$",
            re.IGNORECASE,
        ),
    ),
    # Only what cannot hide a fact: "The policy does not cover contractors" is a claim to check.
    (
        "refusal",
        re.compile(
            r"\bi\s+(?:cannot|can'?t|could\s+not|couldn'?t|am\s+unable\s+to|am\s+not\s+able\s+to|do\s+not|don'?t)"
            r"\s+(?:answer|find|know|determine|say|tell|help)\b|^(?:i'?m|i\s+am)\s+sorry[^0-9]*$"
            r"|^(?:there\s+is\s+)?(?:no|not\s+enough)\s+(?:relevant\s+)?information\b|\bnothing\s+relevant\b"
            rf"|^{_DOCS}\s+(?:do(?:es)?\s+not|don'?t|doesn'?t)\s+(?:say|mention|contain|specify|state|provide)\b"
            rf"|^(?:the\s+)?answer\s+(?:is\s+not|isn'?t)\s+(?:available|known|provided|given|stated|in\s+{_DOCS})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "opinion or hedge",
        re.compile(
            r"^(?:i\s+(?:think|believe|feel|guess|suppose|would\s+say|recommend)|in\s+my\s+(?:opinion|view)"
            r"|personally|it\s+(?:seems|appears)|perhaps|maybe|probably|possibly|arguably)\b"
            r"|\bin\s+my\s+(?:opinion|view)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "remark about the answer",
        re.compile(
            r"^(?:here\s+(?:is|are)|below\s+(?:is|are)|let\s+me)\b"
            r"|^(?:to\s+summari[sz]e|in\s+summary|in\s+short|overall|note)\b[^.!?]*:$|^[^.!?]{0,60}:$",
            re.IGNORECASE,
        ),
    ),
]
_CLAUSE_BREAK = re.compile(
    r"\s*;\s+|,\s+(?:and|but|while|whereas|although|though|yet|so)\s+|\s+but\s+", re.IGNORECASE
)
_MIN_CLAUSE_WORDS = 3
# "takes 82 minutes and uses 120 litres and 1.9 kg of salt": facts joined by "and" or a comma, each
# with its own number; "between 2 °C and 8 °C" is one range, not two facts.
_FACT_BREAK = re.compile(r",?\s+and\s+(?:also\s+)?|,\s+(?=\S)", re.IGNORECASE)
_RANGE_CUE = frozenset("between from range ranging".split())


class RuleClaimExtractor(ClaimExtractor):
    """Sentences and list items, with conjoined independent clauses and facts with their own numbers
    split apart. Every claim keeps its exact span; its text is the span's text (`answer[start:end]`),
    preceded, for a fact that borrows its subject ("... and uses 120 litres"), by that subject.
    Non-factual sentences are kept, marked not checkable."""

    name = "rules"

    def extract(self, answer: str, question: str = "") -> list[Claim]:
        if REFUSAL in answer:
            start = answer.index(REFUSAL)
            return [Claim(REFUSAL, start, start + len(REFUSAL), checkable=False, reason="refusal")]
        if is_placeholder(answer):  # scoring refuses it (rrag.audit.scoring)
            return (
                [Claim(answer, 0, len(answer), checkable=False, reason=NO_ANSWER)] if answer.strip() else []
            )
        # Only a whole sentence is stated with its question: a piece split off one ("... and juniors 8")
        # answers no question on its own.
        return [
            in_context(claim, question) if len(claims) == 1 else claim
            for lead_in, span in _with_lead_ins(answer, split_sentences(answer))
            for claims in [self._claims_of(answer, span)]
            for claim in (replace(c, text=lead_in + c.text) if c.checkable else c for c in claims)
        ]

    def _claims_of(self, answer: str, span: Span) -> list[Claim]:
        if is_placeholder(span.text):  # "} The answer is: {" among real sentences
            return [Claim(span.text, span.start, span.end, checkable=False, reason=NO_ANSWER)]
        if span.text.rstrip().endswith("?"):
            return [Claim(span.text, span.start, span.end, checkable=False, reason="question")]
        for reason, pattern in _NOT_CHECKABLE:
            if pattern.search(span.text):
                return [Claim(span.text, span.start, span.end, checkable=False, reason=reason)]
        if _is_heading(answer, span):
            return [Claim(span.text, span.start, span.end, checkable=False, reason="heading")]
        prefix = _META_PREFIX.match(span.text)
        start = span.start + (prefix.end() if prefix else 0)
        if start >= span.end or not any(ch.isalnum() for ch in answer[start : span.end]):
            return [Claim(span.text, span.start, span.end, checkable=False, reason="remark about the answer")]
        return [
            Claim(context + answer[s:e], s, e)
            for clause in _split_clauses(answer, start, span.end)
            for context, s, e in _split_facts(answer, *clause)
        ]


def in_context(claim: Claim, question: str) -> Claim:
    """A checkable fragment ("12 hours", "No.", "they do") with its question's subject and predicate;
    its span stays the fragment's. A yes or no that cannot be said so states nothing to check."""
    reply = is_reply(claim.text)
    if not (claim.checkable and (reply or is_fragment(claim.text))):
        return claim
    stated = with_question(claim.text, question) if question else None
    if stated:
        return replace(claim, text=stated)
    return replace(claim, checkable=False, reason=BARE_REPLY) if reply else claim


def _written(index: tuple[int, ...], start: int, length: int) -> int:
    return index[start] if start < len(index) else length


def _written_end(index: tuple[int, ...], end: int) -> int:
    return index[end - 1] + 1 if end > 0 else 0


def _with_lead_ins(answer: str, spans: list[Span]) -> list[tuple[str, Span]]:
    """Each span with the lead-in it is said under: a fragment item of a list under a lead-in ending
    in ':' ("The plan covers: - dental - vision") is stated with it ("The plan covers: dental"), as
    an item such as "dental" says nothing on its own; each item is its own claim."""
    return [
        ("" if lead_in is None or has_verb(span.text) else lead_in.text + " ", span)
        for span, lead_in in zip(spans, list_lead_ins(answer, spans))
    ]


def _is_heading(answer: str, span: Span) -> bool:
    """A short verbless line above more text: a heading heads something, so "12 hours\n" as the whole
    answer (read from a file) is a fragment answer, checked with its question."""
    line_start = answer.rfind("\n", 0, span.start) + 1
    return answer[line_start : span.start].lstrip().startswith("#") or (
        span.text[-1] not in ".!?:"
        and not has_verb(span.text)
        and len(words(span.text)) <= 4
        and answer.startswith("\n", span.end)
        and bool(answer[span.end :].strip())
        and not is_list_item(answer, span)
    )


def _split_clauses(answer: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split at '; ', ', and ', ', but ' ... when both sides are independent clauses that stand alone."""
    pieces = [(start, end)]
    for m in _CLAUSE_BREAK.finditer(answer, start, end):
        left_start = pieces[-1][0]
        left, right = answer[left_start : m.start()], answer[m.end() : end]
        right_words = words(right)
        if (
            len(words(left)) >= _MIN_CLAUSE_WORDS
            and len(right_words) >= _MIN_CLAUSE_WORDS
            and has_verb(left)
            and has_verb(right)
            and right_words[0] not in PRONOUNS
        ):
            pieces[-1] = (left_start, m.start())
            pieces.append((m.end(), end))
    return pieces


def _split_facts(answer: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """A clause listing several numbered facts, as (borrowed context, start, end) per fact; the
    clause whole when any piece has no number of its own or the first one names no subject."""
    cuts = list(_FACT_BREAK.finditer(answer, start, end))
    bounds = [start] + [x for m in cuts for x in m.span()] + [end]
    pieces = list(zip(bounds[::2], bounds[1::2]))
    numbers = [quantities(answer[s:e]) for s, e in pieces]
    lead = answer[start : start + numbers[0][0].start] if numbers[0] else ""
    in_range = any(
        _RANGE_CUE & set(words(answer[s : s + found[0].start])[-2:])
        for (s, _), found in zip(pieces, numbers)
        if found
    )
    # a number that takes its unit from the list it is in is no fact alone ("20" of "Courses of 20, 30
    # and 40 hours are available")
    units = {q.start + start: q.unit for q in quantities(answer[start:end])}
    listed = any(
        found and not found[0].unit and units.get(s + found[0].start)
        for (s, _), found in zip(pieces, numbers)
    )
    if (
        len(pieces) < 2
        or not any("and" in m.group().lower() for m in cuts)
        or not all(numbers)
        or not content_words(lead)
        or in_range
        or listed
    ):
        return [("", start, end)]
    facts = [("", *pieces[0])]
    verbs = verb_starts(answer[start:end])
    for (s, e), (previous_start, _), previous_numbers, found in zip(pieces[1:], pieces, numbers, numbers[1:]):
        if found[0].start == 0 or answer[s:e].split()[0].isupper():  # "1.9 kg of salt", "EUR 20"
            # "charged £12 only after a reminder and 14 days ...": "14 days" is no kin of "£12"
            if not hangs_over(
                answer[start:end], previous_start + previous_numbers[0].start - start, s - start
            ):
                return [("", start, end)]
            # what led to the previous fact's number: "The eco programme uses "
            context = facts[-1][0] + answer[previous_start : previous_start + previous_numbers[0].start]
        elif s - start in verbs:  # "uses 120 litres"
            context = _subject_of(lead)
        elif has_verb(answer[s:e]):  # "the cap is EUR 100": a clause of its own
            context = ""
        else:  # "and juniors 8": its verb is the first fact's, which the clause says whole
            return [("", start, end)]
        facts.append((context, s, e))
    return facts


def _subject_of(lead: str) -> str:
    """ "The eco programme " from "The eco programme takes ", "The wash lasts for " or "It is open
    from ": the words before the verb (a common one, else the word that leads to the first number)."""
    tokens = lead.split()
    while tokens and tokens[-1].lower() in STOPWORDS and tokens[-1].lower() not in VERB_CUE:
        tokens.pop()  # "for", "up to", "about"
    verb = next((i for i, t in enumerate(tokens) if i > 0 and t.lower() in VERB_CUE), len(tokens) - 1)
    return " ".join(tokens[:verb]) + " " if verb > 0 else ""


class LLMClaimExtractor(ClaimExtractor):
    """Claims from the LLM (decontextualised, so `text` may differ from the answer's wording), each
    placed on the span of the answer it comes from. On LLM failure the rule-based splitter is used
    and a note says so."""

    name = "llm"

    def __init__(self, llm: LLM, fallback: ClaimExtractor | None = None) -> None:
        self.llm = llm
        self.fallback = fallback or RuleClaimExtractor()

    def extract(self, answer: str, question: str = "") -> list[Claim]:
        return self.extract_with_notes(answer, question)[0]

    def extract_with_notes(self, answer: str, question: str = "") -> tuple[list[Claim], list[str]]:
        by_rules = self.fallback.extract(answer, question)
        if not any(c.checkable for c in by_rules):
            return by_rules, []  # a refusal, a greeting: nothing to ask the LLM about
        try:
            texts = CLAIMS.run(self.llm, question=question, answer=answer).value.claims
        except LLMError as exc:
            return by_rules, [
                f"Claims were split by the rule-based splitter: the LLM claim extractor failed ({exc})."
            ]
        if not texts:
            return by_rules, [
                "The LLM claim extractor found no claims; the rule-based splitter's claims were checked."
            ]
        sentences = split_sentences(answer)
        claims: list[Claim] = []
        left_out: list[str] = []
        for text in texts:
            start, end = _place(text, answer, sentences)
            why = rejected(text, answer, question, answer[start:end])
            if why:
                left_out.append(why)
            else:
                claims.append(in_context(Claim(text, start, end), question))
        # Every part of the answer is checked: where no LLM claim covers a part the rules split, the
        # rules' claim stands (and what they found non-factual stays visible, not checkable).
        uncovered = [c for c in by_rules if not any(k.start < c.end and c.start < k.end for k in claims)]
        notes = []
        if left_out:
            notes.append(
                f"{len(left_out)} claim(s) from the LLM claim extractor were left out, not being claims of "
                f"the answer ({', '.join(dict.fromkeys(left_out))})."
            )
        if any(c.checkable for c in uncovered):
            notes.append(
                f"{sum(c.checkable for c in uncovered)} part(s) of the answer no LLM claim covered were "
                "split by the rule-based splitter."
            )
        return sorted(claims + uncovered, key=lambda c: (c.start, c.end)), notes


def _place(claim: str, answer: str, sentences: list[Span]) -> tuple[int, int]:
    """The claim's span in the answer: where it occurs (exactly or nearly), else the sentence it
    shares most words with."""
    exact = locate(claim, answer)
    if exact:
        return exact
    near = fuzzy_locate(claim, answer, min_ratio=LOCATE_MIN_RATIO)
    if near:
        return near[0], near[1]
    claim_words = set(content_words(claim))
    best = max(sentences, key=lambda s: len(claim_words & set(content_words(s.text))), default=None)
    return (best.start, best.end) if best else (0, len(answer))


CLAIM_EXTRACTORS: Registry[ClaimExtractor] = Registry(
    "claim extractor",
    {
        "rules": lambda settings, llm: RuleClaimExtractor(),
        "llm": lambda settings, llm: LLMClaimExtractor(require_llm(llm, "The LLM claim extractor")),
    },
)
