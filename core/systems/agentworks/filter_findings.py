"""Findings about what happens to a step's lists on the way to the filter.

* ``app_rewrite``: the app's rewrite of ``selected_servers`` / ``selected_tools`` against
  the workflow's servers changes whether tools are registered;
* ``enabled_filtered_out``: an ``enabled_custom_tools`` entry enables tools the tool filter
  then drops, every one of them.
"""

from __future__ import annotations

from ...model.enums import Severity, ToolKind
from ...model.verdicts import Finding
from ...text.counts import counted
from .ids import AgentWorksFinding
from .pipeline import StepPipeline
from .tool_filter import ToolFilter
from .universe import ToolEntry


def enabled_filtered_out(pipeline: StepPipeline) -> list[Finding]:
    """``enabled_filtered_out``: a step's enabled_custom_tools entry whose every tool the tool filter drops."""
    by_entry = _enabled_by_entry(pipeline)
    out = []
    for index, entry in enumerate(pipeline.step.step.agent_configs.enabled_custom_tools):
        enabled = by_entry.pop(entry, [])
        if enabled and all(pipeline.registered(tool).passed is False for tool in enabled):
            out.append(_filtered_out_finding(pipeline, index, entry, enabled))
    return out


def _enabled_by_entry(pipeline: StepPipeline) -> dict[str, list[ToolEntry]]:
    """Entry → the tools it enabled, in one pass over the universe (registry order keeps the output stable)."""
    by_entry: dict[str, list[ToolEntry]] = {}
    for tool in pipeline.universe.tools_of((ToolKind.CUSTOM,)):
        decision = pipeline.custom.get(tool.name)
        if decision is not None and decision.include and decision.entry is not None:
            by_entry.setdefault(decision.entry, []).append(tool)
    return by_entry


def _filtered_out_finding(pipeline: StepPipeline, index: int, entry: str, enabled: list[ToolEntry]) -> Finding:
    from .fixes import filter_fix

    first = enabled[0]
    because = pipeline.filter.should_include_tool(first.namespace, first.name).reason
    fix = filter_fix(pipeline, first)
    if entry.endswith(":*"):  # the whole category was meant: select it whole
        fix = fix.replace(f'"{first.namespace}:{first.name}"', f'"{first.namespace}:*"')
    return Finding(
        AgentWorksFinding.ENABLED_FILTERED_OUT,
        f'enabled but filtered out: "{entry}" enables {_first_five([t.name for t in enabled])}, but the tool filter '
        f"then drops {'it' if len(enabled) == 1 else 'all of them'}, because {because}. Fix: {fix}",
        tool=first.name,
        entry=entry,
        source=pipeline.step.where("enabled_custom_tools", index),
    )


def _first_five(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" (+{len(names) - 5} more)" if len(names) > 5 else "")


def rewrite_changes(pipeline: StepPipeline) -> list[Finding]:
    """``app_rewrite`` findings: tools whose stage 1 differs between the lists as written and as rewritten.

    One finding per namespace and direction. Tools that only the app's own appended
    entries bring in (``workflow_db:record_run_concern``) are the point of that rule, not news.
    """
    rewrite = pipeline.rewrite
    if not rewrite.changed:
        return []
    fields = [f.field for f in (rewrite.servers, rewrite.tools) if f.changed]
    source = pipeline.step.where(fields[0]) if fields else pipeline.step.file_name
    out = []
    for (namespace, now), names in _changed_by_rewrite(pipeline).items():
        how = "hidden as the step is written, registered" if now else "registered as the step is written, hidden"
        out.append(
            Finding(
                AgentWorksFinding.APP_REWRITE,
                f"the app's rewrite of the step's lists changes {counted(len(names), 'tool')} of \"{namespace}\": {how} "
                f"after the rewrite: {_first_five(names)}. {rewrite.note}",
                tool=names[0],
                entry=namespace,
                source=source,
                severity=Severity.WARNING,
            )
        )
    return out


def _changed_by_rewrite(pipeline: StepPipeline) -> dict[tuple[str, bool], list[str]]:
    """(namespace, registered after the rewrite) → the tools whose stage 1 the rewrite flips."""
    rewrite = pipeline.rewrite
    configs = pipeline.step.step.agent_configs
    as_written = ToolFilter(configs.selected_tools, configs.selected_servers, pipeline.system_bases)
    appended = {e.partition(":")[2] for e in rewrite.tools.after if e not in rewrite.tools.before}
    changed: dict[tuple[str, bool], list[str]] = {}
    for tool in pipeline.universe.tools:
        if not _reaches_filter(pipeline, tool):
            continue
        now = pipeline.filter.should_include_tool(tool.namespace, tool.name).include
        if now == as_written.should_include_tool(tool.namespace, tool.name).include:
            continue
        if now and tool.name in appended:
            continue
        changed.setdefault((tool.namespace, now), []).append(tool.name)
    return changed


def _reaches_filter(pipeline: StepPipeline, tool: ToolEntry) -> bool:
    """An MCP or enabled custom tool that is listed and not a duplicate: the filter decides it."""
    if tool.kind not in (ToolKind.MCP, ToolKind.CUSTOM) or tool.outage is not None or tool.duplicate_of is not None:
        return False
    return tool.kind != ToolKind.CUSTOM or pipeline.custom[tool.name].include
