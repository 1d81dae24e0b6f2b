"""Which tools each input kind predicts per captured request, compared with the capture.

The one entry point every front end uses (``step``, ``tools``, ``explain``, ``check``,
``report``, the TUI): ``compare_subject(subject, capture, mode)``. An input kind plugs
in by giving ``Prediction``s and a ``NameRule``:

- AgentScope toolkits (``StepsActivation``): the captured reset_tools calls replayed on
  the stock and the guarded lane (``agentscope.capture_replay``).
- AgentWorks step configs: the same list for every request (the mode is fixed for the
  run): the tools toolscope says are offered natively, named as below.
- Claude Code and Codex (``claude-code:DIR``, ``codex:DIR``): in the CLI's own terms, each
  MCP tool in full or deferred and each call ran or refused (``core.comparison.cli_offer``).
- Any other subject: the tools its evaluation calls visible, names unchanged, the rule
  marked undocumented.

AgentWorks names: a native provider is offered the registered tools by name (custom and
virtual tools by their registered name; how mcpagent spells MCP tools in the native list
is not in toolscope's references, so MCP tools are matched by their bare name and the
rule says it is unverified). A code-execution (CLI) provider's model sees the bridge as
``mcp__api-bridge__*`` (agentworks-semantics.md §6.5) with the bridge's tools
execute_shell_command, diff_patch_workspace_file, agent_browser and get_api_spec
(agentworks-today.md §5); every other tool is reached through get_api_spec, so it is not
expected in the list; the CLI's own tools (Bash, Read, …) are foreign.

Public API::

    compare_subject(subject, capture, mode) -> SubjectComparison (.comparison, .session)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..capture.observed import ObservedCapture
from ..model.enums import Verdict
from ..model.prediction import NameRule, Prediction
from .compare import CaptureComparison, compare

if TYPE_CHECKING:
    from ..model.subject import Subject
    from ..systems.agentworks.subject import AgentWorksSubject

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
_GENERIC_RULE = NameRule(
    "names compared unchanged (toolscope has no reference for how this input's names reach the model)",
    documented=False,
)


def _visible_names(subject: Subject, mode: str | None) -> tuple[tuple[str, ...], frozenset[str]]:
    tools = subject.evaluate(mode).tools
    visible = tuple(dict.fromkeys(t.name for t in tools if t.verdict == Verdict.VISIBLE))
    return visible, frozenset(subject.all_tool_names())


def _agentworks(subject: AgentWorksSubject, capture: ObservedCapture, mode: str | None) -> CaptureComparison:
    visible, known = _visible_names(subject, mode)
    pipeline = subject.pipeline
    code_execution = pipeline.execution.code_execution
    where = f"mode {mode}" if mode else "the step's tools"
    if code_execution:
        predicted = tuple(n for n in visible if n in BRIDGE_TOOLS)
        basis = f"{where}: the bridge's tools that are visible (code-execution provider)"
        rule = _BRIDGE_RULE
    else:
        predicted, basis, rule = visible, f"{where}: every visible tool (native provider)", _NATIVE_RULE
    notes = [pipeline.execution.why]
    notes.append(
        "the workshop mode is fixed for the whole capture: a request made in another mode disagrees "
        f"(compared in {mode or 'the default mode'})"
    )
    predictions = [Prediction(predicted, basis) for _ in capture.requests]
    return compare(capture, predictions, rule, known=known.__contains__, notes=notes)


@dataclass(frozen=True)
class SubjectComparison:
    """The comparison, and (toolkits) the StepSession whose turns are the replayed reset_tools calls."""

    comparison: CaptureComparison
    session: Any = None


def compare_subject(subject: Subject, capture: ObservedCapture, mode: str | None) -> SubjectComparison:
    """The capture's requests against what ``subject`` predicts for each (see the module docstring)."""
    from ..model.subject import StepsActivation

    if isinstance(subject, StepsActivation):
        from ..systems.agentscope.capture_replay import NAME_RULE, predict

        replay = predict(subject.built, capture)
        known = frozenset(subject.all_tool_names()) | {"reset_tools", "Skill"}
        comparison = compare(
            capture, replay.predictions, NAME_RULE, known=known.__contains__, lane="stock", notes=replay.notes
        )
        return SubjectComparison(comparison, replay.session)
    from ..systems.agentworks.subject import AgentWorksSubject

    if isinstance(subject, AgentWorksSubject):
        return SubjectComparison(_agentworks(subject, capture, mode))
    from ..systems.claude_code.subject import ClaudeCodeSubject
    from ..systems.codex.subject import CodexSubject

    if isinstance(subject, ClaudeCodeSubject | CodexSubject):
        from .cli_offer import compare_cli_subject

        return SubjectComparison(compare_cli_subject(subject, capture, mode))
    visible, known = _visible_names(subject, mode)
    predictions = [Prediction(visible, "every visible tool") for _ in capture.requests]
    return SubjectComparison(compare(capture, predictions, _GENERIC_RULE, known=known.__contains__))
