"""Which files an ingest covers, and what each one is called.

A document's identity is its path relative to what the user named: `rrag ingest tree/` gives
`a/readme.md` and `b/readme.md`, two documents; a file named directly is known by its name; uploaded
bytes have no path and are known by their content hash. Ingesting the same identity again replaces
that document. Walking a folder never follows a symlink: its target may lie outside the folder.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rrag.errors import IngestError
from rrag.ingest.extract import supported_suffixes
from rrag.types import IngestResult

MAX_NAME_BYTES = 255  # what Linux, macOS and Windows file systems allow for one path component
# The journal stages a new version's original as `<name>.v<N>.partial` (rrag/ingest/journal.py): a
# name is only accepted if that staged name fits too, for any version up to this one.
MAX_VERSION = 999_999_999
UPLOAD_IDENTITY_PREFIX = "sha256:"


@dataclass(frozen=True)
class SourceFile:
    path: Path
    source: str  # the identity: relative to the folder the user named, POSIX separators


def doc_id_for(identity: str) -> str:
    """A stable, readable id per identity: a slug of the file name plus a short hash of the identity."""
    slug = re.sub(r"[^a-z0-9]+", "-", Path(identity).stem.lower()).strip("-")[:40] or "doc"
    return f"{slug}-{hashlib.sha256(identity.encode('utf-8')).hexdigest()[:10]}"


def upload_identity(sha256: str) -> str:
    return UPLOAD_IDENTITY_PREFIX + sha256


def staged_name(filename: str, version: int) -> str:
    """What the journal calls a version's original while it is being written."""
    return f"{filename}.v{version}.partial"


MAX_FILENAME_BYTES = MAX_NAME_BYTES - len(staged_name("", MAX_VERSION).encode())


def base_name(name: str) -> str:
    """The last component of a name, as a document's original is kept under (unchecked: for names
    already accepted; new names go through `safe_filename`)."""
    return name.replace("\\", "/").rsplit("/", 1)[-1].strip()


def safe_filename(name: str) -> str:
    """The last component of an uploaded name, checked: nothing is written outside its folder, and a
    name no file system accepts, as given or as staged, is refused with a message rather than an
    OSError or ValueError."""
    base = base_name(name)
    shown = repr(base if len(base) <= 60 else base[:60] + "…")
    if base in {"", ".", ".."}:
        raise IngestError(f"{name!r} is not a usable file name")
    if any(ord(ch) < 32 for ch in base):
        raise IngestError(f"{shown}: a file name cannot contain control characters (NUL, line breaks)")
    if len(base.encode("utf-8")) > MAX_FILENAME_BYTES:
        raise IngestError(
            f"{shown}: the file name is longer than {MAX_FILENAME_BYTES} bytes (the file system's "
            f"{MAX_NAME_BYTES}, less what the store adds while writing it); rename the file"
        )
    return base


def collect(paths: Sequence[Path]) -> list[SourceFile | IngestResult]:
    """The files to ingest for what the user named, in order; a result stands for each one that is
    skipped (a symlink inside a folder), an empty folder, or a name another file of this run took."""
    items: list[SourceFile | IngestResult] = []
    taken: dict[str, Path] = {}
    for named in paths:
        found: list[SourceFile | IngestResult] = (
            [*_walk(named)] if named.is_dir() else [SourceFile(named, named.name)]
        )
        if named.is_dir() and not any(isinstance(item, SourceFile) for item in found):
            found.append(
                IngestResult(
                    source=str(named),
                    status="failed",
                    error=f"{named}: no supported files in this folder "
                    f"(supported: {', '.join(supported_suffixes())})",
                )
            )
        for item in found:
            if isinstance(item, SourceFile) and item.source in taken:
                item = IngestResult(
                    source=item.source,
                    status="failed",
                    error=(
                        f"{item.path}: {taken[item.source]} in this run has the same name; ingest the folder "
                        "that holds both so that each is known by its path"
                    ),
                )
            elif isinstance(item, SourceFile):
                taken[item.source] = item.path
            items.append(item)
    return items


def _walk(folder: Path) -> list[SourceFile | IngestResult]:
    supported = set(supported_suffixes())
    found: list[SourceFile | IngestResult] = []
    for root, dirs, files in os.walk(folder):  # os.walk does not descend into symlinked folders
        dirs.sort()
        here = Path(root)
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                if path.suffix.lower() in supported or name in dirs:
                    found.append(IngestResult(source=relative, status="skipped"))
            elif path.suffix.lower() in supported:
                found.append(SourceFile(path, relative))
    return found
