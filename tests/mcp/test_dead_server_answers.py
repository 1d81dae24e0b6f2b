"""A failed MCP server gives answers about an outage, not about the config (issue 22, item 6).

The real CLI in a subprocess on the README's MCP example with ``time`` down (a real ``python3 -m``
of a module that is not installed, as after only the first set-up command) and ``tracker`` not
installed; then the fixture server (official SDK, stdio) healthy, for a snapshot taken while the
server was down. Each test fails on the code before the fix: ``dead_rule "time:*" matches no
tool``, "no drift since", and no row for ``time:*``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from json_contracts import validated

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs" / "mcp"
FIXTURE = str(Path(__file__).resolve().parent / "fixture_server.py")
DOWN_TIME = {"command": sys.executable, "args": ["-m", "toolscope_test_time_server_not_installed"]}


def toolscope(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``toolscope ARGS --discover``: these answers are about servers started live (``discover``
    starts them by its nature: it takes no flag)."""
    opt_in = ["--discover"] if args[0] != "discover" else []
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args, *opt_in],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**_env(), "COLUMNS": "100"},
    )


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("TOOLSCOPE_")}


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """The README's MCP sample with ``time`` down; returns the step config."""
    for name in ("step_config.json", "toolscope.registry.yaml"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    config = json.loads((SAMPLE / "mcp.json").read_text("utf-8"))
    config["mcpServers"]["time"] = DOWN_TIME
    (tmp_path / "mcp.json").write_text(json.dumps(config))
    return tmp_path / "step_config.json"


def _findings(document: dict) -> list[tuple[str, str | None, str]]:
    return [(f["kind"], f["entry"], f["severity"]) for f in document["findings"]]


def test_check_says_the_server_is_down_not_that_its_entry_is_dead(sample: Path) -> None:
    done = toolscope("check", str(sample), "--json", cwd=sample.parent)
    assert done.returncode == 1, done.stderr
    found = _findings(validated(done.stdout))
    assert not [f for f in found if f[0] == "dead_rule"], found
    assert ("mcp_outage", "time", "error") in found and ("mcp_outage", "tracker", "error") in found
    assert ("mcp_outage", "time:*", "warning") in found
    text = toolscope("check", str(sample), cwd=sample.parent).stdout
    assert "dead_rule" not in text and 'selected_tools entry "time:*" selects every tool of server "time"' in text


def test_tools_shows_a_row_for_each_configured_entry_of_a_dead_server(sample: Path) -> None:
    done = toolscope("tools", str(sample), "--json", cwd=sample.parent)
    rows = {(t["namespace"], t["tool"]): t for t in validated(done.stdout)["tools"]}
    assert rows[("time", "*")]["verdict"] == "unknown"
    assert rows[("time", "*")]["first_failing_stage"] == "registered"
    assert rows[("tracker", "create_ticket")]["verdict"] == "unknown"
    text = toolscope("tools", str(sample), cwd=sample.parent).stdout
    row = next(line for line in text.splitlines() if line.startswith("*"))
    assert row.split()[:2] == ["*", "time"] and row.split()[-1] == "unknown"
    assert 'unknown: server "time" failed' in text


def test_drift_from_a_snapshot_whose_every_server_failed_is_unknown_not_no_drift(sample: Path) -> None:
    snapshot = sample.parent / "snap.json"
    assert (
        toolscope("discover", str(sample.parent / "mcp.json"), "-o", str(snapshot), cwd=sample.parent).returncode == 1
    )
    done = toolscope("check", str(sample), "--drift-from", str(snapshot), cwd=sample.parent)
    assert "no drift" not in done.stdout
    assert "MCP tools: drift since snap.json is unknown: every server failed when it was taken" in done.stdout
    document = validated(
        toolscope("check", str(sample), "--drift-from", str(snapshot), "--json", cwd=sample.parent).stdout
    )
    unknown = [f for f in document["findings"] if f["source"] == "snap.json"]
    assert {f["entry"] for f in unknown} == {"time", "tracker"}
    assert all(f["kind"] == "mcp_outage" and "is unknown" in f["message"] for f in unknown)


def test_a_server_that_failed_in_the_snapshot_and_works_now_has_unknown_drift_not_added_tools(sample: Path) -> None:
    snapshot = sample.parent / "snap.json"
    toolscope("discover", str(sample.parent / "mcp.json"), "-o", str(snapshot), cwd=sample.parent)
    config = json.loads((sample.parent / "mcp.json").read_text("utf-8"))
    config["mcpServers"]["time"] = {"command": sys.executable, "args": [FIXTURE, "--tools", "get_current_time"]}
    (sample.parent / "mcp.json").write_text(json.dumps(config))
    document = validated(
        toolscope("check", str(sample), "--drift-from", str(snapshot), "--json", cwd=sample.parent).stdout
    )
    time = [f for f in document["findings"] if f["entry"] == "time"]
    assert [f["kind"] for f in time] == ["mcp_outage"], time
    assert "failed when the snapshot was taken (failed to start" in time[0]["message"]
    assert not [f for f in document["findings"] if f["kind"] == "mcp_drift"]
    text = toolscope("check", str(sample), "--drift-from", str(snapshot), cwd=sample.parent).stdout
    # Both failed when the snapshot was taken (tracker fails now too): nothing could be compared.
    assert "MCP tools: drift since snap.json is unknown: every server failed when it was taken" in text


def test_a_whole_workflow_says_drift_is_unknown_once(sample: Path) -> None:
    step = json.loads(sample.read_text("utf-8"))
    workflow = sample.parent / "steps.json"
    workflow.write_text(json.dumps({"steps": [step, {**step, "id": "second"}]}))
    snapshot = sample.parent / "snap.json"
    toolscope("discover", str(sample.parent / "mcp.json"), "-o", str(snapshot), cwd=sample.parent)
    text = toolscope("check", str(workflow), "--drift-from", str(snapshot), cwd=sample.parent).stdout
    assert "MCP tools: drift since snap.json is unknown: every server failed when it was taken" in text
    assert "dead_rule" not in text and text.count("drift of MCP server") == 2  # time and tracker, once each
    document = validated(
        toolscope("check", str(workflow), "--drift-from", str(snapshot), "--json", cwd=sample.parent).stdout
    )
    assert {f["entry"] for f in document["findings"] if f["source"] == "snap.json"} == {"time", "tracker"}
    for found in document["steps"].values():
        assert ("mcp_outage", "time:*") in [(f["kind"], f["entry"]) for f in found["findings"]]


def test_a_dead_server_selected_only_in_selected_servers_is_one_star_row(sample: Path) -> None:
    step = json.loads(sample.read_text("utf-8"))
    step["agent_configs"]["selected_tools"] = ["tracker:create_ticket"]  # nothing names time's tools
    sample.write_text(json.dumps(step))
    rows = validated(toolscope("tools", str(sample), "--json", cwd=sample.parent).stdout)["tools"]
    dead = [(t["namespace"], t["tool"], t["verdict"]) for t in rows if t["namespace"] in ("time", "tracker")]
    assert dead == [("time", "*", "unknown"), ("tracker", "create_ticket", "unknown")]
