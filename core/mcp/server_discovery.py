"""Discovering one MCP server: start or connect, list every tool, and always clean up.

The listing runs beside a watchdog that polls the server process and the clock: a server
that hangs is killed at its timeout, one that exits is given a moment for the session to read
what it wrote, and one stuck on output the SDK skips (a banner on stdout, an answer to no
request of ours) gets a short grace before its reason is said. Whatever happens, the result is
a ``ServerResult`` with a truthful reason (``reasons``), secrets scrubbed; never an exception.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from .config import ServerConfig
from .eras import Listing, open_and_list
from .http_limits import BodyLimit, max_body_bytes
from .processes import SPAWNED, Attempt, install_spawn_hook, wait_group_dead
from .protocol_errors import bad_output_reason
from .reasons import classify, describe_timeout, exit_reason, kept_running_reason, phase_of, stray_reason
from .redact import env_values, scrub, secret_values
from .results import ServerResult
from .stderr_ring import StderrRing
from .transports import launch_summary, open_transport
from .watched_streams import Observed, WatchedRead, WatchedWrite

_POLL = 0.05  # how often the watchdog checks the server process and the clock
_EXIT_GRACE = 0.5  # after the server process exits: time for the session to finish on its own
_BAD_OUTPUT_GRACE = 1.0  # after unparsable output: time for the server to answer anyway
_STRAY_GRACE = 2.0  # after an answer to a request we never sent: time for the real answer

_HINTS = ("readOnlyHint",)
_META_HINTS = ("anthropic/alwaysLoad",)


async def discover_server(
    name: str, server: ServerConfig, timeout: float, body_limit: int | None = None
) -> ServerResult:
    """Connect to one server, list all its tools, and always clean up; never raises."""
    install_spawn_hook()
    return await _ServerDiscovery(name, server, timeout, body_limit).run()


class _OddityClock:
    """Since when the session has been stuck on an oddity, and at which count of real answers."""

    since: float | None = None
    answers: int = -1


class _ServerDiscovery:
    """One attempt at one server: what the listing, the watchdog and the cleanup share."""

    def __init__(self, name: str, server: ServerConfig, timeout: float, body_limit: int | None) -> None:
        self.name, self.server, self.timeout = name, server, timeout
        self.attempt = Attempt()
        self.seen = Observed()
        self.limit = BodyLimit(body_limit if body_limit is not None else max_body_bytes(), lambda: phase_of(self.seen))
        # The stderr of a stdio server: its last 64 KiB, read from a pipe (never stored whole).
        self.ring = StderrRing() if server.effective_protocol == "stdio" else None
        self.listing: Listing | None = None
        self.error: str | None = None
        """Why the listing raised (classified), if it did."""
        self.ended_early: str | None = None
        """Why the watchdog stopped the attempt before the timeout, if it did."""
        self.ready_after: float | None = None
        """Seconds from the start until the listing was complete (``ServerResult.startup_seconds``)."""

    def tail(self) -> str:
        """The server's last stderr (stdio only), for reasons."""
        return self.ring.tail() if self.ring is not None else ""

    async def run(self) -> ServerResult:
        """The listing and the watchdog in one task group, then the cleanup and the result."""
        import anyio

        started, started_wall = time.monotonic(), time.time()
        finished = anyio.Event()
        token = SPAWNED.set(self.attempt.processes)
        try:
            async with anyio.create_task_group() as group:

                async def runner() -> None:
                    await self._list_tools()
                    if self.listing is not None:
                        self.ready_after = time.time() - self._spawned_at(started_wall)
                    finished.set()
                    group.cancel_scope.cancel()

                group.start_soon(self._watchdog, group, finished)
                group.start_soon(runner)
        finally:
            SPAWNED.reset(token)
            self.attempt.kill_all()  # grandchildren whose parent already exited, in any session
            if self.attempt.process is not None:
                await wait_group_dead(self.attempt.process.pid)
            if self.ring is not None:
                self.ring.close()
            if self.listing is None:
                self.error = self._failure_reason()
        return self._result(time.monotonic() - started)

    def _spawned_at(self, started_wall: float) -> float:
        """When the server's process started (the clock a CLI's start-up grace runs on; the SDK's own
        import and set-up before it are not the server's), else when the attempt started (HTTP)."""
        process = self.attempt.process
        if process is None:
            return started_wall
        try:
            import psutil

            return max(started_wall, psutil.Process(process.pid).create_time())
        except (psutil.Error, OSError):
            return started_wall

    async def _list_tools(self) -> None:
        """Open the transport and list every tool; a failure becomes a classified reason."""
        server, ring, seen, attempt = self.server, self.ring, self.seen, self.attempt
        try:
            async with open_transport(server, ring.file if ring else None, self.timeout, self.limit) as (read, write):
                watched = WatchedRead(read, seen, lambda: attempt.process)
                self.listing = await open_and_list(watched, WatchedWrite(write, seen))
        except Exception as exc:  # every failure becomes a reason
            own = attempt.exit_code if attempt.exit_code is not None else seen.exit_code
            self.error = classify(exc, seen, own, server, self.tail())

    async def _watchdog(self, group: Any, finished: Any) -> None:
        """Until the timeout: end the attempt early when the server can no longer answer."""
        import anyio

        # Polls instead of one long sleep: a server whose process died while a
        # grandchild keeps its stdout open would otherwise look alive until the timeout.
        deadline = anyio.current_time() + self.timeout
        oddity = _OddityClock()
        while anyio.current_time() < deadline:
            await anyio.sleep(_POLL)
            self.attempt.track()
            if self.listing is not None:
                continue
            self.ended_early = self._stuck_reason(oddity, anyio.current_time())
            if self.ended_early is not None:
                break
            process = self.attempt.process
            if process is not None and process.returncode is not None:
                if not self.seen.closing:  # the server's own end, not the SDK's SIGTERM after we closed
                    self.attempt.exit_code = process.returncode
                # Let the session read what the server wrote before dying.
                with anyio.move_on_after(_EXIT_GRACE):
                    await finished.wait()
                break
        else:
            self.attempt.timed_out = True
        self.attempt.kill_group()  # a hung server dies now; the SDK's shutdown finds it gone
        group.cancel_scope.cancel()

    def _stuck_reason(self, oddity: _OddityClock, now: float) -> str | None:
        """Why the session cannot finish any more, or None while it still may."""
        seen = self.seen
        if seen.running_at_close:
            return kept_running_reason(phase_of(seen), self.tail())
        if not seen.stuck_on_oddity:
            oddity.since = None
            return None
        # Unparsable output (the SDK skips it: a banner on stdout is common) or an answer to
        # no request of ours, and no real answer since: give the server a moment to answer anyway.
        if oddity.since is None or oddity.answers != seen.answers_at_oddity:
            oddity.since, oddity.answers = now, seen.answers_at_oddity
            return None
        grace = _STRAY_GRACE if seen.stray_ids and not seen.bad_output else _BAD_OUTPUT_GRACE
        return self._oddity_reason() if now - oddity.since > grace else None

    def _oddity_reason(self) -> str:
        """The unparsable output, else the stray answer, that the session got stuck on."""
        phase = phase_of(self.seen)
        if self.seen.bad_output:
            return bad_output_reason(phase, self.seen.bad_output, self.tail())
        return stray_reason(phase, self.seen, self.tail())

    def _failure_reason(self) -> str | None:
        """Why no listing came: a body cut, the watchdog's reason, an oddity, the timeout, the exit."""
        seen, attempt = self.seen, self.attempt
        phase = phase_of(seen)
        code = attempt.exit_code if attempt.exit_code is not None else seen.exit_code
        if self.limit.tripped:
            return f"{self.limit.tripped_in or phase} failed: {self.limit.tripped}"
        if self.ended_early is not None:
            return self.ended_early
        if self.error is None or attempt.timed_out:
            if seen.stuck_on_oddity:
                return self._oddity_reason()
            if attempt.timed_out:
                return describe_timeout(self.timeout, phase, self.tail())
            if code is not None:
                return exit_reason(code, phase, self.tail())
        return self.error

    def _result(self, elapsed: float) -> ServerResult:
        """The server's result: its tools (descriptions scrubbed of secrets), or why it has none."""
        server = self.server
        secrets, always = secret_values(server), env_values(server)
        common = functools.partial(
            ServerResult,
            name=self.name,
            protocol=server.effective_protocol,
            elapsed=round(elapsed, 3),
            launch=launch_summary(server),
            pid=self.attempt.process.pid if self.attempt.process is not None else None,
        )
        listing = self.listing
        if listing is None:
            return common(ok=False, error=scrub(self.error or "unknown failure", secrets, always))
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
            startup_seconds=round(self.ready_after, 3) if self.ready_after is not None else None,
        )


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
