"""The shipped offline verifier: evidence windows, a fine-tuned MiniLM cross-encoder, a calibrated combiner.

Steps for each claim:
 1. split the claim into its checkable sentences;
 2. split every context chunk into sentences and two-sentence windows, and keep the window (or the
    `windows_per_sentence` windows) that covers most of the sentence's rare content words (the
    whole context is searched, never cut);
 3. the cross-encoder (ONNX, int8) gives P(entailment, neutral, contradiction) for each kept window;
 4. a logistic model over the judge's output and cheap signals (coverage, numbers, entities,
    negation, and the rule-based LexicalVerifier's verdict) gives each sentence P(supported), at
    least RECORD_STATED_P where a retrieved JSON record states the sentence (records.record_support);
 5. a second small logistic model turns the sentences' probabilities (weakest, mean, count) into
    the claim's P(supported), and a fixed threshold chosen by group cross-validation decides.

Runs with onnxruntime + tokenizers + numpy only, and never downloads anything.
"""

from __future__ import annotations

import heapq
import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from rrag.backends.onnx import cpu_session, model_file_for_this_cpu
from rrag.errors import ConfigError
from rrag.settings import Settings
from rrag.text import Span, chunk_sentences, content_words, words
from rrag.text.caches import per_text
from rrag.text.reading import read
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, ValueClash, Verdict
from rrag.verify import features as fx
from rrag.verify.base import Verifier
from rrag.verify.counterfactual import Confirmed, Counterfactuals, counterfactuals, written_alike
from rrag.verify.evidence import evidence_at, nothing_retrieved
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.rules.compared import Statement, names_every_row, of_the_named_row, row_terms
from rrag.verify.rules.records import record_support

MODEL_DIR = Path(__file__).resolve().parent / "models"
MODEL_FILE = "nli-minilm-l6-int8.onnx"
# The same weights as uint8, for CPUs whose int8 kernels saturate (x86-64 without VNNI): exact there,
# half as fast again as MODEL_FILE where that is exact (training/portable_int8.py; measured in
# docs/log/2026-11-22-the-judge-the-guard-and-the-checklist-first-measured.md).
PORTABLE_MODEL_FILE = "nli-minilm-l6-uint8.onnx"
TOKENIZER_FILE = "tokenizer.json"
CALIBRATOR_FILE = "nli-calibrator.json"
LABELS = ("entailment", "neutral", "contradiction")
# One window per claim sentence: judging the next best ones too cost twice the model time for the
# same accuracy (group-CV mean BA 68.7-68.9 with one, two or three windows; measured in
# docs/log/2026-11-22-the-judge-the-guard-and-the-checklist-first-measured.md).
DEFAULT_WINDOWS_PER_SENTENCE = 1
# The model's limit. Windows are at most 56 words, but a word of JSON or a table can be several
# tokens: at 192, 13 % of the dev pairs (RAGTruth data-to-text records) lost the end of their window.
MAX_PAIR_TOKENS = 512
CHUNK_CACHE_SIZE = 4096  # chunks whose windows and window tokens are kept
# A sentence feature, outside the combiner: 1.0 where the retrieved records state the sentence, which
# then is as likely supported as a sentence the judge is sure of (`with_records`).
RECORD_STATED = "record_stated"
RECORD_STATED_P = 0.95


