"""The store on a real SQLite file in tmp and on a real PostgreSQL server (`db_settings`): documents,
reports, reviews, analytics, settings, migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pandas as pd
import pytest
from sqlalchemy import Connection, create_engine, inspect
from sqlalchemy.exc import DBAPIError

import rrag.store
from rrag.audit.corrections import reviewed_records
from rrag.errors import ConfigError, NotFoundError, StoreError
from rrag.settings import Settings
from rrag.store import Store, migrations
from rrag.types import (
    Chunk,
    Claim,
    ClaimResult,
    ClaimStatus,
    Decision,
    DocumentInfo,
    Evidence,
    Level,
    Report,
    RetrievedChunk,
    Verdict,
)
from ui.charts import claims_frame, sessions_frame

S = ClaimStatus
CHECKABLE_WEIGHT = {S.SUPPORTED: 1.0, S.PARTIAL: 0.5}


@pytest.fixture
def store(db_settings: Settings) -> Iterator[Store]:
    with Store(db_settings) as opened:
        yield opened


@contextmanager
def _raw(settings: Settings) -> Iterator[Connection]:
    """A connection of its own to the store's database, as another program would open one."""
    engine = create_engine(settings.sqlalchemy_url)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def _doc(doc_id: str = "doc-1", source: str = "handbook/leave.md", chunks: int = 12) -> DocumentInfo:
    return DocumentInfo(
        doc_id=doc_id,
        source=source,
        sha256="ab" * 32,
        size_bytes=4096,
        chunks=chunks,
        duplicates_dropped=1,
        created_at="2026-11-20T09:00:00+00:00",
        identity=source,
    )


def test_review_outcomes() -> None:  # the package's public names are checked in test_public_api.py
    assert rrag.store.REVIEW_OUTCOMES == ("approved", "corrected", "escalated")


# -- documents -------------------------------------------------------------------------------------


def test_document_round_trip_and_upsert(store: Store) -> None:
    store.save_document(_doc())
    assert store.get_document("doc-1") == _doc()
    store.save_document(_doc(chunks=30))
    assert store.get_document("doc-1").chunks == 30
    assert store.list_documents() == [_doc(chunks=30)]


def test_document_by_identity_and_replacement_of_a_changed_file(store: Store) -> None:
    assert store.get_document_by_identity("handbook/leave.md") is None
    store.save_document(_doc("old"))
    store.save_document(_doc("other", source="handbook/it.md"))
    store.save_document(_doc("new"))  # same identity, new doc_id: replaces the old row
    assert store.get_document_by_identity("handbook/leave.md") == _doc("new")
    assert [d.doc_id for d in store.list_documents()] == ["other", "new"]  # ordered by source
    with pytest.raises(NotFoundError):
        store.get_document("old")


def test_listed_chunks_counts_the_chunks_of_listed_documents_only(store: Store) -> None:
    assert store.listed_chunks() == 0
    store.save_document(_doc(chunks=30))
    store.save_document(_doc("other", source="handbook/it.md", chunks=12))
    store.begin_document("handbook/new.md", "handbook/new.md", "new", writer="host:1")  # not yet listed
    assert store.listed_chunks() == 42 == sum(d.chunks for d in store.list_documents())
    store.begin_delete("other", writer="host:1")  # unlisted while its chunks are deleted
    assert store.listed_chunks() == 30


def test_delete_document(store: Store) -> None:
    store.save_document(_doc())
    store.delete_document("doc-1")
    assert store.list_documents() == []
    with pytest.raises(NotFoundError, match="doc-1"):
        store.delete_document("doc-1")
    with pytest.raises(NotFoundError):
        store.get_document("doc-1")


def test_documents_persist_across_reopen(db_settings: Settings) -> None:
    with Store(db_settings) as first:
        first.save_document(_doc())
    with Store(db_settings) as second:
        assert second.list_documents() == [_doc()]


def test_default_database_is_sqlite_in_wal_mode_under_data_dir(settings: Settings) -> None:
    with Store(settings):
        pass
    db = settings.data_dir / "rrag.db"
    assert db.is_file()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_in_memory_url_works(settings: Settings) -> None:
    with Store(settings.replace(database_url="sqlite://")) as memory:
        memory.save_document(_doc())
        assert memory.list_documents() == [_doc()]


