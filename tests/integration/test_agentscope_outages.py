"""AgentScope MCP outages answered as outages: explain, step, and a server that exits at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_agentscope_mcp_groups import FACTORY, FIXTURE, toolscope

pytestmark = pytest.mark.agentscope

EXITS_AT_ONCE = """
import sys
from agentscope.mcp import MCPClient, StdioMCPConfig
from agentscope.tool import Toolkit, ToolGroup


async def build():
    code = "import sys; sys.stderr.write('tracker: TRACKER_API_KEY is not set\\\\n'); sys.exit(3)"
    client = MCPClient(name="tracker", is_stateful=True,
                       mcp_config=StdioMCPConfig(command=sys.executable, args=["-c", code]))
    await client.connect()
    return Toolkit(tool_groups=[ToolGroup("tracker", "Tracker", mcps=[client])])
"""


def test_explain_and_step_treat_a_failed_client_as_an_outage(tmp_path: Path):
    factory = tmp_path / "mcp_agent.py"
    factory.write_text(FACTORY.format(fixture=FIXTURE))
    result = toolscope("explain", f"{factory}:build", "mcp__docs__search", "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown"
    assert data["checklist"][0]["answer"] == "unknown"
    assert "MCP client 'docs' (group 'docs') failed" in data["checklist"][0]["evidence"][1]
    assert data["fix"].startswith("outage: MCP client 'docs' failed") and "register it" not in data["fix"]

    script = tmp_path / "script.json"
    script.write_text('[{"tickets": true, "docs": true}]')
    stepped = toolscope("step", f"{factory}:build", "--script", str(script))
    assert stepped.returncode == 0, stepped.stderr
    assert "MCP client 'docs' of group 'docs' failed" in stepped.stdout
    assert "an outage, not a deactivation" in " ".join(stepped.stdout.split())
    as_json = json.loads(toolscope("step", f"{factory}:build", "--script", str(script), "--json").stdout)
    assert [o["client"] for o in as_json["mcp_outages"]] == ["docs"]


def test_a_server_that_exits_at_once_shows_its_real_cause(tmp_path: Path):
    factory = tmp_path / "dead_agent.py"
    factory.write_text(EXITS_AT_ONCE)
    result = toolscope("tools", f"{factory}:build")
    assert result.returncode == 3
    error = " ".join(result.stderr.split())
    assert "unhandled errors in a TaskGroup" not in error
    # mcp 2.x wraps it in an ExceptionGroup ("(inside ExceptionGroup)"), mcp 1.x raises it directly.
    assert "rror: Connection closed" in error and "exited or closed its pipes before the handshake" in error
    assert "the process printed last: tracker: TRACKER_API_KEY is not set" in error