class CrossEncoder:
    """P(entailment, neutral, contradiction) for (evidence, claim) pairs, with onnxruntime on CPU."""

    def __init__(self, model_dir: Path = MODEL_DIR, threads: int = 2, model_file: str | None = None) -> None:
        from tokenizers import Tokenizer

        model_file = model_file or model_file_for_this_cpu(model_dir, MODEL_FILE, PORTABLE_MODEL_FILE)
        model_path, tokenizer_path = model_dir / model_file, model_dir / TOKENIZER_FILE
        if not model_path.is_file() or not tokenizer_path.is_file():
            raise ConfigError(f"the NLI model is missing from {model_dir} (expected {model_file})")
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(MAX_PAIR_TOKENS, strategy="longest_first")
        cls, sep = self._tokenizer.token_to_id("[CLS]"), self._tokenizer.token_to_id("[SEP]")
        if cls is None or sep is None:
            raise ConfigError(f"{tokenizer_path} has no [CLS] or [SEP] token: not the verifier's tokenizer")
        self._cls, self._sep = cls, sep
        # A lone pair runs on all `threads` cores (1.5x as fast as on one at 84 tokens); several run side
        # by side, one core each (about 1.6x as fast as one after another on both: a pair of a hundred
        # tokens keeps a second intra-op thread mostly waiting). The probabilities are the same
        # either way: the int8 products are exact.
        self._sessions = {n: cpu_session(model_path, n) for n in {1, threads}}
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="nli") if threads > 1 else None
        self._threads = threads

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Rows of probabilities in LABELS order.

        Each pair runs on its own: the int8 model quantises activations per tensor, so batch mates
        and their padding would move a pair's probabilities (by up to 0.19), and a claim's verdict
        must not depend on the claims checked beside it. Batching buys no speed here: the model's
        time grows with the tokens either way."""
        return self.start(pairs)()

    def start(self, pairs: Sequence[tuple[str, str]]) -> Callable[[], np.ndarray]:
        """`predict`, begun on the encoder's threads while the caller goes on (their onnxruntime runs
        release the interpreter); calling the result waits for the probabilities. A pair asked twice
        is judged once."""
        distinct = list(dict.fromkeys(pairs))
        tokens = [self.pair_tokens(evidence, claim) for evidence, claim in distinct]
        pool = self._pool if len(tokens) > 1 else None  # a lone pair runs on all the threads
        futures = [pool.submit(self._probabilities, t, 1) for t in tokens] if pool else []

        def probabilities() -> np.ndarray:
            rows = [f.result() for f in futures] or [self._probabilities(t, self._threads) for t in tokens]
            of = dict(zip(distinct, rows))
            return np.array([of[pair] for pair in pairs], dtype=np.float32).reshape(len(pairs), 3)

        return probabilities

    def _probabilities(self, tokens: tuple[list[int], list[int]], threads: int) -> np.ndarray:
        ids, type_ids = tokens
        feed = {
            "input_ids": np.array([ids], dtype=np.int64),
            "attention_mask": np.ones((1, len(ids)), dtype=np.int64),
            "token_type_ids": np.array([type_ids], dtype=np.int64),
        }
        logits = self._sessions[threads].run(["logits"], feed)[0][0]
        exp = np.exp(logits - logits.max())
        return exp / exp.sum()

    def pair_tokens(self, evidence: str, claim: str) -> tuple[list[int], list[int]]:
        """Token ids and segment ids of `[CLS] evidence [SEP] claim [SEP]`, from each text's cached
        tokens (an evidence window is read again for every claim); a pair over the model's limit goes
        through the tokenizer's own truncation."""
        first, second = self._tokens(evidence), self._tokens(claim)
        if len(first) + len(second) + 3 > MAX_PAIR_TOKENS:
            encoding = self._tokenizer.encode(evidence, claim)
            return encoding.ids, encoding.type_ids
        return (
            [self._cls, *first, self._sep, *second, self._sep],
            [0] * (len(first) + 2) + [1] * (len(second) + 1),
        )

    @per_text(maxsize=8 * CHUNK_CACHE_SIZE)  # encoders are few and shared (shared_encoder)
    def _tokens(self, text: str) -> tuple[int, ...]:
        return tuple(self._tokenizer.encode(text, add_special_tokens=False).ids)


