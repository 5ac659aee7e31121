"""Claims grounded in the answer: placeholders and LLM claims that state nothing of the answer are
rejected, and a fragment answer ("12 hours") is given the subject and predicate of its question
("Passwords must be: 12 hours") so that it is checked as the statement it makes."""

from __future__ import annotations

import re

from rrag.lang.en.function_words import BE
from rrag.lang.en.questions import NO_WORDS, SHORT_ANSWER, YES_NO, YES_WORDS
from rrag.text import content_words, locate, normalize, quantities, words
from rrag.text.clauses import asked_statement, has_subject, is_instruction, main_verbs

VERB_CUE = frozenset(
    """is are was were be been has have had will would can could must may might should shall does do did
    get gets got takes take took gives give gave needs need requires require covers cover includes include
    offers offer provides provide applies apply expires expire starts start ends end
    costs lasts pays opens closes receives approves earns""".split()
)
MAX_FRAGMENT_WORDS = 8  # "The Chief Financial Officer", "12 hours": longer verbless text is a heading or list
# Of an LLM claim's content words, the share found in its sentence of the answer or in the question.
MIN_GROUNDED_SHARE = 0.6

# "...", "[...]", "N/A", "TBD", "-", a bare JSON literal ("true"): text that stands where an answer should be.
_PLACEHOLDER = re.compile(
    r"^[\W_]*(?:n/?a|null|true|false|tbd|tba|todo|unknown|no answer|placeholder|lorem ipsum|etc)?[\W_]*$",
    re.IGNORECASE,
)
# The reply's format without its content: markup echoed from the prompt ("</document><document n="),
# a JSON frame with a lead-in and nothing after it ("} The answer is: {"). Removed before the test above.
_FORMAT_DEBRIS = re.compile(r"</?[A-Za-z][^<>]*>?|^[\W_]*(?:the\s+)?answer\s+is\s*:", re.IGNORECASE)
# A statement about the reply itself ("This is a JSON response to the question."), not about the world.
_META = re.compile(
    r"\bjson\b|^(?:this|it|here|the\s+(?:answer|response|reply|output))\b.*"
    r"\b(?:answer|response|reply|output|question|prompt)s?\b",
    re.IGNORECASE,
)
_WH_IS = re.compile(r"^(how|what|which|who|when|where)['\u2019]s\b", re.IGNORECASE)
_WH_START = re.compile(
    r"^(?:how\s+(?:long|many|much|often|far|old|soon|large|big|high)|how|what|which|who|whom|whose|when|where)\b",
    re.IGNORECASE,
)
_AUXILIARIES = frozenset(
    "is are was were must will shall should can could may might would has have had".split()
)
_DO = frozenset("do does did".split())
_MAIN_VERBS = frozenset("be last cost take pay open close receive approve earn".split())


def has_verb(text: str) -> bool:
    """A verb the cue list knows, a subject's verb the parse finds ("Non-residents pay ...", not
    "e-bikes EUR 35 per day", whose "bikes" an ending would take for a verb) or an instruction's
    ("Call 01632 960555")."""
    return any(t in VERB_CUE for t in words(text)) or has_subject(text) or is_instruction(text)


def is_placeholder(text: str) -> bool:
    """Whether `text` is no answer at all: empty, punctuation only ("...", "[...]"), a stand-in ("N/A")
    or the reply's format around nothing ("} The answer is: {")."""
    return bool(_PLACEHOLDER.match(_FORMAT_DEBRIS.sub(" ", text).strip()))


def is_fragment(text: str) -> bool:
    """A short piece with no verb ("12 hours", "The Chief Financial Officer."): no statement alone."""
    return 0 < len(words(text)) <= MAX_FRAGMENT_WORDS and not has_verb(text)


def is_reply(text: str) -> bool:
    """A bare "yes" or "no", or a short answer ("they do", "it isn't"): no statement until said with
    its question."""
    said = words(text)
    return (len(said) == 1 and said[0] in YES_WORDS | NO_WORDS) or bool(SHORT_ANSWER.fullmatch(text.strip()))


def _denies(reply: str) -> bool:
    short = SHORT_ANSWER.fullmatch(reply.strip())
    return bool(short.group("not") or short.group("cannot")) if short else words(reply)[0] in NO_WORDS


