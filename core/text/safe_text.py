"""Make untrusted text inert: tool names and descriptions come from servers nobody here controls.

Rich markup is neutralised by never parsing it (callers build ``rich.text.Text`` from
plain strings); this module removes what plain-string rendering would still let
through: terminal escapes and other control characters.
"""

from __future__ import annotations

import math
import re
from typing import Any

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


# What json.dumps(ensure_ascii=False) leaves raw although a terminal would act on it: DEL,
# the C1 controls (0x9b is CSI) and the invisible format characters. Inside JSON strings
# they can be written as \uXXXX: the same data, inert on screen.
_JSON_RAW = re.compile(r"[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def inert_json(text: str) -> str:
    """JSON text (from ``json.dumps``) with every terminal-active character as a ``\\uXXXX`` escape."""
    if text.isascii() and "\x7f" not in text:
        return text  # the common case, decided without a regex pass (isascii is O(1) for str)
    if _JSON_RAW.search(text) is None:
        return text
    return _JSON_RAW.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by its name (``"NaN"``, ``"Infinity"``).

    Bare ``NaN`` is not JSON: a strict reader rejects the whole document.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value
