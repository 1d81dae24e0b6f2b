"""Live discovery: connect to every configured MCP server in parallel and list its tools.

``discover(config, timeout)`` uses the official ``mcp`` SDK (``stdio_client``,
``streamable_http_client``, ``sse_client`` and ``ClientSession``: the legacy ``initialize``
handshake every server speaks, then ``tools/list`` following ``nextCursor``).

Guarantees:

* Each server gets ``timeout`` seconds for start + initialize + every tools/list page.
  Servers run concurrently, so the whole discovery takes about the slowest server,
  bounded by ``timeout`` plus teardown (a fraction of a second for a hung stdio server).
* No process survives: a stdio server is started by the SDK in its own process group;
  we learn its PID, SIGKILL the whole group the moment its timeout expires (instead of
  the SDK's 2 s + 2 s polite shutdown), and SIGKILL the group again after the SDK has
  stopped the server, which also removes grandchildren whose parent already exited.
* A failure is a result, never an exception: ``ServerResult.ok`` is False and
  ``error`` says why. Secret values from the config never appear in any text we return.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .config import McpConfig, ServerConfig
from .processes import (
    SPAWNED,
    Attempt,
    become_subreaper,
    end_orphans,
    install_spawn_hook,
    own_children,
    wait_group_dead,
)
from .protocol_errors import (
    ProtocolViolation,
    WatchedStream,
    bad_output_reason,
    first_problem,
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

MAX_PAGES = 10_000
_STDERR_TAIL = 300
_POLL = 0.05  # how often the watchdog checks the server process and the clock
_EXIT_GRACE = 0.5  # after the server process exits: time for the session to finish on its own
_BAD_OUTPUT_GRACE = 1.0  # after unparsable output: time for the server to answer anyway


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


def _leaf(exc: BaseException) -> BaseException:
    """The first real exception inside (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


_STDERR_READ = 64 * 1024
"""How much of the end of a server's stderr log is read back for its failure reason."""


def _stderr_tail(errlog: Any) -> str:
    if errlog is None:
        return ""
    with contextlib.suppress(OSError, ValueError):
        errlog.flush()
        # Only the end: a server flooding stderr wrote gigabytes, and the reason needs one line.
        size = os.fstat(errlog.fileno()).st_size
        with open(errlog.fileno(), "rb", closefd=False) as raw:
            raw.seek(max(0, size - _STDERR_READ))
            text = raw.read(_STDERR_READ).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            return lines[-1][-_STDERR_TAIL:]
    return ""


def _exit_reason(exited: str, phase: str, tail: str) -> str:
    """The reason for a server process that went away before its tools were listed."""
    suffix = f" (stderr: {tail})" if tail else ""
    if phase in {"start", "initialize"}:
        return f"failed to start: process {exited} before answering initialize{suffix}"
    return f"crashed: process {exited} during {phase}{suffix}"


def _classify(exc: BaseException, attempt: Attempt, server: ServerConfig, errlog: Any) -> str:
    """Turn what went wrong into the reason users read."""
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    leaf = _leaf(exc)
    tail = _stderr_tail(errlog)
    suffix = f" (stderr: {tail})" if tail else ""
    process = attempt.process
    code = process.returncode if process is not None else None
    closed = isinstance(leaf, MCPError) and "closed" in str(leaf).lower()
    # What the server said, before how its process ended: after a bad answer we close the
    # session ourselves, and the server then exits 0 — which is not a crash.
    if isinstance(leaf, ProtocolViolation):
        return f"{attempt.phase} failed: {leaf}{suffix}"
    if isinstance(leaf, ValidationError):
        return f"{attempt.phase} failed: the server's answer is not valid MCP ({first_problem(leaf)}){suffix}"
    if isinstance(leaf, OSError) and attempt.phase == "start" and process is None:
        what = leaf.strerror or str(leaf)
        if server.directory and not os.path.isdir(server.directory):
            return f"failed to start: working directory {server.directory!r} does not exist"
        if server.effective_protocol == "stdio":
            return f"failed to start: {what}: {server.command!r}"
        return f"failed to connect: {what}"
    if isinstance(leaf, MCPError) and not closed:
        return f"{attempt.phase} failed: {leaf}"
    if closed or (process is not None and code is not None):
        exited = f"exited with code {code}" if code is not None else "closed the connection"
        return _exit_reason(exited, attempt.phase, tail)
    if server.effective_protocol != "stdio" and attempt.phase in {"start", "initialize"}:
        return f"failed to connect: {type(leaf).__name__}: {leaf}"
    return f"{attempt.phase} failed: {type(leaf).__name__}: {leaf}{suffix}"


async def _list_all_tools(session: Any) -> list[Any]:
    """Every page of tools/list; a cursor seen twice is a server bug, not an endless loop."""
    import mcp_types as types

    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools
        if cursor in seen:
            raise ProtocolViolation(f"pagination loop: cursor {cursor!r} returned twice")
        seen.add(cursor)
    raise ProtocolViolation(f"more than {MAX_PAGES} pages")


@contextlib.asynccontextmanager
async def _transport(server: ServerConfig, errlog: Any, timeout: float):
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

        async with _http_client(dict(server.headers)) as http:
            async with streamable_http_client(server.url or "", http_client=http) as streams:
                yield streams[0], streams[1]
    else:
        from mcp.client.sse import sse_client

        async with sse_client(server.url or "", headers=dict(server.headers), timeout=timeout) as streams:
            yield streams[0], streams[1]


def _http_client(headers: dict[str, str]) -> Any:
    """The HTTP client for a streamable HTTP server: the SDK's documented way to set headers
    (pass your own client), with the timeouts the SDK's default client uses (30 s, reading 300 s).

    mcp 2.x speaks httpx2, mcp 1.x httpx; both have this API.
    """
    try:
        import httpx2 as httpx
    except ImportError:  # pragma: no cover - mcp 1.x (the AgentScope 2.0.6 lane)
        import httpx  # type: ignore[no-redef]

    return httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30.0, read=300.0))


