"""Where the engine keeps its data, described for people: backend, location without credentials, and
the environment variables that move it. Storage is chosen by the environment only, never by the app."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from rrag.ingest.service import DOCUMENTS_DIR
from rrag.settings import ENV_PREFIX, Settings

MASK = "***"
_SECRET_PARAMS = ("pass", "secret", "token", "key")  # query parameters such as ?password=
_BACKENDS = {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MySQL", "mssql": "SQL Server"}


@dataclass(frozen=True)
class DataLocation:
    what: str  # "Database", "Vector index", "Files"
    backend: str
    where: str  # no credentials
    variables: tuple[str, ...]  # the environment variables that change it


def masked_url(url_text: str) -> str:
    """The database URL with user, password and secret query parameters replaced by ***."""
    try:
        url = make_url(url_text)
    except ArgumentError:
        return "(not a valid database URL)"  # a URL that does not parse may hold a secret anywhere
    if url.username or url.password:
        url = url.set(username=MASK, password=MASK if url.password else None)
    hidden = {k: MASK for k in url.query if any(word in k.lower() for word in _SECRET_PARAMS)}
    if hidden:
        url = url.update_query_dict(hidden)
    return url.render_as_string(hide_password=False).replace("%2A", "*")  # the URL quotes the mask


def database_backend(url_text: str) -> str:
    try:
        name = make_url(url_text).get_backend_name()
    except ArgumentError:
        return "unknown"
    return _BACKENDS.get(name, name)


def data_locations(settings: Settings) -> list[DataLocation]:
    """The database, the vector index and the kept original documents of `settings`."""

    def env(*names: str) -> tuple[str, ...]:
        return tuple(ENV_PREFIX + name for name in names)

    url = settings.sqlalchemy_url
    if settings.chroma_host:
        index = DataLocation(
            "Vector index",
            "Chroma server",
            f"{settings.chroma_host}:{settings.chroma_port}, collection {settings.collection}",
            env("CHROMA_HOST", "CHROMA_PORT", "COLLECTION"),
        )
    else:
        index = DataLocation(
            "Vector index",
            "Chroma, embedded",
            f"{settings.chroma_dir.resolve()}, collection {settings.collection}",
            env("DATA_DIR", "CHROMA_HOST", "COLLECTION"),
        )
    # The default database is a SQLite file in the data directory; a URL of one's own ignores it.
    database_env = env("DATABASE_URL") if settings.database_url else env("DATABASE_URL", "DATA_DIR")
    return [
        DataLocation("Database", database_backend(url), masked_url(url), database_env),
        index,
        DataLocation(
            "Kept originals", "Files", str((settings.data_dir / DOCUMENTS_DIR).resolve()), env("DATA_DIR")
        ),
    ]
