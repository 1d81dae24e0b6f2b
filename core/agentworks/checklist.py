"""The seed's "agent says it doesn't have tool X" checklist, answered with evidence.

1. Is X registered? (layer 1)
2. Is X in GetToolsForWorkshopMode for the current mode? (layer 2; most common cause)
3. For CLI agents: would get_api_spec list it, and would invoking it succeed?
4. Guard against drift: an invariant assertion (``toolscope check --expect``) in CI.

It ends at a concrete fix: the exact entry to add, to which list, in which file.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.enums import RuleCode, RuleFamily, StageId, ToolKind
from ..model.presentation import ANSWER_WORD
from ..model.verdicts import Checklist, ChecklistStep, ToolVerdict, VerdictList
from ..text.shell import shell_join
from ..text.suggest import did_you_mean
from .filter_decisions import CODE_SERVER_NOT_SELECTED
from .names import normalize_tool_name, normalize_tool_names
from .pipeline import StepPipeline
from .universe import ToolEntry


def build_checklist(
    pipeline: StepPipeline,
    verdicts: Sequence[ToolVerdict],
    tool: str,
    mode: str | None,
    config_args: str,
) -> Checklist:
    """``config_args``: how the check command names the config (file, and --step/--registry when needed)."""
    """Walk the checklist for ``tool`` (``name`` or ``namespace:name``) in ``mode``."""
    # The engine's own evaluation is aligned with the universe: compare names there, so a
    # 50,000-tool evaluation builds only the matching verdicts.
    aligned = isinstance(verdicts, VerdictList) and verdicts.entries is pipeline.universe.tools
    names = pipeline.universe.names if aligned else tuple(v.name for v in verdicts)
    matches = [verdicts[i] for i, name in enumerate(names) if name == tool]
    if not matches and ":" in tool:
        namespace, _, name = tool.partition(":")
        matches = [v for v in (verdicts[i] for i, n in enumerate(names) if n == name) if v.namespace == namespace]
    if not matches:
        return _unknown(pipeline, tool, mode, verdicts)
    # With duplicates, explain the copy that is most visible (first server wins).
    verdict = sorted(matches, key=lambda v: {"visible": 0, "unknown": 1, "hidden": 2}[v.verdict])[0]
    verdict = pipeline.with_denial_text(verdict, mode)
    registered, allowed, discoverable, callable_ = verdict.stages
    steps = [
        ChecklistStep(
            f"Is {verdict.name} registered? (layer 1: the step's filters)",
            ANSWER_WORD[registered.passed],
            registered.passed,
            (registered.rule,),
        ),
        ChecklistStep(
            _layer2_question(pipeline, verdict.name, mode),
            ANSWER_WORD[allowed.passed],
            allowed.passed,
            (allowed.rule, *_other_modes(pipeline, verdict, mode)),
        ),
        _bridge_step(pipeline, verdict, discoverable, callable_, mode),
        ChecklistStep(
            "Will a test catch it if the registered pool and the allow-list drift again?",
            "add one",
            None,
            (
                f"toolscope check {config_args} {shell_join(['--mode', mode, '--expect', 'visible:' + verdict.name])}"
                if mode
                else f"toolscope check {config_args} {shell_join(['--expect', 'visible:' + verdict.name])}",
                "(in AgentWorks: a TestToolSetInvariants assertion in toolset_invariant_test.go)",
            ),
        ),
    ]
    return Checklist(
        tool=tool,
        mode=mode,
        verdict=verdict,
        steps=tuple(steps),
        fix=_fix(pipeline, verdict, mode),
    )


def _bridge_step(
    pipeline: StepPipeline, verdict: ToolVerdict, discoverable, callable_, mode: str | None
) -> ChecklistStep:  # type: ignore[no-untyped-def]
    question = "Would the agent see it through get_api_spec, and would invoking it succeed?"
    passed: bool | None
    if discoverable.passed is True and callable_.passed is True:
        passed = True
    elif discoverable.passed is False or callable_.passed is False:
        passed = False
    else:
        passed = None
    answer = ANSWER_WORD[passed]
    if not pipeline.execution.code_execution:
        question = "Is it in the native tool list, and would invoking it succeed? (not a CLI agent)"
    evidence: tuple[str, ...] = (f"discovery: {discoverable.rule}",)
    if callable_.code == RuleCode.EXECUTION_DENIED:
        evidence += (
            f"execution: invoking it returns: {pipeline.denial(verdict.name, mode)}",
            "that denial text means layer 2 is blocking it",
        )
    else:
        evidence += (f"execution: {callable_.rule}",)
    return ChecklistStep(question, answer, passed, evidence)


def _layer2_question(pipeline: StepPipeline, name: str, mode: str | None) -> str:
    """Step 2's question in the registry's era."""
    table = pipeline.universe.modes
    if table is not None and table.product:
        return f"Is {name} in {table.product} chat.{mode}.tools? (layer 2: the product manifest's admission list)"
    if table is None and pipeline.universe.era == "registration_only":
        return f"Is {name} allow-listed? (layer 2: none in the registration-only era)"
    return f"Is {name} in GetToolsForWorkshopMode for mode {mode!r}? (layer 2, the most common cause)"


def _allow_fix(pipeline: StepPipeline, name: str, mode: str | None, failing) -> str:  # type: ignore[no-untyped-def]
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


def _other_modes(pipeline: StepPipeline, verdict: ToolVerdict, mode: str | None) -> tuple[str, ...]:
    table = pipeline.universe.modes
    if table is None:
        return ()
    if verdict.kind == ToolKind.MCP and not table.applies_to_mcp:
        return ()
    if verdict.name in table.withheld.get(mode or "", {}) or (
        verdict.kind == ToolKind.VIRTUAL and not table.gates_virtual
    ):
        return ()
    listed = [m for m in table.modes if verdict.name in table.allowed.get(m, {})]
    others = [m for m in listed if m != mode]
    if others:
        return (
            f"also allow-listed in: {', '.join(others)}" if mode in listed else f"allow-listed in: {', '.join(others)}",
        )
    if not listed:
        return ("allow-listed in no mode at all",)
    return ()


def _fix(pipeline: StepPipeline, verdict: ToolVerdict, mode: str | None) -> str | None:
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


def _stage_fixes(pipeline: StepPipeline, verdict: ToolVerdict, failing, mode: str | None) -> list[str]:  # type: ignore[no-untyped-def]
    if failing.code in _CONSEQUENCES:
        return []
    step = pipeline.step
    name, namespace = verdict.name, verdict.namespace
    allow_fix = _allow_fix(pipeline, name, mode, verdict.stages[1])
    if failing.name == StageId.REGISTERED:
        code = failing.code
        if code == RuleCode.MCP_OUTAGE:
            return [
                f'server "{namespace}" failed; the name is probably right: this is an outage. '
                f"Fix the server (see `toolscope discover`), then check again."
            ]
        if code == RuleCode.MCP_DUPLICATE:
            return [
                f'rename or drop one of the two "{name}" tools: server "{failing.entry}"\'s copy is skipped '
                "because an earlier server registered the same name"
            ]
        out = []
        if RuleFamily.of(code) is RuleFamily.CUSTOM:
            # Offer the wildcard only where the real code expands it to this tool (§3.2).
            wildcard = f' (or "{namespace}:*")' if name in pipeline.universe.category_tools.get(namespace, ()) else ""
            out.append(f'add "{namespace}:{name}"{wildcard} to {step.target("enabled_custom_tools")}')
            # The tool filter decides too: enabling alone is not enough when it drops the category.
            if pipeline.filter.should_include_tool(namespace, name).include:
                return out
        return out + [filter_fix(pipeline, verdict)]
    if failing.name == StageId.ALLOW_LISTED:
        return [allow_fix]
    if failing.name == StageId.DISCOVERABLE:
        if failing.code == RuleCode.DISCOVERY_SERVER_EXCLUDED:
            return [f'add "{namespace}" to {step.target("selected_servers")}']
        if failing.code == RuleCode.DISCOVERY_VIRTUAL_CUT:
            return [
                "nothing to add: in code-execution mode only get_api_spec stays in the native list; "
                "call the tool through the bridge"
            ]
        return [allow_fix]
    if failing.name == StageId.CALLABLE:
        return [allow_fix]
    return []


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


def retired_sentence(pipeline: StepPipeline, name: str) -> str | None:
    """``"read_workspace_file" is retired (since …): use execute_shell_command / …``, or None."""
    retired = pipeline.universe.retired.get(name)
    if retired is None:
        return None
    since = f" since {retired.since}" if retired.since else ""
    use = " / ".join(retired.replacement) if retired.replacement else "nothing: it has no replacement"
    note = f' ("{retired.note}")' if retired.note else ""
    return f'"{name}" is retired{since} ({pipeline.universe.source}: retired_tools.{name}){note}; use {use}'


def _retired(pipeline: StepPipeline, tool: str, name: str, mode: str | None) -> Checklist:
    sentence = retired_sentence(pipeline, name) or ""
    retired = pipeline.universe.retired[name]
    step = ChecklistStep(
        f"Is {tool} registered? (layer 1)",
        "retired",
        False,
        (sentence, "AgentWorks no longer registers it under any name: no look-alike name will work"),
    )
    fix = (
        f"replace it with {' / '.join(retired.replacement)} in the step's lists"
        if retired.replacement
        else "drop it from the step's lists"
    )
    return Checklist(tool=tool, mode=mode, verdict=None, steps=(step,), fix=fix, did_you_mean=())


def _unknown(pipeline: StepPipeline, tool: str, mode: str | None, verdicts: Sequence[ToolVerdict]) -> Checklist:
    short = tool.partition(":")[2] or tool
    if short in pipeline.universe.retired:
        return _retired(pipeline, tool, short, mode)
    # A VerdictList's labels, not its verdicts: iterating it would build 50,000 ToolVerdicts.
    labels = verdicts.entries if isinstance(verdicts, VerdictList) else verdicts
    names = {v.name for v in labels}
    candidates = did_you_mean(short, names, normalize=normalize_tool_name, normalize_all=normalize_tool_names)
    outages = dict(pipeline.universe.server_errors)
    evidence = [f"no tool named {tool!r} in {pipeline.universe.source}"]
    fix = None
    if outages:
        failed = ", ".join(f'"{s}" ({reason})' for s, reason in outages.items())
        evidence.append(
            f"MCP server(s) {failed} failed to start or list their tools: the requested name is most likely "
            "correct — retrying with guessed names will not help. Treat this as a server outage."
        )
        fix = "fix the failing MCP server(s) (see `toolscope discover`), then check again"
    elif candidates:
        fix = f"use the exact name: {candidates[0]}"
    step = ChecklistStep(
        f"Is {tool} registered? (layer 1)",
        "no such tool" if not outages else "unknown",
        False if not outages else None,
        tuple(evidence),
    )
    return Checklist(tool=tool, mode=mode, verdict=None, steps=(step,), fix=fix, did_you_mean=candidates)
