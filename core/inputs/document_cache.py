"""The documents this process parsed last, for readers that need the same data again."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .documents import Document

_PARSED: dict[Path, Document] = {}
"""Resolved path → the last Document parsed from it; the most recent ``_PARSED_KEPT`` files only."""
_PARSED_KEPT = 16


def parsed_document(path: Path | str) -> Document | None:
    """The Document this process last parsed from ``path`` (one of the last 16 files parsed), or None.

    For readers that need the same data again (a report's secret scan): a 50,000-tool
    registry is a megabyte of JSON, and this is the data the loader actually read. Keeping
    it costs little: its strings are the ones the loaded subject holds anyway.
    """
    try:
        return _PARSED.get(Path(path).resolve())
    except (OSError, RuntimeError):
        return None


def remember_document(path: Path, document: Document) -> None:
    """Keep ``document`` as the last one parsed from ``path`` (the 16 most recent files only)."""
    try:
        key = path.resolve()
    except (OSError, RuntimeError):
        return  # an unresolvable path is simply not remembered
    _PARSED.pop(key, None)
    _PARSED[key] = document
    if len(_PARSED) > _PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]
