"""Typed models of the Codex TOML files toolscope reads: only the types are checked.

Codex owns these formats, so unknown keys are kept (``extra="allow"``); a key toolscope reads
with the wrong type (``enabled_tools = [1]``, ``projects = 5``) is an InputError naming the
file, the key path and what was expected. What Codex does with such a file is not in the
reference (``coding-agent-clis.md``): toolscope refuses the file (exit 2) rather than guess.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class ToolApproval(_Loose):
    """``[mcp_servers.<name>.tools.<tool>]``."""

    approval_mode: StrictStr | None = None


class Server(_Loose):
    """``[mcp_servers.<name>]``."""

    command: StrictStr | None = None
    args: list[StrictStr] | None = None
    env: dict[str, StrictStr] | None = None
    url: StrictStr | None = None
    cwd: StrictStr | None = None
    enabled: StrictBool | None = None
    required: StrictBool | None = None
    enabled_tools: list[StrictStr] | None = None
    disabled_tools: list[StrictStr] | None = None
    http_headers: dict[str, StrictStr] | None = None
    default_tools_approval_mode: StrictStr | None = None
    tools: dict[str, ToolApproval] | None = None


class Project(_Loose):
    """``[projects."<path>"]``."""

    trust_level: StrictStr | None = None


class Features(_Loose):
    """``[features]``."""

    non_prefixed_mcp_tool_names: StrictBool | None = None


class ConfigFile(_Loose):
    """A ``config.toml`` layer (system, user, project, managed)."""

    model: StrictStr | None = None
    approval_policy: StrictStr | None = None
    features: Features | None = None
    projects: dict[str, Project] | None = None
    mcp_servers: dict[str, Server] | None = None


class Identity(_Loose):
    """``[mcp_servers.<name>.identity]`` of requirements.toml."""

    command: StrictStr | None = None
    url: StrictStr | None = None


class RequiredServer(_Loose):
    """``[mcp_servers.<name>]`` of requirements.toml."""

    identity: Identity | None = None


class RequirementsFile(_Loose):
    """``/etc/codex/requirements.toml``: the server allowlist."""

    mcp_servers: dict[str, RequiredServer] | None = None


def model_for(what: str) -> type[BaseModel]:
    """The model of a Codex file by what it is (``requirements``, else a config layer)."""
    return RequirementsFile if what == "requirements" else ConfigFile
