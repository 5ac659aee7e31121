"""Schema migrations: an ordered list of functions, applied on open in one transaction (as simonw/llm does).

Migration N is recorded in `schema_version` once applied and never runs again. Append new migrations;
never edit or reorder released ones. A database that has a version this program does not know was
written by a newer release and is refused rather than silently misread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from sqlalchemy import Connection, Engine, Table, insert, inspect, select, text

from rrag.errors import StoreError
from rrag.store.keyword_index import add_sentence_vectors, clear_keyword_index, create_keyword_index
from rrag.store.schema import (
    Base,
    DocumentRow,
    EndedSignInRow,
    PendingRow,
    QuestionSetRunRow,
    SchemaVersion,
    utcnow,
)

Migration = Callable[[Connection], None]


def _m001_initial_schema(conn: Connection) -> None:
    Base.metadata.create_all(conn)


def _m002_audit_trail_is_append_only(conn: Connection) -> None:
    # Reviews are evidence of who decided what; the database itself refuses to rewrite them.
    # Other backends rely on the store never issuing UPDATE or DELETE on these tables.
    if conn.dialect.name != "sqlite":
        return
    for table in ("reviews", "review_changes"):
        for action in ("UPDATE", "DELETE"):
            conn.exec_driver_sql(
                f"CREATE TRIGGER IF NOT EXISTS {table}_no_{action.lower()} BEFORE {action} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is an append-only audit trail'); END"
            )


def _m003_audit_trail_is_append_only_on_postgresql(conn: Connection) -> None:
    # As m002 does on SQLite; statement-level, so TRUNCATE is refused too (and changes of no rows).
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql(
        "CREATE FUNCTION rrag_refuse_audit_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN RAISE EXCEPTION USING MESSAGE = TG_TABLE_NAME || ' is an append-only audit trail'; END $$"
    )
    for table in ("reviews", "review_changes"):
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION rrag_refuse_audit_rewrite()"
        )


def _m004_document_identity_and_versions(conn: Connection) -> None:
    # Documents are told apart by identity (two readme.md in different folders are two documents),
    # and each row becomes the write-ahead record of its ingest. A database created by _m001 from
    # today's models has these columns already; an older one is rebuilt, its rows kept: identity
    # was the source name, and the chunks in its index are version 1.
    columns = {column["name"] for column in inspect(conn).get_columns("documents")}
    if "identity" in columns:
        return
    old = [dict(row) for row in conn.execute(text("SELECT * FROM documents")).mappings()]
    conn.execute(text("DROP TABLE documents"))
    cast(Table, DocumentRow.__table__).create(conn)
    if old:
        conn.execute(
            insert(DocumentRow),
            [row | {"identity": row["source"], "version": 1, "state": "ready"} for row in old],
        )


def _m005_keyword_index(conn: Connection) -> None:
    # Keyword search moves from an in-process BM25 into this database. The chunks of documents
    # registered before are in the vector index, which a migration cannot reach: the engine copies
    # them on open (the hybrid retriever backfills them, via Store.documents_to_backfill).
    create_keyword_index(conn)


def _m006_sessions_count_source_conflicts(conn: Connection) -> None:
    # Claims whose retrieved sources disagree (rrag/verify/conflicts.py), for Insights to count.
    # A new database already has the column: migration 1 creates the current schema.
    if "source_conflicts" not in {c["name"] for c in inspect(conn).get_columns("sessions")}:
        conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN source_conflicts INTEGER NOT NULL DEFAULT 0")


def _m007_pending_sessions(conn: Connection) -> None:
    PendingRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


def _m008_question_set_runs(conn: Connection) -> None:
    QuestionSetRunRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


def _m009_not_verified_is_its_own_status(conn: Connection) -> None:
    # A claim no verifier decided was saved as not_checkable with verified false; it now has its own
    # status. Verdict rows are the verifier's record, not the audit trail, so they may be rewritten.
    conn.execute(
        text("UPDATE verdicts SET status = :new WHERE status = :old AND verified = :no"),
        {"new": "not_verified", "old": "not_checkable", "no": False},
    )


def _m010_pending_sessions_keep_failures(conn: Connection) -> None:
    # A question whose LLM server failed is kept with its reason (History lists it as failed).
    if "failure" not in {c["name"] for c in inspect(conn).get_columns("pending_sessions")}:
        conn.exec_driver_sql("ALTER TABLE pending_sessions ADD COLUMN failure TEXT")


def _m011_keyword_terms_stemmed_anew(conn: Connection) -> None:
    # The stemmer now reads a 4-letter singular as its plural ("fare" and "fares" are one term): terms
    # indexed before would miss such words. Emptied, the index is filled again on open, as after m005.
    clear_keyword_index(conn)


def _m012_ended_sign_ins(conn: Connection) -> None:
    # Signing out ends the sign-in on the server too: a copy of its cookie no longer signs anyone in.
    EndedSignInRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


def _m013_review_changes_carry_evidence(conn: Connection) -> None:
    # A reviewer may replace a claim's evidence with another retrieved passage (Review page).
    if "evidence" not in {c["name"] for c in inspect(conn).get_columns("review_changes")}:
        conn.exec_driver_sql("ALTER TABLE review_changes ADD COLUMN evidence TEXT")


def _m014_documents_know_their_language(conn: Connection) -> None:
    # The language each document is written in, detected at ingest (rrag/lang/detect.py); documents
    # indexed before have "" (not detected) until they are re-indexed.
    if "language" not in {c["name"] for c in inspect(conn).get_columns("documents")}:
        conn.exec_driver_sql("ALTER TABLE documents ADD COLUMN language VARCHAR(35) NOT NULL DEFAULT ''")


def _m015_chunks_keep_their_sentence_vectors(conn: Connection) -> None:
    # A chunk is as near to a question as its nearest sentence (rrag/retrieval/sentence_vectors.py);
    # the engine computes those of chunks indexed before on open (Store.documents_to_backfill).
    if "sentences" not in {c["name"] for c in inspect(conn).get_columns("keyword_chunks")}:
        add_sentence_vectors(conn)


MIGRATIONS: tuple[Migration, ...] = (
    _m001_initial_schema,
    _m002_audit_trail_is_append_only,
    _m003_audit_trail_is_append_only_on_postgresql,
    _m004_document_identity_and_versions,
    _m005_keyword_index,
    _m006_sessions_count_source_conflicts,
    _m007_pending_sessions,
    _m008_question_set_runs,
    _m009_not_verified_is_its_own_status,
    _m010_pending_sessions_keep_failures,
    _m011_keyword_terms_stemmed_anew,
    _m012_ended_sign_ins,
    _m013_review_changes_carry_evidence,
    _m014_documents_know_their_language,
    _m015_chunks_keep_their_sentence_vectors,
)


def is_behind(engine: Engine) -> bool:
    """Whether migrations are pending; a read only, so opening never waits for another writer's lock."""
    with engine.connect() as conn, conn.begin():
        if not conn.dialect.has_table(conn, SchemaVersion.__tablename__):
            return True
        return bool(set(range(1, len(MIGRATIONS) + 1)) - _applied(conn))


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations this database lacks, all in one transaction; return the versions applied.

    `engine` must begin transactions with the write lock taken (the Store's does: BEGIN IMMEDIATE on
    SQLite, an advisory lock on PostgreSQL), so that programs opening a new database at once migrate it
    one after the other: the others then find it up to date.
    """
    applied_now: list[int] = []
    with engine.begin() as conn:
        cast(Table, SchemaVersion.__table__).create(conn, checkfirst=True)
        done = _applied(conn)
        for version, migration in enumerate(MIGRATIONS, start=1):
            if version in done:
                continue
            migration(conn)
            conn.execute(
                insert(SchemaVersion).values(
                    version=version, name=migration.__name__.lstrip("_"), applied_at=utcnow()
                )
            )
            applied_now.append(version)
    return applied_now


def _applied(conn: Connection) -> set[int]:
    done = set(conn.scalars(select(SchemaVersion.version)))
    if done and max(done) > len(MIGRATIONS):
        raise StoreError(
            f"The database is at schema version {max(done)}, newer than this program knows "
            f"({len(MIGRATIONS)}); upgrade the program"
        )
    return done
