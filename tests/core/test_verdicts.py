"""A row of stages decides the verdict: the first stage that does not pass says hidden (False)
or unknown (None); every stage passing is visible. The same for a row and a ToolVerdict."""

from __future__ import annotations

import pytest

from toolscope.core.model.enums import SharedStage, StageId, ToolKind, Verdict
from toolscope.core.model.verdicts import Stage, ToolVerdict, VerdictList, first_failing, row_verdict
from toolscope.core.systems.agentworks.ids import AgentWorksStage


def stage(name: StageId, passed: bool | None) -> Stage:
    return Stage(name=name, passed=passed, code="test.rule", rule=f"{name} {passed}")


REG, ALLOW, CALL = SharedStage.REGISTERED, AgentWorksStage.ALLOW_LISTED, SharedStage.CALLABLE
ROWS = [
    ((stage(REG, True), stage(ALLOW, True)), Verdict.VISIBLE, None),
    ((stage(REG, True), stage(ALLOW, False), stage(CALL, None)), Verdict.HIDDEN, ALLOW),
    ((stage(REG, True), stage(ALLOW, None), stage(CALL, False)), Verdict.UNKNOWN, ALLOW),
    ((stage(REG, None),), Verdict.UNKNOWN, REG),
]


@pytest.mark.parametrize(("row", "verdict", "failing"), ROWS)
def test_the_first_stage_that_does_not_pass_decides(row, verdict, failing) -> None:  # type: ignore[no-untyped-def]
    assert row_verdict(row) == verdict
    assert (first_failing(row).name if first_failing(row) else None) == failing
    tool = ToolVerdict(name="t", namespace="n", kind=ToolKind.CUSTOM, stages=row)
    assert tool.verdict == verdict and tool.first_failing == first_failing(row)


def test_a_list_counts_unknown_apart_from_hidden() -> None:
    tools = [
        ToolVerdict(name=f"t{i}", namespace="n", kind=ToolKind.CUSTOM, stages=row) for i, (row, _, _) in enumerate(ROWS)
    ]
    listed = VerdictList.of(tools)
    assert listed.verdict_counts() == {"visible": 1, "hidden": 1, "unknown": 2}
    assert [listed[i].verdict for i in listed.order_by_verdict()] == ["hidden", "unknown", "unknown", "visible"]
