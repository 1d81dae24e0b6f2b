"""List every AgentScope ``MCPClient`` in a toolkit's groups ourselves, and report failures.

AgentScope re-lists each client's tools on every toolkit lookup and, when ``list_tools``
raises, only logs a warning: the group stays active with the client's tools silently
missing, so calls fail with ``ToolNotFoundError`` (reference agentscope-2x §9). We make the
same ``list_tools()`` call the toolkit makes and keep the reason.

Works with any toolkit exposing ``tool_groups`` whose items have ``name`` and ``mcps``
(AgentScope 2.0.6 and 2.0.11); agentscope itself is never imported here.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class ClientListing:
    """One MCP client of one group: the tools the toolkit would get from it, or why none."""

    group: str
    client: str
    ok: bool
    tools: tuple[str, ...] = ()
    """Tool names as the toolkit exposes them (``mcp__<client>__<tool>``)."""
    error: str | None = None
    elapsed: float = 0.0

    @property
    def message(self) -> str:
        """One line for reports: the tool count, or the silent-drop explanation."""
        if self.ok:
            return f"MCP client {self.client!r} in group {self.group!r}: {len(self.tools)} tools"
        return f"group active but empty: MCP client {self.client!r} failed: {self.error}"


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` of the innermost real exception (unwrapping exception groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def list_client(group: str, client: Any, timeout: float = DEFAULT_TIMEOUT) -> ClientListing:
    """Call ``client.list_tools()`` as the toolkit does; never raises (except cancellation)."""
    name = str(getattr(client, "name", "?"))
    started = time.monotonic()
    try:
        tools = await asyncio.wait_for(client.list_tools(), timeout)
    except TimeoutError:
        return ClientListing(
            group,
            name,
            False,
            error=f"list_tools timed out after {timeout:g}s",
            elapsed=round(time.monotonic() - started, 3),
        )
    except Exception as exc:  # the toolkit swallows these too; we keep the reason
        return ClientListing(
            group, name, False, error=describe_exception(exc), elapsed=round(time.monotonic() - started, 3)
        )
    names = tuple(str(getattr(t, "name", t)) for t in tools)
    return ClientListing(group, name, True, tools=names, elapsed=round(time.monotonic() - started, 3))


async def check_toolkit_mcp_clients(toolkit: Any, timeout: float = DEFAULT_TIMEOUT) -> list[ClientListing]:
    """Every MCP client of every group (``toolkit.tool_groups[i].mcps``), listed concurrently.

    Results are in group order, then client order within the group.
    """
    jobs = [
        list_client(str(group.name), client, timeout)
        for group in getattr(toolkit, "tool_groups", [])
        for client in (getattr(group, "mcps", None) or [])
    ]
    return list(await asyncio.gather(*jobs))
