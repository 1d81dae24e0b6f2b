"""The four AgentWorks stages on the shipped samples and on small hand-made worlds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_agentworks_subject
from toolscope.core.systems.agentworks.world import static_world

SAMPLES = Path(__file__).resolve().parents[3] / "sample_configs"
SEED = SAMPLES / "seed"


def verdict(subject, mode, name, namespace=None):
    matches = [
        t for t in subject.evaluate(mode).tools if t.name == name and (namespace is None or t.namespace == namespace)
    ]
    assert len(matches) == 1, matches
    return matches[0]


def stage(tool, name):
    found = tool.stage(name)
    assert found is not None
    return found


def test_notify_user_is_registered_but_not_allow_listed():
    """The seed's first incident: registered through human_tools:*, not in the mode's list."""
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    tool = verdict(subject, "build", "notify_user")
    assert tool.verdict == "hidden"
    assert tool.first_failing.name == "allow_listed"
    registered = stage(tool, "registered")
    assert registered.passed is True
    assert '"human_tools:*"' in registered.rule and "enabled_custom_tools[2]" in registered.rule
    assert stage(tool, "allow_listed").code == "mode.not_listed"
    assert stage(tool, "callable").code == "execution.denied"
    checklist = subject.checklist("notify_user", "build")
    assert checklist.fix.startswith('add "notify_user" to modes.lists.build in toolscope.registry.yaml')
    assert any(
        'tool "notify_user" is not available in the current workshop mode' in e
        for s in checklist.steps
        for e in s.evidence
    )


def test_pulse_tools_registered_but_not_allow_listed_for_workshop_mode():
    """The seed's second incident: registered in the workflow pool, not allow-listed for the workshop mode."""
    subject = load_agentworks_subject(StepConfigLoad(SEED / "steps.json", step="pulse-monitor"))
    build = verdict(subject, "build", "get_pulse_module_state")
    assert build.stage("registered").passed is True
    assert build.verdict == "hidden" and build.first_failing.name == "allow_listed"
    findings = subject.findings(["build"])
    assert {f.tool for f in findings if f.kind == "registered_not_allow_listed"} >= {
        "get_pulse_module_state",
        "record_pulse_worklist",
        "mark_pulse_module_result",
    }


def test_specific_entries_beat_selected_servers_and_name_the_entry():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    assert verdict(subject, "build", "create_issue").verdict == "visible"
    hidden = verdict(subject, "build", "get_issue")
    assert hidden.first_failing.code == "filter.specific_miss"
    assert '"github:create_issue"' in hidden.first_failing.rule


def test_normalization_matches_hyphens_case_and_camel_case():
    """google_sheets:get_sheet_data selects GetSheetData on server google-sheets; Google_Sheets selects the server."""
    subject = load_agentworks_subject(StepConfigLoad(SEED / "steps.json", step="sheets-report"))
    assert verdict(subject, "run", "GetSheetData").verdict == "visible"
    assert verdict(subject, "run", "UpdateCells").first_failing.code == "filter.specific_miss"
    # native provider: discovery is the native list, not get_api_spec
    assert stage(verdict(subject, "run", "GetSheetData"), "discoverable").code == "discovery.native"


def test_no_servers_drops_mcp_tools_but_keeps_system_categories():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "steps.json", step="pulse-monitor"))
    assert verdict(subject, "build", "create_issue").first_failing.code == "filter.server_not_selected"
    assert stage(verdict(subject, "build", "execute_shell_command"), "registered").passed is True


