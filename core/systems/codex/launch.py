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

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...mcp.results import ServerResult
from ...mcp.start_policy import not_started, own_definitions_start
from ...mcp.startup import StartupGrace, StartupVerdict, startup_verdicts
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
    "SSL_CERT_FILE",
    "TERM",
    "TMPDIR",
    "TZ",
    "USER",
    "__CF_USER_TEXT_ENCODING",
)
"""What Codex 0.171.0 passes of its own environment to every stdio server (observed)."""
USER_LAYER = "$CODEX_HOME/config.toml"
CODEX_GRACE = StartupGrace(
    "Codex 0.171.0",
    1.5,
    "Codex has no setting that makes its first request wait for a server (startup_timeout_sec does not: observed)",
)
"""The first request leaves about 1-1.5 s after Codex starts its servers (observed with stdlib servers
sleeping 0-2.5 s: 1 s made it, 1.5 s did not); ``startup_timeout_sec`` does not delay it."""


LATE_MARGIN = 2.0
"""A server is predicted missing from the first request only past twice the grace: one start-up measured on
a loaded machine is rough (the lane saw a stdlib server measured over 1.5 s that Codex still got in time)."""


def surely_late(verdict: StartupVerdict) -> bool:
    """Late by a margin wide enough to predict the first request without the server."""
    return verdict.late and verdict.seconds > CODEX_GRACE.seconds * LATE_MARGIN


def late_servers(results: dict[str, ServerResult], startable: list[str]) -> tuple[StartupVerdict, ...]:
    """The started servers (measured live) over Codex's start-up grace, or close to it."""
    return startup_verdicts([results[n] for n in startable if n in results and results[n].ok], CODEX_GRACE)


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


def startable_servers(merged: Merged, requirements: Layer | None) -> list[str]:
    """The servers Codex would start (stages 1-3 pass, a name it accepts)."""
    return [n for n in merged.servers if _startable(n, merged, requirements)]


MAX_NAMES_SHOWN = 12


def env_needed(
    chosen: dict[str, Launch], results: dict[str, ServerResult], environ: Mapping[str, str]
) -> dict[str, tuple[str, ...]]:
    """Servers that failed with Codex's environment and start with the whole one: server → the names (never the
    values) of the variables Codex did not pass it. Each failed server is started once more, with the same timeout."""
    failed = {
        n: replace(chosen[n], base_env=None) for n, r in results.items() if n in chosen and r.started and not r.ok
    }
    retried, _ = list_servers(failed, None) if failed else ({}, "")
    return {name: _not_passed(chosen[name], environ) for name, result in retried.items() if result.ok}


def _not_passed(launch: Launch, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The shell's variable names Codex did not pass; those the server's command or args mention first."""
    passed = set(launch.base_env or {})
    text = json.dumps(launch.entry)
    return tuple(sorted((k for k in environ if k not in passed), key=lambda k: (k not in text, k)))


def list_codex_servers(
    merged: Merged,
    requirements: Layer | None,
    environ: Mapping[str, str],
    snapshot: Path | None,
    discover: bool,
) -> tuple[dict[str, ServerResult], str, dict[str, tuple[str, ...]]]:
    """Each server's tools (live for those started, else ``not_started``), where they came from, and the
    servers that fail only for want of a shell variable (``env_needed``)."""
    startable = startable_servers(merged, requirements)
    if snapshot is not None:
        return (*list_servers({n: Launch({}) for n in startable}, snapshot), {})
    chosen = {}
    for name in startable:
        server = merged.servers[name]
        if discover or (own_server(server) and own_definitions_start()):
            base, taken = codex_env(server, environ)
            chosen[name] = Launch({k: v for k, (v, _) in server.items()}, base, taken)
    results, where = list_servers(chosen, None)
    needed = env_needed(chosen, results, environ)
    for name in startable:
        results.setdefault(name, not_started(name))
    return results, start_summary(results, where), needed
