"""mcpagent's ``ToolFilter.ShouldIncludeServer`` (reference §1.5): whether code-execution
discovery keeps an MCP server, decided from the step's lists alone.

No system-category exemption here (§10.3); a server that no entry names is kept when
selected_servers is empty (its tools are then excluded one by one by ShouldIncludeTool).
Codes: ``no_filtering``, ``wildcard``, ``specific_entries``, ``selected_server``,
``server_not_selected`` (the only exclude) and ``servers_unrestricted``.
"""

from __future__ import annotations

from .filter_decisions import (
    CODE_NO_FILTERING,
    CODE_SELECTED_SERVER,
    CODE_SERVER_NOT_SELECTED,
    CODE_SERVERS_UNRESTRICTED,
    CODE_SPECIFIC_ENTRIES,
    CODE_WILDCARD,
    FIELD_SELECTED_SERVERS,
    FIELD_SELECTED_TOOLS,
    FilterDecision,
    quote,
)
from .filter_entries import SelectedEntries
from .names import normalize_server_name

NO_FILTERING = FilterDecision(
    True,
    CODE_NO_FILTERING,
    "selected_tools and selected_servers are both empty, so no filtering is active",
)
"""Both lists empty: the same answer for every tool and server (shared by ShouldIncludeTool)."""


def decide_server(entries: SelectedEntries, server: str) -> FilterDecision:
    """§1.5 in Go's order, once filtering is active: a wildcard, specific entries, selected_servers."""
    norm = normalize_server_name(server)
    wildcard = entries.all_tools.get(norm) or entries.all_tools.get(server)
    if wildcard is not None:
        return FilterDecision(
            True,
            CODE_WILDCARD,
            f"selected_tools entry {quote(wildcard)} selects every tool of {quote(server)}",
            wildcard,
            FIELD_SELECTED_TOOLS,
        )
    specific = entries.specific_ns.get(norm) or entries.specific_ns.get(server)
    if specific is not None:
        return FilterDecision(
            True,
            CODE_SPECIFIC_ENTRIES,
            f"selected_tools entry {quote(specific)} names a tool of {quote(server)}",
            specific,
            FIELD_SELECTED_TOOLS,
        )
    entry = entries.selected_server_entry(server, norm)
    if entry is not None:
        return FilterDecision(
            True,
            CODE_SELECTED_SERVER,
            f"selected_servers entry {quote(entry)} names {quote(server)}",
            entry,
            FIELD_SELECTED_SERVERS,
        )
    if entries.selected_servers:
        return FilterDecision(
            False,
            CODE_SERVER_NOT_SELECTED,
            f"{quote(server)} is not in selected_servers "
            f"{entries.quoted_servers()} and no selected_tools entry names it",
        )
    return FilterDecision(
        True,
        CODE_SERVERS_UNRESTRICTED,
        f"selected_servers is empty, so server discovery keeps {quote(server)} even "
        "though no selected_tools entry names it (its tools are then excluded one by one)",
    )
