"""ToolkitSubject: the Subject protocol over a real Toolkit (stages, checklist, findings)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentscope.ids import AGENTSCOPE_STAGES

pytestmark = pytest.mark.agentscope


@pytest.fixture
def subject(samples):
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    return load_toolkit_subject(str(samples / "toolkit.yaml"), kind="toolkit_spec")


def test_subject_protocol(subject) -> None:
    from toolscope.core.model.subject import Subject

    assert isinstance(subject.mode_names, tuple)
    assert subject.mode_names == ("default", "accept_edits", "explore", "bypass", "dont_ask")
    assert subject.default_mode == "default"
    assert subject.resolve_mode("Accept-Edits") == "accept_edits"
    with pytest.raises(InputError):
        subject.resolve_mode("yolo")
    evaluation = subject.evaluate(None)
    assert evaluation.stage_names == AGENTSCOPE_STAGES
    assert evaluation.loaded.kind == "toolkit_spec" and evaluation.loaded.mode == "default"
    assert dict(evaluation.loaded.extra)["agentscope"]
    assert subject.all_tool_names() == ("reset_tools", "note_write", "web_search", "page_fetch")
    for name in (
        "mode_names",
        "default_mode",
        "resolve_mode",
        "evaluate",
        "checklist",
        "findings",
        "all_tool_names",
        "loaded",
    ):
        assert hasattr(subject, name)
    _: Subject = subject  # structural typing


def test_verdicts_follow_the_real_toolkit(subject) -> None:
    evaluation = subject.evaluate("default")
    page = evaluation.find("page_fetch")[0]
    assert page.namespace == "web_search" and page.verdict == "hidden"
    visible = page.stage("visible")
    assert visible.passed is False and visible.code == "group.inactive"
    callable_ = page.stage("callable")
    assert callable_.passed is True and callable_.code == "permission.allow"
    assert "read-only fast path" in callable_.source  # page_fetch is read-only
    writer = subject.built.toolkit.tool_groups[0].tools[0]
    assert writer.name == "note_write" and not writer.is_read_only
    meta = evaluation.find("reset_tools")[0]
    assert meta.kind == "meta" and meta.verdict == "visible"


def test_modes_change_the_callable_stage(subject) -> None:
    explore = {t.name: t for t in subject.evaluate("explore").tools}
    assert explore["note_write"].stage("callable").passed is False
    assert "explore mode is read-only" in explore["note_write"].stage("callable").rule
    assert explore["web_search"].stage("callable").passed is True  # read-only fast path
    bypass = {t.name: t for t in subject.evaluate("bypass").tools}
    assert all(t.stage("callable").passed for t in bypass.values())


def test_checklist_for_a_hidden_tool(subject) -> None:
    checklist = subject.checklist("web_search", None)
    assert checklist.outcome == "hidden"
    questions = [s.question for s in checklist.steps]
    assert questions[0].startswith("Is 'web_search' registered in a group")
    assert questions[1] == "Is group 'web_search' active in the agent state?"
    assert checklist.steps[1].answer == "no"
    assert questions[2] == "Does the PermissionEngine allow calling it in mode default?"
    assert checklist.fix.startswith('call reset_tools with {"web_search": true}')


def test_checklist_unknown_name_and_group_name(subject) -> None:
    checklist = subject.checklist("scraping", None)
    assert checklist.verdict is None and checklist.outcome == "unknown"
    assert any("is a group, not a tool" in e for e in checklist.steps[0].evidence)
    assert subject.checklist("page_fetc", None).did_you_mean == ("page_fetch",)


def test_allow_rule_is_named_as_the_source(tmp_path) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    spec = tmp_path / "rules.yaml"
    spec.write_text(
        "groups:\n  - {name: web, description: Web, tools: [{name: post}]}\npermissions:\n  allow: [post]\n"
    )
    subject = load_toolkit_subject(str(spec), kind="toolkit_spec", groups=["web"])
    stage = subject.evaluate("dont_ask").find("post")[0].stage("callable")
    assert stage.passed is True
    assert stage.source == "permission_context.allow_rules['post'] (source: rules.yaml)"


def test_checklist_deny_rule(tmp_path) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    spec = tmp_path / "t.yaml"
    spec.write_text(
        textwrap.dedent("""
        tools:
          - {name: shell, permission: allow}
        groups:
          - {name: web, description: Web, tools: [{name: fetch, read_only: true}]}
        permissions:
          deny: [shell]
    """)
    )
    subject = load_toolkit_subject(str(spec), kind="toolkit_spec", groups=["web"])
    checklist = subject.checklist("shell", "bypass")
    assert checklist.outcome == "hidden"
    assert checklist.steps[2].answer == "deny"
    assert "remove the deny rule for 'shell'" in checklist.fix
    assert subject.checklist("fetch", "explore").outcome == "visible"


def test_findings(tmp_path) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    spec = tmp_path / "t.yaml"
    spec.write_text(
        textwrap.dedent("""
        groups:
          - {name: web, description: Web, tools: [{name: fetch}]}
          - {name: scrape, description: "  ", tools: [{name: fetch}]}
          - {name: empty, description: Nothing here}
        permissions:
          deny: [fetch]
    """)
    )
    subject = load_toolkit_subject(str(spec), kind="toolkit_spec")
    kinds = {(f.kind, f.entry) for f in subject.findings(list(subject.mode_names))}
    assert ("empty_group", "empty") in kinds
    assert ("group_without_description", "scrape") in kinds
    assert ("duplicate_name", "scrape") in kinds
    assert ("never_callable", None) in kinds


def test_factory_state_with_unknown_active_group(tmp_path) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    path = tmp_path / "agent_state.py"
    path.write_text(
        textwrap.dedent("""
        from agentscope.state import AgentState
        from agentscope.tool import Toolkit, ToolGroup

        def build():
            state = AgentState()
            state.tool_context.activated_groups.append("web_serch")
            return Toolkit(tool_groups=[ToolGroup("web_search", "Web")]), state
    """)
    )
    subject = load_toolkit_subject(f"{path}:build", kind="toolkit_factory")
    assert subject.loaded.kind == "toolkit_factory"
    assert subject.loaded.files[0][0] == "agent_state.py"
    kinds = [f.kind for f in subject.findings(["default"])]
    assert "unknown_active_group" in kinds and "empty_group" in kinds


def test_groups_option_validates(samples) -> None:
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    with pytest.raises(InputError) as info:
        load_toolkit_subject(str(samples / "toolkit.yaml"), kind="toolkit_spec", groups=["web_serch"])
    assert "did you mean web_search" in info.value.render()
    subject = load_toolkit_subject(str(samples / "toolkit.yaml"), kind="toolkit_spec", groups=[])
    assert subject.active_groups() == ()


def test_session_from_subject(subject) -> None:
    session = subject.session()
    turn = session.call({"web_search": True})
    assert turn.guarded.accepted
    # the subject's own state is not touched by the session's lanes
    assert subject.active_groups() == ()


def test_set_active_groups_recomputes(subject) -> None:
    assert subject.evaluate(None).find("web_search")[0].verdict == "hidden"
    subject.set_active_groups(["web_search"])
    assert subject.evaluate(None).find("web_search")[0].verdict == "visible"
    with pytest.raises(InputError):
        subject.set_active_groups(["nope"])


def test_evaluate_in_another_activation_state_leaves_the_initial_one(subject) -> None:
    """The TUI's pipeline follows a lane after a turn: evaluate(active_groups=...) is a view, not a change."""

    def visible(evaluation, name):
        return next(t for t in evaluation.tools if t.name == name).stage("visible").passed

    assert visible(subject.evaluate(None), "web_search") is False
    following = subject.evaluate(None, active_groups=("web_search", "basic"))
    assert visible(following, "web_search") is True and visible(following, "page_fetch") is True
    assert 'active groups: ["web_search"]' in following.notes[0]
    assert subject.active_groups() == () and visible(subject.evaluate(None), "web_search") is False
    # A group the session registered on the shared toolkit shows up (no stale tool list).
    from toolscope.core.systems.agentscope.script import parse_script

    session = subject.session(
        parse_script(
            [{"register_group": {"name": "late", "description": "Late.", "tools": [{"name": "late_tool"}]}}], "s"
        )
    )
    before = {t.name for t in subject.evaluate(None).tools}
    session.forward()
    assert "late_tool" in {t.name for t in subject.evaluate(None, active_groups=("late",)).tools}
    # The initial state's rows, computed before the group existed, are not reused.
    assert {t.name for t in subject.evaluate(None).tools} == before | {"late_tool"}
    session.back()


def test_script_paths_resolve_from_the_current_folder_then_the_config_folder(tmp_path, monkeypatch) -> None:
    from toolscope.core.systems.agentscope.script import resolve_script_path

    config_dir = tmp_path / "configs"
    config_dir.mkdir()
    (config_dir / "s.json").write_text("[]")
    monkeypatch.chdir(tmp_path)
    assert resolve_script_path("s.json", config_dir) == config_dir / "s.json"
    (tmp_path / "s.json").write_text("[]")
    assert resolve_script_path("s.json", config_dir) == Path("s.json")
    assert resolve_script_path("missing.json", config_dir) == Path("missing.json")


def test_the_checklist_asks_about_the_given_activation_state(subject) -> None:
    hidden = subject.checklist("web_search", None)
    assert hidden.verdict.verdict == "hidden" and 'reset_tools with {"web_search": true}' in hidden.fix
    shown = subject.checklist("web_search", None, active_groups=("web_search",))
    assert shown.verdict.verdict == "visible" and shown.fix is None
    # The fix keeps the lane's other active groups (reset_tools sets the final state).
    other = subject.checklist("web_search", None, active_groups=("scraping",))
    assert '{"scraping": true, "web_search": true}' in other.fix