def test_unusable_url_is_a_config_error(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="database_url"):
        Store(settings.replace(database_url="not a url"))
    with pytest.raises(ConfigError, match="database_url"):
        Store(settings.replace(database_url="nosuchdialect://host/db"))


# -- reports ---------------------------------------------------------------------------------------


def _claim(text: str, status: ClaimStatus, *, source: str = "leave.md", offset: int = 0) -> ClaimResult:
    evidence = None
    if status is not S.NOT_CHECKABLE:
        evidence = Evidence(
            chunk_id=f"{source}#0", source=source, quote=text, start=offset, end=offset + len(text)
        )
    return ClaimResult(
        Claim(text, offset, offset + len(text), checkable=status is not S.NOT_CHECKABLE),
        Verdict(
            status=status,
            confidence=0.875,
            verifier="quote",
            reason=f"{status.value} by test",
            evidence=evidence,
        ),
    )


def _report(
    session_id: str,
    statuses: list[ClaimStatus],
    *,
    question: str = "How many days of annual leave do employees get?",
    created_at: str = "2026-11-20T10:00:00+00:00",
    citation_mismatches: int = 0,
    decision: Decision | None = None,
) -> Report:
    """A report scored the way issue 2 defines it, so the flags follow from the claims."""
    claims = [_claim(f"Claim {i} about leave.", status, offset=20 * i) for i, status in enumerate(statuses)]
    checkable = [st for st in statuses if st is not S.NOT_CHECKABLE]
    counts = {st.value: statuses.count(st) for st in S if st in statuses}
    reliability = (
        sum(CHECKABLE_WEIGHT.get(st, 0.0) for st in checkable) / len(checkable) if checkable else None
    )
    rate = (
        sum(st in (S.UNSUPPORTED, S.CONTRADICTED) for st in checkable) / len(checkable) if checkable else None
    )
    level = None
    if reliability is not None:
        level = Level.HIGH if reliability >= 0.85 else Level.MEDIUM if reliability >= 0.65 else Level.LOW
    contradicted = S.CONTRADICTED in statuses
    chunk = Chunk("leave.md#0", "doc-1", "leave.md", "Employees get 25 days of annual leave.", 0, 38, None, 0)
    return Report(
        session_id=session_id,
        question=question,
        answer=" ".join(c.claim.text for c in claims),
        final_answer=" ".join(c.claim.text for c in claims if c.verdict.status is S.SUPPORTED),
        decision=decision
        or {Level.HIGH: Decision.PASS, Level.MEDIUM: Decision.TRIM}.get(level, Decision.REFUSE),
        level=level,
        reliability=reliability,
        hallucination_rate=rate,
        needs_review=contradicted or level is Level.LOW,
        status_counts=counts,
        claims=claims,
        contexts=[RetrievedChunk(chunk, score=0.9123, vector_score=0.8, keyword_score=0.5)],
        timings_ms={"retrieve": 12.5, "verify": 40.0},
        created_at=created_at,
        citation_mismatches=citation_mismatches,
        threshold=0.2,
        review_reasons=["contradicted claim"] if contradicted else [],
    )


GOOD = [S.SUPPORTED, S.SUPPORTED, S.SUPPORTED, S.NOT_CHECKABLE]  # HIGH, not flagged
MIXED = [S.SUPPORTED, S.SUPPORTED, S.SUPPORTED, S.UNSUPPORTED]  # reliability 0.75: MEDIUM
BAD = [S.SUPPORTED, S.UNSUPPORTED, S.UNSUPPORTED]  # LOW
CONTRA = [S.SUPPORTED] * 6 + [S.CONTRADICTED]  # MEDIUM with a contradiction


def test_report_round_trip_is_exact(store: Store) -> None:
    report = _report("s1", [S.SUPPORTED, S.PARTIAL, S.CONTRADICTED, S.NOT_CHECKABLE])
    store.save_report(report)
    loaded = store.get_report("s1")
    assert loaded.to_dict() == report.to_dict()
    assert loaded.claims[2].verdict.status is S.CONTRADICTED
    assert loaded.claims[0].verdict.evidence == report.claims[0].verdict.evidence
    with pytest.raises(NotFoundError, match="nope"):
        store.get_report("nope")


