"""Which of Codex's servers toolscope starts, and how: as Codex would, or not at all.

Only a server whose stages 1-3 pass is started (Codex starts no other: one only an untrusted
project defines, one the requirements allowlist refuses, ``enabled = false``, a name Codex
refuses), and only when the user opted in for this run (``--discover``) or every key of the
server comes from the user's own ``$CODEX_HOME/config.toml`` (``$CODEX_HOME``, ``~/.codex``, or
the ``--codex-home`` the user named). A trusted project's ``.codex/config.toml``, ``-c`` and ``/etc/codex`` need
``--discover``. Every other server gets ``start_policy.not_started``.

The environment, observed with 0.171.0 (a stdio server that wrote its environment to a file):
only ``DEFAULT_ENV_VARS`` that are set, the variables ``env_vars`` names, and the server's
``env``; nothing else of the shell's (``SSH_AUTH_SOCK``, ``LC_CTYPE``, ``DISPLAY``, an API key:
not passed). Codex also puts a folder of its own first on ``PATH``. ``${VAR}`` is not expanded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...mcp.results import ServerResult
from ...mcp.start_policy import not_started, own_definitions_start
from ..coding_cli.common import Launch, list_servers, start_summary
from .layers import Layer, Merged
from .tools import SERVER_NAME, server_stages, value

DEFAULT_ENV_VARS = (
    "HOME",
    "LANG",
    "LC_ALL",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "TMPDIR",
    "TZ",
    "USER",
    "__CF_USER_TEXT_ENCODING",
)
"""What Codex 0.171.0 passes of its own environment to every stdio server (observed)."""
USER_LAYER = "$CODEX_HOME/config.toml"


def codex_env(server: dict[str, tuple[Any, str]], environ: Mapping[str, str]) -> tuple[dict[str, str], frozenset[str]]:
    """The environment Codex gives the server (before its ``env``), and the values ``env_vars`` took."""
    named, _ = value(server, "env_vars")
    passed = [str(n) for n in named if isinstance(n, str)] if isinstance(named, list) else []
    base = {k: environ[k] for k in (*DEFAULT_ENV_VARS, *passed) if k in environ}
    return base, frozenset(environ[k] for k in passed if k in environ)


def _startable(name: str, merged: Merged, requirements: Layer | None) -> bool:
    if not SERVER_NAME.match(name) or name not in merged.servers:
        return False
    data, shown = (requirements.data, requirements.shown) if requirements else (None, "")
    return all(s.passed for s in server_stages(name, merged, data, shown))


def own_server(server: dict[str, tuple[Any, str]]) -> bool:
    """True when every key of the server comes from the user's own ``$CODEX_HOME/config.toml``."""
    return all(where.startswith(USER_LAYER + ":") for _, where in server.values())


def list_codex_servers(
    merged: Merged,
    requirements: Layer | None,
    environ: Mapping[str, str],
    snapshot: Path | None,
    discover: bool,
) -> tuple[dict[str, ServerResult], str]:
    """Each server's tools (live for those started, else ``not_started``)."""
    startable = [n for n in merged.servers if _startable(n, merged, requirements)]
    if snapshot is not None:
        return list_servers({n: Launch({}) for n in startable}, snapshot)
    chosen = {}
    for name in startable:
        server = merged.servers[name]
        if discover or (own_server(server) and own_definitions_start()):
            base, taken = codex_env(server, environ)
            chosen[name] = Launch({k: v for k, (v, _) in server.items()}, base, taken)
    results, where = list_servers(chosen, None)
    for name in startable:
        results.setdefault(name, not_started(name))
    return results, start_summary(results, where)
