"""Codex's own words: its stages (in the CLI's own order), finding kinds, input kind.

Each member *is* its string; the registry (``system.py``) declares them.
"""

from __future__ import annotations

from enum import StrEnum


class CodexStage(StrEnum):
    """The gates of a Codex MCP tool, in order."""

    LAYER = "layer"
    """A config layer Codex reads defines the server (project layers need trust)."""
    REQUIREMENTS = "requirements"
    """/etc/codex/requirements.toml admits the server."""
    ENABLED = "enabled"
    """The server's ``enabled`` key."""
    CONNECTION = "connection"
    """The server started and listed its tools."""
    TOOL_FILTER = "tool_filter"
    """enabled_tools / disabled_tools keep the tool."""
    NAMING = "naming"
    """The model-facing name, and collisions."""
    IN_CONTEXT = "in_context"
    """The tool reaches the model, in full or deferred behind tool search."""
    APPROVAL_POLICY = "approval_policy"
    """A call runs under the approval policy (the callable stage of Codex)."""


class CodexFinding(StrEnum):
    """What a Codex ``check`` finding is about (also ``coding_cli.ids.CodingCliFinding``)."""

    TOOL_FILTER_MATCHES_NOTHING = "tool_filter_matches_nothing"
    """An enabled_tools / disabled_tools name the server does not list."""
    REQUIRED_SERVER_FAILED = "required_server_failed"
    """A ``required = true`` server failed to start: codex exec exits 1 before any request."""
    CONFIG_REFUSED = "config_refused"
    """Codex refuses the config (a server without a transport, a legacy profile): exit 1, no request."""
    ENV_NOT_PASSED = "env_not_passed"
    """A server starts with the shell's environment but not with the few variables Codex passes."""


class CodexInput(StrEnum):
    """``codex:DIR``."""

    CODEX = "codex"


CODEX_STAGES: tuple[CodexStage, ...] = tuple(CodexStage)
