"""A stdio server's stderr, kept as its last 64 KiB: read from a pipe, never stored whole.

The SDK hands ``errlog`` to the child as its stderr. A file there grows as long as the
server writes (a flooding server filled gigabytes of a temporary file within the timeout,
and the disk or tmpfs paid for it). A pipe costs nothing: a thread drains it into a
bounded buffer, so memory stays at ``2 * limit`` whatever the server writes, and the
failure reason reads its last line from that buffer.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
from typing import BinaryIO

STDERR_KEPT = 64 * 1024
"""How much of the end of a server's stderr is kept for its failure reason."""

TAIL_CHARS = 300
"""How much of the last stderr line a reason quotes."""

_CHUNK = 64 * 1024
_POLL = 0.1  # how often the reader checks whether it was asked to stop (a grandchild may keep the pipe open)


class StderrRing:
    """A pipe whose write end is the server's stderr, drained into the last ``limit`` bytes."""

    def __init__(self, limit: int = STDERR_KEPT) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._closed_fd = False
        self.total = 0
        """Bytes the server wrote to stderr (read and dropped included)."""
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)  # read by the thread and by tail: neither may block on the other
        self._read_fd = read_fd
        self.file: BinaryIO = os.fdopen(write_fd, "wb", buffering=0)
        """The write end, given to the SDK as ``errlog`` (the child's stderr)."""
        self._thread = threading.Thread(target=self._drain, name="toolscope-mcp-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._read_fd], [], [], _POLL)
            except (OSError, ValueError):
                return
            if ready and not self._pump():
                return  # every writer closed it: the server and its children are gone

    def _pump(self, most: int = 16) -> bool:
        """Read what the pipe holds now (at most ``most`` chunks) into the buffer; False at its end.

        The reader thread calls it when the pipe is ready, and ``tail`` calls it too: a server
        that wrote and exited has its words in the pipe already, but on a loaded machine the
        thread may not have been scheduled to read them before the reason is written.
        """
        with self._lock:
            if self._closed_fd:
                return False  # closed by close(): never read a descriptor number reused since
            for _ in range(most):
                try:
                    data = os.read(self._read_fd, _CHUNK)
                except BlockingIOError:
                    return True  # nothing more for now (the other reader may have taken it)
                except OSError:
                    return False
                if not data:
                    return False
                self.total += len(data)
                self._buffer += data
                # Trimmed in amortized steps: at most 2 * limit bytes are ever held.
                if len(self._buffer) > 2 * self.limit:
                    del self._buffer[: -self.limit]
            return True

    def kept(self) -> bytes:
        """The last ``limit`` bytes written so far."""
        with self._lock:
            return bytes(self._buffer[-self.limit :])

    def tail(self) -> str:
        """The last non-blank line, at most ``TAIL_CHARS`` characters (its end), or ``""``."""
        self._pump()
        text = self.kept().decode("utf-8", "replace")
        for line in reversed(text.splitlines()):
            if line.strip():
                return line.strip()[-TAIL_CHARS:]
        return ""

    def close(self, wait: float = 0.5) -> None:
        """Close our write end and stop the reader: what is buffered stays readable."""
        with contextlib.suppress(OSError):
            self.file.close()
        self._thread.join(wait)  # drains what the (now dead) server left in the pipe
        self._stop.set()
        self._thread.join(wait)
        if not self._thread.is_alive():
            with self._lock:
                self._closed_fd = True
                with contextlib.suppress(OSError):
                    os.close(self._read_fd)
