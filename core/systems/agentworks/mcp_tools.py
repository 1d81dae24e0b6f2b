"""What a registry's ``mcp_config`` (discovered live) or a saved snapshot adds to the universe.

The servers and their tools as the registry would list them, the servers that failed and why,
the files read (for provenance and output protection), and the rows a failed server's
configured entries become: one unknown verdict each, never silently absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...inputs.input_files import file_sha256
from ...model.errors import InputError, Problem
from ...model.subject import resolved_paths
from .names import normalize_server_name
from .registry import McpServer, RegistryModel
from .step_config import LoadedStep

if TYPE_CHECKING:
    from ...mcp.results import DiscoveryResult


@dataclass(frozen=True)
class McpTools:
    """What a registry's mcp_config (discovered live) or a saved snapshot adds to the universe."""

    servers: dict[str, McpServer]
    """Every server as the registry would list it (static entries kept for servers the config lacks)."""
    errors: dict[str, str]
    """Failed servers (or servers with no tools) and why."""
    files: tuple[tuple[str, str], ...]
    """(name, sha256) of the files discovery read, for provenance."""
    paths: tuple[Path, ...]
    """The mcp_config and its ``_user.json`` override when they exist (inputs even when a snapshot
    means they were not used this time: they hold the secrets), and the snapshot."""
    notes: tuple[str, ...]
    result: DiscoveryResult


def expected_tools(step: LoadedStep, failed: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Tools the step names for each failed server: ``server:tool`` entries by name, and ``*`` for a
    ``server:*`` entry or a ``selected_servers`` entry that no ``server:tool`` entry narrows (all of
    its tools, whose names nobody knows while it is down). Each becomes a row whose verdict is
    unknown, so a dead server's configured entries are shown, never silently absent."""
    by_norm = {normalize_server_name(s): s for s in failed}
    configs = step.step.agent_configs
    out: dict[str, list[str]] = {}
    for entry in configs.selected_tools:
        namespace, sep, tool = entry.partition(":")
        server = by_norm.get(normalize_server_name(namespace)) if sep else None
        if server is not None and tool:
            out.setdefault(server, []).append(tool)
    for entry in configs.selected_servers:
        server = by_norm.get(normalize_server_name(entry))
        if server is not None and server not in out:
            out[server] = ["*"]
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def discover_mcp_tools(
    registry_path: Path, model: RegistryModel, snapshot: Path | None, timeout: float
) -> McpTools | None:
    """Live MCP discovery (or a saved snapshot) for registries that point at an mcpServers config;
    None for a static registry."""
    if model.mcp_config is None and snapshot is None:
        return None
    # Deferred past the common case: a static registry never loads the MCP modules.
    from ...mcp.universe import load_mcp_universe

    config_path = registry_path.parent / model.mcp_config if model.mcp_config else None
    if snapshot is None and config_path is not None and not config_path.is_file():
        raise InputError(
            str(registry_path),
            "mcp_config names a file that does not exist",
            [Problem("mcp_config", f"{model.mcp_config!r} (looked for {config_path})")],
        )
    result = load_mcp_universe(config_path, snapshot, timeout)
    discovered, errors = _servers(result, model)
    how = f"MCP tools from snapshot {snapshot.name}" if snapshot is not None else "MCP tools discovered live"
    servers = len(result.servers)
    failed = f"; {len(errors)} failed" if errors else ""
    notes = (
        f"{how} ({servers} server{'' if servers == 1 else 's'}{failed})",
        *tuple(result.source.notes or ()),
        *result.stale_notes(),
    )
    from ...mcp.config import user_override_path

    existing = [p for p in (config_path, user_override_path(config_path) if config_path else None) if p and p.is_file()]
    files = _files_read(result, config_path, snapshot)
    return McpTools(discovered, errors, files, resolved_paths(*existing, snapshot), notes, result)


def _servers(result: DiscoveryResult, model: RegistryModel) -> tuple[dict[str, McpServer], dict[str, str]]:
    """Every server as the registry would list it, and the failed ones (or with no tools) with why."""
    discovered: dict[str, McpServer] = {}
    errors: dict[str, str] = {}
    for server in result.servers:
        discovered[server.name] = McpServer(tools=tuple(server.tools), descriptions=dict(server.descriptions))
        if not server.ok:
            errors[server.name] = server.error or "failed"
        elif not server.tools:
            # AgentWorks keeps such a server configured with zero tools: the same outage symptom.
            errors[server.name] = "connected but advertised no tools"
    # Static entries for servers the config does not have keep the registry's view.
    for name, value in model.mcp_servers.items():
        discovered.setdefault(name, value)
    return discovered, errors


def _files_read(
    result: DiscoveryResult, config_path: Path | None, snapshot: Path | None
) -> tuple[tuple[str, str], ...]:
    """(name, sha256) of the mcp_config, its ``_user.json`` override and the snapshot, for provenance."""
    source = result.source
    files = []
    if config_path is not None and config_path.is_file():
        # The file as it is now (a snapshot records the sha256 it was taken from; a note says if they differ).
        files.append((config_path.name, file_sha256(config_path, "MCP config")))
    elif source.config_file:
        files.append((Path(source.config_file).name, source.config_sha256))
    if source.user_config_file and source.user_config_sha256:
        files.append((Path(source.user_config_file).name, source.user_config_sha256))
    if snapshot is not None:
        files.append((snapshot.name, file_sha256(snapshot, "snapshot")))
    return tuple(files)
