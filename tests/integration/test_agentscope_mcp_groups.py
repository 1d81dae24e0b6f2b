"""AgentScope toolkits with MCP clients in groups: a client whose list_tools fails is an
outage row ("group active but empty"), not silently missing tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.agentscope

FIXTURE = str(Path(__file__).resolve().parents[1] / "mcp" / "fixture_server.py")

FACTORY = """
import sys
from agentscope.mcp import MCPClient, StdioMCPConfig
from agentscope.state import AgentState
from agentscope.tool import Toolkit, ToolGroup

FIXTURE = {fixture!r}


async def build():
    healthy = MCPClient(name="tickets", is_stateful=True,
                        mcp_config=StdioMCPConfig(command=sys.executable, args=[FIXTURE, "--tools", "open_ticket,close_ticket"]))
    failing = MCPClient(name="docs", is_stateful=True,
                        mcp_config=StdioMCPConfig(command=sys.executable, args=[FIXTURE, "--mode", "fail-list"]))
    await healthy.connect()
    await failing.connect()
    toolkit = Toolkit(tool_groups=[
        ToolGroup("tickets", "Ticket tools", mcps=[healthy]),
        ToolGroup("docs", "Documentation search", mcps=[failing]),
    ])
    state = AgentState()
    state.tool_context.activated_groups.extend(["tickets", "docs"])
    return toolkit, state
"""


def test_failing_mcp_client_is_an_outage_row(tmp_path: Path):
    factory = tmp_path / "mcp_agent.py"
    factory.write_text(FACTORY.format(fixture=FIXTURE))
    # A real process: the MCP stdio client hands the server sys.stderr, which CliRunner replaces.
    result = toolscope("tools", f"{factory}:build", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    tools = {t["tool"]: t for t in document["tools"]}
    assert tools["mcp__tickets__open_ticket"]["verdict"] == "visible"
    outage = tools["mcp__docs__*"]
    assert outage["verdict"] == "unknown"
    assert document["stage_results"][outage["stages"][0]]["rule"].startswith(
        "group active but empty: MCP client 'docs' failed:"
    )
    check = toolscope("check", f"{factory}:build", "--json")
    kinds = [f["kind"] for f in json.loads(check.stdout)["findings"]]
    assert "mcp_outage" in kinds and check.returncode == 1


def toolscope(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolscope", *args], capture_output=True, text=True, timeout=120)