async def discover_server(name: str, server: ServerConfig, timeout: float) -> ServerResult:
    """Connect to one server, list all its tools, and always clean up; never raises."""
    import anyio
    from mcp import ClientSession

    install_spawn_hook()
    attempt = Attempt()
    secrets = secret_values(server)
    always = env_values(server)
    started = time.monotonic()
    listed: list[Any] | None = None
    error: str | None = None
    errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
    bad_output: list[Exception] = []

    async def work() -> None:
        nonlocal listed, error
        try:
            async with _transport(server, errlog, timeout) as (read, write):
                async with ClientSession(WatchedStream(read, bad_output), write) as session:
                    attempt.phase = "initialize"
                    await session.initialize()
                    attempt.phase = "tools/list"
                    listed = await _list_all_tools(session)
        except Exception as exc:  # every failure becomes a reason
            error = _classify(exc, attempt, server, errlog)

    finished = anyio.Event()
    token = SPAWNED.set(attempt.processes)
    try:
        async with anyio.create_task_group() as group:

            async def watchdog() -> None:
                # Polls instead of one long sleep: a server whose process died while a
                # grandchild keeps its stdout open would otherwise look alive until the timeout.
                deadline = anyio.current_time() + timeout
                stuck_since: float | None = None
                stuck_phase = ""
                while anyio.current_time() < deadline:
                    await anyio.sleep(_POLL)
                    attempt.track()
                    if bad_output and listed is None:
                        # Unparsable output. The SDK skips it (a banner on stdout is common),
                        # so give the server a moment to answer anyway; no progress: end it.
                        if stuck_since is None or stuck_phase != attempt.phase:
                            stuck_since, stuck_phase = anyio.current_time(), attempt.phase
                        elif anyio.current_time() - stuck_since > _BAD_OUTPUT_GRACE:
                            break
                    process = attempt.process
                    if process is not None and process.returncode is not None and listed is None:
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
        if bad_output and listed is None and (error is None or attempt.timed_out):
            error = bad_output_reason(attempt.phase, bad_output, _stderr_tail(errlog))
        elif listed is None and (error is None or attempt.timed_out):
            tail = _stderr_tail(errlog)
            if attempt.timed_out:
                phase = "the process to start" if attempt.phase == "start" else attempt.phase
                error = f"timed out after {timeout:g}s waiting for {phase}" + (f" (stderr: {tail})" if tail else "")
            elif attempt.exit_code is not None:
                error = _exit_reason(f"exited with code {attempt.exit_code}", attempt.phase, tail)
        errlog.close()
    elapsed = time.monotonic() - started
    common = functools.partial(
        ServerResult,
        name=name,
        protocol=server.effective_protocol,
        elapsed=round(elapsed, 3),
        launch=launch_summary(server),
        pid=attempt.process.pid if attempt.process is not None else None,
    )
    if listed is None:
        return common(ok=False, error=scrub(error or "unknown failure", secrets, always))
    names: list[str] = []
    descriptions: dict[str, str] = {}
    hints: dict[str, tuple[str, ...]] = {}
    for tool in listed:
        if tool.name in descriptions:
            continue
        names.append(tool.name)
        descriptions[tool.name] = scrub(tool.description or "", secrets, always)
        if found := tool_hints(tool):
            hints[tool.name] = found
    return common(ok=True, tools=tuple(names), descriptions=descriptions, hints=hints)


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

    async def one(name: str, server: ServerConfig) -> None:
        results[name] = await discover_server(name, server, timeout)
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
