"""The shipped NLI verifier: it loads offline, orders claims sensibly, and always shows its evidence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rrag.errors import ConfigError
from rrag.text.reading import read
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify import features as fx
from rrag.verify.base import Verifier
from rrag.verify.nli import CALIBRATOR_FILE, MODEL_DIR, NLIVerifier, chunk_numbers

CONTEXT = (
    "The Harbour Museum opened in 1931 in the old customs house. It holds 4,200 maritime objects, "
    "including the figurehead of the schooner Petrel. Admission is free on Sundays."
)


def _ctx(text: str, chunk_id: str = "c1") -> RetrievedChunk:
    return RetrievedChunk(Chunk(chunk_id, "d1", "museum.md", text, 0, len(text)), score=1.0)


def _claim(text: str) -> Claim:
    return Claim(text, 0, len(text))


@pytest.fixture(scope="module")
def verifier() -> NLIVerifier:
    return NLIVerifier()


def test_shipped_model_is_a_verifier_that_needs_no_download(verifier: NLIVerifier) -> None:
    assert isinstance(verifier, Verifier) and verifier.name == "nli"
    assert (MODEL_DIR / CALIBRATOR_FILE).is_file()
    # Two 22 MB copies of the model: int8 weights, and uint8 for CPUs without VNNI (docs/verifier.md).
    assert sum(p.stat().st_size for p in MODEL_DIR.iterdir()) < 50 * 2**20


def test_supported_claim_scores_above_contradicted_and_unrelated(verifier: NLIVerifier) -> None:
    supported, contradicted, unrelated = verifier.verify_many(
        [
            _claim("The Harbour Museum opened in 1931."),
            _claim("The Harbour Museum opened in 1975."),
            _claim("The museum's cafe serves vegan pastries."),
        ],
        [_ctx(CONTEXT)],
    )
    assert supported.support_score > contradicted.support_score
    assert supported.support_score > unrelated.support_score
    assert supported.status is ClaimStatus.SUPPORTED
    assert contradicted.status in (ClaimStatus.CONTRADICTED, ClaimStatus.UNSUPPORTED)
    assert unrelated.status is not ClaimStatus.SUPPORTED


def test_every_verdict_quotes_the_deciding_span_of_its_chunk(verifier: NLIVerifier) -> None:
    verdict = verifier.verify(
        _claim("Entry costs nothing on Sundays."), [_ctx("Unrelated text about tides."), _ctx(CONTEXT, "c2")]
    )
    ev = verdict.evidence
    assert ev is not None and ev.chunk_id == "c2" and ev.source == "museum.md"
    assert CONTEXT[ev.start : ev.end] == ev.quote
    assert "Sundays" in ev.quote
    assert 0.0 <= verdict.confidence <= 1.0 and verdict.verifier == "nli"


def test_a_fact_at_the_end_of_a_long_context_is_found(verifier: NLIVerifier) -> None:
    filler = " ".join(f"Gallery {i} shows paintings of coastal villages in winter light." for i in range(60))
    contexts = [_ctx(filler, "c1"), _ctx(filler + " The figurehead of the Petrel was carved in 1868.", "c2")]
    verdict = verifier.verify(_claim("The Petrel's figurehead was carved in 1868."), contexts)
    assert verdict.status is ClaimStatus.SUPPORTED
    assert verdict.evidence is not None and "1868" in verdict.evidence.quote


def test_the_weakest_sentence_decides_a_multi_sentence_claim(verifier: NLIVerifier) -> None:
    good = "The Harbour Museum opened in 1931."
    both = verifier.verify(_claim(good + " It is closed every Sunday and charges 40 euros."), [_ctx(CONTEXT)])
    alone = verifier.verify(_claim(good), [_ctx(CONTEXT)])
    assert both.support_score < alone.support_score
    assert both.status is not ClaimStatus.SUPPORTED
    assert "weakest sentence" in both.reason


def test_no_context_is_unsupported_not_an_error(verifier: NLIVerifier) -> None:
    verdict = verifier.verify(_claim("The museum opened in 1931."), [])
    assert verdict.status is ClaimStatus.UNSUPPORTED and verdict.support_score == 0.0


def test_missing_model_files_are_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="missing"):
        NLIVerifier(model_dir=tmp_path)


def test_a_broken_calibrator_is_a_config_error(tmp_path: Path) -> None:
    for item in MODEL_DIR.iterdir():
        shutil.copy(item, tmp_path / item.name)
    (tmp_path / CALIBRATOR_FILE).write_text(json.dumps({"features": ["entail_logit"]}))
    with pytest.raises(ConfigError, match="calibrator"):
        NLIVerifier(model_dir=tmp_path)


def test_windows_keep_exact_offsets_and_slice_long_sentences() -> None:
    long_sentence = "Then " + " ".join(f"word{i}" for i in range(150)) + "."
    text = "Short one. Another short one. " + long_sentence
    spans = fx.windows(text, max_words=40)
    assert all(text[s.start : s.end] == s.text for s in spans)
    assert any(s.text == "Short one. Another short one." for s in spans)  # neighbours joined
    assert max(len(s.text.split()) for s in spans) <= 40
    assert any("word149" in s.text for s in spans)  # nothing at the end is dropped


def test_two_rows_of_a_table_are_never_one_window() -> None:
    text = (
        "Collection zones.\n\n"
        "For zone B, the areas are Upper Ashby, Coleford and the collection day is Tuesday.\n\n"
        "For zone C, the areas are Brindle, Hatton Green and the collection day is Thursday."
    )
    spans = [s.text for s in fx.windows(text)]
    assert not any("Coleford" in s and "Thursday" in s for s in spans)  # zone C's day is not Coleford's
    assert any(s.startswith("Collection zones.") and "zone B" in s for s in spans)  # a row and its heading


def test_a_row_is_never_one_window_with_the_text_after_its_table() -> None:
    text = (
        "For Electric (Group E), the daily rate is £55 and the excess is £1,250.\n\n"
        "Excess Reduction cover costs £12 per day."
    )
    spans = [s.text for s in fx.windows(text)]
    assert not any("£55" in s and "£12" in s for s in spans)  # £12 a day is no electric car's rate


def test_claim_sentences_skip_lead_ins_but_never_everything() -> None:
    text = "Based on the passages, here is the answer:\nThe museum opened in 1931. Is it free?"
    assert [s.text for s in fx.claim_sentences(text)] == ["The museum opened in 1931."]
    assert [s.text for s in fx.claim_sentences("Here it is:")] == ["Here it is:"]


def test_weighted_coverage_counts_rare_words_more() -> None:
    weights = fx.TermWeights([["museum", "open"], ["museum", "petrel"], ["museum"]])
    assert fx.weighted_coverage(["museum", "petrel"], {"petrel"}, weights) > 0.5
    assert fx.weighted_coverage(["museum", "petrel"], {"museum"}, weights) < 0.5
    assert fx.weighted_coverage([], set(), weights) == 1.0


def test_a_claims_score_does_not_depend_on_the_claims_checked_beside_it(verifier: NLIVerifier) -> None:
    claim = _claim("The Harbour Museum opened in 1931.")
    beside = _claim(
        "The museum holds thousands of maritime objects, among them the carved figurehead of the "
        "schooner Petrel, and it lets visitors in without charge on Sundays and public holidays."
    )
    alone = verifier.verify(claim, [_ctx(CONTEXT)])
    together = verifier.verify_many([beside, claim], [_ctx(CONTEXT)])[1]
    assert together.support_score == alone.support_score


def test_a_chunks_numbers_read_by_sentence_are_those_of_the_whole_text() -> None:
    text = "Steps:\n1. Submit the form within five days.\n2. Wait 3 days.\n- item 7 costs $2.5 million"
    assert chunk_numbers(text) == read(text).numbers == {1.0, 2.0, 3.0, 5.0, 7.0, 2.5e6}


def test_a_sentence_in_the_speakers_own_words_is_told_apart() -> None:
    for text in ("I love that show.", "We went there in May.", "Tell us more.", "It is mine, I'm sure."):
        assert fx.first_person(text) == 1.0, text
    for text in ("The US economy grew.", "The museum opened in 1931.", "Imports rose."):
        assert fx.first_person(text) == 0.0, text


def test_how_much_of_the_context_is_a_record() -> None:
    record = '{"name": "Harbour Cafe", "OutdoorSeating": true, "hours": {"Monday": "9:0-17:0"}}'
    assert fx.record_share([record]) == 1.0
    assert fx.record_share([CONTEXT]) == 0.0
    assert 0.0 < fx.record_share([record, CONTEXT]) < 1.0
    assert fx.record_share([]) == 0.0


def test_the_combiner_weighs_the_speakers_own_words_down_and_a_record_context_up(
    verifier: NLIVerifier,
) -> None:
    """Dialogue and summary sets label a sentence about its speaker unsupported where the judge
    entails it from the knowledge; the judge, trained on prose, reads a record's facts weakly. Both
    are the combiner's to weigh (a change of the odds well beyond int8 noise; a record context
    multiplies them by about 1.8 with today's judge, by more than 2 with the judge before)."""
    scored = verifier.score_sentences(["The museum holds 4,200 maritime objects."], [_ctx(CONTEXT)])[0][0]
    base = scored.features
    p = verifier.calibrator.probability(
        [base, {**base, "first_person": 1.0}, {**base, "record_context": 1.0}]
    )
    base_odds, speaker_odds, record_odds = p / (1 - p)
    assert speaker_odds < base_odds / 2
    assert record_odds > base_odds * 1.5
