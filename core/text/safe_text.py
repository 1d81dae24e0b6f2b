"""Untrusted text made inert: the one definition of an unsafe character, used by every output.

Tool names and descriptions come from servers nobody here controls. A character is unsafe
when a terminal, a Markdown or HTML viewer or a shell would act on it instead of showing
it, or when it draws as nothing and so can disguise a name: Unicode's control (Cc), format
(Cf: bidi marks, overrides and isolates, zero-width characters, the soft hyphen, U+180E,
tags), surrogate (Cs: a lone one cannot even be encoded to UTF-8), line and paragraph
separator (Zl, Zp) categories, and the default-ignorable characters of other categories
that draw as nothing (U+034F, U+17B4/5, the Hangul fillers, unassigned U+2065).
Variation selectors are left alone: they only pick a glyph (the emoji form of ❤).

Every front end shows an unsafe character as an escape (``\\x1b``, ``\\u202e``): the
terminal (``inert``), JSON (``inert_json``), Markdown and HTML (which call ``inert``),
shell quoting (``core.text.shell``) and text boxes (``INPUT_PATTERN``). Rich markup is
neutralised elsewhere, by never parsing it (callers build ``rich.text.Text`` from plain
strings).
"""

from __future__ import annotations

import math
import re
from typing import Any

UNICODE_VERSION = "14.0.0"
"""The Unicode data (Python 3.11's ``unicodedata``) ``UNSAFE_RANGES`` was generated from."""

CATEGORIES = ("Cc", "Cf", "Cs", "Zl", "Zp")
DRAWN_AS_NOTHING = (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2065, 0x3164, 0xFFA0)
"""Default-ignorable code points outside ``CATEGORIES`` that render as nothing."""

# Generated from CATEGORIES and DRAWN_AS_NOTHING by ``unsafe_ranges()`` (computing it takes
# 0.4 s, too long for every command's start; tests/core/test_safe_text.py checks it is current).
UNSAFE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F),
    (0x007F, 0x009F),
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xD800, 0xDFFF),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)


def unsafe_ranges() -> tuple[tuple[int, int], ...]:
    """``UNSAFE_RANGES`` computed from this interpreter's ``unicodedata`` (slow: for the test)."""
    import unicodedata

    points = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)) in CATEGORIES or cp in DRAWN_AS_NOTHING]
    ranges: list[list[int]] = []
    for cp in points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return tuple((start, end) for start, end in ranges)


def char_class(*, allow: str = "") -> str:
    """The unsafe characters as the body of a regex character class, less those in ``allow``."""
    allowed = sorted(ord(char) for char in allow)
    parts = []
    for start, end in UNSAFE_RANGES:
        for cut in allowed:  # split a range around each allowed character
            if start <= cut <= end:
                if start < cut:
                    parts.append((start, cut - 1))
                start = cut + 1
        if start <= end:
            parts.append((start, end))
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in parts)


UNSAFE = re.compile(f"[{char_class()}]")
"""Any unsafe character (tabs and newlines included)."""
_UNSAFE_IN_PROSE = re.compile(f"[{char_class(allow=chr(9) + chr(10))}]")
# json.dumps escapes C0 itself; a raw newline in indented JSON is its layout.
_UNSAFE_IN_JSON = re.compile(f"[{char_class(allow=''.join(map(chr, range(0x20))))}]")

INPUT_PATTERN = f"[^{char_class(allow=chr(9))}]*"
"""A text box's ``restrict`` pattern: any text without unsafe characters (a tab may be typed)."""


def escape(char: str) -> str:
    """A character as a visible escape: ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _escape_match(match: re.Match[str]) -> str:
    return escape(match.group())


def inert(text: str, *, single_line: bool = False) -> str:
    """``text`` with every unsafe character shown as an escape (tabs and newlines kept).

    ``single_line`` shows newlines and tabs as escapes too (for table cells and names).
    """
    if single_line:
        text = text.replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")
    if _UNSAFE_IN_PROSE.search(text) is None:
        return text
    return _UNSAFE_IN_PROSE.sub(_escape_match, text)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # JSON escapes are UTF-16: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def inert_json(text: str) -> str:
    """JSON text (``json.dumps(ensure_ascii=False)`` or orjson) with every unsafe character
    written as a ``\\uXXXX`` escape: the same data, inert on screen."""
    if text.isascii() and "\x7f" not in text:
        return text  # the common case, decided without a regex pass (isascii is O(1) for str)
    if _UNSAFE_IN_JSON.search(text) is None:
        return text
    return _UNSAFE_IN_JSON.sub(_json_escape, text)


def has_unsafe(text: str) -> bool:
    """True when ``text`` holds an unsafe character (tabs and newlines count)."""
    return UNSAFE.search(text) is not None


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
