"""The AgentWorks engine on a registry that points at a real mcpServers config.

Servers are the MCP fixture server (official SDK) started over stdio: one healthy, one
that exits at start. Expected tools of the failed server are "unknown", not missing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_agentworks_subject

FIXTURE = str(Path(__file__).resolve().parents[1] / "mcp" / "fixture_server.py")
runner = CliRunner()


def server(*args: str) -> dict:
    return {"command": sys.executable, "args": [FIXTURE, *args]}


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    (tmp_path / "mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "tracker": server("--tools", "create_ticket,list_tickets"),
                    "broken": server("--mode", "exit"),
                }
            }
        )
    )
    (tmp_path / "toolscope.registry.yaml").write_text(
        "mcp_config: mcp.json\n"
        "custom_tools: {human_tools: [notify_user]}\n"
        "modes: {system: [notify_user], lists: {build: []}, default: build}\n"
    )
    step = tmp_path / "step_config.json"
    step.write_text(
        json.dumps(
            {
                "id": "s",
                "agent_configs": {
                    "selected_servers": ["tracker", "broken"],
                    "selected_tools": ["tracker:*", "broken:search_docs"],
                },
            }
        )
    )
    return step


def test_live_discovery_feeds_the_stages_and_outages_are_unknown(world: Path):
    subject = load_agentworks_subject(StepConfigLoad(world, timeout=20))
    tools = {t.name: t for t in subject.evaluate("build").tools}
    assert tools["create_ticket"].verdict == "visible"
    outage = tools["search_docs"]
    assert outage.verdict == "unknown"
    assert outage.first_failing.rule.startswith('unknown: server "broken" failed:')
    checklist = subject.checklist("search_docs", "build")
    assert "outage" in checklist.fix
    assert any("server_unavailable=[broken] requested=[search_docs]" in e for e in checklist.steps[0].evidence)
    assert any(f.kind == "mcp_outage" and f.entry == "broken" for f in subject.findings(["build"]))
    assert {name for name, _ in subject.loaded.files} >= {"mcp.json"}


def test_snapshot_reproduces_offline_and_drift_is_reported(world: Path, tmp_path: Path):
    snap = tmp_path / "snap.json"
    result = runner.invoke(app, ["discover", str(tmp_path / "mcp.json"), "-o", str(snap), "--timeout", "20"])
    assert result.exit_code == 1, result.output  # one server failed
    offline = runner.invoke(app, ["tools", str(world), "--snapshot", str(snap), "--json"])
    data = json.loads(offline.stdout)
    verdicts = {t["tool"]: t["verdict"] for t in data["tools"]}
    assert verdicts["create_ticket"] == "visible" and verdicts["search_docs"] == "unknown"

    same = runner.invoke(app, ["check", str(world), "--drift-from", str(snap)])
    # "broken" failed in the snapshot too: its drift is unknown, never "no drift" (issue 22, item 6).
    assert "drift since snap.json is unknown for broken" in same.output, same.output
    assert "no drift in the other 1" in same.output

    # The tracker server changes: one tool renamed, one added.
    config = json.loads((tmp_path / "mcp.json").read_text())
    config["mcpServers"]["tracker"] = server("--tools", "create_tickets,list_tickets,close_ticket")
    (tmp_path / "mcp.json").write_text(json.dumps(config))
    drift = runner.invoke(app, ["check", str(world), "--drift-from", str(snap), "--json"])
    assert drift.exit_code == 1
    messages = [f["message"] for f in json.loads(drift.stdout)["findings"] if f["kind"] == "mcp_drift"]
    assert len(messages) == 1
    assert "added close_ticket" in messages[0] and "renamed create_ticket -> create_tickets" in messages[0]
