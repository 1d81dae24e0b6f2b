"""Which of Gemini CLI's servers toolscope starts, and how: as the CLI would, or not at all.

Only a server whose stages 1-3 pass is started (the CLI starts no other), and only when the
user opted in for this run (``--discover``) or the server is defined in the user's own
``~/.gemini/settings.json`` (the ``--home`` toolscope reads). Workspace and system settings and
extensions need ``--discover``; every other server gets ``start_policy.not_started``.

The environment, observed with 0.61.0: a stdio server gets the CLI's environment without the
variables whose names look like secrets (TOKEN, SECRET, PASSWORD, KEY, AUTH, CREDENTIAL, CERT,
PRIVATE…); the entry's ``env`` passes any, and ``security.environmentVariableRedaction.allowed``
lets named ones through. Each server waits its ``timeout`` (ms; default 600000): toolscope waits
the smaller of that and its own discovery timeout.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ...mcp.results import ServerResult
from ...mcp.start_policy import not_started
from ..coding_cli.common import DISCOVERY_TIMEOUT, NOTHING_TO_START, Launch, list_servers, start_summary
from .files import GeminiFiles
from .servers import ServerEntry

SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CERT|PRIVATE", re.IGNORECASE)


def redacted_env(environ: Mapping[str, str], files: GeminiFiles) -> tuple[dict[str, str], tuple[str, ...]]:
    """The CLI's environment for a stdio server, and the names it drops."""
    allowed, _ = files.settings.last("security.environmentVariableRedaction.allowed")
    keep = {str(a) for a in allowed} if isinstance(allowed, list) else set()
    dropped = tuple(k for k in environ if SECRET_NAME.search(k) and k not in keep)
    return {k: v for k, v in environ.items() if k not in dropped}, dropped


def timeout_of(entry: ServerEntry) -> float:
    """Seconds toolscope waits for the server: its ``timeout`` (ms) when shorter than toolscope's own."""
    value = entry.entry.get("timeout")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return min(DISCOVERY_TIMEOUT, value / 1000)
    return DISCOVERY_TIMEOUT


def own_server(entry: ServerEntry) -> bool:
    """Defined in the user's own ``~/.gemini/settings.json``: started without ``--discover``."""
    return entry.scope == "user"


def list_gemini_servers(
    startable: list[ServerEntry], files: GeminiFiles, environ: Mapping[str, str], snapshot: Path | None, discover: bool
) -> tuple[dict[str, ServerResult], str]:
    """Each startable server's tools (live for those started, else ``not_started``)."""
    if snapshot is not None:
        return list_servers({s.name: Launch({}) for s in startable}, snapshot)
    base, _ = redacted_env(environ, files)
    by_timeout: dict[float, dict[str, Launch]] = {}
    for server in startable:
        if discover or own_server(server):
            entry = {**server.entry, "type": server.entry.get("type") or _transport(server.entry)}
            if "httpUrl" in entry:
                entry["url"] = entry["httpUrl"]
            by_timeout.setdefault(timeout_of(server), {})[server.name] = Launch(entry, base)
    results: dict[str, ServerResult] = {}
    where = NOTHING_TO_START
    for timeout, chosen in sorted(by_timeout.items()):
        found, where = list_servers(chosen, None, timeout)
        results.update(found)
    for server in startable:
        results.setdefault(server.name, not_started(server.name))
    return results, start_summary(results, where)


def _transport(entry: Mapping[str, object]) -> str | None:
    """``httpUrl`` is streamable HTTP, ``url`` SSE, ``command`` stdio."""
    if "command" in entry:
        return "stdio"
    return "http" if "httpUrl" in entry else "sse" if "url" in entry else None
