"""The eval command: row loading, context chunking, the metrics, and a whole run with a real verifier."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from rrag.errors import ConfigError
from rrag.settings import Settings
from rrag.tools import verifier_eval as ev
from rrag.types import Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier


class WordVerifier(Verifier):
    """Supports a claim exactly when its last word occurs in the context; a real base-class subclass."""

    name = "word"

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        word = claim.text.rstrip(".").split()[-1].lower()
        found = any(word in rc.chunk.text.lower() for rc in contexts)
        status = ClaimStatus.SUPPORTED if found else ClaimStatus.UNSUPPORTED
        return Verdict(status, 0.9, self.name, "word test", support_score=0.9 if found else 0.1)


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _row(i: int, context: str, claim: str, label: str, **extra: object) -> dict:
    return {"id": f"r{i}", "dataset": "toy", "context": context, "claim": claim, "label": label, **extra}


def test_load_rows_names_file_and_line_of_a_bad_row(tmp_path: Path) -> None:
    path = _write(tmp_path / "d.jsonl", [_row(1, "c", "x", "supported"), _row(2, "c", "x", "maybe")])
    with pytest.raises(ConfigError, match=r"d\.jsonl:2"):
        ev.load_rows(path)


def test_long_context_is_chunked_without_losing_any_sentence() -> None:
    sentences = [f"Fact number {i} concerns the river delta and its many birds." for i in range(200)]
    context = " ".join(sentences[:100]) + "\n\n" + " ".join(sentences[100:])
    chunks = ev.context_chunks(context, max_chars=500)
    joined = " ".join(rc.chunk.text for rc in chunks)
    assert len(chunks) > 10
    assert all(len(rc.chunk.text) <= 500 for rc in chunks)
    assert all(s in joined for s in sentences)  # the last sentence of a long document is still checked


def test_balanced_accuracy_and_f1() -> None:
    truth = [True, True, False, False, False, False]
    pred = [True, False, False, False, False, True]
    assert ev.balanced_accuracy(truth, pred) == pytest.approx((1 / 2 + 3 / 4) / 2)
    assert ev.f1(truth, pred) == pytest.approx(2 * 1 / (2 * 1 + 1 + 1))
    assert ev.balanced_accuracy([True, True], [True, False]) is None  # one class only: undefined


def test_macro_f1_and_confusion() -> None:
    truth = ["supported", "unsupported", "contradicted", "contradicted"]
    pred = ["supported", "contradicted", "contradicted", "unsupported"]
    labels = ["supported", "unsupported", "contradicted"]
    assert ev.confusion(truth, pred, labels) == [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    assert ev.macro_f1(truth, pred, labels) == pytest.approx((1.0 + 0.0 + 0.5) / 3)


def test_calibration_error_is_zero_only_when_scores_match_frequencies() -> None:
    assert ev.calibration_error([True, False], [1.0, 0.0]) == pytest.approx(0.0)
    assert ev.calibration_error([True, False], [0.0, 1.0]) == pytest.approx(1.0)
    assert ev.calibration_error([True, False, True, False], [0.55] * 4) == pytest.approx(0.05)


def test_span_f1_counts_characters() -> None:
    row = ev.Row("a", "toy", "", "x" * 20, "unsupported", spans=[(0, 10)], has_spans=True)
    half = ev.Judgement("unsupported", 0.1, [(5, 15)])
    assert ev.span_f1([row], [half]) == pytest.approx(2 * 5 / (2 * 5 + 5 + 5))


def test_wice_groups_score_by_their_best_row() -> None:
    rows = [ev.Row(f"r{i}", "wice", "", "", "supported", group_id="g1") for i in range(3)]
    judgements = [
        ev.Judgement("unsupported", 0.2, []),
        ev.Judgement("supported", 0.9, []),
        ev.Judgement("unsupported", 0.1, []),
    ]
    metrics = ev.dataset_metrics(rows, judgements, 1.0)
    assert metrics["n"] == 1
    assert metrics["calibration_error"] == pytest.approx(0.1)


def test_run_writes_one_prediction_per_row_and_flags_the_wrong_sentence(tmp_path: Path) -> None:
    claim = "The harbour opened in spring. Its lighthouse is painted purple."
    rows = [
        _row(1, "The harbour opened in spring.", "The harbour opened in spring.", "supported", spans=[]),
        _row(
            2,
            "The harbour opened in spring. The lighthouse is white.",
            claim,
            "unsupported",
            spans=[{"start": claim.index("Its"), "end": len(claim), "text": "..."}],
        ),
    ]
    out = tmp_path / "pred.jsonl"
    results = ev.run(
        [_write(tmp_path / "toy.jsonl", rows)], out, "word", Settings(), make=lambda *_: WordVerifier()
    )
    predictions = [json.loads(line) for line in out.read_text().splitlines()]
    assert [p["id"] for p in predictions] == ["r1", "r2"]
    assert [p["label"] for p in predictions] == ["supported", "unsupported"]
    assert predictions[1]["score"] == pytest.approx(0.1)
    toy = results["toy"]
    assert toy["balanced_accuracy"] == 1.0 and toy["response_f1"] == 1.0
    assert toy["span_f1"] == pytest.approx(1.0)  # "Its lighthouse is painted purple." exactly


def test_unknown_verifier_is_a_clear_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "toy.jsonl", [_row(1, "c", "c", "supported")])
    with pytest.raises(ConfigError, match="unknown verifier"):
        ev.run([path], tmp_path / "p.jsonl", "oracle", Settings())


def test_main_prints_the_table_with_the_lexical_verifier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        _row(1, "Paris is the capital of France.", "Paris is the capital of France.", "supported"),
        _row(2, "Paris is the capital of France.", "Berlin hosts the Olympic games.", "unsupported"),
    ]
    path = _write(tmp_path / "toy.jsonl", rows)
    code = ev.main(["--data", str(path), "--out", str(tmp_path / "p.jsonl"), "--verifier", "lexical"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "toy" in printed and "mean BA" in printed
    assert len((tmp_path / "p.jsonl").read_text().splitlines()) == 2


def test_main_reports_a_missing_file_as_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = ev.main(["--data", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "p.jsonl")])
    assert code == 2
    assert "cannot read" in capsys.readouterr().err


def test_workers_share_the_rows_out_and_predict_the_same(tmp_path: Path) -> None:
    claim = "The harbour opened in spring. Its lighthouse is painted purple."
    rows = [
        _row(
            i,
            "The harbour opened in spring. The lighthouse is white.",
            claim if i % 2 else "The harbour opened in spring.",
            "supported",
            spans=[],
        )
        for i in range(2 * ev.WORKER_BATCH + 3)
    ]
    path = _write(tmp_path / "toy.jsonl", rows)
    alone, shared = tmp_path / "alone.jsonl", tmp_path / "shared.jsonl"
    metrics = ev.run([path], alone, "lexical", Settings())
    assert (
        ev.run([path], shared, "lexical", Settings(), workers=2)["toy"]["n"]
        == metrics["toy"]["n"]
        == len(rows)
    )
    assert shared.read_text() == alone.read_text()
    with pytest.raises(ConfigError, match="workers"):
        ev.run([path], alone, "lexical", Settings(), workers=0)


def test_rows_that_name_a_heuristic_are_counted_and_printed_per_heuristic(tmp_path: Path) -> None:
    rows = [  # WordVerifier: supported exactly when the claim's last word is in the context
        _row(
            1,
            "The kettle sat on the stove.",
            "The kettle sat on the stove.",
            "supported",
            heuristic="overlap",
        ),
        _row(
            2,
            "The kettle sat on the stove.",
            "The stove sat on the kettle.",
            "unsupported",
            heuristic="overlap",
        ),
        _row(3, "If it rained, the path flooded.", "The path flooded.", "unsupported", heuristic="clause"),
        _row(4, "The gate was shut.", "The gate was painted.", "unsupported", heuristic="clause"),
        _row(5, "The gate was shut.", "The gate was shut.", "supported"),  # no heuristic: not counted
    ]
    path = _write(tmp_path / "stress.jsonl", rows)
    results = ev.run([path], tmp_path / "p.jsonl", "word", Settings(), make=lambda *_: WordVerifier())
    assert results["toy"]["by_heuristic"] == {
        "overlap": {"entailment": 1, "entailment_right": 1, "non_entailment": 1, "non_entailment_right": 0},
        "clause": {"entailment": 0, "entailment_right": 0, "non_entailment": 2, "non_entailment_right": 1},
    }
    printed = ev.format_table(results)
    assert "toy per heuristic" in printed
    assert [line.split()[:5] for line in printed.splitlines() if line.startswith(("overlap", "clause"))] == [
        ["overlap", "1", "0.0%", "1", "100.0%"],
        ["clause", "2", "50.0%", "0", "-"],
    ]
