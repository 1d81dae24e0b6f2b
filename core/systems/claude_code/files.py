"""Read the files Claude Code reads for MCP servers and permissions (never writing them).

Scopes (reference §1): user and local servers in ``~/.claude.json`` (``mcpServers``;
``projects["<git root, or the cwd>"].mcpServers``), project servers in ``.mcp.json`` (the
cwd or a parent), dynamic ones from ``--mcp-config``, enterprise ones in
``<managed>/managed-mcp.json``. Settings: managed (``managed-settings.json`` then
``managed-settings.d/*.json``), user ``~/.claude/settings.json``, project
``.claude/settings.json``, local ``.claude/settings.local.json``, ``--settings``. Files Claude
never reads for servers (``mcpServers`` in a settings file, ``~/.mcp.json``,
``~/.claude/.mcp.json``) are read too, to say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.strict_json import parse_json
from ...inputs.validation_errors import validate_model
from ...model.errors import InputError, Problem
from ..coding_cli.common import JsonFile, read_json_file, shown_path
from .args import ClientArgs
from .file_models import model_for

MAX_PARENTS = 64
"""How many directories above the project are searched for ``.mcp.json`` (a bound, not a Claude rule)."""


@dataclass(frozen=True)
class Settings:
    """One settings source: its scope (managed, user, project, local, flag) and its object."""

    scope: str
    file: JsonFile


@dataclass(frozen=True)
class ServerEntry:
    """One server definition as a file states it."""

    name: str
    scope: str
    """enterprise, local, project, user, dynamic; or unread (a file Claude does not read)."""
    entry: dict[str, Any]
    source: str
    """``file: key.path`` of the definition."""
    order: int


@dataclass(frozen=True)
class ClaudeFiles:
    """Everything read for one project: the definitions, the settings, trust."""

    project: Path
    home: Path
    managed_dir: Path
    project_key: str
    """The ``projects`` key of ``~/.claude.json`` for this project (git root, else the cwd)."""
    trusted: bool
    servers: tuple[ServerEntry, ...]
    settings: tuple[Settings, ...]
    managed_mcp: JsonFile | None
    files: tuple[JsonFile, ...] = field(default=())
    """Every file read, in reading order (for provenance and ``paths``)."""

    def settings_in(self, *scopes: str) -> list[Settings]:
        """The settings sources of these scopes, in reading order."""
        return [s for s in self.settings if s.scope in scopes]


def git_root(directory: Path) -> Path | None:
    """The closest directory at or above ``directory`` holding ``.git`` (bounded walk)."""
    for candidate in [directory, *directory.parents][:MAX_PARENTS]:
        if (candidate / ".git").exists():
            return candidate
    return None


def _servers_of(file: JsonFile, key_path: list[str], scope: str, start: int) -> list[ServerEntry]:
    node: Any = file.data
    for key in key_path:
        node = node.get(key) if isinstance(node, dict) else None
    if node is None:
        return []
    where = ".".join(f'"{k}"' if "/" in k or "." in k else k for k in key_path)
    if not isinstance(node, dict):
        raise InputError(file.shown, "not a valid Claude Code file", [Problem(where, "expected an object of servers")])
    out = []
    for i, (name, entry) in enumerate(node.items()):
        if not isinstance(entry, dict):
            raise InputError(
                file.shown, "not a valid Claude Code file", [Problem(f"{where}.{name}", "expected an object")]
            )
        out.append(ServerEntry(name, scope, entry, f"{file.shown}: {where}.{name}", start + i))
    return out


def _flag_json(value: str, what: str, base: Path, home: Path, project: Path) -> JsonFile:
    """``--mcp-config`` / ``--settings``: a file path or inline JSON."""
    if value.lstrip().startswith("{"):
        data = parse_json(value, f"--client-args {what}")
        if not isinstance(data, dict):
            raise InputError(f"--client-args {what}", "expected a JSON object")
        validate_model(model_for(what), data, f"--client-args {what}", what)
        return JsonFile(Path(what), f"{what} (inline JSON)", data, "")
    path = (base / value) if not Path(value).is_absolute() else Path(value)
    found = read_json_file(path, shown_path(path, home, project), what, model_for(what))
    if found is None:
        raise InputError(f"--client-args {what}", f"no such file: {value}")
    return found


def load_claude_files(project: Path, home: Path, managed_dir: Path, args: ClientArgs) -> ClaudeFiles:
    """Read every file Claude Code reads for ``project``; InputError (file + line:column) on bad JSON."""
    project = project.resolve()
    files: list[JsonFile] = []

    def read(path: Path, what: str) -> JsonFile | None:
        found = read_json_file(path, shown_path(path, home, project), what, model_for(what))
        if found is not None:
            files.append(found)
        return found

    claude_json = read(home / ".claude.json", "Claude Code state file (~/.claude.json)")
    root = git_root(project)
    project_key = str(root or project)
    projects = (claude_json.data.get("projects") if claude_json else None) or {}
    project_state = projects.get(project_key) if isinstance(projects, dict) else None
    project_state = project_state if isinstance(project_state, dict) else {}
    trusted = project_state.get("hasTrustDialogAccepted") is True

    settings: list[Settings] = []
    managed = read(managed_dir / "managed-settings.json", "Claude Code managed settings")
    if managed:
        settings.append(Settings("managed", managed))
    drop_in = managed_dir / "managed-settings.d"
    if drop_in.is_dir():
        for path in sorted(drop_in.glob("*.json"))[:256]:
            if found := read(path, "Claude Code managed settings"):
                settings.append(Settings("managed", found))
    for scope, path in (
        ("user", home / ".claude" / "settings.json"),
        ("project", project / ".claude" / "settings.json"),
        ("local", project / ".claude" / "settings.local.json"),
    ):
        if found := read(path, "Claude Code settings"):
            settings.append(Settings(scope, found))
    if args.settings:
        flag = _flag_json(args.settings, "--settings", project, home, project)
        files.append(flag)
        settings.append(Settings("flag", flag))

    servers: list[ServerEntry] = []
    managed_mcp = read(managed_dir / "managed-mcp.json", "Claude Code managed MCP config")
    if managed_mcp:
        servers += _servers_of(managed_mcp, ["mcpServers"], "enterprise", len(servers))
    for value in args.mcp_config:
        flag = _flag_json(value, "--mcp-config", project, home, project)
        files.append(flag)
        servers += _servers_of(flag, ["mcpServers"], "dynamic", len(servers))
    if claude_json:
        servers += _servers_of(claude_json, ["projects", project_key, "mcpServers"], "local", len(servers))
    # .mcp.json: the closest one defining a name wins over those further up.
    for directory in [project, *project.parents][:MAX_PARENTS]:
        if found := read(directory / ".mcp.json", "project MCP config (.mcp.json)"):
            servers += _servers_of(found, ["mcpServers"], "project", len(servers))
    if claude_json:
        servers += _servers_of(claude_json, ["mcpServers"], "user", len(servers))
    for source in settings:
        servers += _servers_of(source.file, ["mcpServers"], "unread", len(servers))
    for path in (home / ".mcp.json", home / ".claude" / ".mcp.json"):
        if path.parent != project and (found := read(path, "MCP config Claude Code does not read")):
            if not any(s.source.startswith(found.shown + ":") for s in servers):
                servers += _servers_of(found, ["mcpServers"], "unread", len(servers))
    return ClaudeFiles(
        project=project,
        home=home,
        managed_dir=managed_dir,
        project_key=project_key,
        trusted=trusted,
        servers=tuple(servers),
        settings=tuple(settings),
        managed_mcp=managed_mcp,
        files=tuple(files),
    )


def legacy_project_lists(files: ClaudeFiles) -> dict[str, list[str]]:
    """``~/.claude.json`` ``projects.<key>.enabled/disabledMcpjsonServers`` (moved to settings.local.json at start)."""
    for file in files.files:
        if file.path == files.home / ".claude.json":
            state = (file.data.get("projects") or {}).get(files.project_key) or {}
            return {
                k: list(state.get(k) or [])
                for k in ("enabledMcpjsonServers", "disabledMcpjsonServers")
                if isinstance(state, dict)
            }
    return {}
