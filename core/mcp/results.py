"""What a discovery produced: per-server results, duplicates, provenance.

Plain frozen dataclasses (no mcp import) shared by live discovery, snapshots and the
engines that consume them. See ``toolscope.core.mcp`` for the overview.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

STALE_KEY = "MCP stale"
"""The ``LoadedInput.extra`` key naming servers whose listing is past its ttl; the TUI header
shows it first on its second line, so an 80-column terminal never cuts it."""


@dataclass(frozen=True)
class ServerResult:
    """One configured server: did it connect and list its tools, how long it took, why not.

    ``tools`` is what the server advertised, in its order (a name it listed twice kept
    once); cross-server duplicates are *not* removed here, see ``DiscoveryResult``.
    """

    name: str
    protocol: str
    ok: bool
    tools: tuple[str, ...] = ()
    descriptions: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    """Why it failed: ``failed to start: …``, ``crashed: …``, ``timed out after Ns …``,
    ``server/discover failed: …``, ``initialize failed: …``, ``tools/list failed: …``,
    ``failed to connect: …`` (``core.mcp.reasons``: an exit code quoted is the server's own)."""
    elapsed: float = 0.0
    launch: dict[str, Any] = field(default_factory=dict)
    """How it was started, secrets already redacted (command, args, env keys, url, headers)."""
    hints: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per tool, the hints it set that clients act on: ``readOnlyHint`` (annotations) and
    ``anthropic/alwaysLoad`` (``_meta``). Live discovery only (snapshots do not keep them)."""
    pid: int | None = None
    """PID of the stdio server process (live discovery only; never serialized)."""
    era: Literal["modern", "legacy"] | None = None
    """How the server spoke: ``modern`` (2026-07-28+: ``server/discover``, stateless) or
    ``legacy`` (the ``initialize`` handshake); None when it did not connect or is unknown."""
    protocol_version: str | None = None
    """The protocol version agreed on (``2025-11-25``, ``2026-07-28``)."""
    ttl_ms: int | None = None
    """How long the server said its tool listing stays fresh (``ttlMs``, modern servers only;
    0: stale at once). None when it said nothing."""
    cache_scope: Literal["public", "private"] | None = None
    """``public`` or ``private`` (``cacheScope``): who may share a cached listing."""
    startup_seconds: float | None = None
    """Seconds from the server's process start (an HTTP server: the attempt's start) until the tool
    listing was complete: how long a client waits before this server's tools exist. Live
    discovery only (None from a snapshot, or when the server listed nothing); ``core.mcp.startup``
    compares it with a client's start-up grace."""
    started: bool = True
    """False: toolscope did not start this server (no ``--discover``, see ``start_policy``): its
    tools are unknown, and it neither failed nor connected."""

    def stale_at(self, taken_at: str) -> float | None:
        """When the listing taken at ``taken_at`` (ISO 8601) goes stale, as a POSIX time; None
        when the server gave no ttl (a legacy server: no expiry is promised or implied)."""
        if self.ttl_ms is None:
            return None
        from datetime import datetime

        try:
            when = datetime.fromisoformat(taken_at).timestamp()
        except ValueError:
            return None
        return when + self.ttl_ms / 1000

    def freshness(self) -> str | None:
        """How the server spoke and what it said about keeping its listing, in words (None: unknown)."""
        if self.era is None:
            return None
        words = f"{self.era} MCP {self.protocol_version or '?'}"
        if self.ttl_ms is not None:
            keep = "stale at once (ttlMs 0)" if self.ttl_ms == 0 else f"fresh for {self.ttl_ms / 1000:g} s"
            words += f" · listing {keep}" + (f", {self.cache_scope}" if self.cache_scope else "")
        return words

    def is_stale(self, taken_at: str, now: float | None = None) -> bool:
        """True when the server's own ttl for this listing has passed (``ttlMs`` 0: at once)."""
        import time

        expiry = self.stale_at(taken_at)
        if expiry is None:
            return False
        if self.ttl_ms == 0:
            return True
        return (time.time() if now is None else now) >= expiry

    @property
    def zero_tools(self) -> bool:
        """True for a failed server or one that connected but advertised nothing.

        AgentWorks treats both the same way: the server stays configured with zero
        registered tools, and ``get_api_spec`` answers with its outage text (§6.4, §7.2).
        """
        return not self.tools