def test_claims_and_verdicts_are_rows_of_their_own(store: Store, db_settings: Settings) -> None:
    store.save_report(_report("s1", [S.SUPPORTED, S.CONTRADICTED]))
    with _raw(db_settings) as raw:
        rows = raw.exec_driver_sql(
            "SELECT c.claim_index, c.text, v.status, v.evidence_source FROM claims c "
            "JOIN verdicts v ON v.claim_id = c.id ORDER BY c.claim_index"
        ).all()
    assert rows == [
        (0, "Claim 0 about leave.", "supported", "leave.md"),
        (1, "Claim 1 about leave.", "contradicted", "leave.md"),
    ]


def test_saving_a_session_twice_is_refused_and_keeps_the_first(store: Store) -> None:
    store.save_report(_report("s1", GOOD))
    with pytest.raises(StoreError, match="already saved"):
        store.save_report(_report("s1", BAD))
    assert store.get_report("s1").to_dict() == _report("s1", GOOD).to_dict()
    assert claims_frame(store.claim_records())["status"].tolist() == [s.value for s in GOOD]


def test_bad_created_at_is_refused_before_writing(store: Store) -> None:
    with pytest.raises(StoreError, match="ISO 8601"):
        store.save_report(_report("s1", GOOD, created_at="yesterday"))
    assert store.list_sessions() == []


def test_summary_fields_and_flags(store: Store) -> None:
    store.save_report(_report("good", GOOD, created_at="2026-11-20T10:00:00+00:00"))
    store.save_report(_report("mixed", MIXED, created_at="2026-11-20T11:00:00+00:00"))
    store.save_report(_report("contra", CONTRA, created_at="2026-11-20T12:00:00+00:00"))
    store.save_report(_report("cite", GOOD, created_at="2026-11-20T13:00:00+00:00", citation_mismatches=2))
    by_id = {s.as_saved.session_id: s.as_saved for s in store.list_sessions()}
    assert [s.as_saved.session_id for s in store.list_sessions()] == [
        "cite",
        "contra",
        "mixed",
        "good",
    ]  # newest first

    good = by_id["good"]
    assert (good.level, good.decision, good.review_status, good.review_reasons) == ("HIGH", "pass", "", [])
    assert (good.claims_total, good.status_counts) == (4, {"supported": 3, "not_checkable": 1})
    assert good.created_at == "2026-11-20T10:00:00+00:00"
    assert good.last_reviewer is None

    assert by_id["mixed"].review_status == "open"
    assert by_id["mixed"].review_reasons == ["reliability level MEDIUM"]  # derived: the report gave none
    assert by_id["contra"].review_reasons == ["contradicted claim"]  # the pipeline's own reasons win
    assert by_id["cite"].review_reasons == ["2 citation(s) not found in the cited chunk"]
    assert by_id["cite"].citation_mismatches == 2
    flagged = store.list_sessions(flagged_only=True)
    assert [s.as_saved.session_id for s in flagged] == ["cite", "contra", "mixed"]


def test_filters_by_level_decision_and_time(store: Store) -> None:
    store.save_report(_report("good", GOOD, created_at="2026-11-01T08:00:00+00:00"))
    store.save_report(_report("mixed", MIXED, created_at="2026-11-10T08:00:00+00:00"))
    # Same instant written in another zone: filters must compare in UTC.
    store.save_report(_report("bad", BAD, created_at="2026-11-20T10:00:00+02:00"))

    def ids(**filters: object) -> list[str]:
        return [s.as_saved.session_id for s in store.list_sessions(**filters)]  # type: ignore[arg-type]

    assert ids(level="LOW") == ["bad"]
    assert ids(level=Level.MEDIUM) == ["mixed"]
    assert ids(level="medium") == ["mixed"]
    assert ids(decision="refuse") == ["bad"]
    assert ids(decision=Decision.PASS) == ["good"]
    assert ids(since=datetime(2026, 11, 5, tzinfo=UTC)) == ["bad", "mixed"]
    assert ids(until=datetime(2026, 11, 20, 8, 0, tzinfo=UTC)) == ["bad", "mixed", "good"]
    assert ids(until=datetime(2026, 11, 20, 7, 59, tzinfo=UTC)) == ["mixed", "good"]
    assert ids(since=datetime(2026, 11, 20, 9, 30, tzinfo=timezone(timedelta(hours=2)))) == ["bad"]
    assert ids(since=datetime(2026, 11, 5), until=datetime(2026, 11, 15)) == ["mixed"]  # naive = UTC
    assert ids(limit=2) == ["bad", "mixed"]
    assert ids(level="LOW", decision="pass") == []


