"""How to read someone else's SQLite file without leaving anything beside it, and who locks it.

Opening a WAL-mode database, even read-only, makes SQLite create ``-shm`` (and ``-wal``) files
next to it. toolscope never writes beside an input, so:

- a rollback-journal database is opened ``mode=ro``;
- a WAL database with no ``-wal`` pending (none, or empty) is opened ``immutable=1``: no
  locks, no index file;
- a WAL database with a ``-wal`` pending is copied, with its ``-wal``, into a private
  temporary folder and read from there (the pending writes are part of the session), and the
  folder is removed afterwards.

A database another process holds locked is reported with that process (found with psutil
among the processes that have the file open), after SQLite's bounded busy wait.

Public API::

    with readable_copy(path) as (to_open, immutable): ...
    lock_holders(path) -> list[str]        ("pid 123 (python3)")
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HEADER = b"SQLite format 3\x00"
MAX_HOLDER_SCAN_SECONDS = 2.0
"""The process scan for a lock's holder stops after this long (a busy machine has many)."""


def is_wal(path: Path) -> bool:
    """The file is a SQLite database in WAL mode (header bytes 18 and 19 are 2)."""
    from ...inputs.input_files import read_head
    from ...model.errors import InputError

    try:
        head = read_head(path, 20, "session database")  # checked: a pipe there is never waited on
    except InputError:
        return False
    return head.startswith(HEADER) and len(head) == 20 and head[18] == 2 and head[19] == 2


def _pending_wal(path: Path) -> Path | None:
    wal = Path(f"{path}-wal")
    try:
        return wal if wal.stat().st_size > 0 else None
    except OSError:
        return None


@contextlib.contextmanager
def readable_copy(path: Path) -> Iterator[tuple[Path, bool]]:
    """(the file to open, whether to open it ``immutable``); see the module docstring."""
    if not is_wal(path):
        yield path, False
        return
    wal = _pending_wal(path)
    if wal is None:
        yield path, True
        return
    with tempfile.TemporaryDirectory(prefix="toolscope-db-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, Path(f"{copy}-wal"))
        yield copy, False


def lock_holders(path: Path) -> list[str]:
    """The other processes that have ``path`` (or its journal files) open: ``pid N (name)``."""
    import psutil

    try:
        real = os.path.realpath(path)
    except OSError:
        return []
    wanted = {real, f"{real}-wal", f"{real}-journal", f"{real}-shm"}
    found = []
    deadline = time.monotonic() + MAX_HOLDER_SCAN_SECONDS
    for process in psutil.process_iter(["pid", "name"]):
        if time.monotonic() > deadline:
            break
        if process.info["pid"] == os.getpid():
            continue
        try:
            files = process.open_files()
        except (psutil.Error, OSError):
            continue
        if any(f.path in wanted for f in files):
            found.append(f"pid {process.info['pid']} ({process.info['name']})")
    return found
