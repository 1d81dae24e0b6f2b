"""The AgentWorks link: does the CLI's own configuration on this machine block the api-bridge?

AgentWorks' CLI providers run a Claude Code or Codex session whose tools come through the
``api-bridge`` MCP server (mcpagent starts Claude Code with ``--allowedTools
"mcp__api-bridge__*,WebSearch"``). The user's own files still apply under it: a Claude deny rule
matching ``mcp__api-bridge…`` removes the bridge's tools (deny beats that allow), a
``deniedMcpServers`` entry blocks the server; for Codex an ``[mcp_servers.api-bridge]`` with
``enabled = false`` or ``enabled_tools`` does. ``bridge_findings`` reads those files in the
given home (never writing them) and says which entry blocks the bridge and where.
"""

from __future__ import annotations

from pathlib import Path

from ...model.verdicts import Finding
from ..claude_code.file_models import SettingsFile
from .common import read_json_file
from .ids import CodingCliFinding

BRIDGE = "api-bridge"
CLAUDE_PROVIDERS = ("claude-code", "claude_code", "claude")
CODEX_PROVIDERS = ("codex-cli", "codex_cli", "codex")


def _claude(home: Path) -> list[Finding]:
    out = []
    for path, shown in (
        (home / ".claude" / "settings.json", "~/.claude/settings.json"),
        (home / ".claude" / "settings.local.json", "~/.claude/settings.local.json"),
    ):
        found = read_json_file(path, shown, "Claude Code settings", SettingsFile)
        if found is None:
            continue
        permissions = found.data.get("permissions")
        for i, rule in enumerate((permissions or {}).get("deny") or [] if isinstance(permissions, dict) else []):
            if isinstance(rule, str) and (
                rule.strip() in ("mcp__api-bridge", "mcp__api-bridge__*")
                or rule.strip().startswith("mcp__api-bridge__")
            ):
                out.append(
                    Finding(
                        CodingCliFinding.BRIDGE_BLOCKED,
                        f'the user\'s Claude Code denies "{rule}" ({shown}: permissions.deny[{i}]): deny beats mcpagent\'s --allowedTools "mcp__api-bridge__*", so the step\'s tools never reach the model; fix: remove that rule',
                        entry=rule,
                        source=f"{shown}: permissions.deny[{i}]",
                    )
                )
        for i, item in enumerate(found.data.get("deniedMcpServers") or []):
            if isinstance(item, dict) and item.get("serverName") == BRIDGE:
                out.append(
                    Finding(
                        CodingCliFinding.BRIDGE_BLOCKED,
                        f"the user's Claude Code blocks the server api-bridge ({shown}: deniedMcpServers[{i}]); fix: remove that entry",
                        entry=BRIDGE,
                        source=f"{shown}: deniedMcpServers[{i}]",
                    )
                )
    return out


def _codex(home: Path) -> list[Finding]:
    from ..codex.layers import read_toml

    layer = read_toml(home / ".codex" / "config.toml", "~/.codex/config.toml", "Codex config")
    table = ((layer.data.get("mcp_servers") or {}).get(BRIDGE) if layer else None) or {}
    out = []
    if table.get("enabled") is False:
        out.append(
            Finding(
                CodingCliFinding.BRIDGE_BLOCKED,
                "the user's Codex sets enabled = false for api-bridge (~/.codex/config.toml); fix: remove it",
                entry="enabled = false",
                source="~/.codex/config.toml: mcp_servers.api-bridge.enabled",
            )
        )
    if isinstance(table.get("enabled_tools"), list):
        out.append(
            Finding(
                CodingCliFinding.BRIDGE_BLOCKED,
                f"the user's Codex limits api-bridge to enabled_tools = {table['enabled_tools']} (~/.codex/config.toml): tools not listed by their raw names are hidden",
                entry=str(table["enabled_tools"]),
                source="~/.codex/config.toml: mcp_servers.api-bridge.enabled_tools",
            )
        )
    return out


def bridge_findings(provider: str | None, client_home: Path) -> list[Finding]:
    """Findings for a step run by ``provider`` on a machine whose home is ``client_home``."""
    name = (provider or "").strip().lower()
    if name in CLAUDE_PROVIDERS:
        return _claude(client_home)
    if name in CODEX_PROVIDERS:
        return _codex(client_home)
    return []
