"""The ``toolscope`` script's first step: a Ctrl+C while the command line is still being imported.

Importing ``toolscope.cli.app`` (Typer, Click, Rich, the commands) takes about 0.1 s. A Ctrl+C in
that window used to print a ``KeyboardInterrupt`` traceback from deep inside an import; here it
ends the process at once with 130, as a Ctrl+C at any later point does. Nothing has started yet,
so there is nothing to clean up. Once the import is done, the previous handler is back and
``main`` installs its own (``toolscope.cli.signals``).
"""

from __future__ import annotations

import os
import signal
from types import FrameType


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    os._exit(130)


def main() -> None:
    """Console-script entry point (``toolscope``, ``python -m toolscope``)."""
    previous = signal.getsignal(signal.SIGINT)
    # Only over Python's own handler: an ignored SIGINT (a background job) stays ignored.
    quiet = previous is signal.default_int_handler
    if quiet:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    from toolscope.cli.app import main as run

    if quiet:
        signal.signal(signal.SIGINT, previous)
    run()
