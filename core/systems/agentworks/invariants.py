"""Invariant checks over the registry and the step, in the spirit of ``TestToolSetInvariants``.

Each finding names the entry and the file (with the path inside it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.enums import Severity, SharedFinding, ToolKind
from ...model.opt_in import NOT_STARTED_PREFIX, server_phrase
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
            SharedFinding.MCP_NOT_STARTED if reason.startswith(NOT_STARTED_PREFIX) else SharedFinding.MCP_OUTAGE,
            f"MCP {server_phrase(server, reason)}; its tools are unknown, not absent",
            entry=server,
            source=pipeline.universe.source,
            severity=Severity.WARNING if reason.startswith(NOT_STARTED_PREFIX) else Severity.ERROR,
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
    unknown = _not_started(pipeline)
    # A server not started may well register the name: then it is only a warning, and says so.
    why = f" (unless server {unknown} registers it: not started, its tools are unknown)" if unknown else ""
    return [
        Finding(
            AgentWorksFinding.ALLOW_LISTED_UNREGISTERED,
            f'allow-listed tool "{tool}" (mode {", ".join(ms)}) is registered nowhere in {source}{why}: '
            "it would be invisible through get_api_spec",
            tool=tool,
            source=where,
            severity=Severity.WARNING if unknown else Severity.ERROR,
        )
        for tool, ms in missing.items()
    ]


def _not_started(pipeline: StepPipeline) -> str:
    """The servers toolscope did not start (no --discover), comma-separated; "" when none."""
    errors = pipeline.universe.server_errors
    return ", ".join(f'"{s}"' for s, reason in errors.items() if reason.startswith(NOT_STARTED_PREFIX))


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
    check = _SelectedToolsCheck(pipeline)
    out = []
    for index, entry in enumerate(step.step.agent_configs.selected_tools):
        out += check.entry(entry, step.where("selected_tools", index))
    return out


class _SelectedToolsCheck:
    """What is wrong with one selected_tools entry (the indexes are built once for the list)."""

    def __init__(self, pipeline: StepPipeline) -> None:
        self.pipeline = pipeline
        self.configs = pipeline.step.step.agent_configs
        self.servers = {normalize_server_name(s) for s in self.configs.selected_servers} | set(
            self.configs.selected_servers
        )
        self.by_namespace = _ToolsByNamespace(pipeline)
        self.failed_servers = {normalize_server_name(s): s for s in pipeline.universe.server_errors}

    def entry(self, entry: str, where: str) -> list[Finding]:
        out = []
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
            return out
        namespace, _, tool = entry.partition(":")
        failed = self.failed_servers.get(normalize_server_name(namespace))
        not_started = failed is not None and self.pipeline.universe.server_errors[failed].startswith(NOT_STARTED_PREFIX)
        if failed is not None and tool == "*" and not not_started:
            out.append(_failed_server_wildcard(entry, failed, where))
        # A failed server's tools are unknown while it is down: whether the entry matches any
        # cannot be said (a dead_rule here would send the user hunting for a typo that is not there).
        if failed is None and not _matches(self.by_namespace, namespace, tool):
            out.append(_retired(self.pipeline, tool, entry, where) or self._dead(entry, where))
        elif self._names_unselected_server(namespace):
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

    def _dead(self, entry: str, where: str) -> Finding:
        return Finding(
            AgentWorksFinding.DEAD_RULE,
            f'selected_tools entry "{entry}" matches no tool in {self.pipeline.universe.source}',
            entry=entry,
            source=where,
        )

    def _names_unselected_server(self, namespace: str) -> bool:
        """A server entry AgentWorks will not connect to: both lists are set and the server is not selected."""
        universe = self.pipeline.universe
        return bool(
            self.configs.selected_servers
            and self.configs.selected_tools
            and namespace not in self.servers
            and normalize_server_name(namespace) not in self.servers
            and universe.names_by_kind.get(ToolKind.MCP)
            and namespace not in universe.categories
        )


def _failed_server_wildcard(entry: str, failed: str, where: str) -> Finding:
    return Finding(
        SharedFinding.MCP_OUTAGE,
        f'selected_tools entry "{entry}" selects every tool of server "{failed}", which failed: '
        "its tools are unknown, so whether the entry matches any is unknown (shown as one row, *)",
        entry=entry,
        source=where,
        severity=Severity.WARNING,
    )


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
    known = _KnownServers(pipeline)
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
        elif server not in known:
            out.append(
                Finding(
                    AgentWorksFinding.DEAD_RULE,
                    f'selected_servers entry "{server}" names no server in {pipeline.universe.source}',
                    entry=server,
                    source=where,
                )
            )
    return out


class _KnownServers:
    """The registry's MCP servers (failed ones too) and categories, as written and normalized."""

    def __init__(self, pipeline: StepPipeline) -> None:
        universe = pipeline.universe
        self.names = {namespace for _s, _e, namespace, kind, _p in universe.runs if kind == ToolKind.MCP} | set(
            universe.server_errors
        )
        self.normalized = {normalize_server_name(s) for s in self.names}
        self.categories = {normalize_server_name(c) for c in universe.categories}

    def __contains__(self, server: str) -> bool:
        normalized = normalize_server_name(server)
        return server in self.names or normalized in self.normalized or normalized in self.categories


