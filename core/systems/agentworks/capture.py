"""What an AgentWorks step predicts each captured request carries (the registry's capture hook).

The same list for every request (the mode is fixed for the run): the tools toolscope says are
offered natively, named as below.

A native provider is offered the registered tools by name (custom and virtual tools by their
registered name; how mcpagent spells MCP tools in the native list is not in toolscope's
references, so MCP tools are matched by their bare name and the rule says it is unverified).
A code-execution (CLI) provider's model sees the bridge as ``mcp__api-bridge__*``
(agentworks-semantics.md §6.5) with the bridge's tools execute_shell_command,
diff_patch_workspace_file, agent_browser and get_api_spec (agentworks-today.md §5); every other
tool is reached through get_api_spec, so it is not expected in the list; the CLI's own tools
(Bash, Read, …) are foreign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.enums import Verdict
from ...model.prediction import NameRule, Prediction
from ..contract import CapturePlan

if TYPE_CHECKING:
    from ...capture.observed import ObservedCapture
    from ...model.subject import Subject

BRIDGE_PREFIX = "mcp__api-bridge__"
BRIDGE_TOOLS = ("execute_shell_command", "diff_patch_workspace_file", "agent_browser", "get_api_spec")

_NATIVE_RULE = NameRule(
    "AgentWorks offers native providers each tool by its registered name; how mcpagent spells MCP tools "
    "in that list is not in toolscope's references, so MCP tools are matched by their bare tool name (unverified)",
    documented=False,
)
_BRIDGE_RULE = NameRule(
    f"a code-execution (CLI) provider's model sees the AgentWorks bridge as {BRIDGE_PREFIX}<tool> "
    "(agentworks-semantics.md §6.5); the prefix is removed before matching; other tools are reached through "
    "get_api_spec and are not expected in the list",
    documented=True,
    canonical=lambda name: name.removeprefix(BRIDGE_PREFIX),
)


def capture_plan(subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan | None:
    """The step's visible tools (native) or the bridge's (code execution), for every request."""
    from .subject import AgentWorksSubject

    if not isinstance(subject, AgentWorksSubject):
        return None
    tools = subject.evaluate(mode).tools
    visible = tuple(dict.fromkeys(t.name for t in tools if t.verdict == Verdict.VISIBLE))
    execution = subject.pipeline.execution
    where = f"mode {mode}" if mode else "the step's tools"
    if execution.code_execution:
        predicted = tuple(n for n in visible if n in BRIDGE_TOOLS)
        basis = f"{where}: the bridge's tools that are visible (code-execution provider)"
        rule = _BRIDGE_RULE
    else:
        predicted, basis, rule = visible, f"{where}: every visible tool (native provider)", _NATIVE_RULE
    notes = (
        execution.why,
        "the workshop mode is fixed for the whole capture: a request made in another mode disagrees "
        f"(compared in {mode or 'the default mode'})",
    )
    predictions = [Prediction(predicted, basis) for _ in capture.requests]
    return CapturePlan(predictions, rule, frozenset(subject.all_tool_names()), notes)
