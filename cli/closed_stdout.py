"""Stdout's reader went away (``toolscope tools big.json | head``): stop quietly.

Like ``git log | head`` or ``seq 100000 | head``: no traceback, no "Exception ignored"
line at interpreter shutdown, and the status a shell shows for a process ended by
SIGPIPE (141). Not 0: the output was cut short, and a ``check`` whose answer nobody read
must never read as green under ``set -o pipefail``; not 1 or 70: nothing was negative and
nothing is broken.

An output smaller than the pipe's buffer is written whole before ``head`` reads a byte, so no
write ever fails: ``stop_if_reader_left_early`` notices a reader that closed before the end
of the output all the same (a reader that wants everything waits for end-of-file, which only
toolscope's exit sends).

Every place that notices a closed stdout ends here: a command's own write or its last
flush (``handle_errors``; ``InertConsole`` re-raises Rich's broken pipe), Rich's stock
console (it turns the error into ``SystemExit(1)``), Typer's main loop (``--help``; it
exits 1) and the final flush of buffered output (``app.main``).
"""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
import time
from typing import NoReturn

from ..core.model.errors import EXIT_STDOUT_CLOSED


def stdout_fd() -> int:
    """The descriptor toolscope's stdout writes to now.

    Not always 1: while a factory's code may run, fd 1 points at stderr and toolscope's
    stdout lives on a private copy (``user_code_guard.protect_stdout``).
    """
    for stream in (sys.stdout, sys.__stdout__):
        try:
            if stream is not None:
                return stream.fileno()
        except (OSError, ValueError, AttributeError):
            continue
    return 1


def reader_gone() -> bool:
    """Whether stdout is a pipe (or socket) whose reading end is closed."""
    try:
        fd = stdout_fd()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        events = poller.poll(0)
    except (OSError, ValueError, AttributeError):
        return False
    return any(event & select.POLLERR for _, event in events)


def caused_by_closed_stdout(exc: BaseException) -> bool:
    """Whether ``exc`` is (or Rich's/Typer's exit wraps) a write to a stdout nobody reads.

    A broken pipe to anything else (an MCP server's stdin) is not: stdout must be the one
    whose reader is gone.
    """
    if isinstance(exc, SystemExit):
        # Rich raises SystemExit(1) while handling the BrokenPipeError (and has already
        # pointed stdout at /dev/null, so the pipe can no longer be asked).
        context = exc.__context__
        return _is_epipe(context) and exc.code == 1
    return _is_epipe(exc) and reader_gone()


def _is_epipe(exc: BaseException | None) -> bool:
    # InertConsole re-raises Rich's broken pipe as a bare BrokenPipeError (no errno).
    return isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE)


def silence_stdout() -> None:
    """Point stdout's descriptor at /dev/null: output still buffered is flushed there at
    shutdown instead of failing again with "Exception ignored ... BrokenPipeError"."""
    try:
        fd = stdout_fd()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def stop_quietly() -> NoReturn:
    """End the process with ``EXIT_STDOUT_CLOSED``, printing nothing."""
    silence_stdout()
    raise SystemExit(EXIT_STDOUT_CLOSED)


def flush_or_stop() -> None:
    """Flush stdout now (not at shutdown, where a failure is printed and exits 120)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:
        if _is_epipe(exc):
            stop_quietly()
        raise


DRAIN_LIMIT_S = 0.5
"""How long, at most, exit waits for the reader to take what is still in the pipe (a reader that
is slower, such as a pager the user has not scrolled, just gets end-of-file as before)."""
CLOSE_GRACE_S = 0.05
"""After the reader took the last byte: how long a reader such as ``head`` has to close its end
(it does at once; one that wants everything blocks waiting for end-of-file)."""


def stop_if_reader_left_early() -> None:
    """At exit, with stdout a pipe: exit 141 if its reader closes before end-of-file.

    ``tools seed.json | head -3``: the whole table fits in the pipe, so every write succeeded;
    ``head`` then reads it, keeps three lines and closes while toolscope still holds the
    pipe open. Bounded (``DRAIN_LIMIT_S`` + ``CLOSE_GRACE_S``); never for a terminal or a file.
    """
    try:
        fd = stdout_fd()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
    except (OSError, ValueError, AttributeError):
        return
    deadline = time.monotonic() + DRAIN_LIMIT_S
    while _unread_bytes(fd) > 0 and time.monotonic() < deadline:
        if _closed(poller, 0.005):
            stop_quietly()
    if _unread_bytes(fd) == 0 and _closed(poller, CLOSE_GRACE_S):
        stop_quietly()


def _closed(poller: select.poll, wait_s: float) -> bool:
    """Whether the pipe's reader has gone, waiting at most ``wait_s`` for it to go."""
    # POLLOUT is reported at once while the buffer has room: wait in small steps for POLLERR.
    end = time.monotonic() + wait_s
    while True:
        if any(event & select.POLLERR for _, event in poller.poll(0)):
            return True
        left = end - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(left, 0.005))


def _unread_bytes(fd: int) -> int:
    """Bytes written to the pipe that its reader has not taken yet (Linux answers on either end)."""
    import array
    import fcntl
    import termios

    count = array.array("i", [0])
    try:
        fcntl.ioctl(fd, termios.FIONREAD, count, True)
    except OSError:
        return 0
    return count[0]
