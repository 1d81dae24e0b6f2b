"""A capture file as an ``ObservedCapture``: whole (the commands) or as it grows (the TUI).

Reads through ``core.capture.reader`` (bounded; a bad complete line is an ``InputError``
naming the file and the line). At most ``MAX_REQUESTS`` model requests are kept, and the
cut is said; ``anthropic-count-tokens`` records are not model turns and are left out
(counted in ``skipped``), and so are requests the server refused (``error``: malformed
JSON, an unknown path, …).

Public API::

    load_capture(path) -> ObservedCapture            (InputError: unreadable, not a capture, no request)
    ObservedFollower(path).poll() -> ObservedCapture | None   (None: nothing new)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..model.errors import InputError, Problem
from ..schemas.capture import CaptureRecord
from ..text.counts import counted
from .observed import MAX_REQUESTS, MODEL_PROTOCOLS, ObservedCapture, ObservedRequest, request_from_record
from .reader import CaptureFollower, read_capture

__all__ = ["ObservedFollower", "load_capture"]


class _Collected:
    """Records turned into requests, with what was left out."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.requests: list[ObservedRequest] = []
        self.records = 0
        self.counts = 0
        self.refused: dict[str, int] = {}
        """Refused requests (the record's ``error.kind``) and how many of each."""
        self.truncated: str | None = None

    def add(self, records: Iterable[CaptureRecord]) -> None:
        for record in records:
            self.records += 1
            if record.error is not None:
                self.refused[record.error.kind] = self.refused.get(record.error.kind, 0) + 1
                continue
            if record.protocol not in MODEL_PROTOCOLS:
                self.counts += 1
                continue
            if len(self.requests) >= MAX_REQUESTS:
                self.truncated = f"only the first {MAX_REQUESTS:,} model requests were read"
                continue
            self.requests.append(request_from_record(record, len(self.requests) + 1))

    def capture(self) -> ObservedCapture:
        skipped: tuple[str, ...] = (
            (f"{counted(self.counts, 'count_tokens request')}: not model turns",) if self.counts else ()
        )
        if self.refused:
            kinds = ", ".join(f"{count:,} {kind}" for kind, count in sorted(self.refused.items()))
            skipped += (f"{counted(sum(self.refused.values()), 'refused request')} ({kinds}): not model turns",)
        return ObservedCapture(self.path, tuple(self.requests), self.records, skipped, self.truncated)


def load_capture(path: Path | str) -> ObservedCapture:
    """The whole capture file; InputError when it cannot be read, is not a capture, or has no model request.

    A trace is read as a capture too (``trace_file``): an OTLP JSON file, or a Phoenix address."""
    from .phoenix_source import is_phoenix_address, load_phoenix
    from .trace_file import is_trace_file, load_trace

    if is_phoenix_address(str(path)):
        return load_phoenix(str(path))
    if is_trace_file(path):
        return load_trace(path)
    read = read_capture(path, max_records=MAX_REQUESTS * 2)
    collected = _Collected(str(path))
    collected.add(read.records)
    if read.truncated:
        collected.truncated = f"only the first {len(read.records):,} records were read"
    capture = collected.capture()
    if not capture.requests:
        raise InputError(
            str(path),
            "has no model request (toolscope capture writes one line per request)",
            [Problem("(file)", "empty" if not read.records else "only count_tokens or refused requests")],
        )
    return capture


class ObservedFollower:
    """Follow a capture file as it grows; each poll gives the whole capture so far (or None)."""

    def __init__(self, path: Path | str) -> None:
        """Follow ``path`` from its start (it may not exist yet)."""
        self.path = str(path)
        self.follower = CaptureFollower(path, max_records=MAX_REQUESTS * 2)
        self.collected = _Collected(self.path)
        self.error: str | None = None
        """The last read error (the file turned into something else); following goes on."""
        self._trace: bool | None = None
        self._stamp: tuple[int, int] | None = None

    def _is_trace(self) -> bool:
        """A trace (OTLP file, Phoenix) is read whole, again when the file changes; decided once it exists."""
        from .phoenix_source import is_phoenix_address
        from .trace_file import is_trace_file

        if self._trace is None:
            if is_phoenix_address(self.path):
                self._trace = True
            else:
                try:
                    found = is_trace_file(self.path)
                except InputError:
                    return False
                if found or os.path.exists(self.path):
                    self._trace = found
        return bool(self._trace)

    def _poll_trace(self) -> ObservedCapture | None:
        """The whole trace when the file changed since the last poll (Phoenix: read once)."""
        try:
            info = os.stat(self.path)
            stamp = (info.st_size, info.st_mtime_ns)
        except OSError:
            stamp = (0, 0)
        if stamp == self._stamp:
            return None
        self._stamp = stamp
        try:
            capture = load_capture(self.path)
        except InputError as exc:
            self.error = exc.render()
            return None
        self.error = None
        return capture

    def poll(self) -> ObservedCapture | None:
        """The capture so far when new records arrived (or the file was replaced), else None."""
        if self._is_trace():
            return self._poll_trace()
        try:
            records = self.follower.poll()
        except InputError as exc:
            self.error = exc.render()
            return None
        self.error = None
        if self.follower.restarted:
            self.collected = _Collected(self.path)
        if not records and not self.follower.restarted:
            return None
        self.collected.add(records)
        return self.collected.capture()
