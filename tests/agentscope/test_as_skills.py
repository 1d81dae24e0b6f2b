"""Skills are tools of their group (issue 19; upstream tests/toolkit_skill_test.py): a skill
in basic, or a group that holds only a skill, offers the model AgentScope's ``Skill`` tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolscope.core.model.enums import SharedFinding
from toolscope.core.systems.agentscope.ids import AgentScopeFinding, AgentScopeInput

pytestmark = pytest.mark.agentscope


def _skill(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\nSteps.\n")
    return folder


def _factory(tmp_path: Path) -> str:
    basic = _skill(tmp_path, "basic_skill")
    grouped = _skill(tmp_path, "group_skill")
    (tmp_path / "skills_factory.py").write_text(
        "from agentscope.skill import LocalSkillLoader\n"
        "from agentscope.tool import Toolkit, ToolGroup\n"
        "def build():\n"
        f"    return Toolkit(skills_or_loaders=[LocalSkillLoader({str(basic)!r})],\n"
        f"                   tool_groups=[ToolGroup('only_skill', 'A group with one skill.', skills_or_loaders=[LocalSkillLoader({str(grouped)!r})])])\n"
    )
    return f"{tmp_path / 'skills_factory.py'}:build"


def test_skill_rows_follow_what_get_tool_schemas_offers(tmp_path: Path) -> None:
    pytest.importorskip("agentscope.skill")
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(_factory(tmp_path), AgentScopeInput.TOOLKIT_FACTORY)
    rows = [(v.name, v.namespace, v.verdict.value) for v in subject.evaluate(None).tools]
    assert ("Skill", "basic", "visible") in rows and ("Skill", "only_skill", "hidden") in rows
    on = [(v.name, v.namespace, v.verdict.value) for v in subject.evaluate(None, ["only_skill"]).tools]
    assert ("Skill", "only_skill", "visible") in on
    kinds = [f.kind for f in subject.findings([None])]
    assert AgentScopeFinding.EMPTY_GROUP not in kinds and SharedFinding.DUPLICATE_NAME not in kinds
    rule = next(v for v in subject.evaluate(None).tools if v.namespace == "only_skill").stages[0].rule
    assert "group_skill" in rule
    turn = subject.session(()).call({"only_skill": True})
    assert "Skill" in turn.stock.visible_tools
