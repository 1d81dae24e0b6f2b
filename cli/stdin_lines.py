"""stdin's lines for an MCP stdio server, read on the event loop and bounded.

The SDK's own stdin reader blocks a worker thread in ``readline``: a cancelled server then waits
for that thread, so Ctrl+C and SIGTERM would not end it until the client closes stdin, and a line
with no newline grows without limit. Here the loop waits until stdin is readable (cancellable at
any moment), reads what is there, and a line over ``MAX_LINE_BYTES`` is dropped whole (the SDK
receives an empty line in its place and reports it as unparsable).
"""

from __future__ import annotations

import os
import stat

MAX_LINE_BYTES = 4 * 1024 * 1024
"""The longest JSON-RPC message read (a request to toolscope is a few hundred bytes)."""
READ_BYTES = 65536


class StdinLines:
    """An async iterator over the lines of file descriptor ``fd``, decoded as UTF-8 (undecodable
    bytes replaced), each ending in its newline."""

    def __init__(self, fd: int = 0, limit: int = MAX_LINE_BYTES) -> None:
        self._fd = fd
        self._limit = limit
        self._buffer = bytearray()
        self._dropping = False
        self._ended = False
        mode = os.fstat(fd).st_mode
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._ended:
                raise StopAsyncIteration
            await self._read()

    def _take_line(self) -> str | None:
        """The next whole line in the buffer; at the end, the rest; else None (read more)."""
        end = self._buffer.find(b"\n")
        if end < 0 and not (self._ended and self._buffer):
            if len(self._buffer) > self._limit:  # too long: drop it up to its newline
                self._buffer.clear()
                self._dropping = True
            return None
        end = end + 1 if end >= 0 else len(self._buffer)
        line = bytes(self._buffer[:end])
        del self._buffer[:end]
        if self._dropping or len(line) > self._limit:
            self._dropping = False
            return "\n"
        return line.decode("utf-8", "replace")

    async def _read(self) -> None:
        import anyio
        import anyio.to_thread

        if self._pollable:
            await anyio.wait_readable(self._fd)
            chunk = os.read(self._fd, READ_BYTES)
        else:  # a regular file or /dev/null (``toolscope mcp < requests.jsonl``) never blocks
            chunk = await anyio.to_thread.run_sync(os.read, self._fd, READ_BYTES)
        if not chunk:
            self._ended = True
        self._buffer += chunk
