"""Where data lives, as the Settings page shows it: no credentials, the variables that move it."""

from __future__ import annotations

from pathlib import Path

from rrag.settings import Settings
from rrag.tools.locations import data_locations, database_backend, masked_url


def test_credentials_and_secret_parameters_are_masked() -> None:
    url = "postgresql+psycopg://alice:s3cr%40t@db.example:5432/rrag?sslmode=require&sslpassword=zz"
    shown = masked_url(url)
    assert shown == "postgresql+psycopg://***:***@db.example:5432/rrag?sslmode=require&sslpassword=***"
    assert "alice" not in shown and "s3cr" not in shown
    assert masked_url("mysql://bob@host/db") == "mysql://***@host/db"


def test_a_url_that_does_not_parse_is_not_shown_at_all() -> None:
    assert masked_url("user:hunter2 not a url") == "(not a valid database URL)"


def test_backend_names() -> None:
    assert database_backend("postgresql+psycopg://h/d") == "PostgreSQL"
    assert database_backend("sqlite:///x.db") == "SQLite"


def test_the_embedded_default_names_its_paths_and_variables(tmp_path: Path) -> None:
    database, index, files = data_locations(Settings(data_dir=tmp_path))
    assert (database.backend, database.where) == ("SQLite", f"sqlite:///{tmp_path.resolve() / 'rrag.db'}")
    assert database.variables == ("RRAG_DATABASE_URL", "RRAG_DATA_DIR")
    assert index.backend == "Chroma, embedded" and str(tmp_path.resolve() / "chroma") in index.where
    assert files.where == str(tmp_path.resolve() / "documents")


def test_a_server_and_a_database_of_ones_own(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url="postgresql://u:pw@db:5432/rrag",
        chroma_host="10.0.0.5",
        chroma_port=8123,
    )
    database, index, _ = data_locations(settings)
    assert database.where == "postgresql://***:***@db:5432/rrag" and database.variables == (
        "RRAG_DATABASE_URL",
    )
    assert index.backend == "Chroma server" and index.where.startswith("10.0.0.5:8123")
    assert "RRAG_CHROMA_HOST" in index.variables