def with_question(fragment: str, question: str) -> str | None:
    """The statement a fragment answer makes to a wh-question, in the question's words: "How long
    must passwords be?" + "12 hours" -> "Passwords must be: 12 hours"; "Who approves refunds?" +
    "The CFO" -> "The CFO approves refunds"; and a yes or a no to a yes-no question: "Do charities get
    a discount?" + "No." -> "Charities do not get a discount.". None when the question is not one it
    can turn round."""
    if is_reply(fragment):
        return asked_statement(question, denied=_denies(fragment)) if YES_NO.match(question) else None
    question = _WH_IS.sub(r"\1 is", question.strip())  # "What's the fee?": "What is the fee?"
    asked = question.rstrip("?").strip()
    wh = _WH_START.match(asked)
    if not wh or not fragment.strip() or _names_what_was_asked(fragment, question):
        return None
    rest = asked[wh.end() :].split()
    aux = next((i for i, w in enumerate(rest) if w.lower() in _AUXILIARIES | _DO), None)
    if aux is None:  # the subject was asked for: "Who approves refunds?"
        return f"{fragment.strip().rstrip('.!;,')} {' '.join(rest)}." if rest else None
    asked_for, verb, after = rest[:aux], rest[aux], rest[aux + 1 :]
    # The subject runs up to the main verb: "must [security incidents] be reported", "can [I] keep".
    verbs = main_verbs(question, participles=verb.lower() in BE)
    main = next(
        (i for i, w in enumerate(after) if i > 0 and (_is_main_verb(w.lower()) or w.lower() in verbs)),
        len(after),
    )
    subject, predicate = after[:main], _without_do(verb, after[main:])
    if subject and subject[-1].lower() == "not":  # "What does the warranty not cover?": "does not cover"
        subject, predicate = subject[:-1], [verb, "not", *after[main:]]
    if not subject:
        return None
    statement = " ".join([*subject, *predicate, *asked_for])  # "Employees get days of leave"
    return f"{statement[0].upper()}{statement[1:]}: {fragment}"  # ends with the answer's own words


def _names_what_was_asked(fragment: str, question: str) -> bool:
    """Whether `fragment` is a labelled value whose label names what the question asks about: "Riverside
    Park: 24 docks" says it of Riverside Park ("At Riverside Park are docks: Riverside Park: 24 docks"
    says it twice)."""
    labelled = _LABELLED.match(fragment)
    return labelled is not None and bool(
        set(content_words(labelled.group("label"))) & set(content_words(question))
    )


_LABELLED = re.compile(r"\s*(?P<label>[^:]{1,60}):\s*\S")


def _without_do(auxiliary: str, predicate: list[str]) -> list[str]:
    """The predicate said without the question's "do": "does [the library] open" -> "opens", "do
    [employees] get" -> "get"; another auxiliary stays where it stood ("must be"), and so does "did"
    ("did open"): a past form is no suffix away."""
    aux = auxiliary.lower()
    if aux == "does" and predicate:
        return [_third_person(predicate[0]), *predicate[1:]]
    return predicate if aux == "do" else [auxiliary, *predicate]


def _third_person(verb: str) -> str:
    """ "open" -> "opens", "reach" -> "reaches", "apply" -> "applies", "have" -> "has"."""
    if verb.lower() == "have":
        return verb[:-2] + "s"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _is_main_verb(word: str) -> bool:
    return word in VERB_CUE or word in _MAIN_VERBS or (len(word) > 4 and word.endswith("ed"))


def rejected(claim: str, answer: str, question: str, sentence: str) -> str:
    """Why an LLM-extracted `claim` is not a claim of `answer` ("" when it is one); `sentence` is the
    answer's sentence it was placed on."""
    if is_placeholder(claim):
        return "a placeholder"
    if claim.rstrip().endswith("?") or normalize(claim, punctuation=False) == normalize(
        question, punctuation=False
    ):
        return "a question"
    if _META.search(claim) and not locate(claim, answer):
        return "a remark about the reply"
    claim_words = set(content_words(claim))
    if claim_words and claim_words <= set(content_words(question)) and not locate(claim, answer):
        return "an echo of the question"
    answered = {q.value for q in quantities(answer)}
    if any(q.value not in answered for q in quantities(claim)):
        return "a number the answer does not state"
    grounded = claim_words & (set(content_words(sentence)) | set(content_words(question)))
    if claim_words and len(grounded) < MIN_GROUNDED_SHARE * len(claim_words):
        return "not in the answer"
    return ""
