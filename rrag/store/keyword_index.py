"""The keyword index in the store's own database: SQLite FTS5 or PostgreSQL tsvector + GIN.

`keyword_chunks` holds each indexed chunk's BM25 terms (rrag.store.bm25.keyword_terms, space-joined)
and its sentences' vectors (rrag/retrieval/sentence_vectors.py), and is written in the transaction
that registers its document, so keyword search never drifts from the registry. Where the terms of a
text change (migration 11: the stemmer), a migration empties it, and where a row lacks what a later
release keeps (sentence vectors, migration 15), the engine fills it again from the vector index on
open. The database's full-text index over it proposes candidates; `keyword_terms` (document
frequency per term) and `keyword_stats` (chunk count, total terms) let rrag.store.bm25 score them with
the same scaled BM25 on every backend.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from rrag.errors import StoreError
from rrag.store.bm25 import KeywordMatches, keyword_terms
from rrag.store.schema import DocumentRow
from rrag.types import Chunk

# Candidates come from the query's selective terms: a term found in more chunks than this (one in
# 20, and at least 500) would make the database rank much of the corpus for little gain. Such terms
# still count in every score, and in a corpus of up to 500 chunks every term is selective.
SELECTIVE_SHARE = 0.05
SELECTIVE_MIN_CHUNKS = 500
INSERT_BATCH = 256  # keyword rows built and inserted at a time

metadata = MetaData()
keyword_chunks = Table(
    "keyword_chunks",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chunk_id", String(200), nullable=False, unique=True),
    Column("doc_id", String(200), nullable=False, index=True),
    Column("length", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("sentences", LargeBinary, nullable=True),
)
keyword_terms_table = Table(
    "keyword_terms",
    metadata,
    Column("term", Text, primary_key=True),
    Column("df", Integer, nullable=False),
)
keyword_stats = Table(
    "keyword_stats",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("chunks", Integer, nullable=False),
    Column("length", BigInteger, nullable=False),
)

_SQLITE_INDEX = (
    # External content: FTS5 indexes keyword_chunks.body without a second copy; triggers keep it in step.
    "CREATE VIRTUAL TABLE keyword_fts USING fts5(body, content='keyword_chunks', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 0')",
    "CREATE TRIGGER keyword_chunks_ai AFTER INSERT ON keyword_chunks BEGIN "
    "INSERT INTO keyword_fts(rowid, body) VALUES (new.id, new.body); END",
    "CREATE TRIGGER keyword_chunks_ad AFTER DELETE ON keyword_chunks BEGIN "
    "INSERT INTO keyword_fts(keyword_fts, rowid, body) VALUES ('delete', old.id, old.body); END",
    "CREATE TRIGGER keyword_chunks_au AFTER UPDATE ON keyword_chunks BEGIN "
    "INSERT INTO keyword_fts(keyword_fts, rowid, body) VALUES ('delete', old.id, old.body); "
    "INSERT INTO keyword_fts(rowid, body) VALUES (new.id, new.body); END",
)
_POSTGRESQL_INDEX = (
    "ALTER TABLE keyword_chunks ADD COLUMN terms tsvector "
    "GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED",
    "CREATE INDEX keyword_chunks_terms ON keyword_chunks USING GIN (terms)",
)
_SQLITE_MATCH = text(
    "SELECT k.chunk_id, k.body, k.sentences FROM keyword_fts "
    "JOIN keyword_chunks k ON k.id = keyword_fts.rowid "
    "WHERE keyword_fts MATCH :query ORDER BY keyword_fts.rank LIMIT :limit"
)
_POSTGRESQL_MATCH = text(
    "SELECT chunk_id, body, sentences FROM keyword_chunks WHERE terms @@ to_tsquery('simple', :query) "
    "ORDER BY ts_rank(terms, to_tsquery('simple', :query)) DESC, id LIMIT :limit"
)


def create_keyword_index(conn: Connection) -> None:
    """The tables and the database's full-text index over them (a migration)."""
    dialect = conn.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        raise StoreError(f"keyword search needs SQLite or PostgreSQL, not {dialect}")
    metadata.create_all(conn)
    for statement in _SQLITE_INDEX if dialect == "sqlite" else _POSTGRESQL_INDEX:
        conn.exec_driver_sql(statement)
    conn.execute(insert(keyword_stats).values(id=1, chunks=0, length=0))


def clear_keyword_index(conn: Connection) -> None:
    """Empty the index (a migration, when the terms of a text change): the engine fills it again from
    the vector index on open (rrag.retrieval.hybrid.backfill_keywords)."""
    conn.execute(delete(keyword_chunks))  # SQLite's triggers take each row out of keyword_fts too
    conn.execute(delete(keyword_terms_table))
    conn.execute(update(keyword_stats).where(keyword_stats.c.id == 1).values(chunks=0, length=0))


def add_sentence_vectors(conn: Connection) -> None:
    """The column of each chunk's sentence vectors (a migration)."""
    conn.exec_driver_sql(
        "ALTER TABLE keyword_chunks ADD COLUMN sentences "
        + ("BLOB" if conn.dialect.name == "sqlite" else "BYTEA")
    )


