"""Live discovery: connect to every configured MCP server in parallel and list its tools.

``discover(config, timeout)`` uses the official ``mcp`` SDK (``stdio_client``,
``streamable_http_client``, ``sse_client``; then ``eras.open_and_list``: with mcp >= 2 the
SDK's ``Client(mode="auto")``, which probes ``server/discover`` and falls back to the
``initialize`` handshake, then ``tools/list`` following ``nextCursor``).

Guarantees:

* Each server gets ``timeout`` seconds for start + handshake + every tools/list page,
  counted from its own start. At most ``MAX_CONCURRENT_SERVERS`` are attempted at once (150
  servers are never started in the same second); the rest wait their turn in config order, so
  the whole discovery takes about the slowest server per wave of ``MAX_CONCURRENT_SERVERS``,
  at most ``ceil(servers / MAX_CONCURRENT_SERVERS)`` × ``timeout`` plus teardown (a fraction of
  a second for a hung stdio server).
* No process survives: a stdio server is started by the SDK in its own process group;
  we learn its PID, SIGKILL the whole group the moment its timeout expires (instead of
  the SDK's 2 s + 2 s polite shutdown), and SIGKILL the group again after the SDK has
  stopped the server, which also removes grandchildren whose parent already exited.
* Bounded memory: a stdio server's stderr is kept as its last 64 KiB (``stderr_ring``), an
  HTTP body is cut at 64 MiB (``http_limits``), at most 10,000 tools/list pages are read.
* A failure is a result, never an exception: ``ServerResult.ok`` is False and
  ``error`` says why. Secret values from the config never appear in any text we return.

One server's attempt (listing, watchdog, cleanup) is ``server_discovery``'s; how each protocol
is reached is ``transports``'. This module runs them all and records where the config came from.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from .config import McpConfig, ServerConfig
from .http_limits import max_body_bytes
from .processes import become_subreaper, end_orphans, own_children
from .results import DiscoveryResult, Provenance, ServerResult, find_duplicates
from .server_discovery import discover_server

MAX_CONCURRENT_SERVERS = 8
"""Servers attempted at once: each stdio one is a process starting up (an interpreter, a node),
and a machine starting 150 together answers none of them in time."""


async def discover(
    config: McpConfig, timeout: float = 10.0, on_result: Callable[[ServerResult], None] | None = None
) -> DiscoveryResult:
    """Discover every server of the config concurrently; results in config order.

    ``on_result`` is called with each server's result as soon as it finishes (progress)."""
    import anyio

    started = time.monotonic()
    taken_at = datetime.now(UTC).isoformat(timespec="seconds")
    results: dict[str, ServerResult] = {}
    body_limit = max_body_bytes()  # a bad TOOLSCOPE_MCP_MAX_BODY_MIB is refused before any server starts

    slots = anyio.CapacityLimiter(MAX_CONCURRENT_SERVERS)

    async def one(name: str, server: ServerConfig) -> None:
        async with slots:  # a server's timeout starts when its turn does
            results[name] = await discover_server(name, server, timeout, body_limit)
        if on_result is not None:
            on_result(results[name])

    # Orphans of a server (a grandchild whose parent exited before we saw it) become our
    # children, so they can be ended too, also when discovery is cancelled (SIGINT/SIGTERM).
    become_subreaper()
    before = own_children()
    try:
        async with anyio.create_task_group() as group:
            for name, server in config.servers.items():
                group.start_soon(one, name, server)
    finally:
        end_orphans(before)
    servers = tuple(results[name] for name in config.servers)
    return DiscoveryResult(
        servers=servers,
        duplicates=find_duplicates(servers),
        source=_provenance(config, taken_at),
        elapsed=round(time.monotonic() - started, 3),
        timeout=timeout,
    )


def _provenance(config: McpConfig, taken_at: str) -> Provenance:
    """Where a live listing came from: the config and its ``_user.json`` override, and when."""
    return Provenance(
        kind="live",
        config_file=config.path.name if config.path else None,
        config_sha256=config.sha256,
        taken_at=taken_at,
        user_config_file=config.user_path.name if config.user_path else None,
        user_config_sha256=config.user_sha256,
        notes=tuple(f"server {n!r} overridden by {config.user_path.name}" for n in config.overridden)
        if config.user_path
        else (),
    )


def discover_sync(
    config: McpConfig, timeout: float = 10.0, on_result: Callable[[ServerResult], None] | None = None
) -> DiscoveryResult:
    """Blocking ``discover``; safe to call from inside a running event loop (uses a thread)."""
    import asyncio

    import anyio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(discover, config, timeout, on_result)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, discover, config, timeout, on_result).result()
