"""Name normalization exactly as mcpagent's ``agent/tool_filter.go`` does it.

The Go filter compares server/package names and tool names after normalizing them
(``NormalizeServerName`` / ``NormalizeToolName``). Matching its answers bit for bit
needs Go's lowercasing, not Python's: Go's ``strings.ToLower`` maps one rune at a time
with ``unicode.ToLower`` (the simple case mapping), whereas ``str.lower()`` applies the
full mapping (``'İ'`` becomes two characters) and the Greek final-sigma rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "DEFAULT_SYSTEM_CATEGORY_BASES",
    "go_lower",
    "normalize_server_name",
    "normalize_tool_name",
    "normalize_tool_names",
    "system_categories",
]

# mcpagent @ 81894a11 (HEAD, reference §10.1). `human`, `delegation` and `skill` are
# deliberately absent: only their `_tools` forms are system categories at HEAD.
DEFAULT_SYSTEM_CATEGORY_BASES: tuple[str, ...] = (
    "workspace",
    "workspace_basic",
    "workspace_browser",
    "workspace_advanced",
    "workspace_git",
    "workspace_image_gen",
    "workspace_image_edit",
    "human_tools",
    "delegation_tools",
    "workflow",
    "skill_tools",
)

# The only characters whose per-character lowering differs from str.lower():
# U+0130 has a two-character full lowercase ('i' + combining dot) but simple lowercase
# 'i'; capital sigma is lowered contextually (final sigma) by str.lower().
_SIMPLE_LOWER_EXCEPTIONS = {"\u0130": "i"}
_NEEDS_PER_CHAR = ("\u0130", "\u03a3")

# Only plain ASCII capitals trigger the camelCase split (Go: r >= 'A' && r <= 'Z'),
# and never the first character: an empty match before each such capital that has any
# character (DOTALL: newlines too) in front of it. Without IGNORECASE [A-Z] is ASCII only.
_CAMEL_SPLIT = re.compile("(?<=.)(?=[A-Z])", re.DOTALL)


def go_lower(s: str) -> str:
    """Lowercase like Go's ``strings.ToLower``: one character at a time, simple mapping.

    ``'İ'`` maps to ``'i'`` (not ``'i̇'``), and capital sigma always maps to ``'σ'``
    (Go has no final-sigma rule). Length in characters never changes.
    """
    if s.isascii():
        return s.lower()
    if not any(ch in s for ch in _NEEDS_PER_CHAR):
        # Without those two characters str.lower() is already per-character simple mapping.
        return s.lower()
    exceptions = _SIMPLE_LOWER_EXCEPTIONS
    return "".join(exceptions.get(ch) or ch.lower() for ch in s)


@lru_cache(maxsize=65536)
def normalize_server_name(name: str) -> str:
    """``NormalizeServerName``: every ``-`` becomes ``_``, then Go-lowercase.

    ``google-sheets`` and ``Google_Sheets`` both become ``google_sheets``. Whitespace is
    never trimmed.
    """
    return go_lower(name.replace("-", "_"))


@lru_cache(maxsize=1 << 17)
def normalize_tool_name(name: str) -> str:
    """``NormalizeToolName``: ``-`` → ``_``; snake-ish names are only lowercased.

    If the name (after the hyphen replacement) contains ``_`` it is only lowercased
    (``Read_File`` → ``read_file``). Otherwise ``_`` is inserted before every ASCII
    capital ``A``-``Z`` except at the first character, then lowercased
    (``GetSheetData`` → ``get_sheet_data``, ``HTTPGet`` → ``h_t_t_p_get``; ``getÄpfel``
    is not split because ``Ä`` is not ASCII).
    """
    normalized = name.replace("-", "_") if "-" in name else name
    if "_" in normalized:
        return go_lower(normalized)
    if normalized.isascii():
        lowered = normalized.lower()
        if lowered == normalized:
            return normalized  # no capitals at all: nothing to split (the common case)
        return _CAMEL_SPLIT.sub("_", normalized).lower()
    return go_lower(_CAMEL_SPLIT.sub("_", normalized))


def normalize_tool_names(names: Iterable[str]) -> tuple[str, ...]:
    """``normalize_tool_name`` of each name, for a whole universe at once.

    The common snake_case ASCII name is lowered inline; the rest go through the function
    uncached (a universe's names are distinct: caching them would only fill the cache).
    """
    slow = normalize_tool_name.__wrapped__
    return tuple(
        name.lower() if "_" in name and "-" not in name and name.isascii() else slow(name)  # type: ignore[misc]
        for name in names
    )


def system_categories(bases: Iterable[str]) -> frozenset[str]:
    """The systemCategories set: each base, plus ``base + "_tools"`` unless it ends so."""
    result: set[str] = set()
    for base in bases:
        result.add(base)
        if not base.endswith("_tools"):
            result.add(base + "_tools")
    return frozenset(result)
