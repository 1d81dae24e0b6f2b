"""Text from the inputs as Markdown that stays text, and code spans that stay verbatim.

Untrusted text is escaped with backslashes so it can never become Markdown or HTML:
``<script>`` stays text, ``|`` cannot break a table, ``@name`` pings nobody (``&#64;``, the
one reference kept). A line-start block marker (``1.``, ``#``, ``-``) is escaped by the rule the
TUI's export uses too (``core.text.markdown``). Suggested commands and JSON arguments go in code
spans, verbatim, so they run when copied. Every piece is made inert first (``text.safe_text``).
"""

from __future__ import annotations

import functools
import re

from ..text.markdown import escape_block_start
from ..text.safe_text import inert

# Inline constructs: emphasis, code, links/images, tables, strikethrough, raw HTML and
# entities (``<``, ``>``, ``&``).
_MD_PUNCT = re.compile(r"([\\`*_\[\]|~<>&])")
# What goes in a code span, verbatim: a suggested toolscope command (a whole line), and
# the JSON arguments of a suggested call (``call reset_tools with {"web_search": true}``).
CODE_PATTERN = re.compile(r"^toolscope [^\n]+$|\{\"[^{}\n]*\}")
SPACES = re.compile(r"\s*\n\s*")


@functools.lru_cache(maxsize=65536)  # rules and namespaces repeat across thousands of rows
def md(text: str | None) -> str:
    """Untrusted text (a name) as inert, single-line Markdown, safe in table cells; a
    newline in it shows as ``\\n`` (a name must read as it is stored)."""
    if text is None:
        return ""
    text = inert(text, single_line=True)
    text = _MD_PUNCT.sub(r"\\\1", text)
    text = escape_block_start(text)
    return text.replace("@", "&#64;")


def prose(text: str | None, *, cell: bool = False) -> str:
    """Untrusted prose (a rule, message, description) as ``md`` does, but its line breaks
    become spaces, and suggested commands and JSON arguments become code spans (``cell``:
    for a table cell)."""
    if text is None:
        return ""
    text = SPACES.sub(" ", text.strip())
    out = []
    position = 0
    for match in CODE_PATTERN.finditer(text):
        out.append(md(text[position : match.start()]) if match.start() > position else "")
        out.append(code(match.group(), cell=cell))
        position = match.end()
    out.append(md(text[position:]) if position < len(text) else "")
    return "".join(out)


def code(text: str, *, cell: bool = False) -> str:
    """A code span that shows ``text`` verbatim (inert, one line): fenced with more
    backticks than any run inside it. In a table ``cell``, ``|`` is escaped (GFM tables
    undo that inside code); elsewhere it stays as is, so the command runs when copied."""
    text = inert(text, single_line=True)
    if cell:
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def html_inline(text: str | None) -> str:
    """Untrusted text for inside HTML elements (``<summary>``), where backslashes show."""
    text = inert(text or "", single_line=True)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("@", "&#64;")
