"""Schema migrations: an ordered list of functions, applied on open in one transaction (as simonw/llm does).

Migration N is recorded in `schema_version` once applied and never runs again. Append new migrations;
never edit or reorder released ones. A database that has a version this program does not know was
written by a newer release and is refused rather than silently misread.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Engine, insert, select

from rrag.errors import StoreError
from rrag.store.schema import Base, QuestionSetRunRow, SchemaVersion, utcnow

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


def _m003_question_set_runs(conn: Connection) -> None:
    QuestionSetRunRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


MIGRATIONS: tuple[Migration, ...] = (
    _m001_initial_schema,
    _m002_audit_trail_is_append_only,
    _m003_question_set_runs,
)


def is_behind(engine: Engine) -> bool:
    """Whether migrations are pending; a read only, so opening never waits for another writer's lock."""
    with engine.connect() as conn, conn.begin():
        if not conn.dialect.has_table(conn, SchemaVersion.__tablename__):
            return True
        return bool(set(range(1, len(MIGRATIONS) + 1)) - _applied(conn))


def migrate(engine: Engine) -> list[int]:
    """Apply the migrations this database lacks, all in one transaction; return the versions applied.

    `engine` must begin transactions with the write lock taken (the Store's does, with BEGIN IMMEDIATE
    on SQLite), so that two programs opening a new database at once do not both migrate it.
    """
    applied_now: list[int] = []
    with engine.begin() as conn:
        SchemaVersion.__table__.create(conn, checkfirst=True)
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
