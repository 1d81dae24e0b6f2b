"""What makes ``codex exec`` end before any model request: then no tool reaches the model at all.

Observed with 0.171.0 (``tests/clis/experiments/x_codex.py`` H_, ``x_codex_round2.py``), each exit 1
with no request:

- a ``required = true`` server (one Codex starts) that fails to start: "required MCP servers
  failed to initialize";
- a server with neither ``command`` nor ``url`` in any layer: "invalid transport in
  ``mcp_servers.NAME``" (often made by ``-c``, which splits its key at every dot and keeps quotes,
  so ``-c 'mcp_servers."a.b".enabled=false'`` makes a server named ``"a"``);
- a top-level ``profile = "…"`` key ("legacy profile config is no longer supported"), or
  ``--profile P`` while a ``[profiles.P]`` table exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...mcp.results import ServerResult
from .ids import CodexFinding
from .layers import Layer, Merged
from .tools import value


@dataclass(frozen=True)
class RunEnd:
    """One cause that ends the run before any request: its kind, what Codex says, where, and the fix."""

    kind: CodexFinding
    message: str
    source: str
    fix: str
    entry: str = ""


def _required_failed(merged: Merged, results: dict[str, ServerResult], startable: list[str]) -> list[RunEnd]:
    out = []
    for name in startable:
        required, where = value(merged.servers[name], "required")
        result = results.get(name)
        if required is True and result is not None and result.started and not result.ok:
            out.append(
                RunEnd(
                    CodexFinding.REQUIRED_SERVER_FAILED,
                    f"required server failed: the run ends: [mcp_servers.{name}] has required = true ({where}) and "
                    f"failed to start ({result.error}); codex exec exits 1 before any model request",
                    str(where),
                    f"make server {name} start, or remove required = true ({where})",
                    name,
                )
            )
    return out


def _no_transport(merged: Merged) -> list[RunEnd]:
    out = []
    for name, server in merged.servers.items():
        if value(server, "command")[0] is None and value(server, "url")[0] is None:
            where = next(iter(server.values()))[1] if server else "config"
            hint = (
                ": -c splits its key at every dot and keeps quote characters, so no -c key can name a server "
                "whose name has a dot"
                if where.startswith("-c ")
                else ""
            )
            out.append(
                RunEnd(
                    CodexFinding.CONFIG_REFUSED,
                    f"Codex refuses the config: the run ends: [mcp_servers.{name}] has neither command nor url "
                    f'("invalid transport in mcp_servers.{name}", set at {where}){hint}',
                    where,
                    f"give [mcp_servers.{name}] a command or url, or remove what sets it ({where})",
                    name,
                )
            )
    return out


def _legacy_profile(layers: list[Layer], profile: str | None) -> list[RunEnd]:
    out = []
    for layer in layers:
        if layer.ignored:
            continue
        if isinstance(layer.data.get("profile"), str):
            name = layer.data["profile"]
            out.append(
                RunEnd(
                    CodexFinding.CONFIG_REFUSED,
                    f'Codex refuses the config: the run ends: {layer.shown} sets profile = "{name}" '
                    f'("legacy profile config is no longer supported")',
                    layer.shown,
                    f'remove profile = "{name}" from {layer.shown}; move its settings into $CODEX_HOME/{name}.config.toml '
                    f"and run codex --profile {name}",
                    "profile",
                )
            )
        tables = layer.data.get("profiles")
        if profile is not None and isinstance(tables, dict) and profile in tables:
            out.append(
                RunEnd(
                    CodexFinding.CONFIG_REFUSED,
                    f"Codex refuses the config: the run ends: --profile {profile} with a [profiles.{profile}] table "
                    f"in {layer.shown} (legacy profile config)",
                    layer.shown,
                    f"move [profiles.{profile}]'s settings from {layer.shown} into $CODEX_HOME/{profile}.config.toml "
                    "and delete the table",
                    f"profiles.{profile}",
                )
            )
    return out


def run_ends(
    layers: list[Layer],
    merged: Merged,
    results: dict[str, ServerResult],
    startable: list[str],
    profile: str | None,
) -> list[RunEnd]:
    """Every cause that makes ``codex exec`` exit 1 before its first model request."""
    return [*_legacy_profile(layers, profile), *_no_transport(merged), *_required_failed(merged, results, startable)]
