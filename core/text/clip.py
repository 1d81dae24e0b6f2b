"""Long untrusted text clipped for showing: its start, its end, and how much was left out.

A recorded session can carry an argument or a result of any size (a model wrote 50 MB of
group names once); every place that shows such text (the terminal, the reports, the TUI,
``--json``) shows at most ``SHOWN_CHARS`` characters of it. The replay itself still sends the
whole text to AgentScope: only what is shown is clipped.

Public API::

    clip(text, limit=SHOWN_CHARS) -> str
    clip_all(json_like) -> the same shape, every string and key clipped
"""

from __future__ import annotations

from typing import Any

SHOWN_CHARS = 2000
"""The most characters of one recorded text that are shown (head and tail together)."""
MAX_DEPTH = 64
"""Nesting shown by ``clip_all``."""


def clip(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` when it is at most ``limit`` characters, else its head and tail around a count of the rest."""
    if len(text) <= limit:
        return text
    head = limit * 3 // 4
    tail = limit - head
    return f"{text[:head]} … [{len(text) - head - tail:,} characters not shown] … {text[len(text) - tail :]}"


def clip_all(value: Any, depth: int = 0) -> Any:
    """A JSON-like value with every string and key ``clip``-ped (outputs made from recorded text).

    Nesting deeper than ``MAX_DEPTH`` is shown as ``"…"`` (a model's argument may nest anything)."""
    if isinstance(value, str):
        return clip(value)
    if depth >= MAX_DEPTH and isinstance(value, dict | list | tuple):
        return "…"
    if isinstance(value, dict):
        return {clip(k) if isinstance(k, str) else k: clip_all(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clip_all(v, depth + 1) for v in value]
    return value
