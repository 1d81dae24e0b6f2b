"""The concrete fix for a tool an AgentWorks step does not get: every change it needs, in gate
order, each in the terms of the file that has to change (the step's lists as the app will see
them, the registry's mode lists, product.yaml's chats).

A gate that fails only because an earlier one did adds nothing of its own (``_CONSEQUENCES``).
"""

from __future__ import annotations

from ...model.enums import RuleCode, RuleFamily, ToolKind
from ...model.verdicts import Stage, ToolVerdict
from .filter_decisions import CODE_SERVER_NOT_SELECTED
from .ids import AgentWorksStage
from .pipeline import StepPipeline
from .universe import ToolEntry


def fix_for(pipeline: StepPipeline, verdict: ToolVerdict, mode: str | None) -> str | None:
    """Every change the tool needs, in gate order (a gate that fails only because an earlier
    one did adds nothing of its own)."""
    changes: list[str] = []
    for stage in verdict.stages:
        if stage.passed is True:
            continue
        for change in _stage_fixes(pipeline, verdict, stage, mode):
            if change not in changes:
                changes.append(change)
    if len(changes) <= 1:
        return changes[0] if changes else None
    return " ".join(f"({number}) {change};" for number, change in enumerate(changes, 1))[:-1]


# Stage codes that only repeat an earlier gate's failure (their fix is that gate's fix).
_CONSEQUENCES = {
    "discovery.not_registered",
    "discovery.outage",
    "execution.not_registered",
    "execution.outage",
    "discovery.not_allowed",
    "discovery.native_blocked",
}


def _stage_fixes(pipeline: StepPipeline, verdict: ToolVerdict, failing: Stage, mode: str | None) -> list[str]:
    """The changes one failing stage needs (none when it only repeats an earlier gate's failure)."""
    if failing.code in _CONSEQUENCES:
        return []
    step = pipeline.step
    namespace = verdict.namespace
    allow_fix = _allow_fix(pipeline, verdict.name, mode, verdict.stages[1])
    if failing.name == AgentWorksStage.REGISTERED:
        return _registered_fixes(pipeline, verdict, failing.code, failing.entry)
    if failing.name == AgentWorksStage.ALLOW_LISTED:
        return [allow_fix]
    if failing.name == AgentWorksStage.DISCOVERABLE:
        if failing.code == RuleCode.DISCOVERY_SERVER_EXCLUDED:
            return [f'add "{namespace}" to {step.target("selected_servers")}']
        if failing.code == RuleCode.DISCOVERY_VIRTUAL_CUT:
            return [
                "nothing to add: in code-execution mode only get_api_spec stays in the native list; "
                "call the tool through the bridge"
            ]
        return [allow_fix]
    if failing.name == AgentWorksStage.CALLABLE:
        return [allow_fix]
    return []


def _registered_fixes(pipeline: StepPipeline, verdict: ToolVerdict, code: str, entry: str | None) -> list[str]:
    """Layer 1: an outage, a duplicate name, or the step's lists (custom tools enabled, then the filter)."""
    name, namespace = verdict.name, verdict.namespace
    if code == RuleCode.MCP_OUTAGE:
        return [
            f'server "{namespace}" failed; the name is probably right: this is an outage. '
            f"Fix the server (see `toolscope discover`), then check again."
        ]
    if code == RuleCode.MCP_DUPLICATE:
        return [
            f'rename or drop one of the two "{name}" tools: server "{entry}"\'s copy is skipped '
            "because an earlier server registered the same name"
        ]
    out = []
    if RuleFamily.of(code) is RuleFamily.CUSTOM:
        # Offer the wildcard only where the real code expands it to this tool (§3.2).
        wildcard = f' (or "{namespace}:*")' if name in pipeline.universe.category_tools.get(namespace, ()) else ""
        out.append(f'add "{namespace}:{name}"{wildcard} to {pipeline.step.target("enabled_custom_tools")}')
        # The tool filter decides too: enabling alone is not enough when it drops the category.
        if pipeline.filter.should_include_tool(namespace, name).include:
            return out
    return out + [filter_fix(pipeline, verdict)]


def filter_fix(pipeline: StepPipeline, verdict: ToolVerdict | ToolEntry) -> str:
    """The selected_servers / selected_tools change that lets the tool filter include the tool,
    as the app will see it (it keeps only entries for the workflow's servers, compared exactly)."""
    step = pipeline.step
    name, namespace = verdict.name, verdict.namespace
    rewrite = pipeline.rewrite
    if rewrite.modelled and namespace not in rewrite.workflow_servers:
        if verdict.kind == ToolKind.CUSTOM:
            return (
                f"no step entry can register it: the app keeps only selected_tools entries for the workflow's "
                f'servers ({rewrite.servers_where}) and "{namespace}" is not a system category'
            )
        return (
            f'add "{namespace}" to the workflow\'s servers ({rewrite.servers_where}; the app drops step '
            f"entries for other servers), then to {step.target('selected_servers')}"
        )
    if (
        verdict.kind != ToolKind.CUSTOM
        and pipeline.filter.should_include_tool(namespace, name).code == CODE_SERVER_NOT_SELECTED
    ):
        return f'add "{namespace}" to {step.target("selected_servers")} (or "{namespace}:{name}" to selected_tools)'
    return f'add "{namespace}:{name}" to {step.target("selected_tools")}'


def _allow_fix(pipeline: StepPipeline, name: str, mode: str | None, failing: Stage) -> str:
    """The layer-2 fix in the registry's era."""
    table = pipeline.universe.modes
    if table is not None and table.product:
        if failing.code == "mode.withheld" and "external_denylist" in failing.rule:
            return (
                f'external callers are refused "{name}" on purpose: removing it from chat.run.external_denylist in '
                f"{table.product} is a deliberate API change (pinning test TestExternalRunAuthorityBoundary)"
            )
        if failing.code == "mode.withheld":
            return f"{failing.rule}: a chat of this mode and origin cannot have MCP server tools"
        return f'add "{name}" to chat.{mode}.tools in {table.product} (AgentWorks matches the exact name)'
    return (
        f'add "{name}" to modes.lists.{mode} in {pipeline.universe.source} (or to modes.system to allow it in every '
        "mode); in AgentWorks that is GetToolsForWorkshopMode in interactive_workshop_manager.go"
    )
