"""Writing to stdout whole: a short write to a pipe must not cut the output silently."""

from __future__ import annotations

import sys


def write_stdout(payload: bytes) -> None:
    """Write ``payload`` to stdout whole, bytes as rendered (no newline translation).

    A buffered write to a pipe returns a short count, without an error, when the reader
    goes away mid-write: keep writing the rest, so the loss surfaces as BrokenPipeError
    (which the CLI answers by stopping quietly) instead of a silently cut output.
    """
    sys.stdout.flush()
    if not hasattr(sys.stdout, "buffer"):
        sys.stdout.write(payload.decode("utf-8"))
        sys.stdout.flush()
        return
    view = memoryview(payload)
    while view:
        written = sys.stdout.buffer.write(view)
        view = view[written if written is not None else len(view) :]
    sys.stdout.buffer.flush()


def write_stdout_text(text: str) -> None:
    """Write ``text`` to stdout whole: ``TextIOWrapper.write`` ignores its buffer's short count.

    A 600 KB table written in one ``sys.stdout.write`` to ``| head -c1`` wrote 64 KB, reported
    success and exited 0; through here the rest is written, and the closed pipe is an error.
    """
    stream = sys.stdout
    if not hasattr(stream, "buffer"):
        stream.write(text)
        return
    write_stdout(text.encode(getattr(stream, "encoding", None) or "utf-8", "replace"))
