"""Tables and review-queue filters, from summaries and reviews of a real temp-dir store."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest
from ui_reports import sample_report

from rrag.audit.corrections import reviewed_queue, reviewed_sessions
from rrag.settings import Settings
from rrag.store import SessionSummary, Store
from rrag.types import ClaimStatus, DocumentInfo, IngestResult, Level
from ui.tables import (
    SORTS,
    QueueFilter,
    document_label,
    documents_table,
    filter_and_sort,
    ingest_table,
    latest_per_question,
    queue_table,
    review_line,
    session_label,
    sessions_table,
    unanswered_questions,
    when,
)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    settings.data_dir.mkdir(parents=True)
    with Store(settings) as store:
        store.save_report(
            sample_report(
                session_id="low" + "0" * 13,
                level=Level.LOW,
                reliability=0.2,
                hallucination_rate=0.8,
                created_at="2026-11-20T08:00:00+00:00",
            )
        )
        store.save_report(
            sample_report(
                session_id="med" + "0" * 13,
                created_at="2026-11-21T08:00:00+00:00",
                status_counts={"supported": 2, "unsupported": 1},
                hallucination_rate=0.33,
                question="Where is the <b>office</b>?",
            )
        )
        store.save_report(
            sample_report(
                session_id="mis" + "0" * 13,
                level=Level.HIGH,
                reliability=0.9,
                hallucination_rate=0.1,
                status_counts={"supported": 3},
                citation_mismatches=1,
                created_at="2026-11-22T08:00:00+00:00",
            )
        )
        yield store


def _ids(summaries: list[SessionSummary]) -> list[str]:
    return [s.session_id[:3] for s in summaries]


def test_when_formats_utc_and_passes_through_garbage() -> None:
    assert when("2026-11-22T10:05:09+00:00") == "2026-11-22 10:05 UTC"
    assert when("yesterday") == "yesterday"


def test_sessions_table_shows_badges_flags_and_review(store: Store) -> None:
    store.add_review("low" + "0" * 13, reviewer="Ann <b>", outcome="escalated", note="ask legal")
    table = sessions_table(reviewed_sessions(store))
    assert list(table["Question"]) == [
        "How much <em>leave</em> do we get?",
        "Where is the <b>office</b>?",
        "How much <em>leave</em> do we get?",
    ]
    low = table.iloc[2]
    assert low["Level"] == "▼ LOW" and low["Decision"] == "✂ Trimmed"
    assert low["Review"] == "⬆ escalated by Ann <b>"
    assert "✖ Contradicted 1" in low["Claims"] and low["Reliability"] == 0.2
    assert table.iloc[0]["Flags"]  # citation mismatch flagged even at HIGH


def test_queue_filters_and_sorts(store: Store) -> None:
    queue = reviewed_queue(store)
    assert _ids(filter_and_sort(queue, QueueFilter(), "Most severe first")) == _ids(queue)
    assert _ids(filter_and_sort(queue, QueueFilter(levels=("LOW",)), "Newest first")) == ["low"]
    assert _ids(filter_and_sort(queue, QueueFilter(contradicted_only=True), "Oldest first")) == ["low"]
    assert _ids(filter_and_sort(queue, QueueFilter(mismatch_only=True), "Newest first")) == ["mis"]
    assert _ids(filter_and_sort(queue, QueueFilter(search="OFFICE"), "Newest first")) == ["med"]
    assert _ids(filter_and_sort(queue, QueueFilter(), "Highest hallucination rate")) == ["low", "med", "mis"]
    assert _ids(filter_and_sort(queue, QueueFilter(), "Lowest reliability")) == ["low", "med", "mis"]
    assert _ids(filter_and_sort(queue, QueueFilter(), "Newest first")) == ["mis", "med", "low"]
    assert set(SORTS) >= {"Most severe first", "Newest first"}


def test_a_question_asked_again_is_one_row_of_the_queue_with_its_count(store: Store) -> None:
    # "low" and "mis" ask the same question (sample_report's), "med" another one.
    queue = filter_and_sort(reviewed_queue(store), QueueFilter(), "Newest first")
    kept, asked = latest_per_question(queue)
    assert _ids(kept) == ["mis", "med"]  # the newest of the two, in the queue's order
    assert asked == {"mis" + "0" * 13: 2, "med" + "0" * 13: 1}
    table = queue_table(kept, asked)
    assert table.set_index("Question")["Asked"].to_dict() == {
        "How much <em>leave</em> do we get?": "2×",
        "Where is the <b>office</b>?": "1×",
    }


def test_review_line_lists_each_change_by_claim_number(store: Store) -> None:
    store.add_review(
        "low" + "0" * 13,
        reviewer="Ann",
        outcome="corrected",
        note="car is real",
        claim_overrides={3: ClaimStatus.SUPPORTED, 2: ClaimStatus.SUPPORTED},
    )
    (record,) = store.reviews("low" + "0" * 13)
    # claim 3 was already supported: no change recorded for it
    assert review_line(record) == (
        f"{when(record.created_at)} · Ann · ✎ corrected · "
        "claim 4: ? Unsupported → ✔ Supported · “car is real”"
    )


def test_ingest_and_documents_tables() -> None:
    results = [
        IngestResult("a.pdf", "d1", "added", 12, 3),
        IngestResult("b.bin", status="failed", error="binary"),
    ]
    table = ingest_table(results)
    assert list(table["Result"]) == ["✔ added", "✖ failed"] and list(table["Error"]) == ["", "binary"]
    docs = documents_table(
        [
            DocumentInfo(
                "d1",
                "a.pdf",
                "f" * 64,
                2048,
                12,
                3,
                "2026-11-22T10:00:00+00:00",
                identity="manuals/a.pdf",
                language="de",
            ),
            DocumentInfo("d2", "b.pdf", "f" * 64, 2048, 12, 3, "2026-11-22T10:00:00+00:00"),  # not detected
        ]
    )
    assert docs.iloc[0].to_dict() == {
        "Document": "a.pdf",
        "Identity": "manuals/a.pdf",
        "Language": "German (de)",
        "Chunks": 12,
        "Near-duplicates dropped": 3,
        "Size (KB)": 2.0,
        "Indexed": "2026-11-22 10:00 UTC",
    }
    assert pd.isna(docs.iloc[1]["Language"])  # shown as the table's "not measured"
    assert list(documents_table([]).columns) == list(docs.columns)
    upload = DocumentInfo("d2", "a.pdf", "f" * 64, 2048, 12, 0, "", identity="sha256:" + "0123456789ab" * 5)
    assert document_label(upload) == "a.pdf (upload, sha256 0123456789ab…)"
    assert (
        document_label(DocumentInfo("d3", "x/a.pdf", "f" * 64, 1, 1, 0, "", identity="x/a.pdf")) == "x/a.pdf"
    )


def test_session_label_is_one_line(store: Store) -> None:
    label = session_label(reviewed_sessions(store)[1])
    assert label == "2026-11-21 08:00 UTC · ✂ Trimmed · ■ MEDIUM · Where is the <b>office</b>?"


def test_unanswered_questions_include_every_refusal_verification_ran_for() -> None:
    def session(n: int, question: str, level: str | None, counts: dict[str, int], decision: str = "refuse"):  # type: ignore[no-untyped-def]
        return {
            "session_id": f"s{n}",
            "created_at": pd.Timestamp(f"2026-11-2{n} 10:00", tz="UTC"),
            "question": question,
            "mode": "ask",
            "decision": decision,
            "level": level,
            "status_counts": counts,
        }

    frame = pd.DataFrame(
        [
            session(1, "Nothing retrieved?", None, {}),
            session(2, "Off the question?", "LOW", {"unsupported": 2}),  # refused with a level
            session(3, "Off the question?", "LOW", {"unsupported": 1}),
            session(4, "Parking?", None, {"supported": 1}),  # quotes beside the question: refused
            session(7, "Parking?", None, {}),
            session(8, "Parking?", None, {}),
            session(5, "Judge down?", None, {"not_verified": 2}),  # verification did not run: unknown
            session(6, "Answered?", "HIGH", {"supported": 2}, decision="pass"),
        ]
    )
    table = unanswered_questions(frame)
    assert table["Question"].tolist() == ["Parking?", "Off the question?", "Nothing retrieved?"]
    assert table["Times asked"].tolist() == [3, 2, 1]
