"""The one rendering path to the terminal: a Rich console that cannot emit untrusted escapes.

Commands build ``Text`` from plain strings (markup is never parsed), and table cells are
made inert when they are laid out; this console is the net under all of it. Every piece of
text it writes passes through ``inert()`` as the last step, so a step id, a spec name, a mode
name or a server's error text printed by any command shows its escape characters as
``\\x1b`` instead of sending them. Rich's own styling (colours, the live progress line) is
not text but separate control segments and style codes, and is left as it is.

This module is toolscope's one use of a Rich private name (``Console._render_buffer``, with
Rich pinned exactly); ``tests/test_private_apis.py`` fails when it changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

from ..core.text.safe_text import inert


class InertConsole(Console):
    """A ``rich.console.Console`` whose written text never carries control characters."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        # Rich 15 (pinned) funnels every print through here; tests/hostile checks it still does.
        safe = (
            segment if segment.control or not segment.text else Segment(inert(segment.text), segment.style)
            for segment in buffer
        )
        return super()._render_buffer(safe)

    def on_broken_pipe(self) -> None:
        # Rich's default ends the process with SystemExit(1), which reads as "a negative
        # answer" (a hidden tool, a failed check). Raised instead, so the command ends the
        # way every closed stdout does (handle_errors: quietly, exit 141) after its cleanups.
        self.quiet = True
        raise BrokenPipeError