def test_custom_filter_and_tool_filter_compose(tmp_path: Path):
    """enabled_custom_tools decides first; then the ToolFilter can still drop a non-system category."""
    registry = {
        "mcp_servers": {"github": ["create_issue"]},
        "custom_tools": {"workflow_db": ["query_workflow_db"], "human_tools": ["notify_user"]},
        "modes": {"system": ["query_workflow_db", "notify_user"], "lists": {"build": []}, "default": "build"},
    }
    step = {
        "id": "s",
        "agent_configs": {"selected_servers": ["github"], "enabled_custom_tools": ["workflow_db:*", "human_tools:*"]},
    }
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    (tmp_path / "step.json").write_text(json.dumps(step))
    subject = load_agentworks_subject(StepConfigLoad(tmp_path / "step.json"))
    db = verdict(subject, "build", "query_workflow_db")
    assert db.first_failing.code == "filter.server_not_selected"
    assert "enabled by" in db.first_failing.rule and "tool filter excludes it" in db.first_failing.rule
    assert verdict(subject, "build", "notify_user").verdict == "visible"


def test_profile_defaults_apply_when_enabled_list_is_empty(tmp_path: Path):
    registry = {
        "custom_tools": {
            "workspace_advanced": ["execute_shell_command"],
            "human_tools": ["notify_user"],
            "workflow_db": {"tools": ["query_workflow_db"], "also_registered": ["record_run_concern"]},
        },
        "profile": {
            "defaults": ["workspace_advanced:*", "workflow_db:record_run_concern"],
            "append": ["workflow_db:record_run_concern"],
        },
    }
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    (tmp_path / "empty.json").write_text(json.dumps({"id": "s", "agent_configs": {"enabled_custom_tools": []}}))
    (tmp_path / "some.json").write_text(
        json.dumps({"id": "s", "agent_configs": {"enabled_custom_tools": ["human_tools:*"]}})
    )
    empty = load_agentworks_subject(StepConfigLoad(tmp_path / "empty.json"))
    assert verdict(empty, None, "execute_shell_command").verdict == "visible"
    assert "profile.defaults" in stage(verdict(empty, None, "execute_shell_command"), "registered").rule
    assert verdict(empty, None, "notify_user").verdict == "hidden"
    some = load_agentworks_subject(StepConfigLoad(tmp_path / "some.json"))
    concern = verdict(some, None, "record_run_concern")
    assert concern.verdict == "visible" and "profile.append" in stage(concern, "registered").rule
    # workflow_db:* would not expand to record_run_concern (also_registered)
    assert verdict(some, None, "query_workflow_db").verdict == "hidden"


def test_code_execution_cuts_virtual_tools_to_get_api_spec():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    assert verdict(subject, "build", "get_api_spec").verdict == "visible"
    prompt = verdict(subject, "build", "get_prompt")
    assert prompt.first_failing.code == "discovery.virtual_cut"


def test_outage_makes_expected_tools_unknown_not_missing(tmp_path: Path):
    from toolscope.core.inputs.documents import load_document
    from toolscope.core.systems.agentworks.mcp_tools import expected_tools
    from toolscope.core.systems.agentworks.registry import McpServer, RegistryModel
    from toolscope.core.systems.agentworks.step_config import load_step_config
    from toolscope.core.systems.agentworks.subject import AgentWorksSubject
    from toolscope.core.systems.agentworks.universe import build_universe

    (tmp_path / "step.json").write_text(
        json.dumps(
            {
                "id": "s",
                "agent_configs": {
                    "selected_servers": ["tavily", "github"],
                    "selected_tools": ["tavily:tavily_search", "github:*"],
                },
            }
        )
    )
    (tmp_path / "toolscope.registry.json").write_text(json.dumps({"mcp_servers": {}}))
    step = load_step_config(tmp_path / "step.json", None)
    errors = {"tavily": "failed to start: exit code 1"}
    universe = build_universe(
        RegistryModel(),
        "toolscope.registry.json",
        {"tavily": McpServer(), "github": McpServer(tools=("create_issue",))},
        errors,
        expected_tools(step, errors),
    )
    doc = load_document(tmp_path / "toolscope.registry.json")
    subject = AgentWorksSubject(step, static_world(doc, RegistryModel(), universe))
    tool = verdict(subject, None, "tavily_search")
    assert tool.verdict == "unknown"
    assert 'server "tavily" failed' in tool.first_failing.rule
    assert any(f.kind == "mcp_outage" for f in subject.findings([None]))


