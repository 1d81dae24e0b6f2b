"""Gemini CLI's own words: its stages (in the CLI's order), finding kinds, input kind.

Each member *is* its string; the registry (``system.py``) declares them.
"""

from __future__ import annotations

from enum import StrEnum


class GeminiStage(StrEnum):
    """The gates of a Gemini CLI MCP tool, in order (reference §2)."""

    SETTINGS = "gemini_settings"
    """A settings file or an extension defines the server (workspace settings need trust)."""
    FOLDER_TRUST = "folder_trust"
    """The folder is trusted (an untrusted ``-p`` run exits 55 before any request)."""
    SERVER_GATE = "server_gate"
    """``mcp.allowed`` / ``mcp.excluded`` / ``--allowed-mcp-server-names`` / ``gemini mcp disable``."""
    CONNECTION = "connection"
    """The server started and listed its tools within its ``timeout``."""
    SERVER_FILTER = "server_filter"
    """The server's ``includeTools`` / ``excludeTools`` (raw names; exclude wins)."""
    NAMING = "naming"
    """``mcp_<server>_<tool>``, sanitised and cut to 63; collisions keep one."""
    TOOLS_EXCLUDE = "tools_exclude"
    """``tools.exclude`` and extensions' ``excludeTools``: removed whatever the policy says."""
    POLICY = "policy"
    """The policy engine's first matching rule: a DENY removes the declaration."""
    CALLABLE = "callable"
    """A call runs (ALLOW) or is refused (ASK_USER in ``-p``)."""


class GeminiFinding(StrEnum):
    """What a Gemini CLI ``check`` finding is about."""

    CORE_HIDES_MCP = "tools_core_hides_mcp"
    """``tools.core`` is set: its wildcard DENY hides every MCP tool it does not name (#28361)."""
    FOLDER_UNTRUSTED = "folder_untrusted"
    """The folder is not trusted: ``-p`` exits 55, or ``--skip-trust`` drops the workspace settings."""
    HEADLESS_UNALLOWED = "headless_unallowed"
    """``-p``: a connected server's tools are not sent because nothing allows them (#26417)."""
    WILDCARD_MISSES = "server_wildcard_misses"
    """``trust`` / ``mcp.allowed`` / ``mcp.excluded`` miss a server whose name sanitises differently (#21727)."""
    POLICY_LOSES = "policy_rule_loses"
    """A user policy DENY at an ordinary priority loses to ``trust`` / ``mcp.allowed`` / ``tools.allowed``."""
    FILTER_MATCHES_NOTHING = "include_tools_matches_nothing"
    """``includeTools`` / ``excludeTools`` names a tool the server does not list."""
    TOO_MANY_TOOLS = "too_many_declarations"
    """More than 512 declarations: the API answers 400 (#19083)."""
    CLAUDE_STYLE_NAME = "claude_style_name"
    """A ``server__tool`` name in a rule: Gemini CLI matches ``mcp_server_tool`` only."""
    SETTINGS_WARNING = "settings_warning"
    """A settings key the binary warns about and ignores (``general.defaultApprovalMode: yolo``)."""


class GeminiInput(StrEnum):
    """``gemini-cli:DIR``."""

    GEMINI_CLI = "gemini-cli"


GEMINI_STAGES: tuple[GeminiStage, ...] = tuple(GeminiStage)
