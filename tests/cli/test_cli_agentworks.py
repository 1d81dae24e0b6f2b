"""The CLI on step configs: exit codes, JSON shapes, messages, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from toolscope.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED_STEP = str(SAMPLES / "seed" / "step_config.json")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_explain_notify_user_prints_why_and_the_fix():
    result = run("explain", SEED_STEP, "notify_user", "--mode", "build")
    assert result.exit_code == 1, result.output
    assert "HIDDEN" in result.output
    assert 'enabled by "human_tools:*"' in result.output
    assert "Fix:" in result.output
    assert 'add "notify_user" to modes.lists.build in toolscope.registry.yaml' in result.output.replace("\n", "")


def test_explain_json_shape():
    result = run("explain", SEED_STEP, "notify_user", "--mode", "build", "--json")
    data = json.loads(result.stdout)
    assert data["schema"] == "toolscope.explain/1"
    assert data["tool"] == "notify_user" and data["mode"] == "build"
    assert data["verdict"] == "hidden" and data["first_failing_stage"] == "allow_listed"
    assert [s["name"] for s in data["stages"]] == ["registered", "allow_listed", "discoverable", "callable"]
    assert all({"name", "passed", "rule"} <= set(s) for s in data["stages"])


def test_explain_visible_tool_exits_zero():
    result = run("explain", SEED_STEP, "create_issue", "--mode", "build", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["verdict"] == "visible"


def test_explain_unknown_tool_suggests_names():
    result = run("explain", SEED_STEP, "notifyuser", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["verdict"] == "unknown" and "notify_user" in data["did_you_mean"]


def test_tools_table_and_json():
    table = run("tools", SEED_STEP, "--mode", "build")
    assert table.exit_code == 0
    for column in ("REGISTERED", "ALLOW-LISTED", "DISCOVERABLE", "CALLABLE", "VERDICT"):
        assert column in table.output
    data = json.loads(run("tools", SEED_STEP, "--mode", "build", "--json").stdout)
    assert data["schema"] == "toolscope.tools/2"
    names = {t["tool"]: t for t in data["tools"]}
    assert names["notify_user"]["verdict"] == "hidden"
    assert names["create_issue"]["first_failing_stage"] is None
    allow_listed = data["stage_results"][names["notify_user"]["stages"][1]]
    assert (allow_listed["name"], allow_listed["passed"]) == ("allow_listed", False)


def test_check_and_expectations_exit_codes():
    assert (
        run("check", SEED_STEP, "--mode", "build", "--expect", "visible:create_issue").exit_code == 1
    )  # notify_user invariant
    result = run("check", SEED_STEP, "--mode", "run", "--expect", "hidden:notify_user", "--json")
    data = json.loads(result.stdout)
    assert data["schema"] == "toolscope.check/1" and data["ok"] is False
    assert {f["kind"] for f in data["findings"]} == {"registered_not_allow_listed"}
    assert all({"kind", "message"} <= set(f) for f in data["findings"])
    pulse = run(
        "check",
        str(SAMPLES / "seed" / "steps.json"),
        "--step",
        "pulse-monitor",
        "--mode",
        "run",
        "--expect",
        "visible:get_pulse_module_state",
        "--json",
    )
    kinds = [f["kind"] for f in json.loads(pulse.stdout)["findings"]]
    assert "expectation_failed" in kinds and pulse.exit_code == 1


def test_check_passes_on_a_clean_config(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(
        json.dumps(
            {
                "custom_tools": {"human_tools": ["notify_user"]},
                "modes": {"system": ["notify_user"], "lists": {"build": []}, "default": "build"},
            }
        )
    )
    (tmp_path / "step.json").write_text(
        json.dumps({"id": "s", "agent_configs": {"enabled_custom_tools": ["human_tools:*"]}})
    )
    result = run("check", str(tmp_path / "step.json"), "--expect", "visible:notify_user")
    assert result.exit_code == 0, result.output


def test_bad_input_is_exit_2_with_one_message(tmp_path: Path):
    cases = [
        [str(tmp_path / "missing.json"), "x"],
        [str(SAMPLES / "seed" / "steps.json"), "x", "--step", "nope"],
        [SEED_STEP, "x", "--mode", "biuld"],
    ]
    for args in cases:
        result = run("explain", *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
    bad = run("check", SEED_STEP, "--expect", "maybe:x")
    assert bad.exit_code == 2 and "visible:NAME or hidden:NAME" in bad.output


def test_several_steps_without_step_answer_every_step_and_step_selects():
    # Issue 20: a whole workflow without --step is every step, one section each.
    result = run("tools", str(SAMPLES / "seed" / "steps.json"))
    assert result.exit_code == 0
    assert all(f"step {s}" in result.output for s in ("triage", "sheets-report", "pulse-monitor"))
    wrong = run("tools", str(SAMPLES / "seed" / "steps.json"), "--step", "nope")
    assert wrong.exit_code == 2 and "triage, sheets-report, pulse-monitor" in wrong.output
    assert run("tools", str(SAMPLES / "seed" / "steps.json"), "--step", "triage", "--mode", "run").exit_code == 0


def test_realistic_registry_commands():
    step = str(SAMPLES / "realistic" / "step_config.json")
    assert run("tools", step, "--step", "research", "--mode", "workshop").exit_code == 0
    assert run("explain", step, "tavily_search", "--step", "research", "--mode", "run").exit_code == 0
    assert run("check", step, "--step", "research", "--json").exit_code in (0, 1)


def test_untrusted_names_print_literally(tmp_path: Path):
    evil = "[bold red]boom[/]\x1b[31m"
    (tmp_path / "toolscope.registry.json").write_text(json.dumps({"mcp_servers": {"srv": [evil]}}))
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    result = run("tools", str(tmp_path / "step.json"))
    assert "[bold red]boom[/]\\x1b[31m" in result.output
    assert "\x1b" not in result.output


def test_python_dash_m_and_console_script_work():
    result = subprocess.run([sys.executable, "-m", "toolscope", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("toolscope ")


def test_check_strict_fails_on_warnings_only() -> None:
    """A config whose only findings are warnings passes check, and fails it with --strict."""
    toolkit = str(SAMPLES / "agentscope" / "toolkit.yaml")
    plain = run("check", toolkit, "--json")
    document = json.loads(plain.stdout)
    assert document["findings"] and {f["severity"] for f in document["findings"]} == {"warning"}
    assert plain.exit_code == 0 and document["ok"] is True
    strict = run("check", toolkit, "--json", "--strict")
    assert strict.exit_code == 1 and json.loads(strict.stdout)["ok"] is False
    human = run("check", toolkit, "--strict")
    assert human.exit_code == 1 and human.stdout.rstrip().endswith("1 failing")