def test_search_is_literal_with_percent_underscore_and_quotes(store: Store) -> None:
    store.save_report(_report("pct", GOOD, question="Is the 100% refund policy real?"))
    store.save_report(_report("under", GOOD, question="What is policy_v2 about?"))
    store.save_report(_report("quote", GOOD, question="What does 'O'Brien's rule' say?"))
    store.save_report(_report("plain", GOOD, question="How much is the per-diem in Berlin?"))
    store.save_report(_report("space", GOOD, question="What is policy v2 about?"))

    def ids(search: str) -> list[str]:
        return sorted(s.as_saved.session_id for s in store.list_sessions(search=search))

    assert ids("%") == ["pct"]
    assert ids("_") == ["under"]
    assert ids("y_v") == ["under"]  # "_" is no wildcard: "policy v2" does not match
    assert ids("O'Brien's") == ["quote"]
    assert ids('"; DROP TABLE sessions; --') == []
    assert ids("PER-DIEM") == ["plain"]  # case-insensitive
    assert ids("about leave") == ["pct", "plain", "quote", "space", "under"]  # answers are searched too
    assert ids("\\") == []
    assert len(store.list_sessions()) == 5


# -- review queue and audit trail ------------------------------------------------------------------


def test_review_queue_orders_by_severity(store: Store) -> None:
    store.save_report(_report("good", GOOD, created_at="2026-11-20T09:00:00+00:00"))
    store.save_report(_report("mixed", MIXED, created_at="2026-11-20T10:00:00+00:00"))
    store.save_report(_report("bad", BAD, created_at="2026-11-20T11:00:00+00:00"))
    store.save_report(_report("contra", CONTRA, created_at="2026-11-20T08:00:00+00:00"))
    # Worse hallucination rate than "mixed" at the same level:
    store.save_report(_report("mixed-worse", [S.SUPPORTED, S.SUPPORTED, S.PARTIAL, S.PARTIAL, S.UNSUPPORTED]))
    store.save_report(_report("cite", GOOD, citation_mismatches=1))
    queue = [s.as_saved.session_id for s in store.review_queue()]
    assert queue == ["contra", "bad", "mixed-worse", "mixed", "cite"]


def test_review_audit_trail_and_overrides(store: Store) -> None:
    store.save_report(_report("s1", [S.SUPPORTED, S.UNSUPPORTED, S.CONTRADICTED]))
    first = store.add_review(
        "s1",
        reviewer=" Ana ",
        outcome="corrected",
        note="claim 1 is in the travel policy",
        claim_overrides={1: S.SUPPORTED, 0: S.SUPPORTED},  # 0 is unchanged: not a change
    )
    assert first.reviewer == "Ana"
    assert first.changes == [{"claim_index": 1, "old_status": "unsupported", "new_status": "supported"}]
    second = store.add_review(
        "s1", reviewer="Ben", outcome="escalated", claim_overrides={1: "partial", 2: S.UNSUPPORTED}
    )
    assert second.changes == [
        {"claim_index": 1, "old_status": "supported", "new_status": "partial"},
        {"claim_index": 2, "old_status": "contradicted", "new_status": "unsupported"},
    ]
    assert [r.review_id for r in store.reviews("s1")] == [first.review_id, second.review_id]
    assert store.reviews("s1") == [first, second]
    assert {i: c.status for i, c in store.corrections("s1").items()} == {1: S.PARTIAL, 2: S.UNSUPPORTED}
    assert store.corrections("s1")[2].reviewer == "Ben"
    # The saved report keeps the verifier's original verdicts (rrag.audit.corrections applies the reviews).
    assert [c.verdict.status for c in store.get_report("s1").claims] == [
        S.SUPPORTED,
        S.UNSUPPORTED,
        S.CONTRADICTED,
    ]

    summary = store.list_sessions()[0].as_saved
    assert (summary.review_status, summary.last_reviewer) == ("escalated", "Ben")
    assert [s.as_saved.session_id for s in store.review_queue()] == ["s1"]  # escalated still waits
    store.add_review("s1", reviewer="Cleo", outcome="approved")
    assert store.review_queue() == []
    assert [s.as_saved.review_status for s in store.review_queue(include_reviewed=True)] == ["approved"]
    assert len(store.reviews("s1")) == 3
    assert datetime.fromisoformat(store.reviews("s1")[0].created_at).tzinfo is not None