@dataclass(frozen=True)
class Duplicate:
    """A tool name advertised by more than one server: the first server in config order keeps it."""

    tool: str
    kept_server: str
    dropped_server: str


@dataclass(frozen=True)
class Provenance:
    """Where a tool universe came from, so an answer can say "live" or "snapshot of <when>"."""

    kind: Literal["live", "snapshot"]
    config_file: str | None
    config_sha256: str
    taken_at: str
    user_config_file: str | None = None
    user_config_sha256: str | None = None
    snapshot_file: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DiscoveryResult:
    """Every configured server in config order, the duplicates resolved, and the provenance."""

    servers: tuple[ServerResult, ...]
    duplicates: tuple[Duplicate, ...]
    source: Provenance
    elapsed: float = 0.0
    timeout: float = 0.0

    @property
    def not_started(self) -> tuple[ServerResult, ...]:
        """The servers toolscope did not start (no ``--discover``): their tools are unknown."""
        return tuple(s for s in self.servers if not s.started)

    @property
    def all_ok(self) -> bool:
        """True when every server connected and listed its tools."""
        return all(s.ok for s in self.servers)

    @property
    def failed(self) -> tuple[ServerResult, ...]:
        """Servers that did not connect or could not list their tools."""
        return tuple(s for s in self.servers if not s.ok)

    @property
    def outage_servers(self) -> tuple[str, ...]:
        """Servers with zero registered tools (failed, or connected with none): §6.4's outage list."""
        return tuple(s.name for s in self.servers if s.zero_tools)

    @property
    def stale_servers(self) -> tuple[ServerResult, ...]:
        """Servers whose saved listing is past the ttl they gave (see ``ServerResult.is_stale``).

        Only a snapshot can be stale: a live listing is what the server says now, whatever its
        ttl (0 included) says about keeping it."""
        if self.source.kind != "snapshot":
            return ()
        return tuple(s for s in self.servers if s.ok and s.is_stale(self.source.taken_at))

    def stale_notes(self, now: float | None = None) -> tuple[str, ...]:
        """One sentence per stale listing: whose, the ttl it gave, and since when it is stale."""
        from datetime import UTC, datetime

        notes = []
        for server in self.servers:
            if self.source.kind != "snapshot" or not (server.ok and server.is_stale(self.source.taken_at, now)):
                continue
            expiry = server.stale_at(self.source.taken_at)
            since = (
                "stale at once (ttlMs 0: the server asks for a fresh listing every time)"
                if server.ttl_ms == 0 or expiry is None
                else f"stale since {datetime.fromtimestamp(expiry, UTC).isoformat(timespec='seconds')} "
                f"(its ttl: {server.ttl_ms} ms from {self.source.taken_at})"
            )
            notes.append(
                f"MCP listing of server {server.name!r} in the snapshot is {since}; run toolscope discover again"
            )
        return tuple(notes)

    def server(self, name: str) -> ServerResult | None:
        """The result for one server name (exact), or None."""
        return next((s for s in self.servers if s.name == name), None)

    @property
    def tool_to_server(self) -> dict[str, str]:
        """Registered tool → owning server, first server wins (reference §7.2 step 3)."""
        owner: dict[str, str] = {}
        for server in self.servers:
            for tool in server.tools:
                owner.setdefault(tool, server.name)
        return owner

    @property
    def registered_tools(self) -> tuple[str, ...]:
        """All registered tool names in registration order (duplicates dropped)."""
        return tuple(self.tool_to_server)


def find_duplicates(servers: tuple[ServerResult, ...]) -> tuple[Duplicate, ...]:
    """Cross-server duplicate names in config order: the first server keeps each one."""
    owner: dict[str, str] = {}
    dups: list[Duplicate] = []
    for server in servers:
        for tool in server.tools:
            if tool in owner:
                dups.append(Duplicate(tool, owner[tool], server.name))
            else:
                owner[tool] = server.name
    return tuple(dups)
