"""What an ingest covers and what each document is called (issue 11): identity by relative path or
content hash, symlinks not followed out of the named folder, clear errors for folders, missing files
and unusable upload names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli import run_cli

from rrag.backends.embedding import get_embedder
from rrag.errors import IngestError, UnsupportedFormatError
from rrag.ingest.extract import check_file
from rrag.ingest.service import Ingestor
from rrag.ingest.sources import SourceFile, collect, upload_identity
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store
from rrag.types import IngestResult

A_TEXT = "Team A meets on Mondays at nine in room 4.01 to plan the sprint."
B_TEXT = "Team B meets on Thursdays at three in the basement lab to review incidents."


def _tree(root: Path) -> Path:
    """tree/a/readme.md and tree/b/readme.md, an image, and symlinks to a file and a folder outside."""
    outside = root / "outside"
    outside.mkdir(parents=True)
    (outside / "secret.md").write_text("Salaries of the board: confidential.")
    tree = root / "tree"
    for team, text in (("a", A_TEXT), ("b", B_TEXT)):
        (tree / team).mkdir(parents=True)
        (tree / team / "readme.md").write_text(text)
    (tree / "logo.png").write_bytes(b"\x89PNG")
    (tree / "link.md").symlink_to(outside / "secret.md")
    (tree / "linked").symlink_to(outside, target_is_directory=True)
    return tree


def test_a_folder_gives_paths_relative_to_it_and_skips_symlinks(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert collect([tree]) == [
        IngestResult(source="link.md", status="skipped"),
        IngestResult(source="linked", status="skipped"),
        SourceFile(tree / "a" / "readme.md", "a/readme.md"),
        SourceFile(tree / "b" / "readme.md", "b/readme.md"),
    ]


def test_a_folder_with_nothing_to_ingest_and_a_name_taken_twice_are_errors(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "photo.jpg").write_bytes(b"\xff\xd8")
    empty, clash = collect([tmp_path / "images", tree / "a" / "readme.md", tree / "b" / "readme.md"])[::2]
    assert isinstance(empty, IngestResult) and "no supported files in this folder" in (empty.error or "")
    assert isinstance(clash, IngestResult) and not clash.ok and "same name" in (clash.error or "")


def test_a_missing_file_or_a_folder_is_said_to_be_one(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="slides.pptx: no such file"):
        check_file(tmp_path / "slides.pptx", max_bytes=1000)
    (tmp_path / "notes.md").mkdir()
    with pytest.raises(IngestError, match="notes.md: is a folder, not a file"):
        check_file(tmp_path / "notes.md", max_bytes=1000)
    (tmp_path / "slides.pptx").write_bytes(b"PK")
    with pytest.raises(UnsupportedFormatError):
        check_file(tmp_path / "slides.pptx", max_bytes=1000)


def test_the_cli_keeps_both_readmes_and_says_what_it_skipped(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    data = tmp_path / "data"
    out = run_cli("ingest", str(tree), data_dir=data)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "skipped   link.md: symlink, not followed" in out.stdout
    listed = run_cli("documents", "--json", data_dir=data)
    documents = json.loads(listed.stdout)
    assert sorted((d["source"], d["identity"]) for d in documents) == [
        ("a/readme.md", "a/readme.md"),
        ("b/readme.md", "b/readme.md"),
    ]

    (tree / "b" / "readme.md").write_text(B_TEXT.replace("three", "four"))
    again = run_cli("ingest", str(tree), "--json", data_dir=data)
    statuses = {r["source"]: r["status"] for r in json.loads(again.stdout)}
    assert statuses == {
        "link.md": "skipped",
        "linked": "skipped",
        "a/readme.md": "unchanged",
        "b/readme.md": "replaced",
    }

    bad = run_cli(
        "ingest", str(tmp_path / "outside" / "nothing"), str(tmp_path / "missing.txt"), data_dir=data
    )
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "missing.txt: no such file" in bad.stdout and "nothing: no such file" in bad.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = run_cli("ingest", str(empty), data_dir=data)
    assert nothing.returncode == 1 and "no supported files in this folder" in nothing.stdout


def test_verify_refuses_a_folder_as_the_answer_file(tmp_path: Path) -> None:
    out = run_cli("verify", "--question", "q", "--answer-file", str(tmp_path), data_dir=tmp_path / "data")
    assert out.returncode == 2 and "is a folder" in out.stderr and "Traceback" not in out.stderr


@pytest.fixture
def ingestor(settings: Settings) -> Iterator[Ingestor]:
    with Store(settings) as store:
        yield Ingestor(settings, ChunkIndex(settings, get_embedder()), store)


def test_uploads_are_known_by_their_content(ingestor: Ingestor) -> None:
    first = ingestor.ingest_bytes("readme.md", A_TEXT.encode())
    second = ingestor.ingest_bytes("readme.md", B_TEXT.encode())
    again = ingestor.ingest_bytes("copy-of-readme.md", A_TEXT.encode())
    assert (first.status, second.status, again.status) == ("added", "added", "unchanged")
    documents = ingestor.store.list_documents()
    assert sorted(d.identity for d in documents) == sorted(upload_identity(d.sha256) for d in documents)
    assert [d.source for d in documents] == ["readme.md", "readme.md"]
    assert {c.text for c in ingestor.index.all_chunks()} == {A_TEXT, B_TEXT}


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("memo\x00.txt", "control characters"),
        ("a" * 252 + "é.txt", "the file name is longer than"),
    ],
)
def test_an_unusable_upload_name_fails_that_file_only(ingestor: Ingestor, name: str, phrase: str) -> None:
    result = ingestor.ingest_bytes(name, b"The office closes at six.")
    assert result.status == "failed" and phrase in (result.error or "")
    assert ingestor.ingest_bytes("memo.txt", b"The office closes at six.").ok
