"""Whether a full-screen app can run here: a terminal on stdout, or a browser page."""

from __future__ import annotations

import os
import sys

from ..core.model.errors import InputError, Problem


def has_display() -> bool:
    """A terminal on stdout, or a browser page: ``toolscope serve`` runs each page's app with
    Textual's web driver (``TEXTUAL_DRIVER``), which talks to the page through stdin/stdout."""
    return sys.stdout.isatty() or os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver:")


def require_display(*hints: str) -> None:
    """Exit 2 without a display: a full-screen app on a pipe or a file only writes escape codes
    until it is killed. ``hints``: what to do instead."""
    if not has_display():
        problems = [Problem("", hint) for hint in hints]
        raise InputError("stdout", "is not a terminal: toolscope inspect is interactive", problems)
