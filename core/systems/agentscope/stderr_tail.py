"""Keep the last lines written to file descriptor 2 while a toolkit factory runs.

An MCP server started by the user's factory inherits our stderr; when it exits at once, the
SDK only says "unhandled errors in a TaskGroup" / "Connection closed" and the real cause is
what the server printed. Everything is still forwarded to the real stderr as it arrives (by
a daemon thread, for as long as any process holds the pipe), so nothing the user would have
seen is lost; the tail is kept for the error message.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator

TAIL_LINES = 8


class StderrTail:
    """The last lines seen on fd 2 (complete lines only, decoded leniently)."""

    def __init__(self) -> None:
        self._lines: deque[str] = deque(maxlen=TAIL_LINES)
        self._partial = b""
        self._lock = threading.Lock()
        self.last_feed = 0.0
        """``time.monotonic()`` of the last bytes seen."""

    def feed(self, data: bytes) -> None:
        """Add raw bytes as they arrive."""
        self.last_feed = time.monotonic()
        with self._lock:
            chunks = (self._partial + data).split(b"\n")
            self._partial = chunks.pop()[-4096:]
            for chunk in chunks:
                line = chunk.decode("utf-8", "replace").strip()
                if line:
                    self._lines.append(line[:300])

    def lines(self) -> list[str]:
        """The kept lines, oldest first (a trailing partial line included)."""
        with self._lock:
            partial = self._partial.decode("utf-8", "replace").strip()
            return [*self._lines, *([partial[:300]] if partial else [])]


@contextlib.contextmanager
def tail_stderr() -> Iterator[StderrTail]:
    """Route fd 2 through a pipe for the duration of the block; yields the tail."""
    tail = StderrTail()
    try:
        sys.stderr.flush()
        real = os.dup(2)
        read_end, write_end = os.pipe()
    except (OSError, ValueError):  # no usable fd 2 (embedded): nothing to tail
        yield tail
        return

    def forward() -> None:
        while True:
            try:
                data = os.read(read_end, 65536)
            except OSError:
                break
            if not data:
                break
            tail.feed(data)
            with contextlib.suppress(OSError):
                os.write(real, data)
        os.close(read_end)
        os.close(real)

    thread = threading.Thread(target=forward, name="toolscope-stderr-tail", daemon=True)
    thread.start()
    os.dup2(write_end, 2)
    os.close(write_end)
    try:
        yield tail
    finally:
        sys.stderr.flush()
        os.dup2(real, 2)
        # Our copy of the write end is fd 2 until here; processes the factory started keep
        # theirs, and the thread forwards their output until they exit. A server that just
        # died may still be draining its last lines: wait until the pipe is quiet (≤ 1 s).
        deadline = time.monotonic() + 1.0
        thread.join(0.1)
        while thread.is_alive() and time.monotonic() < deadline and time.monotonic() - tail.last_feed < 0.15:
            thread.join(0.05)
