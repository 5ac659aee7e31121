"""Retrieved passages judged by the question-passage model (rrag/backends/question_passage.py): how
likely each one answers the question, reordered by that where the corpus's recall gate passed, and
whether any of them answers at all.

Where nothing retrieved answers the question, the answer is refused and flagged, and the passage that
came closest is kept to show as "closest, does not answer": sharing the question's words (a ship's
name, a product's) is not answering it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rrag.backends.question_passage import QuestionPassageModel, Window
from rrag.lang.detect import foreign_language, language_name
from rrag.retrieval.gate import RERANK_CANDIDATES, RecallGate
from rrag.retrieval.hybrid import HybridRetriever
from rrag.types import RetrievedChunk

# Thresholds on P(answers), derived on the held-out SQuAD article by the rules below, never on our
# question sets (`python -m training.train_qa --export` prints them; figures in
# docs/log/2026-11-29-the-question-passage-model-reads-squads-train-split.md). At or above
# ANSWERS_THRESHOLD a passage answers the question (the most balanced threshold that keeps 80% of the
# answerable questions); below NOT_ANSWERING it does not (at most 0.4% of the answerable questions
# score below it). A question is refused only when no retrieved passage reaches NOT_ANSWERING; where
# the best is between the two, the answer stands and is flagged for review: the model is too weak yet
# to refuse on less (issue 45).
ANSWERS_THRESHOLD = 0.45
NOT_ANSWERING = 0.03
# The conflict finder reads a sentence as about what was asked with more care, a wrong yes being a false
# disagreement: it answers at SURELY_ANSWERS or above (the lowest threshold below which 90% of the
# passages that do not answer fall), and does not below BALANCED (the most balanced threshold).
SURELY_ANSWERS = 0.75
BALANCED = 0.45


@dataclass(frozen=True)
class Judged:
    contexts: list[RetrievedChunk]  # what the answerer reads, best first
    answers: list[float]  # P(answers) of each context's best window
    closest: str  # the best window's text, "" when nothing was retrieved
    retrieval: str  # how the contexts were chosen, for the report's retrieval line
    read: bool = True  # False: the question is in a language the model does not read, so it judged nothing

    @property
    def best(self) -> float:
        return max(self.answers, default=0.0)

    @property
    def answered(self) -> bool:
        return not self.read or self.best >= NOT_ANSWERING

    def review_reason(self) -> str:
        """Why a reviewer should look at the answer: nothing retrieved answers the question (it was
        refused), or nothing clearly does (the model is unsure: the answer stands, flagged); "" else."""
        if not self.read or not self.contexts:
            return ""
        if not self.answered:
            return f"no retrieved passage answers the question (best {self.best:.2f})"
        if self.best < ANSWERS_THRESHOLD:
            return (
                f"no retrieved passage clearly answers the question "
                f"(best {int(self.best * 100) / 100:.2f}, under {ANSWERS_THRESHOLD})"
            )
        return ""

    def closest_note(self) -> str:
        if not self.contexts or self.answered:
            return ""
        source = self.contexts[self.answers.index(self.best)].chunk.source
        return f'Closest passage, does not answer the question ({source}): "{self.closest}"'


def judge(
    model: QuestionPassageModel,
    retriever: HybridRetriever,
    question: str,
    top_k: int,
    gate: RecallGate | None,
) -> Judged:
    """The top_k contexts for `question`: the first stage's RERANK_CANDIDATES reordered by the model
    where `gate` passed, else the first stage's top_k as they come; each with its P(answers). The model
    reads English only: a question in another language gets the first stage's top_k, unjudged."""
    unread = foreign_language(question)
    if unread:
        why = f"the question is in {language_name(unread)}, which the question-passage model does not read"
        return Judged(
            retriever.retrieve(question, top_k), [], "", _retrieval_line(0, top_k, gate, why), read=False
        )
    reranking = gate is not None and gate.passed
    candidates = retriever.retrieve(question, max(RERANK_CANDIDATES, top_k) if reranking else top_k)
    texts = [rc.chunk.text for rc in candidates]
    scored = model.best_windows(question, texts)
    kept = _order(scored, reranking)[:top_k]
    best = max(kept, key=lambda i: scored[i][0], default=None)
    window = scored[best][1] if best is not None else None
    return Judged(
        contexts=[candidates[i] for i in kept],
        answers=[scored[i][0] for i in kept],
        closest=" ".join(window.text.split()) if window is not None else "",
        retrieval=_retrieval_line(len(candidates), top_k, gate),
    )


def rerank(
    model: QuestionPassageModel, question: str, candidates: list[RetrievedChunk]
) -> list[RetrievedChunk]:
    """`candidates` ordered by their best window's P(answers), the first stage breaking ties."""
    scored = model.best_windows(question, [rc.chunk.text for rc in candidates])
    return [candidates[i] for i in _order(scored, True)]


def answers_question(
    model: QuestionPassageModel, question: str
) -> Callable[[Sequence[str]], list[bool | None]]:
    """Whether each passage answers `question`, by the model: True at SURELY_ANSWERS or above, False
    below BALANCED, else None (unsure). For the conflict finder (rrag/verify/conflicts.py): a
    sentence that does not answer the question is no disagreement with the answer."""

    def answers(passages: Sequence[str]) -> list[bool | None]:
        return [
            True if p >= SURELY_ANSWERS else False if p < BALANCED else None
            for p in map(float, model.scores(question, passages))
        ]

    return answers


def _order(scored: list[tuple[float, Window | None]], reranking: bool) -> list[int]:
    order = list(range(len(scored)))
    if reranking:
        order.sort(key=lambda i: -scored[i][0])  # stable: the first stage breaks ties
    return order


def _retrieval_line(candidates: int, top_k: int, gate: RecallGate | None, unjudged: str = "") -> str:
    first = f"hybrid (vector + keyword), top {top_k}"
    if unjudged:
        return f"{first}; not reranked, nor checked for an answer: {unjudged}"
    if gate is None:
        return (
            f"{first}; not reranked: no recall gate measured for this corpus "
            "(evaluate a question set with expected sources to measure it)"
        )
    if not gate.passed:
        return f"{first}; not reranked: recall gate {gate.describe()}"
    return (
        f"top {top_k} of {candidates} hybrid candidates, reranked by the question-passage model; "
        f"recall gate {gate.describe()}"
    )
