"""Each era of AgentWorks' layer 2 with a registry that models it (tests/core/agentworks/eras/),
product.yaml and workflow.json as AgentWorks reads them, retired tools, and whole workflows."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

ERAS = Path(__file__).resolve().parent / "eras"
ERA_A = str(ERAS / "allow_list" / "step_config.json")
ERA_B = str(ERAS / "registration_only" / "step_config.json")
ERA_C = str(ERAS / "product_manifest" / "planning" / "step_config.json")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def kinds(document: dict, step: str) -> list[str]:
    return [f["kind"] for f in document["steps"][step]["findings"]]


# -- era A: the allow-list -------------------------------------------------------


def test_allow_list_era_is_named_in_text_and_json_and_its_errors_are_real():
    text = run("check", ERA_A, "--step", "build")
    assert "era: allow-list era (GetToolsForWorkshopMode)" in text.output
    data = json.loads(run("check", ERA_A, "--step", "build", "--json").stdout)
    assert data["era"] == "allow_list"
    assert any(
        f["kind"] == "registered_not_allow_listed" and f["tool"] == "record_pulse_worklist" for f in data["findings"]
    )
    tools = json.loads(run("tools", ERA_A, "--step", "build", "--json").stdout)
    assert tools["era"] == "allow_list"


def test_retired_tool_is_its_own_finding_with_the_replacement():
    data = json.loads(run("check", ERA_A, "--step", "legacy", "--json").stdout)
    retired = [f for f in data["findings"] if f["kind"] == "retired_tool"]
    assert len(retired) == 1 and retired[0]["entry"] == "workspace_tools:read_workspace_file"
    assert "execute_shell_command / diff_patch_workspace_file" in retired[0]["message"]
    assert "Use shell and diff tools instead" in retired[0]["message"]
    assert not any(f["kind"] == "dead_rule" for f in data["findings"])


def test_explain_of_a_retired_tool_gives_the_replacement_never_a_look_alike():
    result = run("explain", ERA_A, "read_workspace_file", "--step", "legacy", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["did_you_mean"] == []
    assert data["checklist"][0]["answer"] == "retired"
    assert "execute_shell_command / diff_patch_workspace_file" in data["fix"]
    text = run("explain", ERA_A, "read_workspace_file", "--step", "legacy").output
    assert "Did you mean" not in text and "retired" in text


# -- era B: registration only ----------------------------------------------------


def test_registration_only_era_mixing_modes_is_one_finding_not_false_errors():
    data = json.loads(run("check", ERA_B, "--step", "build", "--json").stdout)
    assert data["era"] == "registration_only"
    found = [f["kind"] for f in data["findings"]]
    assert found.count("mixed_era") == 1
    assert "registered_not_allow_listed" not in found and "allow_listed_unregistered" not in found
    explained = json.loads(run("explain", ERA_B, "record_pulse_worklist", "--step", "build", "--json").stdout)
    assert explained["verdict"] == "visible"
    assert "registration-only era" in explained["stages"][1]["rule"]
    assert run("explain", ERA_B, "notify_user", "--step", "build", "--mode", "run").exit_code == 2


# -- era C: the product manifest -------------------------------------------------


def test_product_modes_are_builder_and_run_and_rules_cite_the_manifest():
    data = json.loads(run("explain", ERA_C, "create_plan", "--step", "notify", "--mode", "run", "--json").stdout)
    assert data["era"] == "product_manifest"
    assert data["verdict"] == "hidden"
    assert "product.yaml: chat.run.tools" in data["stages"][1]["rule"]
    assert 'add "create_plan" to chat.run.tools in product.yaml' in data["fix"]
    builder = json.loads(run("explain", ERA_C, "create_plan", "--step", "notify", "--json").stdout)
    assert builder["mode"] == "builder" and builder["verdict"] == "visible"
    assert "product.yaml: chat.builder.tools" in builder["stages"][1]["rule"]
    assert builder["stages"][0]["passed"] is True


@pytest.mark.parametrize("mode", ["workshop", "Builder", " run"])
def test_an_unknown_product_mode_is_exit_2_listing_builder_and_run_and_the_panic(mode):
    result = run("tools", ERA_C, "--step", "notify", "--mode", mode)
    assert result.exit_code == 2
    assert "builder, run" in result.output and "panics" in result.output


def test_external_callers_lose_the_denylist_and_run_chats_lack_mcp_management():
    run_mode = json.loads(run("explain", ERA_C, "send_email", "--step", "notify", "--mode", "run", "--json").stdout)
    assert run_mode["verdict"] == "visible"
    external = json.loads(
        run("explain", ERA_C, "send_email", "--step", "notify", "--origin", "external", "--json").stdout
    )
    assert external["mode"] == "run" and external["verdict"] == "hidden"
    assert "chat.run.external_denylist" in external["stages"][1]["rule"]
    assert "deliberate API change" in external["fix"]
    mcp = json.loads(run("explain", ERA_C, "create_issue", "--step", "notify", "--mode", "run", "--json").stdout)
    assert mcp["verdict"] == "hidden" and "mcp_management" in mcp["stages"][1]["rule"]
    assert run("tools", ERA_C, "--step", "notify", "--origin", "moon").exit_code == 2
    assert run("tools", ERA_C, "--step", "notify", "--origin", "external", "--mode", "builder").exit_code == 2
    assert run("tools", ERA_A, "--step", "build", "--origin", "external").exit_code == 2


def test_virtual_tools_are_not_admitted_by_the_manifest():
    data = json.loads(run("explain", ERA_C, "get_api_spec", "--step", "notify", "--json").stdout)
    assert data["verdict"] == "visible" and "mcpagent" in data["stages"][1]["rule"]


def _copy_c(tmp_path: Path) -> Path:
    shutil.copytree(ERAS / "product_manifest", tmp_path / "wf")
    return tmp_path / "wf"


def test_manifest_validation_findings_have_place_and_line(tmp_path):
    folder = _copy_c(tmp_path)
    product = folder / "product.yaml"
    text = product.read_text().replace("external_denylist: [send_email]", "external_denylist: [send_email, nope]")
    text = text.replace("      - create_plan\n", "      - create_plan\n      - create_plan\n")
    product.write_text(text)
    data = json.loads(run("check", str(folder / "planning" / "step_config.json"), "--json").stdout)
    messages = {f["message"]: f["source"] for f in data["findings"] if f["kind"] == "product_manifest"}
    duplicate = next(s for m, s in messages.items() if "duplicate tool 'create_plan'" in m)
    assert duplicate == "product.yaml: chat.builder.tools[2] (line 15, column 9)"
    denied = next(s for m, s in messages.items() if "'nope' is not a run tool" in m)
    assert denied.startswith("product.yaml: chat.run.external_denylist[1] (line ")
    assert data["ok"] is False


def test_a_product_yaml_given_where_a_registry_is_expected(tmp_path):
    folder = _copy_c(tmp_path)
    data = json.loads(
        run(
            "explain",
            str(folder / "planning" / "step_config.json"),
            "notify_user",
            "--step",
            "notify",
            "--registry",
            str(folder / "product.yaml"),
            "--mode",
            "run",
            "--json",
        ).stdout
    )
    assert data["era"] == "product_manifest" and data["verdict"] == "visible"


def test_bad_product_yaml_is_file_line_column_and_what_was_expected(tmp_path):
    folder = _copy_c(tmp_path)
    (folder / "product.yaml").write_text("chat:\n  builder:\n    tools: 5\n  run: {tools: [a]}\n")
    result = subprocess.run(
        [sys.executable, "-m", "toolscope", "check", str(folder / "planning" / "step_config.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "product.yaml" in result.stderr and "chat.builder.tools (line 3, column 12)" in result.stderr
    assert "expected a list of names" in result.stderr and "Traceback" not in result.stderr


# -- workflow.json -----------------------------------------------------------------


def test_workflow_json_one_folder_up_gives_the_servers_and_replaces_enabled_custom_tools():
    data = json.loads(run("explain", ERA_C, "human_feedback", "--step", "report", "--mode", "run", "--json").stdout)
    assert data["verdict"] == "hidden"
    registered = data["stages"][0]["rule"]
    assert "workflow.json: execution_defaults.enabled_custom_tools" in registered
    assert "replaces every step's own list" in registered
    rewrite = data["selection_rewrite"]
    assert rewrite["modelled"] is True
    assert rewrite["selected_servers"]["after"] == ["google-sheets"]  # kept: google-sheets is a workflow.json server
    findings = json.loads(run("check", ERA_C, "--json").stdout)
    assert "workflow_override" in kinds(findings, "report")
    assert "workflow_override" not in kinds(findings, "notify")  # it had no list of its own


def test_duplicate_servers_differing_by_dash_are_the_error_agentworks_raises(tmp_path):
    folder = _copy_c(tmp_path)
    workflow = folder / "workflow.json"
    workflow.write_text(workflow.read_text().replace('"github", "google-sheets"', '"google-sheets", "google_sheets"'))
    data = json.loads(run("check", str(folder / "planning" / "step_config.json"), "--json").stdout)
    duplicate = [f for f in data["findings"] if f["kind"] == "workflow_manifest"]
    assert len(duplicate) == 1 and duplicate[0]["severity"] == "error"
    assert "resolve to the same MCP server" in duplicate[0]["message"]
    assert duplicate[0]["source"] == "workflow.json: capabilities.selected_servers[1] (line 3, column 43)"


def test_workshop_mode_is_the_default_mode_and_workflow_flag(tmp_path):
    shutil.copytree(ERAS / "allow_list", tmp_path / "a")
    (tmp_path / "elsewhere.json").write_text('{"execution_defaults": {"workshop_mode": "ask"}}')
    config = str(tmp_path / "a" / "step_config.json")
    data = json.loads(
        run("tools", config, "--step", "build", "--workflow", str(tmp_path / "elsewhere.json"), "--json").stdout
    )
    assert data["mode"] == "run"
    assert json.loads(run("tools", config, "--step", "build", "--json").stdout)["mode"] == "builder"


def test_bad_workflow_json_is_file_line_column(tmp_path):
    folder = _copy_c(tmp_path)
    (folder / "workflow.json").write_text('{\n  "capabilities": {"selected_servers": ["a", 7]}\n}\n')
    result = run("check", str(folder / "planning" / "step_config.json"))
    assert result.exit_code == 2
    assert "workflow.json" in result.output
    assert "capabilities.selected_servers[1] (line 2, column 46): expected a name (text)" in result.output


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ('{"capabilities": [],\n "execution_defaults": null}', "capabilities (line 1, column 18)"),
        ('{"capabilities": {},\n "execution_defaults": ""}', "execution_defaults (line 2, column 24)"),
        ('{"capabilities": false}', "capabilities (line 1, column 18)"),
    ],
)
def test_a_workflow_json_section_of_the_wrong_shape_is_bad_input_even_when_empty(tmp_path, text, place):
    # Go's encoding/json refuses [] or "" for a struct: AgentWorks cannot load such a workflow.json.
    folder = _copy_c(tmp_path)
    (folder / "workflow.json").write_text(text)
    result = run("check", str(folder / "planning" / "step_config.json"), "--step", "report")
    assert result.exit_code == 2, result.output
    assert f"{place}: expected an object" in result.output and "Traceback" not in result.output


# -- whole workflows -----------------------------------------------------------------


def test_check_without_step_covers_every_step_and_fails_if_one_does():
    result = run("check", ERA_A, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["schema"] == "toolscope.workflow-check/1" and list(data["steps"]) == ["build", "legacy"]
    assert data["steps"]["build"]["ok"] is False and "retired_tool" in kinds(data, "legacy")
    text = run("check", ERA_A).output
    assert "step build: " in text and "step legacy: " in text and "2 of 2 steps failing" in text


def test_tools_and_explain_without_step_answer_per_step():
    tools = json.loads(run("tools", ERA_A, "--json").stdout)
    assert tools["schema"] == "toolscope.workflow-tools/1"
    assert set(tools["steps"]) == {"build", "legacy"}
    assert all(doc["schema"] == "toolscope.tools/2" for doc in tools["steps"].values())
    result = run("explain", ERA_A, "human_feedback")
    assert result.exit_code == 0
    assert "STEP" in result.output and "build" in result.output and "legacy" in result.output
    explained = json.loads(run("explain", ERA_A, "record_pulse_worklist", "--json").stdout)
    assert explained["steps"]["build"]["first_failing_stage"] == "allow_listed"
    assert explained["steps"]["legacy"]["first_failing_stage"] == "registered"
