"""What the Claude Code and Codex models share: reading their files, listing their servers' tools.

Files are read through ``core.inputs`` (regular files, size cap, recorded as inputs so no
output overwrites them); JSON through the strict reader (syntax errors name file and
line:column). Servers are listed through ``core.mcp`` (live, bounded by a timeout) or taken
from a saved snapshot (matched by server name).
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...inputs.input_files import checked_path, read_text
from ...inputs.strict_json import parse_json
from ...inputs.validation_errors import validate_model
from ...mcp.results import ServerResult
from ...model.enums import StageId
from ...model.errors import InputError, Problem
from ...model.verdicts import Stage
from ...text.counts import counted

if TYPE_CHECKING:
    from pydantic import BaseModel

DISCOVERY_TIMEOUT = 15.0
"""Seconds each server gets to start and list its tools (Claude waits about as long)."""


@dataclass(frozen=True)
class JsonFile:
    """One JSON file a CLI reads: where it is, how it is shown, what it holds."""

    path: Path
    shown: str
    """``~/.claude.json``, ``.mcp.json``, ``/etc/claude-code/managed-settings.json``: for rules."""
    data: dict[str, Any]
    sha256: str


def check_project_dir(project: Path, scheme: str) -> None:
    """InputError for a ``scheme:PROJECT_DIR`` input (``claude-code``, ``codex``) that is not a directory."""
    from ...inputs.input_files import missing_path_problems

    info = checked_path(project, "project directory")
    if info is not None and stat.S_ISDIR(info.st_mode):
        return
    near = missing_path_problems(project, want_dir=True, prefix=f"{scheme}:") if info is None else []
    raise InputError(
        f"{scheme}:{project}",
        "no such directory" if info is None else "not a directory",
        [Problem("", f"expected {scheme}:PROJECT_DIR"), *near],
    )


def shown_path(path: Path, home: Path, project: Path) -> str:
    """A path as a user reads it: ``~/…`` under the home, relative under the project, else absolute."""
    for root, prefix in ((project, ""), (home, "~/")):
        try:
            return prefix + str(path.relative_to(root))
        except ValueError:
            continue
    return str(path)


def typed_path(path: Path) -> str:
    """A path for a suggested command: relative to the current folder when it lies inside it (as the
    user typed it there, the same on every machine), else absolute."""
    try:
        return str(path.relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(path)


def read_json_file(path: Path, shown: str, what: str, model: type[BaseModel] | None = None) -> JsonFile | None:
    """The file's object, None when it does not exist; bad JSON, a non-object, or (with ``model``)
    a value of the wrong type is an InputError naming the file and the key path."""
    info = checked_path(path, what)
    if info is None or stat.S_ISDIR(info.st_mode):
        return None  # a pipe or device is read_text's error, never a silent skip
    text, digest = read_text(path, what)
    data = parse_json(text, str(path))
    if not isinstance(data, dict):
        raise InputError(str(path), f"not a {what}", [Problem("(top level)", "expected a JSON object")])
    if model is not None:
        validate_model(model, data, str(path), what)
    return JsonFile(path, shown, data, digest)


def stage(
    name: StageId, passed: bool | None, code: str, rule: str, entry: str | None = None, source: str | None = None
) -> Stage:
    """A Stage (short form used by both CLI models)."""
    return Stage(name=name, passed=passed, code=code, rule=rule, entry=entry, source=source)


def quoted(values: Any) -> str:
    """``["a", "b"]`` as JSON reads it (names in rules are quoted, never bare)."""
    import json

    return json.dumps(list(values), ensure_ascii=False)


def as_server_config(entry: dict[str, Any]) -> dict[str, Any]:
    """A CLI's server entry as ``core.mcp``'s ServerConfig input (stdio or URL; other keys dropped)."""
    out: dict[str, Any] = {}
    for key in ("command", "args", "env", "url", "cwd"):
        if key in entry:
            out[key] = entry[key]
    headers = entry.get("headers") or entry.get("http_headers")
    if isinstance(headers, dict):
        out["headers"] = headers
    kind = entry.get("type") or entry.get("transport")
    if kind in ("sse", "http", "stdio"):
        out["protocol"] = kind
    elif kind == "streamable-http" or ("url" in entry and "command" not in entry):
        out["protocol"] = "http"
    return out


@dataclass(frozen=True)
class Launch:
    """One server as the CLI would start it: its entry (``${VAR}`` already expanded where the CLI
    expands them), the environment the CLI gives it (None: toolscope's own), and the values
    that came from the environment (masked in every output)."""

    entry: dict[str, Any]
    base_env: Mapping[str, str] | None = None
    environ_values: frozenset[str] = frozenset()


LISTED_LIVE = "tools listed live"
NOTHING_TO_START = "no MCP server to start"
"""Where the tools came from when no server reaches the connection stage (each is hidden earlier,
or none is defined): "tools listed live" would claim a listing that never happened."""


def list_servers(
    entries: dict[str, Launch], snapshot: Path | None, timeout: float = DISCOVERY_TIMEOUT
) -> tuple[dict[str, ServerResult], str]:
    """Each entry's tools (keyed like ``entries``), and where they came from ("live" / "snapshot …").

    Live: every entry given is started through ``core.mcp`` concurrently, ``timeout`` each (the
    caller chose them: ``start_policy``). A snapshot answers by server name (the part of the key
    after the last ``/``) and starts nothing; a server it lacks is absent from the result (its
    tools are unknown).
    """
    if snapshot is not None:
        from ...mcp.snapshot import load_snapshot

        result = load_snapshot(snapshot)
        by_name = {s.name: s for s in result.servers}
        found = {key: by_name[key.rpartition("/")[2]] for key in entries if key.rpartition("/")[2] in by_name}
        return found, f"tools from the snapshot {snapshot.name} ({result.source.taken_at})"
    if not entries:
        return {}, NOTHING_TO_START
    from ...mcp.config import McpConfig, ServerConfig, config_from_dict
    from ...mcp.discovery import discover_sync

    servers: dict[str, ServerConfig] = {}
    failed: dict[str, ServerResult] = {}
    for key, launch in entries.items():
        try:
            config = config_from_dict({"mcpServers": {key: as_server_config(launch.entry)}}, key)
        except InputError as exc:  # an entry the CLI itself cannot start either
            failed[key] = ServerResult(
                name=key, protocol="stdio", ok=False, error=exc.problems[0].message if exc.problems else exc.summary
            )
            continue
        servers[key] = config.servers[key].launched_with(launch.base_env, launch.environ_values)
    live = discover_sync(McpConfig(servers), timeout) if servers else None
    found = {s.name: s for s in live.servers} if live else {}
    found.update(failed)
    return found, LISTED_LIVE


def start_summary(results: dict[str, ServerResult], where: str) -> str:
    """``where`` with what was not started: "no MCP server started: give --discover …"."""
    from ...mcp.start_policy import DISCOVER_FLAG

    skipped = sum(1 for r in results.values() if not r.started)
    if not skipped:
        return where
    started = sum(1 for r in results.values() if r.started)
    servers = counted(skipped, "MCP server")
    if not started:
        return f"{servers} not started: tools unknown (give {DISCOVER_FLAG} to start them, or --snapshot)"
    return f"{where}; {servers} not started: tools unknown (give {DISCOVER_FLAG} to start them)"


_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]")


def claude_name_part(text: str) -> str:
    """Claude Code's normalisation of a server or tool name: every UTF-16 code unit outside
    ``A-Za-z0-9_-`` → ``_`` (2.1.332: a character outside the Basic Multilingual Plane, an emoji,
    is two code units, so two ``_``: ``e😀`` → ``e__``; ``café`` → ``caf_``)."""
    return _NOT_NAME.sub(lambda m: "__" if ord(m.group()) > 0xFFFF else "_", text)
