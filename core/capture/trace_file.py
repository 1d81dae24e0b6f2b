"""A trace as a capture: an OTLP JSON file, or a running Phoenix server, read as an ``ObservedCapture``.

``--capture`` takes either with no extra option (``observed_file.load_capture`` tells them
apart): a file whose first bytes open an OTLP export (``otlp_read.looks_like_otlp``), or an
address ``phoenix+http://HOST:PORT/projects/NAME`` (``phoenix_source``).

Public API::

    load_trace(path) -> ObservedCapture       (InputError: unreadable, not a trace, no model call with tools)
    is_trace_file(path) -> bool
"""

from __future__ import annotations

from pathlib import Path

from ..inputs.input_files import checked_path, read_bytes, read_head
from .observed import ObservedCapture
from .otlp_read import looks_like_otlp, read_otlp
from .trace_requests import observed_from_spans

__all__ = ["is_trace_file", "load_trace"]


def is_trace_file(path: Path | str) -> bool:
    """A regular file whose first bytes open an OTLP JSON export (False when nothing readable is there)."""
    info = checked_path(path, "capture file")
    if info is None or not Path(path).is_file():
        return False
    return looks_like_otlp(read_head(Path(path), 512, "capture file"))


def load_trace(path: Path | str) -> ObservedCapture:
    """The model calls of an OTLP JSON trace file (one export, or one per line)."""
    data = read_bytes(Path(path), "trace file")
    return observed_from_spans(read_otlp(data, str(path)), str(path))
