"""Which keys a focused text box takes as text, so the footer and F1 never advertise them there."""

from __future__ import annotations

from typing import Any

from .textual_private import character_to_key

# Key names of everything typed with a printable ASCII character ("q", "question_mark", "slash"…).
TYPING_KEYS = frozenset(character_to_key(chr(code)) for code in range(32, 127))


def types_into_box(key: str) -> bool:
    """True when an Input with the focus would insert ``key`` as text instead of running a binding."""
    return key in TYPING_KEYS or (len(key) == 1 and key.isprintable())


def footer_bindings(bindings: dict[str, Any], *, box_focused: bool) -> dict[str, Any]:
    """The keys in force as the footer and F1 list them (Textual's ``active_bindings``).

    A focused text box takes printable keys as text, so ``q``, ``?``, ``h``… are left out
    while it has the focus. Otherwise the first key of each action comes first (the footer
    shows the first): q before ctrl+q, ? before F1.
    """
    if box_focused:
        return {key: active for key, active in bindings.items() if not types_into_box(key)}
    return _one_key_first(bindings)


def _one_key_first(bindings: dict[str, Any]) -> dict[str, Any]:
    """The bindings with the other keys of an action that has a one-character key moved last."""
    one_key = {active.binding.action for key, active in bindings.items() if types_into_box(key)}
    later = {k: a for k, a in bindings.items() if a.binding.action in one_key and not types_into_box(k)}
    return {k: a for k, a in bindings.items() if k not in later} | later
