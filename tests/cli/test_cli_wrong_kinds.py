"""#36: a file of another kind given as CONFIG names the command that takes it; CONFIG's help names
every input kind; the smaller wording fixes a first run meets. Each test failed on the code before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app


def run(*args: str, width: int = 200) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})
    return result.exit_code, result.output


def test_an_mcp_servers_config_points_at_discover(in_repo: Path) -> None:
    code, out = run("tools", "sample_configs/mcp/mcp.json")
    assert code == 2, out
    assert "is an mcpServers config" in out and "toolscope discover sample_configs/mcp/mcp.json" in out, out
    assert "Claude Code" not in out, out


def test_a_projects_mcp_json_also_names_claude_code(in_repo: Path) -> None:
    code, out = run("explain", "sample_configs/claude-code/project/.mcp.json", "x")
    assert code == 2, out
    assert "toolscope tools claude-code:sample_configs/claude-code/project" in out, out
    assert "toolscope discover sample_configs/claude-code/project/.mcp.json" in out, out


def test_a_capture_points_at_the_capture_option(in_repo: Path) -> None:
    code, out = run("check", "sample_configs/capture/seed.capture.jsonl")
    assert code == 2, out
    assert "is a toolscope capture" in out and "invalid JSON" not in out, out
    assert "toolscope tools CONFIG --capture sample_configs/capture/seed.capture.jsonl" in out, out
    assert "toolscope inspect --capture sample_configs/capture/seed.capture.jsonl" in out, out


def test_jsonl_that_is_not_a_capture_is_still_invalid_json(tmp_path: Path) -> None:
    lines = tmp_path / "other.jsonl"
    lines.write_text('{"schema": "something/1"}\n{"a": 1}\n')
    code, out = run("tools", str(lines))
    assert code == 2 and "invalid JSON" in out and "capture" not in out, out


@pytest.mark.parametrize("script", ["typo.json", "late_group.yaml"])
def test_a_reset_tools_script_points_at_script_option(in_repo: Path, script: str) -> None:
    path = f"sample_configs/agentscope/{script}"
    code, out = run("tools", path)
    assert code == 2, out
    assert "reset_tools script" in out and f"toolscope step TOOLKIT -s {path}" in out, out


@pytest.mark.parametrize("command", ["explain", "tools", "inspect", "serve", "check", "report"])
def test_config_help_names_every_input_kind(command: str) -> None:
    _, out = run(command, "--help", width=400)
    block = out.split("CONFIG]  " if "[CONFIG]  " in out else "CONFIG  ", 1)[1].split("\n\n", 1)[0]
    # Click's help wrapper may break at a hyphen ("claude-" / "code:DIR"): join such lines whole.
    line = " ".join(re.sub(r"-\n\s+", "-", block).split())
    for kind in ("step config", "toolkit spec", "package.module:function", "claude-code:DIR", "codex:DIR", "folder"):
        assert kind in line, (kind, line)


def test_a_step_id_spelt_short_gets_a_did_you_mean(in_repo: Path) -> None:
    code, out = run("check", "sample_configs/seed/steps.json", "--step", "pulse", "--mode", "build")
    assert code == 2 and "did you mean --step pulse-monitor?" in out, out
    code, out = run("check", "sample_configs/seed/steps.json", "--step", "zzzz", "--mode", "build")
    assert code == 2 and "did you mean" not in out and "step ids: triage" in out, out


def test_a_failed_expectation_names_the_stage_by_its_title(in_repo: Path) -> None:
    code, out = run(
        "check", "sample_configs/seed/step_config.json", "--mode", "build", "--expect", "visible:notify_user"
    )
    assert code == 1, out
    assert "but it is hidden: allow-listed: not in the system slice" in out, out
    assert "allow_listed:" not in out, out


def test_the_toolkit_legend_names_only_toolkit_reasons(in_repo: Path) -> None:
    _, out = run("tools", "sample_configs/agentscope/toolkit.yaml")
    assert "a group not active yet" in out and "bridge" not in out and "virtual tool" not in out, out
    _, out = run("tools", "sample_configs/seed/step_config.json", "--mode", "build")
    assert "virtual tool" in out and "group not active" not in out, out


def test_one_call_is_one_call(in_repo: Path, tmp_path: Path) -> None:
    script = tmp_path / "one.json"
    script.write_text('[{"web_search": true}]')
    code, out = run("step", "sample_configs/agentscope/toolkit.yaml", "-s", str(script))
    assert code == 0, out
    assert "(1 call)" in out and "(1 calls)" not in out, out


def test_a_deep_line_that_names_the_capture_schema_stays_bad_input(tmp_path: Path) -> None:
    """The capture sniff reads one line with json: a line nested past the recursion limit is not a capture."""
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"schema": "toolscope.capture/1", "x": ' + "[" * 20_000 + "]" * 20_000 + "}\n{}\n")
    code, out = run("tools", str(deep))
    assert code == 2 and "Traceback" not in out, out
