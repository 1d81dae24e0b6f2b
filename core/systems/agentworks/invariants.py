"""Invariant checks over the registry and the step, in the spirit of ``TestToolSetInvariants``.

Each finding names the entry and the file (with the path inside it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.enums import Severity, SharedFinding, ToolKind
from ...model.verdicts import Finding
from .filter_findings import enabled_filtered_out, rewrite_changes
from .ids import AgentWorksFinding
from .names import normalize_server_name, normalize_tool_name
from .pipeline import StepPipeline

NO_SERVERS = "NO_SERVERS"


def check_invariants(pipeline: StepPipeline, modes: Sequence[str | None]) -> list[Finding]:
    """All findings for this step and these (canonical) modes."""
    findings: list[Finding] = []
    findings += _duplicates(pipeline)
    findings += _outages(pipeline)
    findings += _allow_listed_unregistered(pipeline, modes)
    findings += _registered_not_allow_listed(pipeline)
    findings += _selected_tools_entries(pipeline)
    findings += _selected_servers_entries(pipeline)
    findings += _enabled_custom_entries(pipeline)
    findings += rewrite_changes(pipeline)
    findings += enabled_filtered_out(pipeline)
    return findings


def _duplicates(pipeline: StepPipeline) -> list[Finding]:
    source = pipeline.universe.source
    return [
        Finding(
            SharedFinding.DUPLICATE_NAME,
            f'tool "{tool}" is defined twice in {source}: {first} and {second}',
            tool=tool,
            source=f"{source}: {second}",
        )
        for tool, first, second in pipeline.universe.duplicates
    ]


def _outages(pipeline: StepPipeline) -> list[Finding]:
    return [
        Finding(
            SharedFinding.MCP_OUTAGE,
            f'MCP server "{server}" failed: {reason}; its tools are unknown, not absent',
            entry=server,
            source=pipeline.universe.source,
        )
        for server, reason in pipeline.universe.server_errors.items()
    ]


def _allow_listed_unregistered(pipeline: StepPipeline, modes: Sequence[str | None]) -> list[Finding]:
    table = pipeline.universe.modes
    if table is None:
        return []
    known = pipeline.universe.all_names()
    missing: dict[str, list[str]] = {}
    for mode in modes:
        if mode is None:
            continue
        for tool in table.allowed.get(mode, {}):
            if tool not in known:
                missing.setdefault(tool, []).append(mode)
    source = pipeline.universe.source
    where = f"{table.product}: chat" if table.product else f"{source}: modes"
    return [
        Finding(
            AgentWorksFinding.ALLOW_LISTED_UNREGISTERED,
            f'allow-listed tool "{tool}" (mode {", ".join(ms)}) is registered nowhere in {source}: '
            "it would be invisible through get_api_spec",
            tool=tool,
            source=where,
        )
        for tool, ms in missing.items()
    ]


def _registered_not_allow_listed(pipeline: StepPipeline) -> list[Finding]:
    table = pipeline.universe.modes
    if table is None:
        return []
    allowed_anywhere: set[str] = set()
    for tools in table.allowed.values():
        allowed_anywhere.update(tools)
    source = pipeline.universe.source
    where = f"{table.product}: chat" if table.product else f"{source}: modes"
    add = (
        f"add it to chat.<mode>.tools in {table.product}"
        if table.product
        else f"add it to modes.system or a mode list in {source}"
    )
    out = []
    universe = pipeline.universe
    kinds = (
        (ToolKind.CUSTOM, ToolKind.VIRTUAL, ToolKind.OTHER)
        if table.gates_virtual
        else (ToolKind.CUSTOM, ToolKind.OTHER)
    )
    for entry in universe.tools_of(None if table.applies_to_mcp else kinds):
        if entry.name in allowed_anywhere:
            continue
        stage = pipeline.registered(entry)
        if stage.passed:
            out.append(
                Finding(
                    AgentWorksFinding.REGISTERED_NOT_ALLOW_LISTED,
                    f'"{entry.name}" ({entry.namespace}) is registered for this step but allow-listed in no mode: '
                    f"every mode denies it ({add})",
                    tool=entry.name,
                    source=where,
                )
            )
    return out


class _ToolsByNamespace:
    """Normalized namespace → (tool names, normalized tool names), built for a namespace when
    an entry first asks: checking each selected_tools entry is a lookup, not a scan of every
    tool, and namespaces no entry names are never indexed."""

    def __init__(self, pipeline: StepPipeline) -> None:
        self._universe = pipeline.universe
        self._runs: dict[str, list[tuple[int, int]]] = {}
        for start, end, namespace, _kind, _plain in self._universe.runs:
            self._runs.setdefault(normalize_server_name(namespace), []).append((start, end))
        self._sets: dict[str, tuple[set[str], set[str]]] = {}

    def get(self, namespace: str) -> tuple[set[str], set[str]] | None:
        """The names and normalized names of the tools of a (normalized) namespace, or None."""
        found = self._sets.get(namespace)
        if found is None:
            runs = self._runs.get(namespace)
            if runs is None:
                return None
            universe = self._universe
            names: set[str] = set()
            normalized: set[str] = set()
            for start, end in runs:
                names.update(universe.names[start:end])
                normalized.update(universe.normalized_names(start, end))
            found = self._sets[namespace] = (names, normalized)
        return found


def _matches(index: _ToolsByNamespace, namespace: str, tool: str) -> bool:
    group = index.get(normalize_server_name(namespace))
    if group is None:
        return False
    names, normalized = group
    return tool == "*" or tool in names or normalize_tool_name(tool) in normalized


def _selected_tools_entries(pipeline: StepPipeline) -> list[Finding]:
    step = pipeline.step
    configs = step.step.agent_configs
    servers = {normalize_server_name(s) for s in configs.selected_servers} | set(configs.selected_servers)
    by_namespace = _ToolsByNamespace(pipeline)
    failed_servers = {normalize_server_name(s): s for s in pipeline.universe.server_errors}
    out = []
    for index, entry in enumerate(configs.selected_tools):
        where = step.where("selected_tools", index)
        if entry != entry.strip():
            out.append(
                Finding(
                    AgentWorksFinding.WHITESPACE_ENTRY,
                    f'"{entry}" has surrounding whitespace, which AgentWorks does not trim '
                    f'("tavily:* " is a specific entry for the tool "* ", not a wildcard)',
                    entry=entry,
                    source=where,
                    severity=Severity.WARNING,
                )
            )
        if ":" not in entry:
            out.append(
                Finding(
                    AgentWorksFinding.BARE_ENTRY,
                    f'"{entry}" has no namespace: it selects nothing but switches strict filtering on '
                    '(write "server:tool" or "server:*")',
                    entry=entry,
                    source=where,
                )
            )
            continue
        namespace, _, tool = entry.partition(":")
        failed = failed_servers.get(normalize_server_name(namespace))
        if failed is not None:
            # Its tools are unknown while it is down: whether the entry matches any cannot be said
            # (a dead_rule here would send the user hunting for a typo that is not there).
            if tool == "*":
                out.append(
                    Finding(
                        SharedFinding.MCP_OUTAGE,
                        f'selected_tools entry "{entry}" selects every tool of server "{failed}", which failed: '
                        "its tools are unknown, so whether the entry matches any is unknown (shown as one row, *)",
                        entry=entry,
                        source=where,
                        severity=Severity.WARNING,
                    )
                )
        matches = failed is not None or _matches(by_namespace, namespace, tool)
        retired = None if matches else _retired(pipeline, tool, entry, where)
        if retired is not None:
            out.append(retired)
        elif not matches:
            out.append(
                Finding(
                    AgentWorksFinding.DEAD_RULE,
                    f'selected_tools entry "{entry}" matches no tool in {pipeline.universe.source}',
                    entry=entry,
                    source=where,
                )
            )
        elif (
            configs.selected_servers
            and configs.selected_tools
            and namespace not in servers
            and normalize_server_name(namespace) not in servers
            and pipeline.universe.names_by_kind.get(ToolKind.MCP)
            and namespace not in pipeline.universe.categories
        ):
            out.append(
                Finding(
                    AgentWorksFinding.SERVER_NOT_SELECTED,
                    f'"{entry}" names server "{namespace}", which is not in selected_servers: '
                    "AgentWorks will not connect to it",
                    entry=entry,
                    source=where,
                    severity=Severity.WARNING,
                )
            )
    return out


def _retired(pipeline: StepPipeline, tool: str, entry: str, where: str) -> Finding | None:
    """``retired_tool``: an entry naming a tool AgentWorks retired (not a typo: no look-alike helps)."""
    from .checklist import retired_sentence

    sentence = retired_sentence(pipeline, tool)
    if sentence is None:
        return None
    return Finding(AgentWorksFinding.RETIRED_TOOL, f'"{entry}": {sentence}', tool=tool, entry=entry, source=where)


def _selected_servers_entries(pipeline: StepPipeline) -> list[Finding]:
    step = pipeline.step
    servers = step.step.agent_configs.selected_servers
    known = {namespace for _s, _e, namespace, kind, _p in pipeline.universe.runs if kind == ToolKind.MCP} | set(
        pipeline.universe.server_errors
    )
    known_norm = {normalize_server_name(s) for s in known}
    categories_norm = {normalize_server_name(c) for c in pipeline.universe.categories}
    out = []
    for index, server in enumerate(servers):
        where = step.where("selected_servers", index)
        if server == NO_SERVERS:
            if len(servers) > 1:
                out.append(
                    Finding(
                        AgentWorksFinding.NO_SERVERS_MIXED,
                        "NO_SERVERS mixed with server names is treated as an unknown server name "
                        "(it means zero servers only as the whole list)",
                        entry=server,
                        source=where,
                        severity=Severity.WARNING,
                    )
                )
            continue
        if (
            server not in known
            and normalize_server_name(server) not in known_norm
            and normalize_server_name(server) not in categories_norm
        ):
            out.append(
                Finding(
                    AgentWorksFinding.DEAD_RULE,
                    f'selected_servers entry "{server}" names no server in {pipeline.universe.source}',
                    entry=server,
                    source=where,
                )
            )
    return out


def _enabled_custom_entries(pipeline: StepPipeline) -> list[Finding]:
    step = pipeline.step
    custom_names = pipeline.universe.names_by_kind.get(ToolKind.CUSTOM, frozenset())
    # Built once, not per entry: a hostile list of millions of entries stays linear.
    by_category: dict[str, list[str]] = {}
    for start, end, namespace, kind, _plain in pipeline.universe.runs:
        if kind == ToolKind.CUSTOM:
            by_category.setdefault(namespace, []).extend(pipeline.universe.names[start:end])
    category_list = ", ".join(sorted(pipeline.universe.categories))
    out = []
    for index, entry in enumerate(step.step.agent_configs.enabled_custom_tools):
        where = step.where("enabled_custom_tools", index)
        if ":" not in entry:
            out.append(
                Finding(
                    AgentWorksFinding.BARE_ENTRY,
                    f'"{entry}" has no category: it enables nothing but makes the list strict '
                    '(write "category:tool" or "category:*")',
                    entry=entry,
                    source=where,
                )
            )
            continue
        category, _, tool = entry.partition(":")
        if tool == "*":
            registered = by_category.get(category, [])
            if category in pipeline.universe.category_tools and not pipeline.universe.category_tools[category]:
                named = ", ".join(f'"{category}:{name}"' for name in registered[:3])
                out.append(
                    Finding(
                        AgentWorksFinding.UNKNOWN_CATEGORY,
                        f'"{entry}" expands to nothing: the app expands category:* only for the categories '
                        f'getToolNamesByCategory knows, and the tools with display group "{category}" '
                        f"({', '.join(registered[:5])}{', …' if len(registered) > 5 else ''}) are registered but no wildcard expands to them; "
                        f"enable them by name ({named}{', …' if len(registered) > 3 else ''})",
                        entry=entry,
                        source=where,
                    )
                )
            elif category not in pipeline.universe.category_tools:
                out.append(
                    Finding(
                        AgentWorksFinding.UNKNOWN_CATEGORY,
                        f'"{entry}": unknown category "{category}" expands to nothing (categories: {category_list})',
                        entry=entry,
                        source=where,
                    )
                )
            continue
        retired = _retired(pipeline, tool, entry, where)
        if retired is not None and tool not in custom_names:
            out.append(retired)
            continue
        if tool not in custom_names:
            out.append(
                Finding(
                    AgentWorksFinding.DEAD_RULE,
                    f'enabled_custom_tools entry "{entry}" names no custom tool',
                    entry=entry,
                    source=where,
                )
            )
        elif category not in pipeline.universe.categories:
            out.append(
                Finding(
                    AgentWorksFinding.UNKNOWN_CATEGORY,
                    f'"{entry}": unknown category "{category}" (ignored: category:tool entries enable the '
                    "tool by name alone)",
                    entry=entry,
                    source=where,
                    severity=Severity.WARNING,
                )
            )
    return out
