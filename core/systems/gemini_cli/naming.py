"""The name Gemini CLI sends for an MCP tool (0.61.0, observed).

``mcp_<server>_<tool>``; a server name already starting ``mcp_`` gets no second prefix; every
character outside ``A-Za-z0-9_.:-`` becomes ``_``; a name over 63 characters keeps its first
30 and last 30 around ``...``.
"""

from __future__ import annotations

import re

MAX_NAME = 63
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.:-]")


def sanitise(text: str) -> str:
    """Every character outside ``A-Za-z0-9_.:-`` → ``_``."""
    return _NOT_NAME.sub("_", text)


def sent_name(server: str, tool: str) -> str:
    """The declaration's name."""
    joined = f"{server}_{tool}" if server.startswith("mcp_") else f"mcp_{server}_{tool}"
    name = sanitise(joined)
    return name if len(name) <= MAX_NAME else f"{name[:30]}...{name[-30:]}"


def wildcard_misses(server: str, tool: str) -> bool:
    """True when ``mcp_<raw server>_*`` (trust, mcp.allowed, mcp.excluded) misses the sent name."""
    return not sent_name(server, tool).startswith(f"mcp_{server}_")
