"""Appending whole lines to a capture file, counting the ones that could not be written.

A write that fails part-way (a full disk, the file-size limit ``ulimit -f``) leaves no
partial line behind: the file is cut back to the end of the last whole line, so every
later line is still readable, and the line is counted ``lost`` with the reason. A line
that would take the file past ``MAX_FILE_BYTES`` (the reader's limit) is lost the same way.
The record worker and the server's own fallback write through this one class; its counts
make the command's summary and exit status (``cli/commands/capture.py``).
"""

from __future__ import annotations

import os

from .line_limits import MAX_FILE_BYTES

__all__ = ["LineSink"]


class LineSink:
    """Whole lines to the file descriptor ``fd`` (opened for writing, at its end)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.offset = os.lseek(fd, 0, os.SEEK_END)
        self.written = 0
        self.lost = 0
        self.reason: str | None = None
        """Why the first lost line was lost."""

    def write(self, line: bytes) -> bool:
        """Append ``line`` whole (True), or leave the file as it was and count it lost (False)."""
        if self.offset + len(line) > MAX_FILE_BYTES:
            return self.lose(f"the capture file reached the readers' limit of {MAX_FILE_BYTES:,} bytes")
        view = memoryview(line)
        done = 0
        try:
            while done < len(line):
                done += os.write(self.fd, view[done:])
        except OSError as exc:
            self._take_back()
            return self.lose(exc.strerror or str(exc))
        self.offset += len(line)
        self.written += 1
        return True

    def lose(self, reason: str) -> bool:
        """Count one line lost (``reason``: the first one is kept); False."""
        self.lost += 1
        if self.reason is None:
            self.reason = reason[:300]
        return False

    def _take_back(self) -> None:
        try:
            os.ftruncate(self.fd, self.offset)
            os.lseek(self.fd, self.offset, os.SEEK_SET)
        except OSError:
            pass  # the next line's write fails the same way, and is counted
