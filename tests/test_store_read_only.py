"""A read-only data folder opens for reading: the read commands work, every write is refused with an
error naming the folder, and nothing in it changes.

Tests run as root, and root may write into any folder whatever its mode, so `chmod` cannot make a
folder read-only for the check on open (`os.access`): the folder is bind-mounted read-only instead, a
real read-only file system as a user meets it. Where mounting is not allowed, a non-root run uses
`chmod`, which then binds; root without mount rights skips."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_store_damage import _docs, run_cli

from rrag.errors import StoreReadOnlyError
from rrag.settings import Settings
from rrag.store import Store


@pytest.fixture
def read_only_view(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(a writable folder, the same folder read-only)."""
    source, view = tmp_path / "source", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    if os.geteuid() != 0:
        yield source, source  # chmod below, once the data is written
        return
    if subprocess.run(["mount", "--bind", str(source), str(view)], capture_output=True).returncode:
        pytest.skip("running as root without the right to mount: no way to make a folder read-only")
    try:
        yield source, view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def _make_read_only(source: Path, view: Path) -> None:
    if source == view:
        for folder, _, _ in os.walk(source):
            os.chmod(folder, 0o500)
    else:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True)
    assert not os.access(view, os.W_OK)


def _fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_read_only_data_folder_opens_for_reading_and_refuses_writes(
    tmp_path: Path, read_only_view: tuple[Path, Path]
) -> None:
    source, view = read_only_view
    assert run_cli(source / "data", "ingest", *_docs(tmp_path, 2)).returncode == 0
    assert "14 characters" in run_cli(source / "data", "ask", "How long must passwords be?").stdout
    before = _fingerprint(source / "data")
    _make_read_only(source, view)
    data = view / "data"

    listed = run_cli(data, "documents")
    assert listed.returncode == 0, listed.stderr
    assert "policy0.txt" in listed.stdout and "policy1.txt" in listed.stdout
    assert f"The data folder {data} is read-only" in listed.stderr
    sessions = run_cli(data, "sessions")
    assert sessions.returncode == 0 and "How long must passwords be?" in sessions.stdout

    (tmp_path / "new.txt").write_text("Visitors sign in at the reception desk.\n", encoding="utf-8")
    doc_id = listed.stdout.split()[0]
    for command in (["ingest", str(tmp_path / "new.txt")], ["ask", "How long?"], ["delete", doc_id]):
        out = run_cli(data, *command)
        assert out.returncode == 2, (command, out.stdout, out.stderr)
        assert f"the data folder {data} is read-only" in out.stderr and "Traceback" not in out.stderr
    assert _fingerprint(source / "data") == before  # nothing written, not even a lock file


def test_the_store_on_a_read_only_folder_reads_and_names_the_folder_on_write(
    read_only_view: tuple[Path, Path],
) -> None:
    source, view = read_only_view
    with Store(Settings(data_dir=source / "data")) as store:
        store.save_app_settings({"top_k": 3})
    _make_read_only(source, view)
    with Store(Settings(data_dir=view / "data")) as store:
        assert store.read_only == str(view / "data")
        assert store.get_app_settings() == {"top_k": 3}
        with pytest.raises(StoreReadOnlyError, match=f"the data folder {view / 'data'} is read-only"):
            store.save_app_settings({"top_k": 4})
