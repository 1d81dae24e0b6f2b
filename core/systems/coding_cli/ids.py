"""The finding kinds both coding-agent CLIs emit (reference/coding-agent-clis.md §3).

Each member *is* its string; Claude Code's and Codex's ``system.py`` declare them.
"""

from __future__ import annotations

from enum import StrEnum


class CodingCliFinding(StrEnum):
    """Kinds Claude Code and Codex share."""

    UNTRUSTED_IGNORED = "untrusted_ignored"
    """Project keys ignored because the project is not trusted."""
    SERVER_BLOCKED = "server_blocked"
    """A server policy / requirements entry blocks a configured server (no trace in the CLI)."""
    NAME_COLLISION = "name_collision"
    """Two tools get the same model-facing name (Claude keeps one; Codex renames all)."""
    SLOW_SERVER = "slow_server"
    """A server measured (live discovery) slower than the CLI's start-up grace: the first request
    goes without its tools (``core.mcp.startup``)."""
    BRIDGE_BLOCKED = "bridge_blocked"
    """AgentWorks with a CLI provider: the CLI's own settings on the machine block the api-bridge."""
