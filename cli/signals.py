"""SIGTERM and SIGHUP end toolscope the way Ctrl-C does: through every cleanup.

By default those signals kill the interpreter on the spot, skipping ``finally`` blocks:
a half-written report's temporary file stays behind and MCP servers outlive a cancelled
CI job. Here they are delivered as SIGINT (an asyncio run cancels its tasks, anything else
gets ``KeyboardInterrupt``), and once everything has unwound the process ends by the
signal it received, so the parent sees the usual "terminated" status.
"""

from __future__ import annotations

import os
import signal
from types import FrameType

_received: list[int] = []
TERMINATING = (signal.SIGTERM, signal.SIGHUP)


def _deliver_as_interrupt(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)  # asyncio's runner or default_int_handler
    else:
        raise KeyboardInterrupt


def install() -> None:
    """Route SIGTERM and SIGHUP through the SIGINT path (main thread only)."""
    for signum in TERMINATING:
        if signal.getsignal(signum) is signal.SIG_IGN:
            continue  # nohup and friends asked for it to be ignored
        signal.signal(signum, _deliver_as_interrupt)


def note_received(signum: int) -> None:
    """Record a signal a command handled itself (``serve``'s event loop) so that the process
    still ends by it once the command has cleaned up."""
    _received.append(signum)


def received() -> int | None:
    """The terminating signal that arrived, if any."""
    return _received[0] if _received else None


def end_by_received_signal() -> None:
    """If a terminating signal arrived, end the process by that signal (after cleanups)."""
    signum = received()
    if signum is None:
        return
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
