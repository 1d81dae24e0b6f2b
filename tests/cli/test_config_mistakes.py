"""Configuration mistakes are caught, not absorbed: unknown keys, typos in --expect, a bare .py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from toolscope.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _step(tmp_path: Path, configs: dict, registry: str = "seed") -> str:
    shutil.copy(SAMPLES / registry / "toolscope.registry.yaml", tmp_path / "toolscope.registry.yaml")
    path = tmp_path / "step_config.json"
    path.write_text(json.dumps({"steps": [{"id": "x", "agent_configs": configs}]}))
    return str(path)


def test_misspelled_selected_servers_is_a_finding_with_place_and_suggestion(tmp_path):
    step = _step(tmp_path, {"selected_server": ["github"]})
    result = run("check", step, "--json")
    found = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "unknown_key"]
    assert len(found) == 1
    assert found[0]["source"] == "step_config.json: steps[0].agent_configs.selected_server"
    assert "did you mean selected_servers?" in found[0]["message"]
    assert "selected_servers stays empty" in found[0]["message"]
    assert found[0]["severity"] == "warning"
    strict = run("check", step, "--strict")
    assert strict.exit_code == 1 and "unknown_key" in strict.output


def test_provider_directly_under_agent_configs_points_at_execution_llm(tmp_path):
    step = _step(tmp_path, {"provider": "claude-code"})
    result = run("check", step, "--json")
    (found,) = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "unknown_key"]
    assert "did you mean execution_llm.provider?" in found["message"]


def test_explain_and_tools_print_unknown_keys_before_the_answer(tmp_path):
    step = _step(tmp_path, {"selected_server": ["github"]})
    explained = run("explain", step, "create_issue")
    assert explained.output.index("unknown_key") < explained.output.index("VISIBLE")
    listed = run("tools", step)
    assert listed.output.index("unknown_key") < listed.output.index("create_issue")
    data = json.loads(run("tools", step, "--json").stdout)
    assert [f["entry"] for f in data["config_findings"]] == ["selected_server"]


def test_keys_the_real_struct_had_in_any_era_stay_silent(tmp_path):
    configs = {
        "use_tool_search_mode": True,  # 7f547b8e
        "db_access": "read",  # 42579dba
        "review_notes": "ok",  # HEAD
        "execution_llm": {"provider": "openai", "model_id": "x", "published_llm_id": "p", "fallbacks": []},
    }
    result = run("check", _step(tmp_path, configs), "--json")
    assert not [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "unknown_key"]


def test_unknown_step_and_execution_llm_keys(tmp_path):
    shutil.copy(SAMPLES / "seed" / "toolscope.registry.yaml", tmp_path / "toolscope.registry.yaml")
    path = tmp_path / "s.json"
    data = {"steps": [{"id": "x", "titel": "t", "agent_configs": {"execution_llm": {"provder": "openai"}}}]}
    path.write_text(json.dumps(data))
    found = {f["source"]: f for f in json.loads(run("check", str(path), "--json").stdout)["findings"]}
    assert "did you mean title?" in found["s.json: steps[0].titel"]["message"]
    assert "did you mean provider?" in found["s.json: steps[0].agent_configs.execution_llm.provder"]["message"]


def test_mcp_config_unknown_server_key_is_a_finding(tmp_path):
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"t": {"command": "x", "arg": ["--a"]}}}))
    (tmp_path / "snap.json").write_text("{}")
    (tmp_path / "toolscope.registry.yaml").write_text("mcp_config: mcp.json\n")
    from toolscope.core.mcp.config import unknown_key_findings

    (found,) = unknown_key_findings(tmp_path / "mcp.json")
    assert found.kind == "unknown_key" and found.source == "mcp.json: mcpServers.t.arg"
    assert "did you mean args?" in found.message


def test_own_formats_refuse_unknown_keys_with_did_you_mean(tmp_path):
    registry = tmp_path / "r.yaml"
    registry.write_text("custom_tool: {x: [y]}\nmodes: {sytem: [a]}\n")
    step = tmp_path / "s.json"
    step.write_text('{"id": "x", "agent_configs": {}}')
    result = run("tools", str(step), "--registry", str(registry))
    assert result.exit_code == 2
    assert "custom_tool: unknown field; did you mean custom_tools?" in result.output
    assert "modes.sytem: unknown field; did you mean system?" in result.output
    spec = tmp_path / "tk.yaml"
    spec.write_text("groups:\n  - name: g\n    tols: []\n")
    result = run("tools", str(spec))
    assert result.exit_code == 2 and "groups[0].tols: unknown field; did you mean tools?" in result.output
    script = tmp_path / "sc.json"
    script.write_text('[{"call": {"tool": "reset_tools", "arg": {}}}]')
    result = run("step", str(SAMPLES / "agentscope" / "toolkit.yaml"), "--script", str(script))
    assert result.exit_code == 2 and "[0].call.arg: unknown field; did you mean args?" in result.output


def test_check_expect_offers_did_you_mean():
    result = run("check", str(SAMPLES / "seed" / "step_config.json"), "--expect", "visible:notfy_user", "-m", "build")
    assert result.exit_code == 1
    assert "did you mean notify_user?" in result.output


def test_py_without_function_lists_candidate_factories():
    result = run("tools", str(SAMPLES / "agentscope" / "my_agent.py"))
    assert result.exit_code == 2
    assert "needs :function" in result.output
    assert "my_agent.py:build_toolkit" in result.output
    assert "YAML" not in result.output and "Traceback" not in result.output


def test_seed_incident_2_from_the_corrected_model():
    """Pulse tools: registered (named in enabled_custom_tools), allow-listed in no mode."""
    steps = str(SAMPLES / "seed" / "steps.json")
    result = run("check", steps, "--step", "pulse-monitor", "--mode", "build", "--json")
    found = {f["tool"] for f in json.loads(result.stdout)["findings"] if f["kind"] == "registered_not_allow_listed"}
    assert found == {"get_pulse_module_state", "record_pulse_worklist", "mark_pulse_module_result"}
    data = json.loads(run("explain", steps, "record_pulse_worklist", "--step", "pulse-monitor", "--json").stdout)
    assert data["stages"][0]["passed"] is True and data["first_failing_stage"] == "allow_listed"
    assert "workflow:record_pulse_worklist" in data["stages"][0]["rule"]


def test_workflow_wildcard_expands_to_nothing_and_says_how_to_enable_them(tmp_path):
    step = _step(tmp_path, {"selected_servers": ["NO_SERVERS"], "enabled_custom_tools": ["workflow:*"]})
    result = run("check", step, "--json")
    (found,) = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "unknown_category"]
    assert '"workflow:*" expands to nothing' in found["message"]
    assert '"workflow:get_pulse_module_state"' in found["message"]
    data = json.loads(run("explain", step, "get_pulse_module_state", "--json").stdout)
    assert data["first_failing_stage"] == "registered"


def test_fix_names_every_failing_gate_in_order(tmp_path):
    """Not enabled and not allow-listed: the fix says both, registration first."""
    steps = str(SAMPLES / "seed" / "steps.json")
    data = json.loads(run("explain", steps, "read_image", "--step", "sheets-report", "-m", "run", "--json").stdout)
    fix = data["fix"]
    assert fix.startswith('(1) add "workspace_advanced:read_image" (or "workspace_advanced:*") to steps[1]')
    assert '(2) add "read_image" to modes.lists.run' in fix


def test_fix_for_a_non_workflow_server_says_to_add_it_to_the_workflow_first(tmp_path):
    shutil.copy(SAMPLES / "realistic" / "toolscope.registry.yaml", tmp_path / "toolscope.registry.yaml")
    registry = tmp_path / "toolscope.registry.yaml"
    registry.write_text(
        registry.read_text().replace(
            "servers: [github, google-sheets, slack, tavily, postgres]",
            "servers: [github, google-sheets, slack, tavily]",
        )
    )
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"id": "s", "agent_configs": {"selected_servers": ["github"]}}))
    data = json.loads(run("explain", str(path), "list_tables", "--json").stdout)
    assert "to the workflow's servers" in data["fix"] and "workflow.servers" in data["fix"]


def test_tools_says_which_mode_it_used():
    seed = str(SAMPLES / "seed" / "step_config.json")
    assert "mode: build (the default; choose another with --mode: build, run)" in run("tools", seed).output
    assert "mode: build (--mode builder canonicalizes to build)" in run("tools", seed, "-m", "builder").output
    assert "mode: run (--mode)" in run("tools", seed, "-m", "run").output


def test_step_warns_about_agent_state_and_notes_coercion(tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"web_search": "yes"}, {"web_search": True, "_agent_state": {"x": 1}}]))
    spec = str(SAMPLES / "agentscope" / "toolkit.yaml")
    result = run("step", spec, "--script", str(script))
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "warning: the call carries '_agent_state', which AgentScope overwrites" in text
    data = json.loads(run("step", spec, "--script", str(script), "--json").stdout)
    notes = {item["turn"]: " ".join(item["notes"]) for item in data["call_notes"]}
    assert "_agent_state" in notes[2] and "_agent_state" not in notes.get(1, "")
    from toolscope.core.systems.agentscope.probe import probe_stock_reset_tools

    if probe_stock_reset_tools().coerces_yes:  # the installed version decides; the note follows it
        assert "coerced 'web_search': \"yes\" to a boolean before the guard saw it" in notes[1]
    else:
        assert 1 not in notes


def test_enabled_but_filtered_out_names_the_cause_and_the_fix(tmp_path):
    (tmp_path / "toolscope.registry.yaml").write_text(
        "mcp_servers: {github: [create_issue]}\ncustom_tools: {planning: [write_plan, read_plan], human_tools: [x]}\n"
    )
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {"id": "s", "agent_configs": {"selected_servers": ["github"], "enabled_custom_tools": ["planning:*"]}}
        )
    )
    data = json.loads(run("check", str(path), "--json").stdout)
    (found,) = [f for f in data["findings"] if f["kind"] == "enabled_filtered_out"]
    assert found["source"] == "s.json: agent_configs.enabled_custom_tools[0]"
    assert 'enabled but filtered out: "planning:*" enables write_plan, read_plan' in found["message"]
    assert '"planning" is not in selected_servers ["github"]' in found["message"]
    assert 'Fix: add "planning:*" to agent_configs.selected_tools' in found["message"]
    assert found["severity"] == "error"


def test_misplaced_provider_beside_a_real_one_says_the_real_one_is_used(tmp_path):
    step = _step(tmp_path, {"provider": "claude-code", "execution_llm": {"provider": "openai"}})
    (found,) = [f for f in json.loads(run("check", step, "--json").stdout)["findings"] if f["kind"] == "unknown_key"]
    assert "the step's own execution_llm.provider is used instead" in found["message"]


def test_discover_warns_about_keys_agentworks_does_not_read(tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"t": {"command": "no-such-command-xyz", "arg": ["-x"]}}}))
    result = run("discover", str(config), "--json", "--timeout", "5")
    assert result.exit_code == 1
    assert "unknown_key" in result.stderr and "did you mean args?" in " ".join(result.stderr.split())
    json.loads(result.stdout)  # stdout stays the JSON document
