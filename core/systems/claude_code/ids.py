"""Claude Code's own words: its stages (in the CLI's own order), finding kinds, input kind.

Each member *is* its string; the registry (``system.py``) declares them.
"""

from __future__ import annotations

from enum import StrEnum


class ClaudeStage(StrEnum):
    """The gates of a Claude Code MCP tool, in order."""

    SOURCE = "source"
    """A file Claude reads defines the server (scope)."""
    PRECEDENCE = "precedence"
    """This definition wins over same-name ones in other scopes."""
    APPROVAL = "approval"
    """A .mcp.json server is approved (-p and interactive answers differ)."""
    POLICY = "policy"
    """allowedMcpServers / deniedMcpServers let the server start."""
    CONNECTION = "connection"
    """The server started and listed its tools."""
    NAMING = "naming"
    """The model-facing name, and collisions."""
    DENY = "deny"
    """No permissions.deny rule removes the tool."""
    IN_CONTEXT = "in_context"
    """The tool reaches the model, in full or deferred behind tool search."""
    CALLABLE = "callable"
    """A call runs under the permission mode and rules."""


class ClaudeFinding(StrEnum):
    """What a Claude Code ``check`` finding is about (also ``coding_cli.ids.CodingCliFinding``)."""

    UNREAD_SERVERS = "unread_servers"
    """mcpServers in a file Claude never reads (settings.json, ~/.mcp.json)."""
    RULE_MATCHES_NOTHING = "rule_matches_nothing"
    """A permission rule (or server policy entry) in a form that matches no tool."""
    DISABLED_BY_DIALOG = "disabled_by_dialog"
    """disabledMcpjsonServers (what the approval dialog writes) hides a .mcp.json server."""
    APPROVAL_DIFFERS = "approval_differs"
    """A .mcp.json server -p connects but the interactive app leaves pending."""
    MANAGED_EXCLUSIVE = "managed_exclusive"
    """managed-mcp.json drops every other server."""
    MCP_CONFIG_FATAL = "mcp_config_fatal"
    """--mcp-config beside managed-mcp.json: Claude Code exits 1 before any request."""
    SETTING_SOURCES = "setting_sources"
    """--setting-sources leaves a server's scope (and its settings' rules) out."""


class ClaudeInput(StrEnum):
    """``claude-code:DIR``."""

    CLAUDE_CODE = "claude_code"


CLAUDE_CODE_STAGES: tuple[ClaudeStage, ...] = tuple(ClaudeStage)
