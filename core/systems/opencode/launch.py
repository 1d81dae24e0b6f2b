"""Which of OpenCode's MCP servers toolscope starts, and how: as OpenCode would, or not at all.

OpenCode starts every server whose entry is valid and not ``"enabled": false``, all in parallel
before the first request, each with its ``timeout`` (ms, connect + tools/list; default 30000): a
server slower than that is dropped silently. toolscope starts the same servers with the same
time-out, but only when the user opted in for this run (``--discover``) or every key of the server
comes from the user's own global config (``~/.config/opencode``). A project's files, ``.opencode/``,
``OPENCODE_CONFIG*`` and the managed folder need ``--discover``; the others are ``not_started``.

A local server gets OpenCode's environment plus its ``environment``; ``command`` is an array
(the first item the program).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...mcp.results import ServerResult
from ...mcp.start_policy import not_started
from ..coding_cli.common import NOTHING_TO_START, Launch, list_servers, start_summary
from .layers import Layers

DEFAULT_TIMEOUT_MS = 30000
MAX_TIMEOUT_S = 120.0


def server_entries(merged: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The MCP entries that are servers (an entry that only sets ``enabled`` is an override, not a server)."""
    mcp = merged.get("mcp")
    if not isinstance(mcp, dict):
        return {}
    return {str(k): v for k, v in mcp.items() if isinstance(v, dict) and "type" in v}


def timeout_s(entry: dict[str, Any]) -> float:
    """The server's time-out in seconds (``timeout`` in ms, else 30 s)."""
    value = entry.get("timeout")
    ms = value if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else DEFAULT_TIMEOUT_MS
    return min(float(ms) / 1000.0, MAX_TIMEOUT_S)


def as_launch(entry: dict[str, Any], environ: Mapping[str, str], project: Path) -> Launch:
    """One entry as ``core.mcp`` starts it."""
    if entry.get("type") == "remote":
        out: dict[str, Any] = {"url": entry.get("url"), "type": "http"}
        if isinstance(entry.get("headers"), dict):
            out["headers"] = entry["headers"]
        return Launch(out)
    command = [str(c) for c in entry.get("command") or []]
    env = entry.get("environment") if isinstance(entry.get("environment"), dict) else {}
    out = {"command": command[0] if command else "", "args": command[1:], "cwd": str(entry.get("cwd") or project)}
    if env:
        out["env"] = {str(k): str(v) for k, v in env.items()}
    return Launch(out, dict(environ))


def own_server(name: str, layers: Layers) -> bool:
    """True when every key of the server was set by the user's global config."""
    places = [w for path, w in layers.where.items() if path[:2] == ("mcp", name)]
    return bool(places) and all(w.startswith("~/.config/opencode/") for w in places)


def list_opencode_servers(
    layers: Layers,
    startable: list[str],
    environ: Mapping[str, str],
    project: Path,
    snapshot: Path | None,
    discover: bool,
) -> tuple[dict[str, ServerResult], str]:
    """Each startable server's tools (live, grouped by time-out; else ``not_started``)."""
    entries = server_entries(layers.merged)
    if snapshot is not None:
        return list_servers({n: Launch({}) for n in startable}, snapshot)
    chosen = [n for n in startable if discover or own_server(n, layers)]
    groups: dict[float, dict[str, Launch]] = {}
    for name in chosen:
        groups.setdefault(timeout_s(entries[name]), {})[name] = as_launch(entries[name], environ, project)
    results: dict[str, ServerResult] = {}
    where = NOTHING_TO_START
    for seconds, group in sorted(groups.items()):
        found, where = list_servers(group, None, seconds)
        results.update(found)
    for name in startable:
        results.setdefault(name, not_started(name))
    return results, start_summary(results, where)