def test_bad_reviews_are_refused_and_record_nothing(store: Store) -> None:
    store.save_report(_report("s1", MIXED))
    with pytest.raises(StoreError, match="outcome"):
        store.add_review("s1", reviewer="Ana", outcome="rejected")
    with pytest.raises(StoreError, match="reviewer"):
        store.add_review("s1", reviewer="  ", outcome="approved")
    with pytest.raises(StoreError, match="wrong"):
        store.add_review("s1", reviewer="Ana", outcome="corrected", claim_overrides={0: "wrong"})  # type: ignore[dict-item]
    with pytest.raises(NotFoundError, match=r"\[4\]"):
        store.add_review(
            "s1", reviewer="Ana", outcome="corrected", claim_overrides={1: S.PARTIAL, 4: S.SUPPORTED}
        )
    with pytest.raises(NotFoundError):
        store.add_review("missing", reviewer="Ana", outcome="approved")
    with pytest.raises(NotFoundError):
        store.reviews("missing")
    with pytest.raises(NotFoundError):
        store.corrections("missing")
    assert store.reviews("s1") == []
    assert store.corrections("s1") == {}


def test_the_audit_trail_cannot_be_rewritten(store: Store, db_settings: Settings) -> None:
    store.save_report(_report("s1", MIXED))
    store.add_review("s1", reviewer="Ana", outcome="corrected", claim_overrides={3: S.SUPPORTED})
    statements = [
        "UPDATE reviews SET outcome = 'approved'",
        "DELETE FROM reviews",
        "UPDATE review_changes SET new_status = 'contradicted'",
        "DELETE FROM review_changes",
    ]
    if db_settings.database_url:  # PostgreSQL: TRUNCATE would bypass a DELETE trigger
        statements += ["TRUNCATE reviews CASCADE", "TRUNCATE review_changes"]
    with _raw(db_settings) as raw:
        for statement in statements:
            with pytest.raises(DBAPIError, match="append-only"), raw.begin():
                raw.exec_driver_sql(statement)
    assert store.reviews("s1")[0].outcome == "corrected"


# -- analytics -------------------------------------------------------------------------------------


def test_sessions_frame(store: Store) -> None:
    empty = sessions_frame(reviewed_records(store))
    assert empty.empty and "hallucination_rate" in empty.columns and "review_status" in empty.columns
    store.save_report(_report("late", BAD, created_at="2026-11-21T10:00:00+00:00"))
    store.save_report(_report("early", GOOD, created_at="2026-11-19T10:00:00+00:00"))
    frame = sessions_frame(reviewed_records(store))
    assert frame["session_id"].tolist() == ["early", "late"]  # oldest first, for time charts
    assert str(frame["created_at"].dtype).startswith("datetime64") and str(frame["created_at"].dt.tz) == "UTC"
    assert frame["hallucination_rate"].tolist() == [0.0, pytest.approx(2 / 3)]
    assert frame["review_status"].tolist() == ["", "open"]
    assert frame.loc[1, "status_counts"] == {"supported": 1, "unsupported": 2}


def test_claims_frame_has_effective_status_after_overrides(store: Store) -> None:
    assert list(claims_frame(store.claim_records()).columns) == [
        "session_id",
        "created_at",
        "question",
        "claim_index",
        "text",
        "status",
        "effective_status",
        "verifier",
        "confidence",
        "source",
        "chunk_id",
    ]
    store.save_report(_report("s1", [S.SUPPORTED, S.UNSUPPORTED, S.NOT_CHECKABLE]))
    store.save_report(_report("s2", [S.CONTRADICTED], created_at="2026-11-21T10:00:00+00:00"))
    store.add_review("s1", reviewer="Ana", outcome="corrected", claim_overrides={1: S.SUPPORTED})
    frame = claims_frame(store.claim_records())
    assert frame[["session_id", "claim_index"]].values.tolist() == [
        ["s1", 0],
        ["s1", 1],
        ["s1", 2],
        ["s2", 0],
    ]
    assert frame["status"].tolist() == ["supported", "unsupported", "not_checkable", "contradicted"]
    assert frame["effective_status"].tolist() == ["supported", "supported", "not_checkable", "contradicted"]
    assert frame["source"].tolist()[:2] == ["leave.md", "leave.md"]
    assert pd.isna(frame.loc[2, "source"]) and pd.isna(frame.loc[2, "chunk_id"])
    assert frame.loc[0, "chunk_id"] == "leave.md#0"
    assert frame["confidence"].tolist() == [0.875] * 4
    assert (frame["verifier"] == "quote").all()


