"""Long CLI work shows progress on stderr (files or questions, chunks, rate, ETA) and, when
interrupted, says what was done."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rrag.ingest.service import Ingestor
from rrag.tools import question_sets
from rrag.tools.cli import main
from rrag.tools.progress import ProgressLine

TOPICS = ["leave", "passwords", "laptops", "visitors", "parking", "expenses"]


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    for n, topic in enumerate(TOPICS):
        (folder / f"{topic}.txt").write_text(
            f"The {topic} policy, rule {n}: requests about {topic} go to desk {n * 11} on floor {n}.\n",
            encoding="utf-8",
        )
    return folder


def test_progress_lines_count_rate_and_time_left() -> None:
    ticks = iter([0.0, 2.0, 4.0])
    out = io.StringIO()
    bar = ProgressLine("files", stream=out, clock=lambda: next(ticks))
    bar.update(1, 4, "a.txt", chunks=3)
    bar.update(4, 4, "d.txt", chunks=9)
    first, last = out.getvalue().splitlines()
    assert first == "[#####...............] 1/4 files, 3 chunks, 0.5 files/s, ETA 0m06s, a.txt"
    assert last == "[####################] 4/4 files, 9 chunks, 1.0 files/s, took 0m04s, d.txt"


def test_ingest_shows_each_file_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(_corpus(tmp_path / "docs"))]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(TOPICS)
    assert err[0].startswith("[###") and "1/6 files, 1 chunks" in err[0] and "files/s, ETA" in err[0]
    assert "6/6 files, 6 chunks" in err[-1] and "took" in err[-1]


def test_an_interrupted_ingest_says_what_was_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Ingestor.ingest_file
    calls = []

    def ctrl_c_on_the_fourth(self: Ingestor, path: Path, source: str | None = None):  # type: ignore[no-untyped-def]
        calls.append(path)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(self, path, source)

    monkeypatch.setattr(Ingestor, "ingest_file", ctrl_c_on_the_fourth)
    assert main(["ingest", str(_corpus(tmp_path / "docs"))]) == 130
    err = capsys.readouterr().err
    assert "interrupted after" in err and "3 of 6 files done. 3 added; 3 chunks added." in err
    assert "run the same command again" in err
    assert main(["documents"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3  # what was done is kept


def test_an_interrupted_evaluate_says_what_was_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["ingest", str(_corpus(tmp_path / "docs"))]) == 0
    questions = tmp_path / "questions.csv"
    questions.write_text(
        "question\n" + "".join(f"Where do {t} requests go?\n" for t in TOPICS), encoding="utf-8"
    )
    real = question_sets.measure
    measured = []

    def ctrl_c_on_the_third(item, report):  # type: ignore[no-untyped-def]
        measured.append(item)
        if len(measured) == 3:
            raise KeyboardInterrupt
        return real(item, report)

    monkeypatch.setattr(question_sets, "measure", ctrl_c_on_the_third)
    capsys.readouterr()
    assert main(["evaluate", str(questions)]) == 130
    err = capsys.readouterr().err
    assert "2/6 questions" in err and "ETA" in err
    assert "interrupted after" in err and "2 of 6 questions done. The run was not saved" in err