def test_duplicate_mcp_tool_first_server_wins(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(json.dumps({"mcp_servers": {"a": ["search"], "b": ["search"]}}))
    (tmp_path / "step.json").write_text(json.dumps({"id": "s", "agent_configs": {}}))
    subject = load_agentworks_subject(StepConfigLoad(tmp_path / "step.json"))
    assert verdict(subject, None, "search", "a").verdict == "visible"
    dup = verdict(subject, None, "search", "b")
    assert dup.first_failing.code == "mcp.duplicate"
    assert any(f.kind == "duplicate_name" and f.tool == "search" for f in subject.findings([None]))


def test_mode_aliases_and_unknown_mode():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    assert subject.resolve_mode("Builder") == "build"
    assert subject.resolve_mode(None) == "build"
    with pytest.raises(InputError) as excinfo:
        subject.resolve_mode("biuld")
    assert "modes: build, run" in excinfo.value.render() and "builder → build" in excinfo.value.render()


def test_unknown_tool_gets_did_you_mean():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    checklist = subject.checklist("notify-user", "build")
    assert checklist.verdict is None
    assert "notify_user" in checklist.did_you_mean
    assert subject.checklist("create_isue", "build").did_you_mean[0] == "create_issue"


def test_invariants_name_entry_and_file(tmp_path: Path):
    (tmp_path / "toolscope.registry.json").write_text(
        json.dumps(
            {
                "mcp_servers": {"github": ["create_issue"]},
                "custom_tools": {"human_tools": ["notify_user"], "extra": ["notify_user"]},
                "modes": {"system": ["ghost_tool"], "lists": {"build": []}, "default": "build"},
            }
        )
    )
    (tmp_path / "step.json").write_text(
        json.dumps(
            {
                "id": "s",
                "agent_configs": {
                    "selected_servers": ["github", "gitlab"],
                    "selected_tools": ["github:create_isue", "create_issue", "github:*"],
                    "enabled_custom_tools": ["nope:*", "human_tools:*"],
                },
            }
        )
    )
    subject = load_agentworks_subject(StepConfigLoad(tmp_path / "step.json"))
    kinds = {(f.kind, f.entry or f.tool) for f in subject.findings(["build"])}
    assert ("allow_listed_unregistered", "ghost_tool") in kinds
    assert ("registered_not_allow_listed", "notify_user") in kinds
    assert ("dead_rule", "github:create_isue") in kinds
    assert ("dead_rule", "gitlab") in kinds
    assert ("bare_entry", "create_issue") in kinds
    assert ("unknown_category", "nope:*") in kinds
    assert ("duplicate_name", "notify_user") in kinds
    dead = next(f for f in subject.findings(["build"]) if f.entry == "github:create_isue")
    assert dead.source == "step.json: agent_configs.selected_tools[0]"


def test_realistic_registry_loads_every_step():
    for step in ("collect-issues", "research", "pulse-check"):
        subject = load_agentworks_subject(StepConfigLoad(SAMPLES / "realistic" / "step_config.json", step=step))
        evaluation = subject.evaluate("workshop")
        assert len(evaluation.tools) > 140
        assert subject.evaluate(subject.resolve_mode("runner")).loaded.mode == "run"


def test_stage_objects_are_shared_between_tools_decided_by_the_same_rule():
    subject = load_agentworks_subject(StepConfigLoad(SAMPLES / "realistic" / "step_config.json", step="collect-issues"))
    tools = [t for t in subject.evaluate("workshop").tools if t.namespace == "slack"]
    assert len({id(t.stages) for t in tools}) == 1


def test_shared_stages_never_name_another_tool():
    """Stages shared between tools carry no per-tool entry or text (QA: notify_user showed entry read_image)."""
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    for tool in subject.evaluate("run").tools:
        for s in tool.stages[1:]:
            assert s.entry is None or s.entry != tool.name or s.name == "registered", (tool.name, s)
            other_names = {t.name for t in subject.evaluate("run").tools} - {tool.name}
            assert s.entry not in other_names, (tool.name, s)


def test_explain_quotes_the_exact_denial_text_for_the_tool():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    callable_ = subject.checklist("notify_user", "run").verdict.stage("callable")
    assert callable_.rule == 'a call is refused with: tool "notify_user" is not available in the current workshop mode'
    shared = verdict(subject, "run", "notify_user").stage("callable")
    assert "notify_user" not in shared.rule and "{tool}" not in shared.rule


def test_did_you_mean_survives_added_and_dropped_letters():
    subject = load_agentworks_subject(StepConfigLoad(SEED / "step_config.json"))
    assert "notify_user" in subject.checklist("notfyx", "build").did_you_mean


def test_rows_are_distinct_and_every_tool_gets_the_stage_one_decided_for_it_alone(tmp_path: Path):
    """The evaluation holds each distinct row of stages once and a row number per tool; the
    fast paths (a server decided whole, specific entries decided by number) give every tool
    the stage 1 that ``ShouldIncludeTool`` gives it alone, and counting by row agrees with
    counting tool by tool."""
    import sys

    from toolscope.core.model.verdicts import VerdictList

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from engine_bench import make_universe_files

    subject = load_agentworks_subject(StepConfigLoad(make_universe_files(tmp_path, tools=6000, servers=300)))
    for mode in ("build", "run"):
        evaluated = subject.evaluate(mode).tools
        assert isinstance(evaluated, VerdictList)
        assert len(set(evaluated.rows)) == len(evaluated.rows) < len(evaluated) / 5
        specific = 0
        for index, tool in enumerate(subject.universe.tools):
            if tool.kind not in ("mcp", "custom"):
                continue  # virtual and other tools never reach the filter
            stage_one = evaluated.rows[evaluated.row_of[index]][0]
            decision = subject.pipeline.filter.should_include_tool(tool.namespace, tool.name)
            assert stage_one.passed is (decision.include and subject.pipeline.custom.get(tool.name, decision).include)
            if decision.code in ("specific_match", "specific_miss"):
                specific += 1
                assert stage_one.code.endswith(decision.code) and stage_one.rule.startswith(decision.reason)
        assert specific > 100  # the per-tool path (specific entries) was exercised
        counts = {"visible": 0, "hidden": 0, "unknown": 0}
        for tool in evaluated:
            counts[tool.verdict] += 1
        assert evaluated.verdict_counts() == counts


def test_a_tool_whose_answer_the_apps_rewrite_changed_says_so_when_its_namespace_is_decided_whole(tmp_path: Path):
    """The rewrite drops "slack:post_message" and "cat:a" (no workflow server has those names), so
    slack and cat are decided whole after it; as written, post_message and a were included and
    their neighbours were not. Only those two tools' stage 1 names the rewrite (it was shared by
    the whole namespace, from whichever tool came first)."""
    (tmp_path / "toolscope.registry.yaml").write_text(
        "mcp_servers:\n  github: [create_issue]\n  slack: [read_channel, post_message, list_users]\n"
        "custom_tools:\n  cat: [b, a, c]\nworkflow:\n  servers: [github]\n"
    )
    step = {
        "id": "s",
        "agent_configs": {
            "selected_servers": ["github", "slack"],
            "selected_tools": ["slack:post_message", "cat:a", "github:*"],
            "enabled_custom_tools": ["cat:*"],
        },
    }
    (tmp_path / "step_config.json").write_text(json.dumps(step))
    subject = load_agentworks_subject(StepConfigLoad(tmp_path / "step_config.json"))
    evaluated = subject.evaluate(subject.default_mode).tools
    rewritten = set()
    for index, tool in enumerate(subject.universe.tools):
        stage_one = evaluated.rows[evaluated.row_of[index]][0]
        assert stage_one == subject.pipeline.registered(tool), tool.name
        if "the app rewrote its lists" in stage_one.rule:
            rewritten.add(tool.name)
    assert rewritten == {"post_message", "a"}
