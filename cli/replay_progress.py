"""Progress of a long replay on stderr: ``--session`` (``step``, ``report``) and ``--capture`` on a toolkit.

On a terminal, from ``DRAW_AT`` turns, a counter redrawn in place at most five times a second
(``replaying turn 1200/3000 (Ctrl-C stops)``), replaced by the final count when the replay ends
(``replayed 3000 turns``); a capture's replay counts its requests the same way; piped or
captured, one line when the session has at least ``ANNOUNCE_AT`` turns, so a log shows
why the command takes a while. Only numbers are printed: nothing from the session.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator

from ..core.text.counts import counted

ANNOUNCE_AT = 500
"""Turns from which a replay says so on a non-terminal stderr."""
DRAW_AT = 50
"""Turns from which a replay draws its counter on a terminal: a shorter one ends at once, and a
"replayed 4 requests" line would only sit above the answer."""
_REDRAW = 0.2


class _Progress:
    def __init__(self, stream: object, what: str) -> None:
        self.stream = stream
        self.what = what
        self.done = 0
        self.terminal = bool(getattr(stream, "isatty", lambda: False)())
        self.drawn = False
        self.announced = False
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        self.done = done
        if self.terminal:
            if total < DRAW_AT:
                return
            now = time.monotonic()
            if now - self.last >= _REDRAW or done == total:
                self.last = now
                self._write(f"\rreplaying {self.what} {done}/{total} (Ctrl-C stops)\x1b[K")
                self.drawn = True
        elif not self.announced and total >= ANNOUNCE_AT:
            self.announced = True
            calls = (
                f"{total} reset_tools calls"
                if self.what == "turn"
                else f"the reset_tools calls of {total} {self.what}s"
            )
            self._write(f"replaying {calls} (Ctrl-C stops)\n")

    def close(self) -> None:
        if self.drawn:
            self._write(f"\rreplayed {counted(self.done, self.what)}\x1b[K\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)  # type: ignore[attr-defined]
            self.stream.flush()  # type: ignore[attr-defined]
        except (OSError, ValueError):
            pass  # stderr gone: the replay goes on


@contextlib.contextmanager
def replay_progress(what: str = "turn") -> Iterator[None]:
    """Report replay progress on stderr while the block runs (``what``: turn, or request for a capture)."""
    from ..core.systems.agentscope.session_replay import REPLAY_PROGRESS

    progress = _Progress(sys.stderr, what)
    token = REPLAY_PROGRESS.set(progress)
    try:
        yield
    finally:
        REPLAY_PROGRESS.reset(token)
        progress.close()
