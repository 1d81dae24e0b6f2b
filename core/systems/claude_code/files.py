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


def main_repository(root: Path) -> Path:
    """The main repository of a git worktree (``root/.git`` a file ``gitdir: …/.git/worktrees/NAME``,
    whose ``commondir`` names the main ``.git``); ``root`` itself for a plain repository or anything
    unreadable. Claude Code 2.1.332 keys the local scope by it and reads its settings.local.json."""
    dot_git = root / ".git"
    try:
        if not dot_git.is_file():
            return root
        head = dot_git.read_text(encoding="utf-8", errors="replace")[:4096]
        gitdir = Path(head.partition("gitdir:")[2].strip().splitlines()[0])
        gitdir = gitdir if gitdir.is_absolute() else (root / gitdir)
        common = (gitdir / (gitdir / "commondir").read_text(encoding="utf-8")[:4096].strip()).resolve()
    except (OSError, IndexError, ValueError):
        return root
    return common.parent if common.name == ".git" and common.is_dir() else root


def project_root(project: Path) -> Path:
    """The folder Claude Code keys the project by: the git root (the main repository for a
    worktree), else the cwd."""
    root = git_root(project)
    return main_repository(root) if root is not None else project


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


class _Reader:
    """Reads the JSON files Claude Code reads, keeping each one read in order (``ClaudeFiles.files``)."""

    def __init__(self, project: Path, home: Path) -> None:
        self.project = project
        self.home = home
        self.files: list[JsonFile] = []

    def read(self, path: Path, what: str) -> JsonFile | None:
        """The file, or None when it does not exist; InputError on bad JSON."""
        found = read_json_file(path, shown_path(path, self.home, self.project), what, model_for(what))
        if found is not None:
            self.files.append(found)
        return found

    def flag(self, value: str, flag: str) -> JsonFile:
        """The file or inline JSON given to a --client-args flag."""
        found = _flag_json(value, flag, self.project, self.home, self.project)
        self.files.append(found)
        return found


def load_claude_files(project: Path, home: Path, managed_dir: Path, args: ClientArgs) -> ClaudeFiles:
    """Read every file Claude Code reads for ``project``; InputError (file + line:column) on bad JSON."""
    project = project.resolve()
    reader = _Reader(project, home)
    claude_json = reader.read(home / ".claude.json", "Claude Code state file (~/.claude.json)")
    root = project_root(project)
    project_key = str(root)
    settings = _read_settings(reader, managed_dir, args, root)
    managed_mcp = reader.read(managed_dir / "managed-mcp.json", "Claude Code managed MCP config")
    servers = _read_servers(reader, claude_json, managed_mcp, project_key, settings, args)
    return ClaudeFiles(
        project=project,
        home=home,
        managed_dir=managed_dir,
        project_key=project_key,
        trusted=_trusted(claude_json, project_key),
        servers=tuple(servers),
        settings=tuple(settings),
        managed_mcp=managed_mcp,
        files=tuple(reader.files),
    )


def _trusted(claude_json: JsonFile | None, project_key: str) -> bool:
    """~/.claude.json says the project's trust dialog was accepted."""
    projects = (claude_json.data.get("projects") if claude_json else None) or {}
    project_state = projects.get(project_key) if isinstance(projects, dict) else None
    project_state = project_state if isinstance(project_state, dict) else {}
    return project_state.get("hasTrustDialogAccepted") is True


def _read_settings(reader: _Reader, managed_dir: Path, args: ClientArgs, root: Path) -> list[Settings]:
    """The settings files by scope: managed (and its drop-in folder), user, project, local, --settings.

    Observed with 2.1.332 (``tests/clis/experiments/x_claude_scopes.py A_``, the lane's
    ``git_subdir_*`` cases): project settings are the cwd's ``.claude/settings.json`` (not the git
    root's); local settings are the project root's (the git root, the main repository in a worktree)
    ``.claude/settings.local.json`` **and** the cwd's own, both applied (which one's scalar keys win
    is not observed: the cwd's is read last). ``--setting-sources`` keeps only the scopes it names
    (managed settings and ``--settings`` always apply)."""
    settings: list[Settings] = []
    managed = reader.read(managed_dir / "managed-settings.json", "Claude Code managed settings")
    if managed:
        settings.append(Settings("managed", managed))
    drop_in = managed_dir / "managed-settings.d"
    if drop_in.is_dir():
        for path in sorted(drop_in.glob("*.json"))[:256]:
            if found := reader.read(path, "Claude Code managed settings"):
                settings.append(Settings("managed", found))
    project, home = reader.project, reader.home
    local = [root / ".claude" / "settings.local.json"]
    if root != project:
        local.append(project / ".claude" / "settings.local.json")
    for scope, path in (
        ("user", home / ".claude" / "settings.json"),
        ("project", project / ".claude" / "settings.json"),
        *(("local", path) for path in local),
    ):
        if args.setting_sources is not None and scope not in args.setting_sources:
            continue
        if found := reader.read(path, "Claude Code settings"):
            settings.append(Settings(scope, found))
    if args.settings:
        settings.append(Settings("flag", reader.flag(args.settings, "--settings")))
    return settings


def _read_servers(
    reader: _Reader,
    claude_json: JsonFile | None,
    managed_mcp: JsonFile | None,
    project_key: str,
    settings: list[Settings],
    args: ClientArgs,
) -> list[ServerEntry]:
    """Every server definition in Claude Code's order of precedence, then those it never reads."""
    servers: list[ServerEntry] = []
    if managed_mcp:
        servers += _servers_of(managed_mcp, ["mcpServers"], "enterprise", len(servers))
    for value in args.mcp_config:
        servers += _servers_of(reader.flag(value, "--mcp-config"), ["mcpServers"], "dynamic", len(servers))
    if claude_json:
        servers += _servers_of(claude_json, ["projects", project_key, "mcpServers"], "local", len(servers))
    # .mcp.json: the closest one defining a name wins over those further up.
    for directory in [reader.project, *reader.project.parents][:MAX_PARENTS]:
        if found := reader.read(directory / ".mcp.json", "project MCP config (.mcp.json)"):
            servers += _servers_of(found, ["mcpServers"], "project", len(servers))
    if claude_json:
        servers += _servers_of(claude_json, ["mcpServers"], "user", len(servers))
    for source in settings:
        servers += _servers_of(source.file, ["mcpServers"], "unread", len(servers))
    return servers + _unread_home_servers(reader, servers)


def _unread_home_servers(reader: _Reader, servers: list[ServerEntry]) -> list[ServerEntry]:
    """Servers in the home folder's .mcp.json files, which Claude Code never reads (a common mistake),
    unless the project is under the home folder: then ``~/.mcp.json`` is a parent's ``.mcp.json`` and
    Claude Code reads it as project scope (observed with 2.1.332, ``claude -p`` from ``~/proj``)."""
    unread: list[ServerEntry] = []
    already = {file.path for file in reader.files}
    for path in (reader.home / ".mcp.json", reader.home / ".claude" / ".mcp.json"):
        if path in already:
            continue
        if path.parent != reader.project and (found := reader.read(path, "MCP config Claude Code does not read")):
            if not any(s.source.startswith(found.shown + ":") for s in (*servers, *unread)):
                unread += _servers_of(found, ["mcpServers"], "unread", len(servers) + len(unread))
    return unread


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
