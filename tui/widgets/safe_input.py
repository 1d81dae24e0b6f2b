"""Text boxes that never hold terminal control characters.

An Input writes its value to the terminal as is: an ESC in it is a real escape sequence.
Values set by code are made inert before they go in (see ``ChecklistView.ask``); this
covers what the user pastes or types (e.g. a tool name copied from a hostile config).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

# Same set as ``core.text.safe_text``: C0 (except tab), DEL, C1, bidi and zero-width characters.
NO_CONTROL = r"[^\x00-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]*"


def safe_input(**kwargs: Any) -> Input:
    """An ``Input`` that refuses inserted text with control characters (typing or paste)."""
    return Input(restrict=NO_CONTROL, **kwargs)