def _enabled_custom_entries(pipeline: StepPipeline) -> list[Finding]:
    step = pipeline.step
    by_category = _custom_tools_by_category(pipeline)
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
            found = _category_wildcard(pipeline, entry, category, by_category.get(category, []), where)
        else:
            found = _named_custom_tool(pipeline, entry, category, tool, where)
        if found is not None:
            out.append(found)
    return out


def _custom_tools_by_category(pipeline: StepPipeline) -> dict[str, list[str]]:
    """Category → its registered custom tools; built once, not per entry: a hostile list of
    millions of entries stays linear."""
    by_category: dict[str, list[str]] = {}
    for start, end, namespace, kind, _plain in pipeline.universe.runs:
        if kind == ToolKind.CUSTOM:
            by_category.setdefault(namespace, []).extend(pipeline.universe.names[start:end])
    return by_category


def _category_wildcard(
    pipeline: StepPipeline, entry: str, category: str, registered: list[str], where: str
) -> Finding | None:
    """``category:*`` that expands to nothing: a display group no wildcard knows, or no category at all."""
    category_tools = pipeline.universe.category_tools
    if category in category_tools and not category_tools[category]:
        named = ", ".join(f'"{category}:{name}"' for name in registered[:3])
        return Finding(
            AgentWorksFinding.UNKNOWN_CATEGORY,
            f'"{entry}" expands to nothing: the app expands category:* only for the categories '
            f'getToolNamesByCategory knows, and the tools with display group "{category}" '
            f"({', '.join(registered[:5])}{', …' if len(registered) > 5 else ''}) are registered but no wildcard expands to them; "
            f"enable them by name ({named}{', …' if len(registered) > 3 else ''})",
            entry=entry,
            source=where,
        )
    if category not in category_tools:
        category_list = ", ".join(sorted(pipeline.universe.categories))
        return Finding(
            AgentWorksFinding.UNKNOWN_CATEGORY,
            f'"{entry}": unknown category "{category}" expands to nothing (categories: {category_list})',
            entry=entry,
            source=where,
        )
    return None


def _named_custom_tool(pipeline: StepPipeline, entry: str, category: str, tool: str, where: str) -> Finding | None:
    """``category:tool``: a retired tool, no such custom tool, or a category the app ignores."""
    custom_names = pipeline.universe.names_by_kind.get(ToolKind.CUSTOM, frozenset())
    if tool not in custom_names:
        return _retired(pipeline, tool, entry, where) or Finding(
            AgentWorksFinding.DEAD_RULE,
            f'enabled_custom_tools entry "{entry}" names no custom tool',
            entry=entry,
            source=where,
        )
    if category not in pipeline.universe.categories:
        return Finding(
            AgentWorksFinding.UNKNOWN_CATEGORY,
            f'"{entry}": unknown category "{category}" (ignored: category:tool entries enable the tool by name alone)',
            entry=entry,
            source=where,
            severity=Severity.WARNING,
        )
    return None
