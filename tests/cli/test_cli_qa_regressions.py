"""Regressions found by a QA pass over the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.model.errors import EXIT_INTERNAL

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED = SAMPLES / "seed"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_deeply_nested_input_is_bad_input_not_a_traceback(tmp_path: Path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"steps":' + "[" * 100_000 + "]" * 100_000 + "}")
    result = run("tools", str(deep))
    assert result.exit_code == 2
    assert "nested too deeply" in result.output and "Traceback" not in result.output


def test_a_toolscope_bug_has_its_own_exit_code(monkeypatch: pytest.MonkeyPatch):
    from toolscope.core.systems.agentworks import subject

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(subject.AgentWorksSubject, "evaluate", broken)
    result = run("tools", str(SEED / "step_config.json"))
    assert result.exit_code == EXIT_INTERNAL
    assert "toolscope bug" in result.output


def test_names_with_newlines_and_bidi_overrides_stay_on_one_line(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(
        json.dumps({"mcp_servers": {"srv": ["fake\nrow", "abc\u202edef"]}})
    )
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    output = run("tools", str(tmp_path / "step.json")).output
    assert "fake\\nrow" in output and "abc\\u202edef" in output and "\u202e" not in output


def test_checklist_does_not_say_no_mode_when_the_current_mode_allows_it():
    result = run(
        "explain",
        str(SEED / "steps.json"),
        "submit_human_answer",
        "--step",
        "pulse-monitor",
        "--mode",
        "build",
        "--json",
    )
    evidence = json.loads(result.stdout)["checklist"][1]["evidence"]
    assert not any("no mode at all" in e for e in evidence)
    assert "also allow-listed in: run" in evidence


def test_suggested_check_command_runs_as_printed(monkeypatch, tmp_path: Path):
    """The command names the config as the user typed it (shell-quoted), so it runs when copied."""
    import shlex
    import shutil

    monkeypatch.chdir(SEED.parent.parent)
    typed = "sample_configs/seed/steps.json"
    data = json.loads(run("explain", typed, "notify_user", "--step", "triage", "--mode", "run", "--json").stdout)
    command = data["checklist"][3]["evidence"][0]
    assert command == f"toolscope check {typed} --step triage --mode run --expect visible:notify_user"
    assert run(*shlex.split(command)[1:]).exit_code == 1  # runs (exit 1: notify_user is hidden), not a usage error
    spaced = tmp_path / "my configs"
    shutil.copytree(SEED, spaced)
    monkeypatch.chdir(tmp_path)
    data = json.loads(run("explain", "my configs/steps.json", "notify_user", "--step", "triage", "--json").stdout)
    command = data["checklist"][3]["evidence"][0]
    assert command.startswith("toolscope check 'my configs/steps.json' --step triage")
    assert run(*shlex.split(command)[1:]).exit_code == 1


def test_single_mode_without_default_is_used(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(
        json.dumps({"custom_tools": {"human_tools": ["notify_user"]}, "modes": {"lists": {"build": ["notify_user"]}}})
    )
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    assert run("explain", str(tmp_path / "step.json"), "notify_user").exit_code == 0


@pytest.mark.parametrize(
    ("registry", "expected"),
    [
        ({"modes": {"groups": {"g": ["@g"]}, "lists": {"build": ["@g"]}}}, "modes.groups.g[0]"),
        ({"custom_tools": {"a": {"alias_of": ["b"]}, "b": {"alias_of": ["a"]}}}, "is itself an alias"),
        ({"modes": {"lists": {"Build": [], "build": []}}}, "differ only in case"),
        ({"modes": {"lists": {"build": []}, "aliases": {"B": "build", "b": "build"}}}, "aliases ignore case"),
    ],
)
def test_registry_contradictions(tmp_path: Path, registry: dict, expected: str):
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    result = run("tools", str(tmp_path / "step.json"))
    assert result.exit_code == 2 and "contradicts itself" in result.output and expected in result.output


def test_registry_type_errors_name_the_document_path_without_internals(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(json.dumps({"mcp_servers": {"github": ["a", 3], "x": 5}}))
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    output = run("tools", str(tmp_path / "step.json")).output
    assert "mcp_servers.github.tools[1]" in output
    assert "McpServer" not in output and "tuple[" not in output


def test_aliases_of_one_mode_are_checked_once():
    data = json.loads(
        run(
            "check",
            str(SEED / "step_config.json"),
            "--mode",
            "build",
            "--mode",
            "Builder",
            "--expect",
            "visible:notify_user",
            "--json",
        ).stdout
    )
    assert data["modes"] == ["build"]
    assert sum(f["kind"] == "expectation_failed" for f in data["findings"]) == 1


def test_duplicate_keys_are_reported_with_where(tmp_path: Path):
    (tmp_path / "dup.json").write_text('{"id": "a", "id": "b"}')
    result = run("tools", str(tmp_path / "dup.json"))
    assert result.exit_code == 2 and "key 'id' appears twice" in result.output
    assert "id (line 1, column 19): key 'id' appears twice" in result.output
    # The same key in two objects is fine; the second in one object is named by its path and
    # the place of its value.
    (tmp_path / "dup.json").write_text('{"a": {"id": 1}, "b": {"id": 2,\n  "x": "\\"id\\"", "id": 3}}')
    result = run("tools", str(tmp_path / "dup.json"))
    assert "b.id (line 2, column 24): key 'id' appears twice" in result.output, result.output
    (tmp_path / "dup.yaml").write_text("id: a\nagent_configs: {}\nid: b\n")
    result = run("tools", str(tmp_path / "dup.yaml"), "--registry", str(SEED / "toolscope.registry.yaml"))
    assert result.exit_code == 2 and "line 3, column 1" in result.output


def test_options_of_the_other_input_kind_are_rejected():
    assert (
        "--groups: is an AgentScope 2.x / AgentScope 1.x option"
        in run("tools", str(SEED / "step_config.json"), "--groups", "").output
    )
    toolkit = str(SAMPLES / "agentscope" / "toolkit.yaml")
    assert run("tools", toolkit, "--snapshot", "x.json").exit_code == 2


def test_activation_view_is_refused_for_step_configs():
    result = run("inspect", str(SEED / "step_config.json"), "--view", "activation", "--screenshot", "x.svg")
    assert result.exit_code == 2 and "AgentScope toolkits" in result.output


def test_pulse_incident_is_caught_by_check():
    result = run("check", str(SEED / "steps.json"), "--step", "pulse-monitor", "--mode", "build", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert {f["tool"] for f in data["findings"] if f["kind"] == "registered_not_allow_listed"} >= {
        "get_pulse_module_state"
    }


def test_a_multi_step_config_still_refuses_what_needs_a_toolkit_or_a_step():
    """The step picker opens only in a terminal; screenshots need --step, the activation view a toolkit."""
    steps = str(SEED / "steps.json")
    result = run("inspect", steps, "--view", "activation")
    assert result.exit_code == 2 and "AgentScope toolkits" in result.output
    result = run("inspect", steps, "--screenshot", "x.svg")
    assert result.exit_code == 2 and "choose one with --step" in result.output
