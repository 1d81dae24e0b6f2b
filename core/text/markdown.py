"""Where untrusted text would start a Markdown block, and the backslash that keeps it text.

The one block-start rule every Markdown writer uses (the report, ``core.report.markdown_text``;
the TUI's export, ``tui/export_text.py``): the report's, the stricter reading of CommonMark of
the two they had. A marker is a block start only where CommonMark reads one: an ordered-list
number (``1.``, ``2)``, up to 9 digits) or a bullet (``+``, ``-``, ``*``) or a heading
(``#`` to ``######``) followed by a space or the end, or a line of ``=`` (a setext underline).
So every block start is escaped and nothing else is: ``0.1.0``, ``#hashtag`` and ``-x`` stay as
they are written (the TUI's rule also escaped those; ``tests/report/test_report_escaping.py``
pins both sides).
"""

from __future__ import annotations

import re

BLOCK_START = re.compile(r"^(\d{1,9})([.)])(?=\s|$)|^(#{1,6}|[+\-*])(?=\s|$)|^(=+)(?=\s*$)")


def _escaped(match: re.Match[str]) -> str:
    marker = match.group(3) or match.group(4)
    if marker:
        return "\\" + marker
    return f"{match.group(1)}\\{match.group(2)}"


def escape_block_start(text: str) -> str:
    """``text`` with a backslash before a line-start block marker (``1. a`` → ``1\\. a``, ``# a`` → ``\\# a``)."""
    return BLOCK_START.sub(_escaped, text)
