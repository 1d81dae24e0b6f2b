"""Typed models of the Claude Code files toolscope reads: only the types are checked.

Claude Code owns these formats, so unknown keys are kept as they are (``extra="allow"``); a
key toolscope reads with the wrong type (``projects: 5``, ``permissions.deny: 5``) is an
InputError naming the file, the key path and what was expected. What Claude Code itself does
with such a file is not in the reference (``coding-agent-clis.md``): toolscope refuses the
file (exit 2) rather than guess.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class Permissions(_Loose):
    """``permissions``: rule lists (an entry that is not text is skipped, as before) and the mode."""

    allow: list[Any] | None = None
    deny: list[Any] | None = None
    ask: list[Any] | None = None
    defaultMode: StrictStr | None = None  # noqa: N815 - Claude Code's key
    disableBypassPermissionsMode: StrictStr | None = None  # noqa: N815


class SettingsFile(_Loose):
    """A settings file (managed, user, project, local, ``--settings``)."""

    permissions: Permissions | None = None
    env: dict[str, Any] | None = None
    mcpServers: dict[str, dict[str, Any]] | None = None  # noqa: N815
    enableAllProjectMcpServers: StrictBool | None = None  # noqa: N815
    enabledMcpjsonServers: list[StrictStr] | None = None  # noqa: N815
    disabledMcpjsonServers: list[StrictStr] | None = None  # noqa: N815
    allowedMcpServers: list[dict[str, Any]] | None = None  # noqa: N815
    deniedMcpServers: list[dict[str, Any]] | None = None  # noqa: N815
    allowManagedMcpServersOnly: StrictBool | None = None  # noqa: N815
    allowManagedPermissionRulesOnly: StrictBool | None = None  # noqa: N815


class McpConfigFile(_Loose):
    """``.mcp.json``, ``managed-mcp.json``, ``--mcp-config``: servers by name."""

    mcpServers: dict[str, dict[str, Any]] | None = None  # noqa: N815


class ProjectState(_Loose):
    """One ``projects.<path>`` entry of ``~/.claude.json``."""

    hasTrustDialogAccepted: StrictBool | None = None  # noqa: N815
    mcpServers: dict[str, dict[str, Any]] | None = None  # noqa: N815
    enabledMcpjsonServers: list[StrictStr] | None = None  # noqa: N815
    disabledMcpjsonServers: list[StrictStr] | None = None  # noqa: N815


class StateFile(_Loose):
    """``~/.claude.json``: user servers and per-project state."""

    mcpServers: dict[str, dict[str, Any]] | None = None  # noqa: N815
    projects: dict[str, ProjectState] | None = None


def model_for(what: str) -> type[BaseModel]:
    """The model of a Claude Code file by what it is (as ``files`` names it)."""
    if "~/.claude.json" in what:
        return StateFile
    return SettingsFile if "settings" in what.lower() else McpConfigFile