@dataclass(frozen=True)
class Calibrator:
    """Logistic regression over named features, plus the decision thresholds, from nli-calibrator.json."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float  # P(supported) at or above which a claim is supported
    contradiction_threshold: float  # P(contradiction) of the deciding window that marks "contradicted"
    aggregate_weights: np.ndarray  # over aggregate_features() of the claim's sentence probabilities
    aggregate_bias: float

    @classmethod
    def load(cls, path: Path) -> Calibrator:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(
                tuple(data["features"]),
                np.array(data["mean"]),
                np.array(data["scale"]),
                np.array(data["weights"]),
                float(data["bias"]),
                float(data["threshold"]),
                float(data["contradiction_threshold"]),
                np.array(data["aggregate_weights"]),
                float(data["aggregate_bias"]),
            )
        except (OSError, ValueError, KeyError) as exc:
            raise ConfigError(f"cannot read the NLI calibrator {path}: {exc}") from exc

    def probability(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        x = np.array([[row[name] for name in self.features] for row in rows])
        # Row by row: a matrix product may sum in another order for another number of rows, and a
        # sentence's probability must not depend on the sentences scored beside it.
        z = np.array([np.dot((row - self.mean) / self.scale, self.weights) for row in x]) + self.bias
        return with_records(1.0 / (1.0 + np.exp(-z)), rows)

    def claim_probability(self, sentence_probabilities: Sequence[float]) -> float:
        x = aggregate_features(sentence_probabilities)
        z = float(np.dot(x, self.aggregate_weights)) + self.aggregate_bias
        return 1.0 / (1.0 + math.exp(-z))


def with_records(probabilities: np.ndarray, rows: Sequence[dict[str, float]]) -> np.ndarray:
    """The sentences' P(supported), at least RECORD_STATED_P where the retrieved records state the
    sentence (records.record_support): the judge, trained on prose, cannot read a JSON record's
    `"OutdoorSeating": true` as "offers outdoor seating" (P 0.13-0.53 for such sentences)."""
    stated = np.array([row.get(RECORD_STATED, 0.0) > 0 for row in rows], dtype=bool)
    return np.where(stated, np.maximum(probabilities, RECORD_STATED_P), probabilities)


def aggregate_features(sentence_probabilities: Sequence[float]) -> list[float]:
    """What decides a claim from its sentences: the weakest (and second weakest) sentence, the mean,
    how many there are, and the share that fall short; long answers almost always have one weak
    sentence, so the weakest alone flags too many of them."""
    logits = sorted(_logit(p) for p in sentence_probabilities)
    return [
        logits[0],
        sum(logits) / len(logits),
        math.log(len(logits)),
        logits[min(1, len(logits) - 1)],
        sum(p < 0.5 for p in sentence_probabilities) / len(logits),
    ]


@dataclass(frozen=True)
class _Window:
    chunk: Chunk
    span: Span
    terms: frozenset[str]
    rows: tuple[frozenset[str], ...] = ()  # the terms of the names of the table rows it holds


@dataclass
class SentenceScore:
    """The judgement of one claim sentence: its features and the windows that decided it."""

    span: Span  # offsets in the claim text
    features: dict[str, float]
    support_window: _Window | None  # most entailing window
    contra_window: _Window | None  # most contradicting window
    probability: float = 0.0
    # A value or name of the sentence its best window gives otherwise, as the judge confirms
    # (counterfactual.py), with that window.
    counterfactual: tuple[Confirmed, _Window] | None = None


@per_text(maxsize=CHUNK_CACHE_SIZE)  # the same chunks come back for claim after claim, answer after answer
def chunk_windows(chunk: Chunk) -> tuple[_Window, ...]:
    """The evidence windows of one chunk with their content words, computed once per chunk."""
    return tuple(
        _Window(chunk, span, frozenset(content_words(span.text)), row_terms(span.text))
        for span in fx.windows(chunk.text)
    )


@per_text(maxsize=CHUNK_CACHE_SIZE)
def chunk_numbers(text: str) -> frozenset[float]:
    """The numbers a chunk states, read sentence by sentence and in the text between sentences (a list
    item's number): the rules and the conflict finder parse the same sentences (cached), so the chunk
    is not parsed a second time whole. The same numbers as parsing it whole (6,373 dev and benchmark
    chunks checked)."""
    sentences = chunk_sentences(text)
    cuts = [0, *(at for s in sentences for at in (s.start, s.end)), len(text)]
    between = [text[start:end] for start, end in zip(cuts[::2], cuts[1::2])]
    return frozenset(n for part in (*between, *(s.text for s in sentences)) for n in read(part).numbers)


class _ContextIndex:
    """Sentence windows of every chunk, with the term statistics the cheap signals need. The windows
    and their weights pick the judge's pairs; the rest is read while the judge runs, and the
    numbers only for a claim that has some."""

    def __init__(self, contexts: Sequence[RetrievedChunk]) -> None:
        self.windows = [window for rc in contexts for window in chunk_windows(rc.chunk)]
        self.weight = fx.TermWeights(w.terms for w in self.windows)
        self._texts = [rc.chunk.text for rc in contexts]

    # Unions of what each chunk holds (cached per chunk text), not one pass over all of them joined.
    @cached_property
    def terms(self) -> set[str]:
        return set().union(*map(content_words, self._texts))

    @cached_property
    def numbers(self) -> set[float]:
        return set().union(*map(chunk_numbers, self._texts))

    @cached_property
    def record_share(self) -> float:
        return fx.record_share(self._texts)

    @cached_property
    def lower_words(self) -> set[str]:
        return set().union(*map(words, self._texts))

    def candidates(self, claim: str, claim_terms: Sequence[str], k: int) -> list[_Window]:
        coverage = fx.coverage_of(claim_terms, self.weight)
        # Ties keep the context's order, as sorted() did.
        return heapq.nlargest(
            k, _of_the_named_row(claim, self.windows), key=lambda window: coverage(window.terms)
        )


def _of_the_named_row(claim: str, windows: list[_Window]) -> list[_Window]:
    """The windows the judge may read for `claim`: where it names a row of a table read as sentences,
    no other row's (as the rules read rows: `of_the_named_row`). Shown the FAQ's "a week" or the
    Medium row's "£32", the judge passed "A Small unit costs £32 a week"."""
    c = Statement.of(claim)
    if not any(names_every_row(w.rows, c.terms) for w in windows):
        return windows
    return [windows[i] for i in of_the_named_row(c, [Statement.of(w.span.text) for w in windows])]


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


@lru_cache(maxsize=4)
def shared_encoder(model_dir: Path = MODEL_DIR, threads: int = 2) -> CrossEncoder:
    """One loaded model per process: the engine rebuilds its verifier whenever settings change, and an
    onnxruntime session may be shared across threads."""
    return CrossEncoder(model_dir, threads)


def judge_pairs(pairs: Sequence[tuple[str, str]]) -> np.ndarray:
    """The shipped judge's (entailment, neutral, contradiction) for each (evidence, claim), the model
    loaded on first use: for checks outside a verifier stage (rrag/verify/conflicts.py)."""
    return shared_encoder().predict(pairs)


class NLIVerifier(Verifier):
    name = "nli"

    def __init__(
        self,
        settings: Settings | None = None,
        model_dir: Path = MODEL_DIR,
        windows_per_sentence: int = DEFAULT_WINDOWS_PER_SENTENCE,
        threads: int = 2,
        calibrator: Calibrator | None = None,
        counterfactual: bool = False,
    ) -> None:
        self.settings = settings or Settings()
        # Whether a value or name its evidence gives otherwise is put to the judge both ways (the app's
        # stage does; the judge alone, as measured, does not).
        self.counterfactual = counterfactual
        self.encoder = shared_encoder(model_dir, threads)
        self.calibrator = calibrator or Calibrator.load(model_dir / CALIBRATOR_FILE)
        self.windows_per_sentence = windows_per_sentence
        self.lexical = LexicalVerifier(read_records=False)

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        scored = self.score_sentences([c.text for c in claims], contexts, question)
        return [self.verdict_of(sentences) for sentences in scored]

    def score_sentences(
        self, claims: Sequence[str], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[list[SentenceScore]]:
        """Per claim, the scored checkable sentences (all pairs of all claims go through one batch)."""
        index = _ContextIndex(contexts)
        question_terms = content_words(question)
        plan: list[tuple[SentenceScore, list[_Window], str]] = []
        pairs: list[tuple[str, str]] = []
        result: list[list[SentenceScore]] = []
        for text in claims:
            sentences = []
            for span in fx.claim_sentences(text):
                terms = content_words(span.text)
                # The question narrows the search (an answer often leaves its subject implicit).
                found = index.candidates(span.text, terms + question_terms, self.windows_per_sentence)
                score = SentenceScore(span, {}, None, None)
                # The judge reads the sentence with each value its window states written as the
                # window writes it ("8.5 kg" for "8,500 grams"), and so do the cheap signals.
                as_written = [written_alike(span.text, w.span.text) for w in found]
                plan.append((score, found, as_written[0] if found else span.text))
                pairs.extend(zip((w.span.text for w in found), as_written))
                sentences.append(score)
            result.append(sentences)
        # The counterfactuals of each sentence's first window go to the judge with the rest (a pair
        # both ask is judged once), and all run on its threads while the rules' verdicts are read.
        swapped: list[Counterfactuals | None] = [
            counterfactuals(score.span.text, found[0].span.text, index.terms)
            if self.counterfactual and found
            else None
            for score, found, _ in plan
        ]
        judged_pairs = len(pairs)
        pairs.extend(pair for c in swapped if c is not None for pair in c.pairs)
        judged = self.encoder.start(pairs)
        sentence_claims = [Claim(s.span.text, s.span.start, s.span.end) for s, _, _ in plan]
        texts = [rc.chunk.text for rc in contexts]
        rules = self.lexical.verify_many(sentence_claims, contexts)
        probs = judged()
        row = 0
        for (score, found, said), rule in zip(plan, rules):
            p = probs[row : row + len(found)]
            row += len(found)
            score.features = self._features(said, content_words(said), found, p, index)
            score.features["lexical_support"] = rule.support_score if rule.support_score is not None else 0.5
            score.features["lexical_contradiction"] = float(rule.status is ClaimStatus.CONTRADICTED)
            if found:
                score.support_window = found[int(p[:, 0].argmax())]
                score.contra_window = found[int(p[:, 2].argmax())]
            quote = record_support(score.span.text, texts)
            score.features[RECORD_STATED] = float(quote is not None)
            if quote is not None:  # the record's own words are the evidence
                chunk = contexts[quote.text].chunk
                span = Span(chunk.text[quote.start : quote.end], quote.start, quote.end)
                score.support_window = _Window(chunk, span, frozenset())
        flat = [s for sentences in result for s in sentences]
        for s, prob in zip(flat, self.calibrator.probability([s.features for s in flat])):
            s.probability = float(prob)
        row = judged_pairs
        for (score, found, _), c in zip(plan, swapped):
            if c is None:
                continue
            confirmed = c.confirmed(probs[row : row + len(c.pairs)])
            row += len(c.pairs)
            score.counterfactual = (confirmed, found[0]) if confirmed else None
        return result

    def _features(
        self, text: str, terms: tuple[str, ...], found: list[_Window], p: np.ndarray, index: _ContextIndex
    ) -> dict[str, float]:
        best = int(p[:, 0].argmax()) if len(found) else -1
        entail = float(p[best, 0]) if len(found) else 0.0
        contra_max = float(p[:, 2].max()) if len(found) else 0.0
        claim_numbers = read(text).numbers
        evidence_numbers = {n for w in found for n in read(w.span.text).numbers}
        context_numbers = index.numbers if claim_numbers else set()  # read only where it tells something
        entities = read(text).capitalised
        return {
            "entail_logit": _logit(entail),
            "contra_logit": _logit(contra_max),
            "neutral_at_best": float(p[best, 1]) if len(found) else 1.0,
            "cover_context": fx.weighted_coverage(terms, index.terms, index.weight),
            "cover_window": fx.weighted_coverage(terms, found[0].terms, index.weight) if found else 0.0,
            "numbers": fx.coverage(claim_numbers, context_numbers),
            # A number the context never mentions: 19% of such dev sentences are supported, 64% of the rest.
            "missing_number": float(bool(claim_numbers - context_numbers)),
            # ... and one the evidence windows do not state (the number may sit in an unrelated passage).
            "evidence_missing_number": float(bool(claim_numbers - evidence_numbers)),
            "has_numbers": float(bool(claim_numbers)),
            "entities": fx.coverage(entities, index.lower_words),
            "negation": fx.negation_mismatch(text, found[best].span.text) if found else 0.0,
            "length": math.log1p(len(terms)),
            "first_person": fx.first_person(text),
            # The judge, trained on prose, reads a record's facts weakly (P 0.13-0.53 where it states them).
            "record_context": index.record_share,
        }

    def verdict_of(self, sentences: list[SentenceScore]) -> Verdict:
        """The claim's verdict from its scored sentences (`score_sentences`): contradicted where the
        judge confirms a value or name its evidence gives otherwise, else by the combiner."""
        weakest = min(sentences, key=lambda s: s.probability)
        cal = self.calibrator
        p = cal.claim_probability([s.probability for s in sentences])
        swapped = next((s for s in sentences if s.counterfactual), None)
        if swapped is not None and swapped.counterfactual is not None:
            return self._counterfactual_verdict(swapped.span, *swapped.counterfactual, p)
        contra = 1.0 / (1.0 + math.exp(-weakest.features["contra_logit"]))
        if weakest.support_window is None:
            return nothing_retrieved(self.name)
        window: _Window | None
        if p >= cal.threshold:
            status, window = ClaimStatus.SUPPORTED, weakest.support_window
            reason = f"the context entails it (P(supported)={p:.2f})"
        elif contra >= cal.contradiction_threshold:
            status, window = ClaimStatus.CONTRADICTED, weakest.contra_window
            reason = f"the context contradicts it (P(contradiction)={contra:.2f})"
        else:
            status, window = ClaimStatus.UNSUPPORTED, weakest.support_window
            reason = f"the context does not state it (P(supported)={p:.2f})"
        if len(sentences) > 1:
            reason += f"; decided by its weakest sentence: {weakest.span.text[:80]!r}"
        window = window or weakest.support_window  # both exist whenever a window was scored
        evidence = evidence_at(window.chunk, window.span.start, window.span.end)
        confidence = p if status is ClaimStatus.SUPPORTED else 1.0 - p
        return Verdict(status, confidence, self.name, reason, evidence, support_score=p)

    def _counterfactual_verdict(self, span: Span, found: Confirmed, window: _Window, p: float) -> Verdict:
        """Contradicted, quoting the evidence sentence that gives the value otherwise, with what it says
        instead located in the claim."""
        at = window.chunk.text.find(found.evidence, window.span.start)
        start, end = (at, at + len(found.evidence)) if at >= 0 else (window.span.start, window.span.end)
        swap = found.swap
        clash = ValueClash(swap.said, swap.instead, span.start + swap.start, span.start + swap.end)
        return Verdict(
            ClaimStatus.CONTRADICTED,
            found.swapped_entailment,
            self.name,
            found.reason,
            evidence_at(window.chunk, start, end),
            support_score=min(p, found.claim_entailment),
            clash=clash,
        )
