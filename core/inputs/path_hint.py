""" "Did you mean" for a file or folder that does not exist: the nearest existing path.

Each missing part of the path is replaced by the most similar name in the folder above it
(``core.text.suggest``, the one fuzzy matcher), so ``sample_configs/sed/step_confg.json``
finds ``sample_configs/seed/step_config.json``. Bounded: a folder's first ``MAX_ENTRIES``
names are looked at, and at most ``MAX_REPAIRS`` parts are replaced.
"""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

from ..text.suggest import close_matches

MAX_ENTRIES = 2000
"""Names read from one folder (a folder of 100,000 files costs no more than this)."""
MAX_REPAIRS = 4
"""Missing parts replaced at most; a path further off gets no suggestion."""


def nearest_path(path: Path | str, *, want_dir: bool | None = None) -> str | None:
    """The existing path most like ``path``, spelled as ``path`` was (relative stays relative);
    None when nothing close exists. ``want_dir``: True for a folder, False for a file."""
    given = Path(path).expanduser()
    parts = given.parts
    if not parts:
        return None
    base = Path(parts[0]) if given.is_absolute() else Path()
    start = 1 if given.is_absolute() else 0
    found = base
    repairs = 0
    for index in range(start, len(parts)):
        part = parts[index]
        last = index == len(parts) - 1
        candidate = found / part
        if candidate.exists() and (not last or _kind_ok(candidate, want_dir)):
            found = candidate
            continue
        if part in (".", "..") or repairs == MAX_REPAIRS:
            return None
        names = _names(found, dirs_only=not last or want_dir is True, files_only=last and want_dir is False)
        match = close_matches(part, names, 1, cutoff=0.6)
        if not match:
            return None
        found = found / match[0]
        repairs += 1
    return str(found) if repairs else None


def _kind_ok(path: Path, want_dir: bool | None) -> bool:
    return want_dir is None or path.is_dir() == want_dir


def _names(folder: Path, *, dirs_only: bool, files_only: bool) -> list[str]:
    """Up to ``MAX_ENTRIES`` names in ``folder`` (of folders only, or files only, when asked)."""
    try:
        with os.scandir(folder if str(folder) else ".") as entries:
            names = []
            for entry in islice(entries, MAX_ENTRIES):
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    continue
                if (dirs_only and not is_dir) or (files_only and is_dir):
                    continue
                names.append(entry.name)
            return names
    except OSError:
        return []
