"""Live discovery: connect to every configured MCP server in parallel and list its tools.

``discover(config, timeout)`` uses the official ``mcp`` SDK (``stdio_client``,
``streamable_http_client``, ``sse_client``; then ``eras.open_and_list``: with mcp >= 2 the
SDK's ``Client(mode="auto")``, which probes ``server/discover`` and falls back to the
``initialize`` handshake, then ``tools/list`` following ``nextCursor``).

Guarantees:

* Each server gets ``timeout`` seconds for start + handshake + every tools/list page.
  Servers run concurrently, so the whole discovery takes about the slowest server,
  bounded by ``timeout`` plus teardown (a fraction of a second for a hung stdio server).
* No process survives: a stdio server is started by the SDK in its own process group;
  we learn its PID, SIGKILL the whole group the moment its timeout expires (instead of
  the SDK's 2 s + 2 s polite shutdown), and SIGKILL the group again after the SDK has
  stopped the server, which also removes grandchildren whose parent already exited.
* Bounded memory: a stdio server's stderr is kept as its last 64 KiB (``stderr_ring``), an
  HTTP body is cut at 64 MiB (``http_limits``), at most 10,000 tools/list pages are read.
* A failure is a result, never an exception: ``ServerResult.ok`` is False and
  ``error`` says why. Secret values from the config never appear in any text we return.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .config import McpConfig, ServerConfig
from .eras import Listing, open_and_list
from .http_limits import BodyLimit, capped_client, max_body_bytes
from .processes import (
    SPAWNED,
    Attempt,
    become_subreaper,
    end_orphans,
    install_spawn_hook,
    own_children,
    wait_group_dead,
)
from .protocol_errors import bad_output_reason
from .reasons import (
    classify,
    describe_timeout,
    exit_reason,
    kept_running_reason,
    phase_of,
    stray_reason,
)
from .redact import (
    env_values,
    redact_args,
    redact_command,
    redact_mapping,
    redact_url,
    scrub,
    secret_values,
)
from .results import (
    DiscoveryResult,
    Provenance,
    ServerResult,
    find_duplicates,
)
from .stderr_ring import StderrRing
from .watched_streams import Observed, WatchedRead, WatchedWrite

_POLL = 0.05  # how often the watchdog checks the server process and the clock
_EXIT_GRACE = 0.5  # after the server process exits: time for the session to finish on its own
_BAD_OUTPUT_GRACE = 1.0  # after unparsable output: time for the server to answer anyway
_STRAY_GRACE = 2.0  # after an answer to a request we never sent: time for the real answer


def launch_summary(server: ServerConfig) -> dict[str, Any]:
    """How a server is started, with every secret masked (for output and snapshots)."""
    secrets = secret_values(server)
    protocol = server.effective_protocol
    if protocol == "stdio":
        return {
            "protocol": protocol,
            "command": redact_command(server.command or "", secrets),
            "args": redact_args(server.args, secrets),
            "env": redact_mapping(server.env),
            "working_dir": server.directory,
        }
    return {"protocol": protocol, "url": redact_url(server.url), "headers": redact_mapping(server.headers)}


@contextlib.asynccontextmanager
async def _transport(server: ServerConfig, errlog: Any, timeout: float, limit: BodyLimit):
    """The SDK transport for one server, yielding (read_stream, write_stream)."""
    protocol = server.effective_protocol
    if protocol == "stdio":
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(
            command=server.command or "",
            args=list(server.args),
            # The agent runtime's child inherits its environment plus the entry's env.
            env={**os.environ, **server.env},
            cwd=server.directory,
            # Undecodable bytes become U+FFFD and a parse error we report; "strict" would
            # end the SDK's reader and leave the handshake waiting until the timeout.
            encoding_error_handler="replace",
        )
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams
    elif protocol == "http":
        from mcp.client.streamable_http import streamable_http_client

        # Passing our own client is the SDK's documented way to set headers; it also caps bodies.
        async with capped_client(dict(server.headers), limit) as http:
            async with streamable_http_client(server.url or "", http_client=http) as streams:
                yield streams[0], streams[1]
    else:
        from mcp.client.sse import sse_client

        def factory(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any:
            client = capped_client(dict(headers or {}), limit)
            if timeout is not None:
                client.timeout = timeout
            if auth is not None:
                client.auth = auth
            return client

        async with sse_client(
            server.url or "", headers=dict(server.headers), timeout=timeout, httpx_client_factory=factory
        ) as streams:
            yield streams[0], streams[1]


async def discover_server(
    name: str, server: ServerConfig, timeout: float, body_limit: int | None = None
) -> ServerResult:
    """Connect to one server, list all its tools, and always clean up; never raises."""
    import anyio

    install_spawn_hook()
    attempt = Attempt()
    seen = Observed()
    secrets = secret_values(server)
    always = env_values(server)
    started = time.monotonic()
    listing: Listing | None = None
    error: str | None = None
    ended_early: str | None = None
    limit = BodyLimit(body_limit if body_limit is not None else max_body_bytes(), lambda: phase_of(seen))
    # The stderr of a stdio server: its last 64 KiB, read from a pipe (never stored whole).
    ring = StderrRing() if server.effective_protocol == "stdio" else None

    def tail() -> str:
        return ring.tail() if ring is not None else ""

    async def work() -> None:
        nonlocal listing, error
        try:
            async with _transport(server, ring.file if ring else None, timeout, limit) as (read, write):
                watched = WatchedRead(read, seen, lambda: attempt.process)
                listing = await open_and_list(watched, WatchedWrite(write, seen))
        except Exception as exc:  # every failure becomes a reason
            own = attempt.exit_code if attempt.exit_code is not None else seen.exit_code
            error = classify(exc, seen, own, server, tail())

    finished = anyio.Event()
    token = SPAWNED.set(attempt.processes)
    try:
        async with anyio.create_task_group() as group:

            async def watchdog() -> None:
                # Polls instead of one long sleep: a server whose process died while a
                # grandchild keeps its stdout open would otherwise look alive until the timeout.
                nonlocal ended_early
                deadline = anyio.current_time() + timeout
                stuck_since: float | None = None
                stuck_at = -1
                while anyio.current_time() < deadline:
                    await anyio.sleep(_POLL)
                    attempt.track()
                    if listing is not None:
                        continue
                    if seen.running_at_close:
                        ended_early = kept_running_reason(phase_of(seen), tail())
                        break
                    if not seen.stuck_on_oddity:
                        stuck_since = None
                    else:
                        # Unparsable output (the SDK skips it: a banner on stdout is common) or an
                        # answer to no request of ours, and no real answer since: give the server
                        # a moment to answer anyway.
                        if stuck_since is None or stuck_at != seen.answers_at_oddity:
                            stuck_since, stuck_at = anyio.current_time(), seen.answers_at_oddity
                        elif anyio.current_time() - stuck_since > (
                            _STRAY_GRACE if seen.stray_ids and not seen.bad_output else _BAD_OUTPUT_GRACE
                        ):
                            phase = phase_of(seen)
                            if seen.bad_output:
                                ended_early = bad_output_reason(phase, seen.bad_output, tail())
                            else:
                                ended_early = stray_reason(phase, seen, tail())
                            break
                    process = attempt.process
                    if process is not None and process.returncode is not None:
                        if not seen.closing:  # the server's own end, not the SDK's SIGTERM after we closed
                            attempt.exit_code = process.returncode
                        # Let the session read what the server wrote before dying.
                        with anyio.move_on_after(_EXIT_GRACE):
                            await finished.wait()
                        break
                else:
                    attempt.timed_out = True
                attempt.kill_group()  # a hung server dies now; the SDK's shutdown finds it gone
                group.cancel_scope.cancel()

            async def runner() -> None:
                await work()
                finished.set()
                group.cancel_scope.cancel()

            group.start_soon(watchdog)
            group.start_soon(runner)
    finally:
        SPAWNED.reset(token)
        attempt.kill_all()  # grandchildren whose parent already exited, in any session
        if attempt.process is not None:
            await wait_group_dead(attempt.process.pid)
        if ring is not None:
            ring.close()
        if listing is None:
            phase = phase_of(seen)
            code = attempt.exit_code if attempt.exit_code is not None else seen.exit_code
            if limit.tripped:
                error = f"{limit.tripped_in or phase} failed: {limit.tripped}"
            elif ended_early is not None:
                error = ended_early
            elif error is None or attempt.timed_out:
                if seen.stuck_on_oddity and seen.bad_output:
                    error = bad_output_reason(phase, seen.bad_output, tail())
                elif seen.stuck_on_oddity:
                    error = stray_reason(phase, seen, tail())
                elif attempt.timed_out:
                    error = describe_timeout(timeout, phase, tail())
                elif code is not None:
                    error = exit_reason(code, phase, tail())
    elapsed = time.monotonic() - started
    common = functools.partial(
        ServerResult,
        name=name,
        protocol=server.effective_protocol,
        elapsed=round(elapsed, 3),
        launch=launch_summary(server),
        pid=attempt.process.pid if attempt.process is not None else None,
    )
    if listing is None:
        return common(ok=False, error=scrub(error or "unknown failure", secrets, always))
    names: list[str] = []
    descriptions: dict[str, str] = {}
    hints: dict[str, tuple[str, ...]] = {}
    for tool in listing.tools:
        if tool.name in descriptions:
            continue
        names.append(tool.name)
        descriptions[tool.name] = scrub(tool.description or "", secrets, always)
        if found := tool_hints(tool):
            hints[tool.name] = found
    return common(
        ok=True,
        tools=tuple(names),
        descriptions=descriptions,
        hints=hints,
        era=listing.era,
        protocol_version=listing.protocol_version,
        ttl_ms=listing.ttl_ms,
        cache_scope=listing.cache_scope,
    )


_HINTS = ("readOnlyHint",)
_META_HINTS = ("anthropic/alwaysLoad",)


def tool_hints(tool: Any) -> tuple[str, ...]:
    """The client-relevant hints a listed tool sets to true (see ``ServerResult.hints``)."""
    annotations = getattr(tool, "annotations", None)
    meta = getattr(tool, "meta", None) or {}
    # The SDK's models name fields in snake case (read_only_hint), the wire in camel case.
    found = [
        h
        for h in _HINTS
        if getattr(annotations, h, None) is True or getattr(annotations, "read_only_hint", None) is True
    ]
    found += [h for h in _META_HINTS if isinstance(meta, dict) and meta.get(h) is True]
    return tuple(found)


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

    async def one(name: str, server: ServerConfig) -> None:
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
    source = Provenance(
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
    return DiscoveryResult(
        servers=servers,
        duplicates=find_duplicates(servers),
        source=source,
        elapsed=round(time.monotonic() - started, 3),
        timeout=timeout,
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
