"""Where a text nests brackets deepest: the place to name when a recursive parser gives up.

Python's ``tomllib`` raises a bare ``RecursionError`` with no position for ``a = [[[[…]]]]``;
this scan (one pass, no recursion) finds the line and column where the nesting first passes a
depth, skipping quoted strings and ``#`` comments, so the error can say where.
"""

from __future__ import annotations

import re

_TOKENS = re.compile(r""""(?:[^"\\\n]|\\.)*"|'[^'\n]*'|#[^\n]*|[\[\]{}\n]""")
"""A one-line string, a comment (both skipped whole), a bracket or a line end."""


def deep_place(text: str, depth: int) -> tuple[int, int] | None:
    """1-based (line, column) of the first ``[`` or ``{`` nested deeper than ``depth``; None when none is."""
    level, line, line_start = 0, 1, 0
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char == "\n":
            line, line_start = line + 1, token.end()
        elif char in ("[", "{"):
            level += 1
            if level > depth:
                return line, token.start() - line_start + 1
        elif char in ("]", "}"):
            level = max(0, level - 1)
    return None
