"""Make untrusted text inert: tool names and descriptions come from servers nobody here controls.

Rich markup is neutralised by never parsing it (callers build ``rich.text.Text`` from
plain strings); this module removes what plain-string rendering would still let
through: terminal escapes and other control characters.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls (which include CSI, 0x9b), and the
# invisible format characters that reorder or hide text on screen (bidi overrides and
# isolates, zero-width characters): a name must read the same way it is stored.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str, *, single_line: bool = False) -> str:
    """Return text with control characters shown as ``\\xNN`` escapes.

    ``single_line`` also shows newlines and tabs as escapes (for table cells and names).
    """
    if single_line:
        text = text.replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_visible, text)
