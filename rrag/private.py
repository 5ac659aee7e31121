"""Data at rest is the owner's alone: the data folder 0700 and every file in it 0600, whatever the umask.

The process umask is set to 0o077 when the engine opens, so what SQLite, Chroma and the ingestor
create from then on is private; what an older version or another umask left is tightened here too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def make_private(data_dir: Path) -> None:
    """Create `data_dir` (0700) and make everything already in it owner-only. Links are not followed
    (a data folder may link to storage elsewhere); files of other owners are left alone."""
    os.umask(PRIVATE_UMASK)
    data_dir.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    _tighten(data_dir, PRIVATE_DIR_MODE)
    for folder, dirs, files in os.walk(data_dir):
        for name in dirs:
            _tighten(Path(folder, name), PRIVATE_DIR_MODE)
        for name in files:
            _tighten(Path(folder, name), PRIVATE_FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) == mode:
            return
        path.chmod(mode)
    except OSError:
        pass  # a read-only or vanished file: opening the store says what is wrong with the folder
