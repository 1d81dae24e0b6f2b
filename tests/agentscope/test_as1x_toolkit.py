"""A real AgentScope 1.x Toolkit (the seed blog's, fixtures/v1/v1_seed_toolkit.py, and
toolscope's own spec built as a 1.x Toolkit): stages, explain, check, tools, --mode.
Runs in the 1.x CI lane (.ci/agentscope-v1.sh); skipped where 2.x is installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentscope.ids import AgentScopeFinding, AgentScopeInput
from toolscope.core.systems.agentscope.version import agentscope_major

pytestmark = [
    pytest.mark.agentscope1,
    pytest.mark.skipif(agentscope_major() != 1, reason="needs AgentScope 1.x (the 1.x CI lane)"),
]

SEED = Path(__file__).parent / "fixtures" / "v1" / "v1_seed_toolkit.py"
ARMED = f"{SEED}:build_armed_toolkit"
UNARMED = f"{SEED}:build_toolkit"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _subject(target: str, groups=None):
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    return load_toolkit_subject(target, AgentScopeInput.TOOLKIT_FACTORY, groups)


def test_stages_follow_the_group_flags_and_get_json_schemas() -> None:
    subject = _subject(ARMED)
    ev = subject.evaluate(None)
    assert [s.value for s in ev.stage_names] == ["registered", "visible"]
    verdicts = {v.name: v.verdict.value for v in ev.tools}
    assert verdicts == {
        "note_write": "visible",
        "web_search": "hidden",
        "page_fetch": "hidden",
        "reset_equipped_tools": "visible",
    }
    offered = {s["function"]["name"] for s in subject.toolkit.get_json_schemas()}
    assert offered == {n for n, v in verdicts.items() if v == "visible"}
    assert any("no permission engine" in n for n in ev.notes)  # said once, not a stage
    on = subject.evaluate(None, active_groups=["scraping"])
    assert {v.name: v.verdict.value for v in on.tools}["page_fetch"] == "visible"
    assert subject.toolkit.state_dict() == {"active_groups": []}  # flags put back


def test_visible_reasons_name_the_1x_group_flags() -> None:
    """The visible stage in 1.x's words (group_stages.Words1x): the Toolkit's own flag, True or False."""
    subject = _subject(ARMED)

    def visible(evaluation, name):
        stage = next(v for v in evaluation.tools if v.name == name).stages[1]
        return stage.rule, stage.source

    off, on = subject.evaluate(None), subject.evaluate(None, active_groups=["scraping"])
    assert visible(off, "note_write") == ("group 'basic' is always active", "toolkit.tools")
    assert visible(off, "page_fetch") == (
        "group 'scraping' is not active (toolkit.groups['scraping'].active is False); reset_equipped_tools "
        'must activate it: call reset_equipped_tools with {"scraping": true}',
        "toolkit.groups['scraping'].active",
    )
    assert visible(on, "page_fetch") == (
        "group 'scraping' is active (toolkit.groups['scraping'].active is True)",
        "toolkit.groups['scraping'].active",
    )


def test_without_the_meta_tool_nothing_can_switch_groups() -> None:
    subject = _subject(UNARMED)
    assert "reset_equipped_tools" not in subject.all_tool_names()
    rule = next(v for v in subject.evaluate(None).tools if v.name == "page_fetch").stages[1].rule
    assert "cannot switch groups" in rule and "enable_meta_tool=True" in rule
    kinds = [f.kind for f in subject.findings([None])]
    assert AgentScopeFinding.META_TOOL_MISSING in kinds
    assert AgentScopeFinding.META_TOOL_MISSING not in [f.kind for f in _subject(ARMED).findings([None])]


def test_groups_option_and_modes() -> None:
    subject = _subject(ARMED, groups=["web_search"])
    assert subject.active_groups() == ("web_search",)
    with pytest.raises(InputError, match="no such group"):
        _subject(ARMED, groups=["web_serch"])
    with pytest.raises(InputError, match="no permission modes"):
        subject.resolve_mode("explore")


def test_cli_tools_explain_check() -> None:
    tools = run("tools", ARMED)
    assert tools.exit_code == 0, tools.output
    assert "REGISTERED" in tools.output and "CALLABLE" not in tools.output
    explain = run("explain", UNARMED, "page_fetch")
    assert explain.exit_code == 1
    assert "Can the model switch groups? (reset_equipped_tools registered) no" in explain.output
    assert "enable_meta_tool=True" in explain.output.split("Fix:")[1]
    armed = run("explain", ARMED, "page_fetch")
    assert 'call reset_equipped_tools with {"scraping": true}' in " ".join(armed.output.split())
    check = run("check", UNARMED)
    assert check.exit_code == 1 and "meta_tool_missing" in check.output
    mode = run("tools", ARMED, "--mode", "explore")
    assert mode.exit_code == 2 and "--mode: AgentScope 1.x has no permission modes" in mode.output


def test_the_spec_is_built_as_a_real_1x_toolkit(samples) -> None:
    from agentscope.tool import Toolkit

    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(str(samples / "toolkit.yaml"), AgentScopeInput.TOOLKIT_SPEC)
    assert isinstance(subject.toolkit, Toolkit) and set(subject.toolkit.groups) == {"web_search", "scraping"}
    assert subject.toolkit.tools["reset_equipped_tools"].group == "basic"
    ev = subject.evaluate(None)
    assert any("permission, read_only and permissions are ignored" in n for n in ev.notes)
    assert AgentScopeFinding.EMPTY_GROUP in [f.kind for f in subject.findings([None])]
    result = run("tools", str(samples / "toolkit.yaml"))
    assert result.exit_code == 0 and "AgentScope 1.x toolkit spec" in result.output


def test_a_2x_factory_result_is_bad_input(tmp_path: Path) -> None:
    factory = tmp_path / "f.py"
    factory.write_text("def build():\n    return 42\n")
    result = run("tools", f"{factory}:build")
    assert result.exit_code == 2 and "expected an AgentScope 1.x Toolkit" in result.output
