"""Text boxes that never hold terminal control characters.

An Input writes its value to the terminal as is: an ESC in it is a real escape sequence.
Values set by code are made inert before they go in (see ``ChecklistView.ask``); this
covers what the user pastes or types (e.g. a tool name copied from a hostile config).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

# The one definition of unsafe text (core.text.safe_text), as an Input's restrict pattern.
from ...core.text.safe_text import INPUT_PATTERN as NO_CONTROL


def safe_input(**kwargs: Any) -> Input:
    """An ``Input`` that refuses inserted text with control characters (typing or paste)."""
    return Input(restrict=NO_CONTROL, **kwargs)
