"""The seed's "agent says it doesn't have tool X" checklist, answered with evidence.

1. Is X registered? (layer 1)
2. Is X in GetToolsForWorkshopMode for the current mode? (layer 2; most common cause)
3. For CLI agents: would get_api_spec list it, and would invoking it succeed?
4. Guard against drift: an invariant assertion (``toolscope check --expect``) in CI.

It ends at a concrete fix: the exact entry to add, to which list, in which file (``fixes``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.enums import RuleCode, ToolKind
from ...model.opt_in import NOT_STARTED_PREFIX, not_started_fix
from ...model.presentation import ANSWER_WORD
from ...model.verdicts import Checklist, ChecklistStep, ToolVerdict, VerdictList
from ...text.shell import shell_join
from ...text.suggest import did_you_mean
from .fixes import fix_for
from .mode_table import ModeTable
from .names import normalize_tool_name, normalize_tool_names
from .pipeline import StepPipeline


def build_checklist(
    pipeline: StepPipeline,
    verdicts: Sequence[ToolVerdict],
    tool: str,
    mode: str | None,
    config_args: str,
) -> Checklist:
    """Walk the checklist for ``tool`` (``name`` or ``namespace:name``) in ``mode``.

    ``config_args``: how the check command names the config (file, and --step/--registry when needed).
    """
    matches = _matching_verdicts(pipeline, verdicts, tool)
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
        _guard_step(verdict.name, mode, config_args),
    ]
    return Checklist(
        tool=tool,
        mode=mode,
        verdict=verdict,
        steps=tuple(steps),
        fix=fix_for(pipeline, verdict, mode),
    )


def _matching_verdicts(pipeline: StepPipeline, verdicts: Sequence[ToolVerdict], tool: str) -> list[ToolVerdict]:
    """The verdicts of ``tool``, or of ``namespace:name`` when no tool has that whole name."""
    names = _verdict_names(pipeline, verdicts)
    matches = [verdicts[i] for i, name in enumerate(names) if name == tool]
    if matches or ":" not in tool:
        return matches
    namespace, _, short = tool.partition(":")
    return [v for v in (verdicts[i] for i, n in enumerate(names) if n == short) if v.namespace == namespace]


def _verdict_names(pipeline: StepPipeline, verdicts: Sequence[ToolVerdict]) -> Sequence[str]:
    """The verdicts' tool names, in their order.

    The engine's own evaluation is aligned with the universe: compare names there, so a
    50,000-tool evaluation builds only the matching verdicts."""
    if isinstance(verdicts, VerdictList) and verdicts.entries is pipeline.universe.tools:
        return pipeline.universe.names
    return tuple(v.name for v in verdicts)


def _guard_step(name: str, mode: str | None, config_args: str) -> ChecklistStep:
    """Step 4: the check command that keeps the two lists from drifting again."""
    mode_args = ["--mode", mode] if mode else []
    return ChecklistStep(
        "Will a test catch it if the registered pool and the allow-list drift again?",
        "add one",
        None,
        (
            f"toolscope check {config_args} {shell_join([*mode_args, '--expect', 'visible:' + name])}",
            "(in AgentWorks: a TestToolSetInvariants assertion in toolset_invariant_test.go)",
        ),
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


def _other_modes(pipeline: StepPipeline, verdict: ToolVerdict, mode: str | None) -> tuple[str, ...]:
    """Where else the tool is allow-listed, for a tool layer 2 gates at all."""
    table = pipeline.universe.modes
    if table is None or not _gated_by_modes(table, verdict, mode):
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


def _gated_by_modes(table: ModeTable, verdict: ToolVerdict, mode: str | None) -> bool:
    """Whether the mode lists decide this tool (MCP and virtual tools may pass by their kind; withheld ones never)."""
    if verdict.kind == ToolKind.MCP and not table.applies_to_mcp:
        return False
    if verdict.kind == ToolKind.VIRTUAL and not table.gates_virtual:
        return False
    return verdict.name not in table.withheld.get(mode or "", {})


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


def _not_started(pipeline: StepPipeline, tool: str) -> tuple[dict[str, str], list[str], str | None]:
    """The failed servers (those not started left out), the evidence so far, and the fix when
    a server was not started (its tools are unknown: the name may well be right)."""
    errors = pipeline.universe.server_errors
    evidence = [f"no tool named {tool!r} in {pipeline.universe.source}"]
    skipped = [s for s, reason in errors.items() if reason.startswith(NOT_STARTED_PREFIX)]
    if not skipped:
        return dict(errors), evidence, None
    evidence.append(
        f"MCP server(s) {', '.join(skipped)} not started: their tools are unknown, so the name may well be right"
    )
    return {s: r for s, r in errors.items() if s not in skipped}, evidence, not_started_fix(skipped[0])


def _unknown(pipeline: StepPipeline, tool: str, mode: str | None, verdicts: Sequence[ToolVerdict]) -> Checklist:
    short = tool.partition(":")[2] or tool
    if short in pipeline.universe.retired:
        return _retired(pipeline, tool, short, mode)
    # A VerdictList's labels, not its verdicts: iterating it would build 50,000 ToolVerdicts.
    labels = verdicts.entries if isinstance(verdicts, VerdictList) else verdicts
    names = {v.name for v in labels}
    candidates = did_you_mean(short, names, normalize=normalize_tool_name, normalize_all=normalize_tool_names)
    outages, evidence, fix = _not_started(pipeline, tool)
    if outages:
        failed = ", ".join(f'"{s}" ({reason})' for s, reason in outages.items())
        evidence.append(
            f"MCP server(s) {failed} failed to start or list their tools: the requested name is most likely "
            "correct — retrying with guessed names will not help. Treat this as a server outage."
        )
        fix = "fix the failing MCP server(s) (see `toolscope discover`), then check again"
    elif candidates and fix is None:
        fix = f"use the exact name: {candidates[0]}"
    step = ChecklistStep(
        f"Is {tool} registered? (layer 1)",
        "no such tool" if not outages else "unknown",
        False if not outages else None,
        tuple(evidence),
    )
    return Checklist(tool=tool, mode=mode, verdict=None, steps=(step,), fix=fix, did_you_mean=candidates)
