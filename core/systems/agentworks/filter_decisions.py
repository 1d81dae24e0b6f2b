"""The filter's answers: decision codes, ``FilterDecision``, and quoting for reason sentences.

Shared by ``tool_filter`` (ShouldIncludeTool / ShouldIncludeServer) and ``custom_filter``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

CODE_VIRTUAL = "virtual"
CODE_NO_FILTERING = "no_filtering"
CODE_SYSTEM_CATEGORY = "system_category"
CODE_WILDCARD = "wildcard"
CODE_SPECIFIC_MATCH = "specific_match"
CODE_SPECIFIC_MISS = "specific_miss"
CODE_SELECTED_SERVER = "selected_server"
CODE_SERVER_NOT_SELECTED = "server_not_selected"
CODE_STRICT_EXCLUDE = "strict_exclude"
CODE_DEFAULT_INCLUDE = "default_include"
# should_include_server only
CODE_SPECIFIC_ENTRIES = "specific_entries"
CODE_SERVERS_UNRESTRICTED = "servers_unrestricted"

FIELD_SELECTED_TOOLS = "selected_tools"
FIELD_SELECTED_SERVERS = "selected_servers"


def quote(text: str) -> str:
    """Quote untrusted text for a reason sentence: double quotes, escapes visible.

    JSON string syntax keeps trailing spaces visible (``"tavily:* "``) and escapes quotes,
    backslashes and control characters, so the sentence never carries raw terminal codes.
    """
    return json.dumps(text, ensure_ascii=False)


def quote_list(items: Sequence[str], limit: int = 8) -> str:
    """``["a", "b", … (N more)]`` for a reason sentence."""
    shown = ", ".join(quote(item) for item in items[:limit])
    if len(items) > limit:
        shown += f", … ({len(items) - limit} more)"
    return f"[{shown}]"


@dataclass(frozen=True, slots=True)
class FilterDecision:
    """One answer of the filter: include or not, which rule, and which entry decided."""

    include: bool
    code: str
    reason: str
    entry: str | None = None
    field: str | None = None
