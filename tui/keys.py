"""Which keys a focused text box takes as text, so the footer and F1 never advertise them there."""

from __future__ import annotations

from .textual_private import character_to_key

# Key names of everything typed with a printable ASCII character ("q", "question_mark", "slash"…).
TYPING_KEYS = frozenset(character_to_key(chr(code)) for code in range(32, 127))


def types_into_box(key: str) -> bool:
    """True when an Input with the focus would insert ``key`` as text instead of running a binding."""
    return key in TYPING_KEYS or (len(key) == 1 and key.isprintable())
