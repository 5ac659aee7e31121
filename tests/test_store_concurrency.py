"""Concurrent writers and a locked database, on a real SQLite file in WAL mode and on PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager

import pytest
from sqlalchemy import create_engine

from rrag.errors import StoreLockedError
from rrag.settings import Settings
from rrag.store import Store
from rrag.store.engine import WRITE_LOCK_KEY
from rrag.types import Claim, ClaimResult, ClaimStatus, Decision, DocumentInfo, Level, Report, Verdict

ROUNDS = 100
STATUSES = [ClaimStatus.SUPPORTED, ClaimStatus.PARTIAL, ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED]


def _report(session_id: str) -> Report:
    claim = ClaimResult(
        Claim("Employees get 25 days of annual leave.", 0, 38),
        Verdict(status=ClaimStatus.UNSUPPORTED, confidence=0.9, verifier="nli", reason="not in context"),
    )
    return Report(
        session_id=session_id,
        question="How much leave?",
        answer=claim.claim.text,
        final_answer="",
        decision=Decision.REFUSE,
        level=Level.LOW,
        reliability=0.0,
        hallucination_rate=1.0,
        needs_review=True,
        status_counts={"unsupported": 1},
        claims=[claim],
        contexts=[],
        timings_ms={},
        created_at="2026-11-22T08:00:00+00:00",
    )


def _run_in_threads(work: Callable[[int], None], threads: int = 2) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def run(worker: int) -> None:
        start.wait()
        try:
            work(worker)
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=120)
    return errors


@pytest.mark.parametrize("shared", [True, False], ids=["one-store-two-threads", "two-stores"])
def test_two_threads_of_read_then_write_transactions_lose_nothing(
    db_settings: Settings, shared: bool
) -> None:
    first = Store(db_settings)
    stores = [first, first if shared else Store(db_settings)]
    first.save_report(_report("shared"))

    def work(worker: int) -> None:
        store = stores[worker]
        for i in range(ROUNDS):
            # Each of these reads before it writes: the existence check, the current claim status.
            store.save_report(_report(f"w{worker}-{i}"))
            store.add_review(
                "shared",
                reviewer=f"reviewer-{worker}",
                outcome="corrected",
                claim_overrides={0: STATUSES[(i + worker) % len(STATUSES)]},
            )
            store.save_document(
                DocumentInfo(
                    f"d{worker}-{i}", f"docs/{worker}/{i}.md", "0" * 64, 10, 1, 0, "2026-11-22T08:00:00"
                )
            )

    try:
        assert _run_in_threads(work) == []
        assert len(first.list_sessions(limit=10_000)) == 2 * ROUNDS + 1
        assert len(first.list_documents()) == 2 * ROUNDS
        trail = first.reviews("shared")
        assert len(trail) == 2 * ROUNDS
        assert len({r.review_id for r in trail}) == 2 * ROUNDS
        # No lost update: every change starts from the status the previous change left.
        changes = [c for r in trail for c in r.changes]
        status = "unsupported"
        for change in changes:
            assert change["old_status"] == status
            assert change["new_status"] != status
            status = change["new_status"]
        assert {i: c.status for i, c in first.corrections("shared").items()} == {0: ClaimStatus(status)}
    finally:
        for store in {id(s): s for s in stores}.values():
            store.close()


@contextmanager
def _exclusive_lock(settings: Settings) -> Iterator[None]:
    """Another program holding the write lock, as a long import or a stuck process would."""
    if settings.database_url:  # PostgreSQL: the advisory lock every writer of the store takes
        engine = create_engine(settings.database_url)
        try:
            with engine.connect() as other, other.begin():
                other.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")
                yield
        finally:
            engine.dispose()
        return
    with closing(sqlite3.connect(settings.data_dir / "rrag.db", isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")


def test_a_locked_database_gives_a_clear_error_and_writes_nothing(db_settings: Settings) -> None:
    with Store(db_settings, busy_timeout_s=0.3) as store:
        store.save_report(_report("before"))
        with _exclusive_lock(db_settings):
            began = time.monotonic()
            with pytest.raises(
                StoreLockedError,
                match=r"locked by another writer \(busy timeout 0.3 s\)\. Nothing was written",
            ):
                store.save_report(_report("during"))
            assert time.monotonic() - began >= 0.25  # it waited for the busy timeout first
            with pytest.raises(StoreLockedError):
                store.add_review(
                    "before", reviewer="Ana", outcome="corrected", claim_overrides={0: "supported"}
                )
            with pytest.raises(StoreLockedError):
                store.save_app_settings({"top_k": 3})
            # Readers are not blocked (WAL mode on SQLite).
            assert [s.as_saved.session_id for s in store.list_sessions()] == ["before"]
        assert [s.as_saved.session_id for s in store.list_sessions()] == ["before"]
        assert store.reviews("before") == []
        assert store.get_app_settings() == {}
        store.save_report(_report("after"))  # and the store works again once the lock is gone
        assert {s.as_saved.session_id for s in store.list_sessions()} == {"before", "after"}


def test_opening_an_up_to_date_database_does_not_wait_for_a_writer(db_settings: Settings) -> None:
    Store(db_settings).close()
    with _exclusive_lock(db_settings):
        began = time.monotonic()
        with Store(db_settings, busy_timeout_s=2.0) as store:
            assert store.list_sessions() == []
        assert time.monotonic() - began < 1.5


@contextmanager
def _write_lock_on_a_new_file(settings: Settings, release_after_s: float) -> Iterator[None]:
    """A database file as another program leaves it before the store's first open (rollback journal,
    not WAL), whose write lock that program holds for `release_after_s`."""
    settings.data_dir.mkdir(parents=True)
    other = sqlite3.connect(settings.data_dir / "rrag.db", isolation_level=None, check_same_thread=False)
    with closing(other):
        other.execute("CREATE TABLE other_program (x)")
        other.execute("BEGIN IMMEDIATE")
        release = threading.Timer(release_after_s, other.execute, ["COMMIT"])
        release.start()
        try:
            yield
        finally:
            release.join()


def test_a_new_file_opens_once_another_writer_lets_go(settings: Settings) -> None:
    # Switching a file to WAL while another connection writes fails at once, without the busy timeout:
    # the store waits for the writer instead of failing to open (8 processes opening at once met it).
    with _write_lock_on_a_new_file(settings, release_after_s=0.3):
        with Store(settings, busy_timeout_s=5.0) as store:
            store.save_report(_report("first"))
    with Store(settings) as store:
        assert [s.as_saved.session_id for s in store.list_sessions()] == ["first"]


def test_a_new_file_locked_past_the_busy_timeout_gives_a_clear_error(settings: Settings) -> None:
    with _write_lock_on_a_new_file(settings, release_after_s=2.0):
        began = time.monotonic()
        with pytest.raises(StoreLockedError, match=r"Could not open the database: the database is locked"):
            Store(settings, busy_timeout_s=0.3)
        assert time.monotonic() - began >= 0.25  # it waited for the busy timeout first


def test_in_memory_store_serialises_threads(settings: Settings) -> None:
    with Store(settings.replace(database_url="sqlite://")) as store:

        def work(worker: int) -> None:
            for i in range(50):
                store.save_report(_report(f"w{worker}-{i}"))
                store.add_review(f"w{worker}-{i}", reviewer="Ana", outcome="approved")

        assert _run_in_threads(work) == []
        assert len(store.list_sessions()) == 100
        assert all(s.as_saved.review_status == "approved" for s in store.list_sessions())
