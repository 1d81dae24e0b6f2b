"""``FilterCustomToolsByCategory`` (coding-agent-loop ``base_orchestrator_tools.go``), §3.2.

Which custom (direct) tools the app registers for a step from ``enabled_custom_tools``:

* empty list → every tool unchanged (code ``no_filter``);
* entries split on the FIRST ``:``; an entry without ``:`` is skipped, yet the list is
  non-empty so filtering is strict;
* ``cat:*`` → the tools of ``cat`` from the caller's category table (exact key; an
  unknown category expands to nothing) (code ``category_wildcard``);
* ``cat:tool`` → enables the tool name alone; the category is ignored
  (``anything:notify_user`` enables ``notify_user``) (code ``tool_entry``);
* anything else is dropped (code ``not_enabled``).

Tool names are compared exactly: no normalization, no trimming.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .filter_decisions import quote

__all__ = [
    "CODE_CATEGORY_WILDCARD",
    "CODE_NOT_ENABLED",
    "CODE_NO_FILTER",
    "CODE_TOOL_ENTRY",
    "CustomDecision",
    "filter_custom_tools",
    "unknown_wildcard_categories",
]

CODE_NO_FILTER = "no_filter"
CODE_CATEGORY_WILDCARD = "category_wildcard"
CODE_TOOL_ENTRY = "tool_entry"
CODE_NOT_ENABLED = "not_enabled"

_FIELD = "enabled_custom_tools"


@dataclass(frozen=True, slots=True)
class CustomDecision:
    """Whether ``enabled_custom_tools`` lets a custom tool be registered, and why."""

    include: bool
    code: str
    reason: str
    entry: str | None = None


_NO_FILTER = CustomDecision(True, CODE_NO_FILTER, f"{_FIELD} is empty, so every custom tool is registered")


def _enabling_entries(enabled: Sequence[str], category_tools: Mapping[str, Sequence[str]]) -> dict[str, CustomDecision]:
    """Tool name → decision of the first entry (list order) that enables it."""
    decisions: dict[str, CustomDecision] = {}
    for entry in enabled:
        category, sep, tool = entry.partition(":")
        if not sep:
            continue  # Go: len(parts) != 2 → skipped
        if tool == "*":
            names = category_tools.get(category, ())
            if not names:
                continue
            decision = CustomDecision(
                True,
                CODE_CATEGORY_WILDCARD,
                f"enabled by {quote(entry)} in {_FIELD}",
                entry,
            )
            for name in names:
                decisions.setdefault(name, decision)
        elif tool not in decisions:
            decisions[tool] = CustomDecision(
                True,
                CODE_TOOL_ENTRY,
                f"enabled by {quote(entry)} in {_FIELD} (the category of cat:tool entries is ignored)",
                entry,
            )
    return decisions


def filter_custom_tools(
    enabled: Sequence[str],
    category_tools: Mapping[str, Sequence[str]],
    tool_names: Iterable[str],
) -> dict[str, CustomDecision]:
    """Decide every name in ``tool_names`` as ``FilterCustomToolsByCategory`` would.

    ``category_tools`` maps a category (exact string, as in ``getToolNamesByCategory``)
    to its tools, with aliases such as ``workspace_tools`` already expanded by the caller.
    """
    names = list(tool_names)
    if len(enabled) == 0:
        return {name: _NO_FILTER for name in names}
    enabled_by = _enabling_entries(enabled, category_tools)
    note = ""
    if any(":" not in entry for entry in enabled):
        note = "; entries without ':' are skipped but still make the list strict"
    excluded = CustomDecision(
        False,
        CODE_NOT_ENABLED,
        f"no {_FIELD} entry enables it (entries: "
        f"{', '.join(quote(e) for e in enabled[:8])}"
        f"{', …' if len(enabled) > 8 else ''}){note}",
    )
    return {name: enabled_by.get(name, excluded) for name in names}


def unknown_wildcard_categories(enabled: Sequence[str], category_tools: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """Entries ``cat:*`` whose ``cat`` is not in ``category_tools`` (they enable nothing).

    Returns the verbatim entries, in list order, without duplicates.
    """
    unknown: list[str] = []
    for entry in enabled:
        category, sep, tool = entry.partition(":")
        if sep and tool == "*" and category not in category_tools and entry not in unknown:
            unknown.append(entry)
    return tuple(unknown)
