"""The question-passage model: P(this passage answers this question), one learned judgment that
reranks the retrieved candidates, decides that nothing retrieved answers a question (or that nothing
clearly does: the answer is flagged), and keeps the conflict finder to sentences about what was asked.

A cross-encoder over "[CLS] question [SEP] passage [SEP]": the judge's mean-pooled MiniLM architecture
with its own weights, trained on SQuAD 2.0's answerable and unanswerable questions with passages of
the same article as hard negatives (training/train_qa.py), shipped as int8 ONNX with its tokenizer.
A passage is a window of consecutive sentences of a chunk (`windows`), the unit it was trained on; a
chunk is read by its window sharing most of the question's words, shorter at run time (READ_WORDS).

Runs with onnxruntime + tokenizers + numpy only, and never downloads anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from rrag.backends.onnx import cpu_session, model_file_for_this_cpu
from rrag.errors import ConfigError
from rrag.text import chunk_sentences, content_words, words

MODEL_DIR = Path(__file__).resolve().parent / "models"
MODEL_FILE = "qa-minilm-l6-int8.onnx"
# The same weights as uint8, for CPUs whose int8 kernels saturate (x86-64 without VNNI); slower than
# MODEL_FILE where that is exact (docs/log/2026-11-29-reranking-on-two-cores.md).
PORTABLE_MODEL_FILE = "qa-minilm-l6-uint8.onnx"
TOKENIZER_FILE = "qa-tokenizer.json"
MAX_PAIR_TOKENS = 128  # what it was trained on
WINDOW_WORDS = 60  # a window packs whole sentences up to this many words (a longer sentence stands alone)
# At run time a chunk is read by its one window of at most READ_WORDS sharing most of the question's
# words: the model's time grows with the tokens it reads (reranking reads 10 chunks), and on the
# held-out article such windows separate answering paragraphs from the rest at least as well as two
# of the 60-word windows it was trained on (ROC AUC 0.845 against 0.838, question by question;
# docs/log/2026-11-29-the-question-passage-model-reads-45-articles.md).
READ_WORDS = 30


@dataclass(frozen=True)
class Window:
    text: str
    start: int  # offsets into the chunk's text
    end: int


def windows(text: str, max_words: int = WINDOW_WORDS) -> list[Window]:
    """Consecutive sentences of `text` packed into windows of at most `max_words` words, each window
    starting one sentence after the last one's start (so every sentence leads a window once and a
    fact spread over two sentences is read together)."""
    spans = chunk_sentences(text)
    out = []
    for first in range(len(spans)):
        last, count = first, len(words(spans[first].text))
        while last + 1 < len(spans) and count + len(words(spans[last + 1].text)) <= max_words:
            last += 1
            count += len(words(spans[last].text))
        out.append(Window(text[spans[first].start : spans[last].end], spans[first].start, spans[last].end))
        if last == len(spans) - 1:
            break  # the rest is inside this window
    return out


class QuestionPassageModel:
    """P(answers) for (question, passage) pairs. Each pair runs on its own, as the verifier's judge's
    do: int8 activations are quantised per tensor, so batch mates would move a pair's score."""

    def __init__(self, model_dir: Path = MODEL_DIR, threads: int = 2, model_file: str | None = None) -> None:
        from tokenizers import Tokenizer

        model_file = model_file or model_file_for_this_cpu(model_dir, MODEL_FILE, PORTABLE_MODEL_FILE)
        model_path, tokenizer_path = model_dir / model_file, model_dir / TOKENIZER_FILE
        if not model_path.is_file() or not tokenizer_path.is_file():
            raise ConfigError(
                f"the question-passage model is missing from {model_dir} (expected {model_file})"
            )
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(MAX_PAIR_TOKENS, strategy="only_second")
        self._session = cpu_session(model_path, 1)
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="qa") if threads > 1 else None

    def scores(self, question: str, passages: Sequence[str]) -> np.ndarray:
        """P(answers) of each passage for `question`, in order."""
        if self._pool is None:
            return np.array([self._score(question, p) for p in passages], dtype=np.float32)
        return np.array(list(self._pool.map(lambda p: self._score(question, p), passages)), dtype=np.float32)

    @lru_cache(maxsize=8192)  # noqa: B019 (one shared model: shared_model)
    def _score(self, question: str, passage: str) -> float:
        encoding = self._tokenizer.encode(question, passage)
        feed = {
            "input_ids": np.array([encoding.ids], dtype=np.int64),
            "attention_mask": np.ones((1, len(encoding.ids)), dtype=np.int64),
            "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
        }
        logit = float(self._session.run(["logits"], feed)[0][0][0])
        return 1.0 / (1.0 + np.exp(-logit))

    def best_windows(self, question: str, texts: Sequence[str]) -> list[tuple[float, Window | None]]:
        """For each text (a chunk), its window of at most READ_WORDS words sharing most of the question's
        words, with that window's P(answers); (0.0, None) for a text without sentences. One window a
        text: the model's time grows with the pairs, and a window sharing fewer of the question's
        words seldom answers."""
        asked = set(content_words(question))
        read = [_most_shared(asked, windows(text, READ_WORDS)) for text in texts]
        scored = iter(self.scores(question, [w.text for w in read if w is not None]))
        return [(float(next(scored)), w) if w is not None else (0.0, None) for w in read]


def _most_shared(asked: set[str], ws: list[Window]) -> Window | None:
    """The first of the windows sharing most of `asked`."""
    return min(ws, key=lambda w: -len(asked & set(content_words(w.text))), default=None)


@lru_cache(maxsize=1)
def shared_model() -> QuestionPassageModel:
    """One model per process: every stage and every engine share its session and its cache."""
    return QuestionPassageModel()
