"""The two eras of MCP, both spoken through the SDK: open a connection, list every tool.

* **legacy** (protocol 2024-11-05 … 2025-11-25): an ``initialize`` handshake, then requests.
* **modern** (2026-07-28, stateless): no handshake; the client probes ``server/discover``,
  every request carries its own envelope, and list results carry cache hints
  (``ttlMs``: how long the listing stays fresh, ``cacheScope``: ``public`` or ``private``).

With mcp >= 2 the SDK's ``Client(mode="auto")`` probes ``server/discover`` and falls back to
``initialize`` on a legacy server; its own response cache is off here (``cache=None``),
since discovery wants what the server says now, with the hints as the server sent them.
With mcp < 2 (AgentScope 2.0.6 and 1.x) only the handshake exists: a modern-only server
refuses ``initialize`` with -32022, and ``modern_only_reason`` says so in plain words.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from .protocol_errors import ProtocolViolation

MAX_PAGES = 10_000
UNSUPPORTED_PROTOCOL_VERSION = -32022
"""The JSON-RPC error a server answers a protocol version it does not speak with (``data.supported``)."""


@dataclass(frozen=True)
class Listing:
    """Every tool a server listed, and how it spoke."""

    tools: list[Any]
    era: Literal["modern", "legacy"]
    """``modern`` (server/discover) or ``legacy`` (initialize)."""
    protocol_version: str | None
    ttl_ms: int | None = None
    """The smallest ``ttlMs`` of the tools/list pages; None when the server sent none (legacy)."""
    cache_scope: Literal["public", "private"] | None = None
    """``private`` when any page said so, else ``public``; None when the server sent none."""


def modern_sdk() -> bool:
    """True when the installed SDK can probe ``server/discover`` (mcp >= 2: ``Client(mode=...)``)."""
    try:
        from mcp import Client
    except ImportError:
        return False
    return dataclasses.is_dataclass(Client) and any(f.name == "mode" for f in dataclasses.fields(Client))


class _GivenStreams:
    """A Transport for ``Client``: the (watched) streams discovery already opened."""

    def __init__(self, read: Any, write: Any) -> None:
        self._streams = (read, write)

    async def __aenter__(self) -> tuple[Any, Any]:
        return self._streams

    async def __aexit__(self, *exc: Any) -> None:
        return None


def _cursor(page: Any) -> str | None:
    return getattr(page, "next_cursor", None) or getattr(page, "nextCursor", None)


async def _all_pages(fetch: Any) -> tuple[list[Any], list[Any]]:
    """Every page of tools/list (tools, pages); a cursor seen twice is a server bug, not an endless loop."""
    tools: list[Any] = []
    pages: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        page = await fetch(cursor)
        pages.append(page)
        tools.extend(page.tools)
        cursor = _cursor(page)
        if not cursor:
            return tools, pages
        if cursor in seen:
            raise ProtocolViolation(f"pagination loop: cursor {cursor!r} returned twice")
        seen.add(cursor)
    raise ProtocolViolation(f"more than {MAX_PAGES} pages")


def _cache_hints(pages: list[Any]) -> tuple[int | None, Literal["public", "private"] | None]:
    """The hints a listing carries: the smallest ttl and the narrowest scope of its pages,
    counted only where the server sent them (the SDK's models default them otherwise)."""
    sent = [p for p in pages if "ttl_ms" in getattr(p, "model_fields_set", ())]
    ttl = min((p.ttl_ms for p in sent), default=None)
    scoped = [p.cache_scope for p in pages if "cache_scope" in getattr(p, "model_fields_set", ())]
    if not scoped:
        return ttl, None
    return ttl, "private" if "private" in scoped else "public"


async def open_and_list(read: Any, write: Any) -> Listing:
    """Connect over the given streams in whichever era the server speaks, and list every tool."""
    if modern_sdk():
        from mcp import Client

        async with Client(_GivenStreams(read, write), mode="auto", cache=None) as client:
            era: Literal["modern", "legacy"] = "modern" if client.session.discover_result is not None else "legacy"
            tools, pages = await _all_pages(lambda cursor: client.list_tools(cursor=cursor))
            ttl, scope = _cache_hints(pages) if era == "modern" else (None, None)
            return Listing(tools, era, client.protocol_version, ttl, scope)
    from mcp import ClientSession  # pragma: no cover - mcp < 2 (the AgentScope 2.0.6 and 1.x lanes)

    async with ClientSession(read, write) as session:  # pragma: no cover
        init = await session.initialize()
        # mcp 1.x's list_tools takes the cursor itself (the installed 2.x types do not say so).
        legacy: Any = session
        tools, _pages = await _all_pages(lambda cursor: legacy.list_tools(cursor=cursor))
        version = getattr(init, "protocolVersion", None) or getattr(init, "protocol_version", None)
        return Listing(tools, "legacy", str(version) if version else None)


def modern_only_reason(exc: BaseException) -> str | None:
    """For a refused ``initialize`` (-32022) naming only versions past the handshake: why the
    installed SDK cannot speak to this server, and what would. None for any other error."""
    error = getattr(exc, "error", None)
    if getattr(error, "code", None) != UNSUPPORTED_PROTOCOL_VERSION:
        return None
    data = getattr(error, "data", None)
    supported = data.get("supported") if isinstance(data, dict) else None
    if not isinstance(supported, list) or not supported:
        return None
    versions = ", ".join(str(v) for v in supported[:8])
    if modern_sdk():
        return f"the server speaks only MCP {versions}, and this client speaks none of them"
    from importlib.metadata import version

    return (
        f"the server speaks only MCP {versions} (the stateless protocol: no initialize handshake), "
        f"and the installed mcp SDK {version('mcp')} speaks only the handshake; mcp 2.3 speaks both"
    )