# -- app settings ----------------------------------------------------------------------------------


def test_app_settings_merge_and_persist(store: Store, db_settings: Settings) -> None:
    assert store.get_app_settings() == {}
    store.save_app_settings(
        {"top_k": 7, "llm_base_url": "http://127.0.0.1:8080/v1", "verifiers": ["quote", "nli"]}
    )
    store.save_app_settings({"top_k": 9, "strict": True})
    expected = {
        "top_k": 9,
        "llm_base_url": "http://127.0.0.1:8080/v1",
        "verifiers": ["quote", "nli"],
        "strict": True,
    }
    assert store.get_app_settings() == expected
    store.close()
    with Store(db_settings) as reopened:
        assert reopened.get_app_settings() == expected


@pytest.mark.parametrize(
    "name", ["llm_api_key", "OPENAI_API_KEY", "client_secret", "auth_token", "db_password"]
)
def test_secret_looking_settings_are_refused_entirely(store: Store, db_settings: Settings, name: str) -> None:
    with pytest.raises(StoreError, match="never stored") as caught:
        store.save_app_settings({"top_k": 3, name: "sk-test-0123456789"})
    assert "sk-test" not in str(caught.value)  # the message names the key, never the value
    assert store.get_app_settings() == {}  # nothing half-saved
    with _raw(db_settings) as raw:
        assert "sk-test" not in str(raw.exec_driver_sql("SELECT * FROM app_settings").all())


def test_token_counts_are_saved_but_a_string_under_their_names_is_refused(store: Store) -> None:
    budgets = {"llm_context_tokens": 8192, "llm_max_tokens_answer": 300, "llm_max_tokens_judge": 128}
    store.save_app_settings(budgets)
    assert store.get_app_settings() == budgets
    with pytest.raises(StoreError, match="never stored"):  # a key pasted into a budget's field
        store.save_app_settings({"llm_max_tokens_claims": "sk-test-0123456789"})
    assert store.get_app_settings() == budgets


def test_settings_names_must_be_non_empty(store: Store) -> None:
    with pytest.raises(StoreError, match="non-empty"):
        store.save_app_settings({" ": 1, "top_k": 3})
    assert store.get_app_settings() == {}


def test_settings_values_must_be_json(store: Store) -> None:
    with pytest.raises(StoreError, match="JSON"):
        store.save_app_settings({"when": datetime(2026, 1, 1)})
    assert store.get_app_settings() == {}


# -- migrations ------------------------------------------------------------------------------------


def _versions(settings: Settings) -> list[tuple[int, str]]:
    with _raw(settings) as raw:
        rows = raw.exec_driver_sql("SELECT version, name FROM schema_version ORDER BY version")
        return [tuple(r) for r in rows]


def _tables(settings: Settings) -> set[str]:
    with _raw(settings) as raw:
        return set(inspect(raw).get_table_names())


def _released() -> list[tuple[int, str]]:
    return [(v, m.__name__.lstrip("_")) for v, m in enumerate(migrations.MIGRATIONS, start=1)]


def test_schema_is_created_on_open_and_reopen_is_idempotent(db_settings: Settings) -> None:
    with Store(db_settings) as store:
        store.save_report(_report("s1", MIXED))
    assert _tables(db_settings) >= {
        "documents",
        "sessions",
        "claims",
        "verdicts",
        "reviews",
        "review_changes",
        "app_settings",
        "pending_sessions",
        "schema_version",
    }
    expected = _released()
    assert expected[:8] == [
        (1, "m001_initial_schema"),
        (2, "m002_audit_trail_is_append_only"),
        (3, "m003_audit_trail_is_append_only_on_postgresql"),
        (4, "m004_document_identity_and_versions"),
        (5, "m005_keyword_index"),
        (6, "m006_sessions_count_source_conflicts"),
        (7, "m007_pending_sessions"),
        (8, "m008_question_set_runs"),
    ]
    assert _versions(db_settings) == expected
    for _ in range(2):
        with Store(db_settings) as store:
            assert [s.as_saved.session_id for s in store.list_sessions()] == ["s1"]
    assert _versions(db_settings) == expected


