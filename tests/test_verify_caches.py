"""Verification throughput: evidence windows and tokens are computed once per chunk, and change nothing."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import rrag
from rrag.text import clear_caches, quantities, values
from rrag.text.reading import read
from rrag.types import Chunk, Claim, ClaimResult, ClaimStatus, RetrievedChunk
from rrag.verify import lexical
from rrag.verify.conflicts import flag_conflicts
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.nli import NLIVerifier, chunk_windows, shared_encoder

CONTEXT = RetrievedChunk(
    Chunk(
        "c:0",
        "c",
        "c.txt",
        "Employees receive 25 days of annual leave. Unused days expire in March. "
        "Managers approve leave requests within five working days.",
        0,
        140,
        None,
        0,
    ),
    score=0.9,
)


def test_pair_tokens_are_what_the_tokenizer_gives_the_pair() -> None:
    encoder = shared_encoder()
    pairs = [
        ("Employees receive 25 days of annual leave.", "Staff get 25 days off."),
        ('Ünïcode — “quotes” and 3.5% rates, e.g. {"json": [1, 2]}', "The rate is 3.5%."),
        ("word " * 600, "A claim after an evidence window over the model's limit."),
    ]
    for evidence, claim in pairs:
        expected = encoder._tokenizer.encode(evidence, claim)
        assert encoder.pair_tokens(evidence, claim) == (expected.ids, expected.type_ids)


def test_windows_are_computed_once_per_chunk_and_verdicts_do_not_depend_on_it() -> None:
    verifier = NLIVerifier()
    claims = [
        Claim("Employees receive 30 days of annual leave.", 0, 42),
        Claim("Managers approve leave.", 43, 66),
    ]
    clear_caches()
    cold = verifier.verify_many(claims, [CONTEXT])
    misses = chunk_windows.cache_info().misses
    warm = verifier.verify_many(claims, [CONTEXT])
    assert chunk_windows.cache_info().misses == misses == 1 and chunk_windows.cache_info().hits >= 1
    assert warm == cold


def test_the_guard_reads_the_rules_the_model_already_ran() -> None:
    """The guard reads the rules first, the model uses their verdict on each sentence of the claims
    left open as a feature: one judgement per sentence and chunks serves both, and the verdicts are
    those of a fresh run."""
    guarded = GuardedVerifier(NLIVerifier())
    claims = [
        Claim("Employees receive 30 days of annual leave. Unused days expire in March.", 0, 71),
        Claim("Managers approve leave.", 72, 95),
    ]
    clear_caches()
    cold = guarded.verify_many(claims, [CONTEXT])
    info = lexical.assessed.cache_info()
    # Three sentences judged once; the value clash settles the first claim before the model (measured
    # precise, it is hard evidence), and the model reads the rules' verdict of the sentence left open
    # again, from the cache.
    assert (info.misses, info.hits) == (3, 1)
    assert cold[0].status is ClaimStatus.CONTRADICTED  # 30 days where the documents say 25
    clear_caches()
    assert guarded.verify_many(claims, [CONTEXT]) == cold


def test_each_text_is_read_for_values_once_and_clear_caches_forgets_it() -> None:
    """The rules and then the conflict finder read the values of every sentence of every chunk; each
    text is read once, its reading shared, and `clear_caches` (the benchmark's cold runs) forgets
    them."""
    verifier = GuardedVerifier(NLIVerifier())
    claims = [
        Claim("Employees receive 30 days of annual leave.", 0, 42),
        Claim("Leave expires in May.", 43, 64),
    ]

    def audit() -> list[ClaimResult]:
        verdicts = verifier.verify_many(claims, [CONTEXT])
        return flag_conflicts([ClaimResult(c, v) for c, v in zip(claims, verdicts)], [CONTEXT])

    audit()
    clear_caches()
    assert quantities.cache_info().currsize == values.cache_info().currsize == 0
    cold = audit()
    for cache in (quantities, values):
        info = cache.cache_info()
        assert info.misses == info.currsize > 0  # each text read once ...
    assert read.cache_info().hits > 0  # ... and its reading shared (rrag.text.read)
    assert audit() == cold


def test_an_answer_that_states_no_value_leaves_the_retrieved_sentences_unread() -> None:
    """The conflict finder compares values: where no claim states one, it reads no chunk for them."""
    claims = [Claim("Managers approve leave requests.", 0, 32)]
    verdicts = GuardedVerifier(NLIVerifier()).verify_many(claims, [CONTEXT])
    results = [ClaimResult(c, v) for c, v in zip(claims, verdicts)]
    clear_caches()
    assert flag_conflicts(results, [CONTEXT]) == results
    assert values.cache_info().currsize == 1  # the claim's own, and no sentence of the chunk


# Memos of a word or a pair of words, and loaded data (models, the language identifier): not readings
# of a text (rrag.text.caches).
_MEMOS = {
    "stem",
    "has_digit",
    "kind_of",
    "of_people",
    "another_thing",
    "wordnet",
    "parser",
    "shared_encoder",
    "_identifier",
    "_offline",
    "_lexical_attributes",  # spaCy's readers of an email or web address
}


def test_clear_caches_forgets_every_reading_of_a_text_wherever_it_is_kept() -> None:
    """No cache of a text is kept by hand in a list: a cache that `clear_caches` does not forget fails."""
    for module in pkgutil.walk_packages(rrag.__path__, "rrag."):
        if module.name.split(".")[1] in ("text", "lang", "verify"):
            importlib.import_module(module.name)
    GuardedVerifier(NLIVerifier()).verify_many(
        [Claim("Employees receive 30 days of leave.", 0, 35)], [CONTEXT]
    )
    clear_caches()
    kept = [
        f"{name}.{attr}"
        for name, module in sys.modules.items()
        if name.startswith(("rrag.text", "rrag.lang", "rrag.verify"))
        for owner in (
            module,
            *(v for v in vars(module).values() if isinstance(v, type) and v.__module__ == name),
        )
        for attr, cached in vars(owner).items()
        if hasattr(cached, "cache_clear")
        and not isinstance(cached, type)
        and attr not in _MEMOS
        and cached.cache_info().currsize
    ]
    assert not kept
