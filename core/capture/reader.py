"""Reading a capture file (``toolscope.capture/1`` JSON Lines), whole or live as it grows.

The capture server appends one line per request and flushes it, so a reader can meet a
half-written last line: that line is left for later (``partial_tail``), never an error.
A complete line that is not a capture record is an ``InputError`` naming the file and
the line. Everything is bounded: the file size (``MAX_INPUT_BYTES``), the number of
records (``MAX_RECORDS``) and, when following, the bytes read per poll.

Public API::

    read_capture(path, max_records=MAX_RECORDS) -> CaptureRead
    parse_capture(data: bytes, source: str, ...) -> CaptureRead
    CaptureFollower(path).poll() -> list[CaptureRecord]   # the records appended since the last poll
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ..inputs.input_files import MAX_INPUT_BYTES, read_bytes
from ..model.errors import InputError, Problem
from ..schemas.capture import CAPTURE_SCHEMA, CaptureRecord
from .line_limits import MAX_LINE_BYTES

__all__ = ["MAX_RECORDS", "CaptureFollower", "CaptureRead", "parse_capture", "read_capture"]

MAX_RECORDS = 1_000_000
"""The most records read from one file (a day of a busy agent is far fewer)."""

POLL_BYTES = MAX_LINE_BYTES
"""The most bytes one ``CaptureFollower.poll`` reads: a huge backlog arrives over several polls
(the writer never writes a longer line: ``line_limits``)."""


@dataclass(frozen=True)
class CaptureRead:
    """The complete records of a capture file (or of the bytes given)."""

    records: tuple[CaptureRecord, ...]
    partial_tail: bool
    """The data ended inside a line (a write in progress): that line was not read."""
    consumed: int
    """Bytes up to the end of the last complete line read (where a follower resumes)."""
    truncated: bool
    """Stopped at ``max_records``; more records follow."""


def read_capture(path: Path | str, max_records: int = MAX_RECORDS) -> CaptureRead:
    """Read a whole capture file; a half-written last line is skipped (see ``partial_tail``)."""
    data = read_bytes(Path(path), "capture file")
    return parse_capture(data, str(path), max_records=max_records)


def parse_capture(data: bytes, source: str, *, first_line: int = 1, max_records: int = MAX_RECORDS) -> CaptureRead:
    """Parse capture lines from ``data``; ``first_line`` numbers the first line (for messages)."""
    records: list[CaptureRecord] = []
    position = 0
    line_number = first_line - 1
    size = len(data)
    while position < size:
        if len(records) >= max_records:
            return CaptureRead(tuple(records), False, position, True)
        end = data.find(b"\n", position)
        if end < 0:
            # No newline yet: the server is still writing this line.
            return CaptureRead(tuple(records), True, position, False)
        line_number += 1
        line = data[position:end]
        position = end + 1
        if line.strip():
            records.append(_record(line, source, line_number))
    return CaptureRead(tuple(records), False, position, False)


def _record(line: bytes, source: str, line_number: int) -> CaptureRecord:
    try:
        return CaptureRecord.model_validate_json(line)
    except ValidationError as exc:
        raise _line_error(exc, line, source, line_number) from None


def _line_error(exc: ValidationError, line: bytes, source: str, line_number: int) -> InputError:
    first = exc.errors(include_url=False, include_input=False)[0]
    if first["type"] == "json_invalid":
        message = str(first.get("ctx", {}).get("error", "invalid JSON"))
        return InputError(source, "is not a capture file (JSON Lines)", [Problem(f"line {line_number}", message)])
    schema = _schema_of(line)
    if schema != CAPTURE_SCHEMA:
        shown = "no schema key" if schema is None else f"schema {schema!r}"
        return InputError(
            source,
            "is not a toolscope capture file",
            [
                Problem(
                    f"line {line_number}",
                    f"{shown}; expected {CAPTURE_SCHEMA!r} (written by toolscope capture) "
                    "or an OTLP trace in JSON (resourceSpans)",
                )
            ],
        )
    problems = []
    for error in exc.errors(include_url=False, include_input=False)[:5]:
        where = ".".join(str(part) for part in error["loc"])
        problems.append(Problem(f"line {line_number}: {where}" if where else f"line {line_number}", error["msg"]))
    return InputError(source, "has a record that does not match toolscope.capture/1", problems)


def _schema_of(line: bytes) -> object:
    import json

    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value.get("schema") if isinstance(value, dict) else None


class CaptureFollower:
    """Follow a capture file as the server appends to it (``inspect --capture`` live).

    ``poll()`` returns the records completed since the previous poll. A file that shrank
    or was replaced (a new capture run on the same path) is read again from the start;
    ``restarted`` tells the caller to drop what it had.
    """

    def __init__(self, path: Path | str, max_records: int = MAX_RECORDS) -> None:
        self.path = Path(path)
        self.max_records = max_records
        self.offset = 0
        self.lines = 0
        self.count = 0
        self.restarted = False
        self._inode: tuple[int, int] | None = None

    def poll(self) -> list[CaptureRecord]:
        """The new complete records (at most ``POLL_BYTES`` read); [] while nothing new is complete."""
        self.restarted = False
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise InputError(str(self.path), f"cannot read it: {exc.strerror or exc}") from None
        identity = (info.st_dev, info.st_ino)
        if self._inode is not None and (identity != self._inode or info.st_size < self.offset):
            self.offset, self.lines, self.count, self.restarted = 0, 0, 0, True
        self._inode = identity
        if not stat.S_ISREG(info.st_mode):
            raise InputError(str(self.path), "is not a regular file, expected a capture file")
        if info.st_size > MAX_INPUT_BYTES:
            raise InputError(str(self.path), f"is over {MAX_INPUT_BYTES:,} bytes; start a new capture file")
        if info.st_size <= self.offset or self.count >= self.max_records:
            return []
        length = min(info.st_size - self.offset, POLL_BYTES)
        data = self._read(length)
        read = parse_capture(data, str(self.path), first_line=self.lines + 1, max_records=self.max_records - self.count)
        if read.consumed == 0 and read.partial_tail and length == POLL_BYTES:
            raise InputError(str(self.path), f"line {self.lines + 1} is longer than {POLL_BYTES:,} bytes")
        self.offset += read.consumed
        self.lines += data.count(b"\n", 0, read.consumed)
        self.count += len(read.records)
        return list(read.records)

    def _read(self, length: int) -> bytes:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(fd, "rb") as handle:
                handle.seek(self.offset)
                return handle.read(length)
        except OSError as exc:
            raise InputError(str(self.path), f"cannot read it: {exc.strerror or exc}") from None