def test_a_new_migration_runs_once_on_an_existing_database(
    db_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(db_settings) as store:
        store.save_document(_doc())
    calls = []

    def _m999_add_document_title(conn: Connection) -> None:
        calls.append(1)
        conn.exec_driver_sql("ALTER TABLE documents ADD COLUMN title TEXT")

    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, _m999_add_document_title))
    for _ in range(2):
        with Store(db_settings) as store:
            assert store.list_documents() == [_doc()]
    assert calls == [1]
    assert _versions(db_settings)[-1] == (len(migrations.MIGRATIONS), "m999_add_document_title")
    with _raw(db_settings) as raw:
        assert "title" in [c["name"] for c in inspect(raw).get_columns("documents")]


def test_a_failing_migration_leaves_the_database_as_it_was(
    db_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(db_settings) as store:
        store.save_document(_doc())

    def _m999_broken(conn: Connection) -> None:
        conn.exec_driver_sql("CREATE TABLE half_done (x INTEGER)")
        conn.exec_driver_sql("ALTER TABLE no_such_table ADD COLUMN y TEXT")

    with monkeypatch.context() as patched:
        patched.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, _m999_broken))
        with pytest.raises(StoreError, match="open the database.*no_such_table"):
            Store(db_settings)
    assert "half_done" not in _tables(db_settings)  # DDL rolled back with the transaction
    assert _versions(db_settings) == _released()
    with Store(db_settings) as store:
        assert store.list_documents() == [_doc()]


def test_sessions_saved_before_source_conflicts_were_counted_read_zero(settings: Settings) -> None:
    with Store(settings) as store:
        store.save_report(_report("s1", MIXED))
    with sqlite3.connect(settings.data_dir / "rrag.db") as raw:  # the database as release 2 left it
        raw.execute("ALTER TABLE sessions DROP COLUMN source_conflicts")
        raw.execute("DELETE FROM schema_version WHERE name = 'm006_sessions_count_source_conflicts'")
    with Store(settings) as store:
        assert [s.as_saved.source_conflicts for s in store.list_sessions()] == [0]
        assert sessions_frame(reviewed_records(store))["source_conflicts"].tolist() == [0]
    assert (6, "m006_sessions_count_source_conflicts") in _versions(settings)


def test_documents_listed_before_languages_were_detected_keep_their_rows(db_settings: Settings) -> None:
    german = replace(_doc("doc-2", "handbuch/urlaub.md"), language="de")
    with Store(db_settings) as store:
        store.save_document(_doc())
    with _raw(db_settings) as raw, raw.begin():  # the documents table as release 13 left it
        raw.exec_driver_sql("ALTER TABLE documents DROP COLUMN language")
        raw.exec_driver_sql("DELETE FROM schema_version WHERE name = 'm014_documents_know_their_language'")
    with Store(db_settings) as store:
        assert store.list_documents() == [_doc()] and _doc().language == ""  # not detected
        store.save_document(german)
        assert store.get_document("doc-2").language == "de"
    assert (14, "m014_documents_know_their_language") in _versions(db_settings)


def test_verdicts_saved_before_not_verified_existed_are_migrated(settings: Settings) -> None:
    report = _report("s1", [S.SUPPORTED, S.SUPPORTED])
    report.claims[1] = ClaimResult(
        report.claims[1].claim, Verdict(S.NOT_VERIFIED, 0.0, "llm", "not verified: the judge timed out")
    )
    with Store(settings) as store:
        store.save_report(report)
    with sqlite3.connect(settings.data_dir / "rrag.db") as raw:  # as release 8 saved it
        raw.execute("UPDATE verdicts SET status = 'not_checkable' WHERE status = 'not_verified'")
        raw.execute("DELETE FROM schema_version WHERE name = 'm009_not_verified_is_its_own_status'")
    with Store(settings) as store:
        assert claims_frame(store.claim_records())["status"].tolist() == ["supported", "not_verified"]


def test_a_database_from_a_newer_program_is_refused(db_settings: Settings) -> None:
    with Store(db_settings):
        pass
    with _raw(db_settings) as raw, raw.begin():
        raw.exec_driver_sql(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'future', '2027-01-01')"
        )
    with pytest.raises(StoreError, match="schema version 99, newer"):
        Store(db_settings)
