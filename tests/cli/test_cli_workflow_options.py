"""Options of one step on a whole workflow (a step config with several steps, no ``--step``).

``--client-home`` reaches every step of ``check``, ``tools``, ``explain`` and ``report`` (each step
is checked against its own provider: the claude-code step, not the openai one); ``--capture``
compares one step with what its model received, so a whole workflow is exit 2 asking for
``--step`` instead of ignoring the capture. The real CLI in a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from json_contracts import validated

REPO = Path(__file__).resolve().parents[2]
SEED_STEPS = str(REPO / "sample_configs" / "seed" / "steps.json")
# Providers of the seed workflow's steps.
CLAUDE_STEP, OPENAI_STEP = "triage", "sheets-report"


def toolscope(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


@pytest.fixture
def denying_home(tmp_path: Path) -> Path:
    """A home whose Claude Code settings deny the api-bridge (mcpagent's --allowedTools loses to it)."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["mcp__api-bridge__*"]}}))
    return tmp_path


def _kinds(findings: list[dict]) -> list[str]:
    return [f["kind"] for f in findings]


def test_client_home_reaches_every_step_of_check_and_tools(denying_home: Path) -> None:
    check = toolscope("check", SEED_STEPS, "--client-home", str(denying_home), "--json", cwd=denying_home)
    steps = validated(check.stdout)["steps"]
    assert "bridge_blocked" in _kinds(steps[CLAUDE_STEP]["findings"])
    assert "bridge_blocked" not in _kinds(steps[OPENAI_STEP]["findings"])
    assert check.returncode == 1

    tools = toolscope("tools", SEED_STEPS, "--client-home", str(denying_home), "--json", cwd=denying_home)
    steps = validated(tools.stdout)["steps"]
    assert "bridge_blocked" in _kinds(steps[CLAUDE_STEP]["config_findings"])
    assert "bridge_blocked" not in _kinds(steps[OPENAI_STEP]["config_findings"])
    text = toolscope("tools", SEED_STEPS, "--client-home", str(denying_home), cwd=denying_home).stdout
    assert text.index(f"step {CLAUDE_STEP}") < text.index("bridge_blocked") < text.index(f"step {OPENAI_STEP}")


def test_client_home_reaches_every_step_of_explain_and_report(denying_home: Path) -> None:
    explain = toolscope(
        "explain", SEED_STEPS, "notify_user", "--client-home", str(denying_home), "--json", cwd=denying_home
    )
    steps = validated(explain.stdout)["steps"]
    assert "bridge_blocked" in _kinds(steps[CLAUDE_STEP]["config_findings"])
    assert "bridge_blocked" not in _kinds(steps[OPENAI_STEP]["config_findings"])
    text = toolscope("explain", SEED_STEPS, "notify_user", "--client-home", str(denying_home), cwd=denying_home)
    assert f"step {CLAUDE_STEP}\nerror   bridge_blocked" in text.stdout

    out = denying_home / "report.json"
    report = toolscope("report", SEED_STEPS, "--client-home", str(denying_home), "-o", str(out), cwd=denying_home)
    assert report.returncode == 0, report.stderr
    steps = validated(out.read_text("utf-8"))["steps"]
    assert "bridge_blocked" in _kinds(steps[CLAUDE_STEP]["findings"])
    assert "bridge_blocked" not in _kinds(steps[OPENAI_STEP]["findings"])


def test_an_option_of_another_input_kind_is_refused_on_a_whole_workflow(tmp_path: Path) -> None:
    done = toolscope("tools", SEED_STEPS, "--home", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "--home" in done.stderr and "claude-code:DIR" in done.stderr


@pytest.mark.parametrize("command", [("check",), ("tools",), ("explain", "notify_user")])
def test_a_whole_workflow_with_a_capture_asks_for_a_step(command: tuple[str, ...], tmp_path: Path) -> None:
    capture = tmp_path / "capture.jsonl"
    capture.write_text("")
    done = toolscope(*command[:1], SEED_STEPS, *command[1:], "--capture", str(capture), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--capture" in done.stderr and "give --step ID" in done.stderr
    assert "triage, sheets-report, pulse-monitor" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
