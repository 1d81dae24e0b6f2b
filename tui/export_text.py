"""Untrusted text as Markdown for the TUI's export: inert, readable as a plain file too.

Unlike the report (pure ASCII, see ``core.report.markdown``), the export is a UTF-8 file
that people also read in an editor: ``·``, ``Δ`` or ``✓`` stay characters instead of
``&#xB7;``-style references, and line breaks become spaces instead of a literal ``\\n``.
Markdown and HTML punctuation is still escaped, so a name can never become a link, a
heading, a table column or a tag. Text in backticks (``see `toolscope discover```) and
suggested commands become code spans, which are copied as they run.
"""

from __future__ import annotations

import re

from ..core.text.markdown import escape_block_start
from ..core.text.safe_text import inert
from ..core.text.shell import is_command

_LINE_BREAKS = re.compile(r"[\r\n\t]+")
_PUNCT = re.compile(r"([\\`*_\[\]|~])")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;"}  # "@": no @mentions from inputs
_HTML_CHARS = re.compile(r"[&<>@]")


def _one_line(text: str) -> str:
    """Line breaks and tabs as single spaces; other control and format characters as escapes."""
    return inert(_LINE_BREAKS.sub(" ", text), single_line=True)


def md(text: str | None) -> str:
    """Untrusted text as inert single-line Markdown (safe in table cells)."""
    if text is None:
        return ""
    text = _PUNCT.sub(r"\\\1", _one_line(text))
    text = escape_block_start(text)
    return _HTML_CHARS.sub(lambda m: _HTML[m.group()], text)


def code(text: str) -> str:
    """A code span: shown and copied verbatim (no escapes inside), on one line."""
    content = _one_line(text)
    fence = "``" if "`" in content else "`"
    padding = " " if content.startswith("`") or content.endswith("`") else ""
    return f"{fence}{padding}{content}{padding}{fence}"


def md_inline(text: str | None) -> str:
    """Like ``md``, but text between backticks becomes a code span (commands, names in fixes)."""
    if text is None:
        return ""
    parts = text.split("`")
    if len(parts) < 3 or len(parts) % 2 == 0:
        return md(text)  # no pair of backticks: all plain text
    return "".join(code(part) if index % 2 else md(part) for index, part in enumerate(parts))


def md_evidence(text: str) -> str:
    """One line of checklist evidence: a command as a code span, anything else as ``md_inline``."""
    return code(text) if is_command(text) else md_inline(text)