def replace_keywords(
    session: Session,
    doc_ids: Sequence[str],
    chunks: Sequence[Chunk],
    sentence_vectors: Mapping[str, bytes] | None = None,
) -> None:
    """Remove the keyword rows of `doc_ids` and add those of `chunks` (with their sentence vectors by
    chunk id, where given), in the caller's transaction."""
    sentence_vectors = sentence_vectors or {}
    old = session.execute(
        select(keyword_chunks.c.length, keyword_chunks.c.body).where(keyword_chunks.c.doc_id.in_(doc_ids))
    ).all()
    if old:
        session.execute(delete(keyword_chunks).where(keyword_chunks.c.doc_id.in_(doc_ids)))
    df: Counter[str] = Counter()
    for _, body in old:
        df.subtract(set(body.split()))
    total_length = -sum(length for length, _ in old)
    # A batch at a time: a large file's terms all at once took memory in proportion to its size.
    for begin in range(0, len(chunks), INSERT_BATCH):
        rows = []
        for chunk in chunks[begin : begin + INSERT_BATCH]:
            terms = keyword_terms(chunk.text)
            rows.append(
                {
                    "chunk_id": chunk.chunk_id,
                    "doc_id": chunk.doc_id,
                    "length": len(terms),
                    "body": " ".join(terms),
                    "sentences": sentence_vectors.get(chunk.chunk_id),
                }
            )
            df.update(set(terms))
            total_length += len(terms)
        session.execute(insert(keyword_chunks), rows)
    _add_document_frequencies(session, df)
    session.execute(
        update(keyword_stats)
        .where(keyword_stats.c.id == 1)
        .values(
            chunks=keyword_stats.c.chunks + len(chunks) - len(old),
            length=keyword_stats.c.length + total_length,
        )
    )


def _add_document_frequencies(session: Session, changes: Counter[str]) -> None:
    # Sorted: concurrent PostgreSQL writers lock the rows they share in one order (no deadlock).
    rows = [{"term": term, "df": change} for term, change in sorted(changes.items()) if change]
    if not rows:
        return
    upsert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else postgresql_insert
    statement = upsert(keyword_terms_table)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=["term"], set_={"df": keyword_terms_table.c.df + statement.excluded.df}
        ),
        rows,
    )


def match_keywords(
    session: Session, queries: Sequence[tuple[Sequence[str], Sequence[str]]], limit: int
) -> list[KeywordMatches]:
    """The statistics and candidates for each (terms, also) query: up to `limit` chunks the database
    ranks best on the query's selective terms, plus the chunks `also` names (the vector search's
    candidates). The statistics, the document frequencies and the asked-for chunks are read once for
    all the queries (an answer's claims are retrieved together)."""
    chunks, length = session.execute(select(keyword_stats.c.chunks, keyword_stats.c.length)).one()
    df: dict[str, int] = dict(
        session.execute(
            select(keyword_terms_table.c.term, keyword_terms_table.c.df).where(
                keyword_terms_table.c.term.in_(sorted({t for terms, _ in queries for t in terms})),
                keyword_terms_table.c.df > 0,
            )
        ).all()
    )
    ceiling = max(SELECTIVE_MIN_CHUNKS, chunks * SELECTIVE_SHARE)
    sqlite = session.get_bind().dialect.name == "sqlite"
    bodies: dict[str, list[str]] = {}
    sentences: dict[str, bytes] = {}

    def keep(chunk_id: str, body: str, vectors: bytes | None) -> None:
        bodies[chunk_id] = body.split()
        sentences[chunk_id] = bytes(vectors) if vectors else b""

    candidates = []
    for terms, _ in queries:
        selective = [t for t in sorted(set(terms)) if t in df and df[t] <= ceiling]
        ranked: list[str] = []
        if selective and limit > 0:
            # Terms are letters and digits only (keyword_terms), so quoting them is all the escaping needed.
            query = (
                " OR ".join(f'"{t}"' for t in selective)
                if sqlite
                else " | ".join(f"'{t}'" for t in selective)
            )
            rows = session.execute(
                _SQLITE_MATCH if sqlite else _POSTGRESQL_MATCH, {"query": query, "limit": limit}
            )
            for chunk_id, body, vectors in rows:
                ranked.append(chunk_id)
                if chunk_id not in bodies:
                    keep(chunk_id, body, vectors)
        candidates.append(ranked)
    missing = sorted({chunk_id for _, also in queries for chunk_id in also} - bodies.keys())
    if missing:
        rows = session.execute(
            select(keyword_chunks.c.chunk_id, keyword_chunks.c.body, keyword_chunks.c.sentences).where(
                keyword_chunks.c.chunk_id.in_(missing)
            )
        )
        for chunk_id, body, vectors in rows:
            keep(chunk_id, body, vectors)
    mean_length = length / chunks if chunks else 0.0
    return [
        KeywordMatches(
            chunks,
            mean_length,
            {t: df[t] for t in terms if t in df},
            ranked,
            {i: bodies[i] for i in (*ranked, *also) if i in bodies},
            {i: sentences[i] for i in (*ranked, *also) if i in bodies},
        )
        for (terms, also), ranked in zip(queries, candidates)
    ]


def stored_sentence_vectors(session: Session, chunk_ids: Sequence[str]) -> dict[str, bytes]:
    """Chunk id -> its stored sentence vectors, for the chunks that have them."""
    rows = session.execute(
        select(keyword_chunks.c.chunk_id, keyword_chunks.c.sentences).where(
            keyword_chunks.c.chunk_id.in_(chunk_ids), keyword_chunks.c.sentences.is_not(None)
        )
    )
    return {chunk_id: bytes(vectors) for chunk_id, vectors in rows}


def documents_to_backfill(session: Session) -> list[str]:
    """Registered documents with chunks whose keyword rows are missing (registered before keyword search
    was, or emptied by a migration) or keep no sentence vectors (indexed before migration 15)."""
    indexed = select(keyword_chunks.c.doc_id).distinct()
    without_sentences = select(keyword_chunks.c.doc_id).where(keyword_chunks.c.sentences.is_(None)).distinct()
    return list(
        session.scalars(
            select(DocumentRow.doc_id).where(
                DocumentRow.chunks > 0,
                DocumentRow.doc_id.not_in(indexed) | DocumentRow.doc_id.in_(without_sentences),
            )
        )
    )
