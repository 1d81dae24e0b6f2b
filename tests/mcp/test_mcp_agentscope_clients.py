"""AgentScope toolkits: list every group's MCP clients ourselves and surface silent drops."""

from __future__ import annotations

import sys

import pytest
from mcpdisc_helpers import FIXTURE

from toolscope.core.mcp.agentscope_clients import check_toolkit_mcp_clients

pytestmark = pytest.mark.agentscope


async def _client(name: str, *args: str):
    from agentscope.mcp import MCPClient, StdioMCPConfig

    client = MCPClient(
        name=name,
        is_stateful=True,
        mcp_config=StdioMCPConfig(command=sys.executable, args=[FIXTURE, *args]),
        execution_timeout=20,
    )
    await client.connect()
    return client


async def test_healthy_closed_and_failing_clients_in_a_real_toolkit() -> None:
    from agentscope.state import AgentState
    from agentscope.tool import ToolGroup, Toolkit

    healthy = await _client("healthy", "--tools", "alpha,beta")
    closed = await _client("closed", "--tools", "gamma")
    refusing = await _client("refusing", "--mode", "fail-list")
    try:
        toolkit = Toolkit(
            tool_groups=[
                ToolGroup("remote", "Remote tools", mcps=[healthy, closed]),
                ToolGroup("flaky", "Flaky tools", mcps=[refusing]),
            ]
        )
        await closed.close()  # its server is gone: the toolkit will silently drop "gamma"

        # What the framework does: the groups are active, the failing clients' tools just vanish.
        state = AgentState()
        state.tool_context.activated_groups = ["remote", "flaky"]
        names = [s["function"]["name"] for s in await toolkit.get_tool_schemas(state.tool_context.activated_groups)]
        assert "mcp__healthy__alpha" in names and not any("closed" in n or "refusing" in n for n in names)

        listings = await check_toolkit_mcp_clients(toolkit, timeout=20)
    finally:
        for client in (healthy, refusing):
            if client.is_connected:
                await client.close()

    by = {(item.group, item.client): item for item in listings}
    assert list(by) == [("remote", "healthy"), ("remote", "closed"), ("flaky", "refusing")]
    ok = by[("remote", "healthy")]
    assert ok.ok and ok.tools == ("mcp__healthy__alpha", "mcp__healthy__beta")
    gone = by[("remote", "closed")]
    assert not gone.ok and "not connected" in gone.error
    assert gone.message.startswith("group active but empty: MCP client 'closed' failed: RuntimeError: ")
    refused = by[("flaky", "refusing")]
    assert not refused.ok and "tools/list refused on purpose" in refused.error


async def test_toolkit_without_mcp_clients_has_no_listings() -> None:
    from agentscope.tool import Toolkit

    assert await check_toolkit_mcp_clients(Toolkit()) == []
