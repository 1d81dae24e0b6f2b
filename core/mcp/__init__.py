"""MCP discovery: what configured MCP servers really expose, and outages as outages.

Modules (``mcp`` itself is imported only inside the functions that talk to servers):

* ``config``: ``load_config(path) -> McpConfig``: the standard ``{"mcpServers": {...}}``
  file merged with its ``_user.json`` override, protocol inferred (``/sse`` → sse,
  ``http(s)://`` → http, else stdio). Bad files raise ``InputError``.
* ``discovery``: ``async discover(config, timeout) -> DiscoveryResult`` and
  ``discover_sync(config, timeout)``: every server in parallel through the official SDK
  (stdio, streamable HTTP, SSE), tools/list pages followed, every spawned process reaped.
  ``server_discovery`` is one server's attempt (listing, watchdog, cleanup, its reason);
  ``transports`` opens the SDK's transport per protocol and summarises the launch, masked.
* ``snapshot``: ``write_snapshot``/``load_snapshot`` (``toolscope.mcp-snapshot/1``) and
  ``diff_snapshots(old, new) -> Drift`` (added/removed/renamed per server; ``lines()``,
  ``to_json()`` with ``"schema": "toolscope.mcp-drift/1"``).
* ``redact``: what counts as a secret and how it is masked (``***``); ``secret_scan`` (secret
  names and values, the one scan of a command line or URL) and ``config_secrets`` (every
  secret value of a parsed config) apply its rules.
* ``universe``: ``load_mcp_universe(config_path, snapshot, timeout, discover) -> DiscoveryResult``,
  from the snapshot (config drift noted), else live with ``discover``, else every server not started.
* ``start_policy``: the opt-in (``--discover``): what a server toolscope did not start reads like
  (``not_started``: ``started`` False, tools unknown), its phrase, its fix, the header's word.
* ``startup``: ``startup_verdicts(servers, StartupGrace(client, seconds, extend))``: the servers
  whose measured start-up (``ServerResult.startup_seconds``) is over a client's start-up grace
  (its first request goes without them) or close to it, each with a sentence and its fix.
* ``outage``: ``unknown_reason(server)`` (``unknown: server X failed: <reason>``) and
  ``get_api_spec_outage_text(result, blamed, requested, not_allowed)`` (§6.4's text).
* ``processes``: PID capture of SDK-spawned servers and process-group reaping.
* ``eras``: both protocol eras through the SDK (``Client(mode="auto")``: ``server/discover``,
  falling back to ``initialize``); ``Listing`` with the era, version and cache hints.
* ``stderr_ring`` (a stdio server's stderr: its last 64 KiB, from a pipe), ``http_limits``
  (HTTP bodies capped at 64 MiB), ``watched_streams`` (what the SDK skips: unparsable lines,
  stray ids, stdout's end) and ``reasons`` (a truthful reason for each failure).
* ``agentscope_clients``: ``async check_toolkit_mcp_clients(toolkit)`` lists every
  AgentScope ``MCPClient`` in a toolkit's groups itself and reports failures.

``DiscoveryResult`` (``results``), what engines consume:

* ``servers``: tuple of ``ServerResult`` in config order, each with ``name``, ``protocol``,
  ``ok: bool``, ``tools: tuple[str, ...]`` (as advertised), ``descriptions: dict[str, str]``,
  ``error: str | None`` (``failed to start: …``, ``crashed: …``, ``timed out after Ns …``,
  ``initialize failed: …``, ``tools/list failed: …``, ``failed to connect: …``),
  ``elapsed: float`` seconds, ``startup_seconds`` (spawn until listed; live only), ``launch`` (redacted command line / URL), ``zero_tools``,
  ``era`` (``modern``/``legacy``), ``protocol_version``, ``ttl_ms``, ``cache_scope``.
* ``duplicates``: tuple of ``Duplicate(tool, kept_server, dropped_server)``: first server
  in config order wins (reference §7.2); ``tool_to_server`` / ``registered_tools`` give
  the registered set with duplicates already dropped.
* ``outage_servers``: servers with zero registered tools (failed, or connected with none),
  the servers AgentWorks' ``get_api_spec`` blames in its outage text (reference §6.4).
* ``source``: ``Provenance(kind="live"|"snapshot", config_file, config_sha256, taken_at,
  user_config_file, user_config_sha256, snapshot_file, notes)``.
* ``all_ok``, ``failed``, ``server(name)``, ``elapsed``, ``timeout``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# The re-exports load on first use (PEP 562): ``core.mcp.redact`` is imported by every
# report, and importing this package must not cost it the pydantic models of ``config``.
_EXPORTS = {
    "McpConfig": "config",
    "ServerConfig": "config",
    "infer_protocol": "config",
    "load_config": "config",
    "DiscoveryResult": "results",
    "Duplicate": "results",
    "Provenance": "results",
    "ServerResult": "results",
    "load_mcp_universe": "universe",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
