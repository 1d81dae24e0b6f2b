"""Read a capture file into an ``ObservedCapture``: whole (the commands) or as it grows (the TUI).

Bounded: at most ``MAX_REQUESTS`` requests and ``MAX_BYTES`` bytes are read, a line longer
than ``MAX_LINE`` is skipped; what was cut is said in ``truncated`` / ``skipped``. A line
that is not a ``toolscope.capture/1`` record is skipped with its line number (the server
may be writing the last one; a file that has no record at all is an input error).

Public API::

    load_capture(path) -> ObservedCapture          (InputError: missing, unreadable, no records)
    CaptureFollower(path).poll() -> ObservedCapture | None   (None: nothing new)
"""

from __future__ import annotations

import json
from pathlib import Path

from ..model.errors import InputError, Problem
from .observed import MAX_REQUESTS, ObservedCapture, ObservedRequest, request_from_record

SCHEMA = "toolscope.capture/1"
MAX_BYTES = 512 * 1024 * 1024
MAX_LINE = 64 * 1024 * 1024
MAX_SKIPPED = 20
_CHUNK = 4 * 1024 * 1024


class CaptureFollower:
    """The complete lines appended since the last poll, turned into requests (read-only)."""

    def __init__(self, path: Path | str) -> None:
        """Follow ``path`` from its beginning (it may not exist yet)."""
        self.path = Path(path)
        self._offset = 0
        self._buffer = b""
        self._line = 0
        self._requests: list[ObservedRequest] = []
        self._skipped: list[str] = []
        self._truncated: str | None = None
        self.missing = False

    def _reset(self) -> None:
        self._offset, self._buffer, self._line = 0, b"", 0
        self._requests, self._skipped, self._truncated = [], [], None

    def _take(self, raw: bytes) -> None:
        self._line += 1
        if not raw.strip():
            return
        if len(self._requests) >= MAX_REQUESTS:
            self._truncated = f"only the first {MAX_REQUESTS:,} requests were read (line {self._line} on cut)"
            return
        try:
            record = json.loads(raw)
        except ValueError as exc:
            self._skip(f"line {self._line}: not JSON ({exc})")
            return
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            self._skip(f'line {self._line}: not a {SCHEMA} record (expected "schema": "{SCHEMA}")')
            return
        self._requests.append(request_from_record(record, len(self._requests) + 1, self._line))

    def _skip(self, why: str) -> None:
        if len(self._skipped) < MAX_SKIPPED:
            self._skipped.append(why)

    def poll(self) -> ObservedCapture | None:
        """The capture so far when something new was read, else None."""
        try:
            with self.path.open("rb") as handle:
                size = handle.seek(0, 2)
                if size < self._offset:  # truncated or replaced: start over
                    self._reset()
                if size == self._offset or self._truncated:
                    self.missing = False
                    return None
                handle.seek(self._offset)
                chunk = handle.read(min(_CHUNK, MAX_BYTES - self._offset))
        except OSError:
            self.missing = True
            return None
        self.missing = False
        if not chunk:
            if self._offset >= MAX_BYTES:
                self._truncated = f"only the first {MAX_BYTES:,} bytes were read"
            return None
        self._offset += len(chunk)
        lines = (self._buffer + chunk).split(b"\n")
        self._buffer = lines.pop()
        if len(self._buffer) > MAX_LINE:
            self._line += 1
            self._skip(f"line {self._line}: longer than {MAX_LINE:,} bytes")
            self._buffer = b""
        for raw in lines:
            self._take(raw)
        return self.snapshot()

    def finish(self) -> ObservedCapture:
        """Read to the end (bounded), counting a last line without a newline too."""
        while self.poll() is not None:
            pass
        if self._buffer:
            self._take(self._buffer)
            self._buffer = b""
        return self.snapshot()

    def snapshot(self) -> ObservedCapture:
        """The requests read so far."""
        return ObservedCapture(str(self.path), tuple(self._requests), self._line, tuple(self._skipped), self._truncated)


def load_capture(path: Path | str) -> ObservedCapture:
    """The whole capture file; InputError when it cannot be read or holds no capture record."""
    file = Path(path)
    if not file.is_file():
        raise InputError(str(path), "no such capture file" if not file.exists() else "not a file")
    try:
        with file.open("rb"):
            pass
    except OSError as exc:
        raise InputError(str(path), f"cannot read the capture: {exc.strerror or exc}") from None
    capture = CaptureFollower(file).finish()
    if not capture.requests:
        problems = [Problem(s.partition(":")[0], s.partition(": ")[2]) for s in capture.skipped[:5]]
        raise InputError(
            str(path),
            f"no {SCHEMA} request in the file (written by toolscope capture -o FILE)",
            problems or [Problem("(file)", "the file is empty")],
        )
    return capture
