"""The app rewrites selected_servers / selected_tools against the workflow's servers before the filter (§2.3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_agentworks_subject

REGISTRY = {
    "mcp_servers": {"github": ["create_issue"], "google-sheets": ["GetSheetData"]},
    "custom_tools": {
        "human_tools": ["human_feedback", "notify_user"],
        "workflow_db": {"tools": ["query_workflow_db"], "also_registered": ["record_run_concern"]},
    },
    "workflow": {"servers": ["github", "google-sheets"], "append_selected_tools": ["workflow_db:record_run_concern"]},
}


def _subject(tmp_path: Path, configs: dict, registry: dict | None = None):
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry or REGISTRY))
    path = tmp_path / "step.json"
    path.write_text(json.dumps({"steps": [{"id": "s", "agent_configs": configs}]}))
    return load_agentworks_subject(StepConfigLoad(path))


def _registered(subject, tool: str):
    (verdict,) = [v for v in subject.evaluate(None).tools if v.name == tool]
    return verdict.stages[0]


def test_an_entry_for_a_non_workflow_server_is_dropped_so_the_whole_system_category_passes(tmp_path):
    subject = _subject(tmp_path, {"selected_tools": ["human_tools:notify_user"]})
    assert subject.selection_rewrite.tools.after == ("workflow_db:record_run_concern",)
    stage = _registered(subject, "human_feedback")
    assert stage.passed is True and stage.code.endswith("filter.system_category")
    assert "the app rewrote its lists" in stage.rule


def test_both_lists_empty_the_app_fills_in_the_workflow_servers_so_filtering_is_on(tmp_path):
    subject = _subject(tmp_path, {})
    assert subject.selection_rewrite.servers.after == ("github", "google-sheets")
    stage = _registered(subject, "query_workflow_db")
    assert stage.passed is False
    assert "workflow.servers" in " ".join(subject.selection_rewrite.servers.rules)


def test_exact_server_comparison_drops_a_normalized_name_and_leaves_no_servers(tmp_path):
    subject = _subject(tmp_path, {"selected_servers": ["google_sheets"]})
    assert subject.selection_rewrite.servers.after == ("NO_SERVERS",)
    stage = _registered(subject, "GetSheetData")
    assert stage.passed is False and stage.code == "filter.server_not_selected"
    assert '["google_sheets"] → ["NO_SERVERS"]' in stage.rule
    kinds = [(f.kind, f.entry) for f in subject.findings([None])]
    assert ("app_rewrite", "google-sheets") in kinds


def test_without_a_workflow_section_the_rewrite_is_not_modelled_and_said_so(tmp_path):
    registry = {k: v for k, v in REGISTRY.items() if k != "workflow"}
    subject = _subject(tmp_path, {"selected_servers": ["google_sheets"]}, registry)
    rewrite = subject.selection_rewrite
    assert not rewrite.modelled and not rewrite.changed
    assert "could not be modelled" in rewrite.note
    assert _registered(subject, "GetSheetData").passed is True  # the filter normalizes the name
    assert not [f for f in subject.findings([None]) if f.kind == "app_rewrite"]


def test_no_workflow_servers_empties_selected_tools_then_appends(tmp_path):
    registry = {**REGISTRY, "workflow": {"servers": [], "append_selected_tools": ["workflow_db:record_run_concern"]}}
    subject = _subject(tmp_path, {"selected_servers": [], "selected_tools": ["github:create_issue"]}, registry)
    assert subject.selection_rewrite.servers.after == ("NO_SERVERS",)
    assert subject.selection_rewrite.tools.after == ("workflow_db:record_run_concern",)


@pytest.mark.parametrize("as_json", [False, True])
def test_explain_shows_both_lists_before_and_after(tmp_path, as_json):
    _subject(tmp_path, {"selected_servers": ["google_sheets"]})
    args = ["explain", str(tmp_path / "step.json"), "GetSheetData"] + (["--json"] if as_json else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    if as_json:
        data = json.loads(result.stdout)["selection_rewrite"]
        assert data["selected_servers"] == {
            "before": ["google_sheets"],
            "after": ["NO_SERVERS"],
            "rules": data["selected_servers"]["rules"],
        }
        assert data["modelled"] is True
    else:
        assert "Before the filter" in result.output
        assert '["google_sheets"] → ["NO_SERVERS"]' in result.output
