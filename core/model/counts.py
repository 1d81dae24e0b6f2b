"""Counted nouns for every front end: ``1 tool``, ``50,005 tools``, ``0 warnings``."""

from __future__ import annotations


def count_of(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with ``noun``: thousands separated, singular for exactly one.

    ``plural`` is for nouns that do not take a plain ``s`` (``count_of(2, "entry", "entries")``).
    """
    word = noun if number == 1 else (plural or noun + "s")
    return f"{number:,} {word}"
