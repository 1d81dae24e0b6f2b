"""The tool universe built from a registry: every tool, its kind and namespace, the
category expansion table and the resolved mode table (``mode_table``).

A registry that contradicts itself (an alias of an unknown mode, a ``@group`` that does
not exist, an alias category of an unknown category, …) is an ``InputError``.
Duplicated names are not errors here: they are reported by the invariant checks.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

from ...model.enums import ToolKind
from ...model.errors import InputError, Problem
from .mode_table import ModeTable, build_mode_table
from .names import normalize_tool_names
from .registry import EMPTY, CustomCategory, McpServer, RegistryModel, RetiredTool


class ToolEntry(NamedTuple):
    """One tool of the universe (immutable; a named tuple because a registry of 50,000
    tools creates 50,000 of them, three times faster than a frozen dataclass)."""

    name: str
    namespace: str
    """MCP server, custom display group, ``virtual``, or the other-registration label."""
    kind: ToolKind
    description: str = ""
    duplicate_of: str | None = None
    """For an MCP tool dropped because an earlier server has the same name: that server."""
    outage: str | None = None
    """For a tool expected from a server that failed discovery: the reason."""


@dataclass(frozen=True)
class Universe:
    """Everything the registry says, ready for evaluation."""

    source: str
    """The registry file name, for rule sentences."""
    tools: tuple[ToolEntry, ...]
    category_tools: Mapping[str, tuple[str, ...]]
    """What ``category:*`` expands to, aliases included."""
    categories: frozenset[str]
    system_category_bases: tuple[str, ...] | None
    modes: ModeTable | None
    code_execution_providers: frozenset[str]
    names_by_kind: Mapping[str, frozenset[str]] = field(default_factory=dict)
    server_errors: Mapping[str, str] = field(default_factory=dict)
    """MCP servers that failed discovery → reason (empty for static registries)."""
    duplicates: tuple[tuple[str, str, str], ...] = ()
    """(tool, first definition, second definition) for names defined twice."""
    names: tuple[str, ...] = ()
    """Every tool's name, in universe order (hot path)."""
    _normalized: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    no_table: str | None = None
    """Why no allow-list applies, when the registry has no mode table (its era says why)."""
    era: str = "allow_list"
    """The era of layer 2 the registry models (``era.Era``'s value)."""
    retired: Mapping[str, RetiredTool] = field(default_factory=dict)
    """Retired tool names → replacement (registry ``retired_tools``)."""
    runs: tuple[tuple[int, int, str, str, bool], ...] = ()
    """(start, end, namespace, kind, plain) for each run of consecutive tools with the same
    namespace and kind; ``plain`` when none of them is a duplicate or an outage entry.
    The pipeline decides namespace-level rules once per run."""

    def normalized_names(self, start: int, end: int) -> tuple[str, ...]:
        """``normalize_tool_name`` of the tools ``start:end`` (a run), computed once per run and only
        for the runs that need it (packages with specific selected_tools entries)."""
        found = self._normalized.get((start, end))
        if found is None:
            found = self._normalized[start, end] = normalize_tool_names(self.names[start:end])
        return found

    def all_names(self) -> frozenset[str]:
        """Every tool name in the universe."""
        return self._name_set

    @functools.cached_property
    def _name_set(self) -> frozenset[str]:
        return frozenset(self.names)

    def tools_of(self, kinds: Sequence[ToolKind] | None) -> Iterator[ToolEntry]:
        """The tools of these kinds (all tools for None), in universe order, a run at a time."""
        if kinds is None:
            yield from self.tools
            return
        for start, end, _namespace, kind, _plain in self.runs:
            if kind in kinds:
                yield from self.tools[start:end]


def build_universe(
    model: RegistryModel,
    source: str,
    discovered: Mapping[str, McpServer] | None = None,
    server_errors: Mapping[str, str] | None = None,
    expected: Mapping[str, tuple[str, ...]] | None = None,
) -> Universe:
    """Resolve a registry model into a Universe.

    ``discovered`` replaces the static MCP servers; for servers in ``server_errors`` the
    tools in ``expected`` (the step's ``selected_tools`` for that server) become entries
    whose stage 1 is unknown: an outage, not a missing row.
    """
    problems: list[Problem] = []
    built = _UniverseTools()
    servers = discovered if discovered is not None else dict(model.mcp_servers)
    errors = dict(server_errors or {})
    _add_servers(built, servers, errors, expected or {})
    expansion = built.add_custom_categories(dict(model.custom_tools), problems)
    built.add(model.virtual_tools, "virtual", ToolKind.VIRTUAL, EMPTY)
    built.define_all(model.virtual_tools, "virtual_tools")
    for label, other in model.other_tools.items():
        built.add(other, label, ToolKind.OTHER, EMPTY)
        built.define_all(other, f"other_tools.{label}")

    mode_table = build_mode_table(model, problems)
    if problems:
        raise InputError(source, "the registry contradicts itself", problems)
    runs = _runs(built.blocks)
    by_kind: dict[str, set[str]] = {}
    for start, end, _namespace, kind, _plain in runs:
        by_kind.setdefault(kind, set()).update(built.names[start:end])
    return Universe(
        source=source,
        tools=tuple(built.tools),
        runs=runs,
        names=tuple(built.names),
        category_tools=expansion,
        categories=frozenset(expansion),
        system_category_bases=model.system_categories,
        modes=mode_table,
        code_execution_providers=frozenset(p.strip().lower() for p in model.code_execution_providers),
        names_by_kind={k: frozenset(v) for k, v in by_kind.items()},
        server_errors=errors,
        duplicates=tuple(built.duplicates),
        retired=dict(model.retired_tools),
    )


def _add_servers(
    built: _UniverseTools,
    servers: Mapping[str, McpServer],
    errors: Mapping[str, str],
    expected: Mapping[str, tuple[str, ...]],
) -> None:
    """Every server's tools, then an outage entry for each expected tool a failed server did not list."""
    for server, spec in servers.items():
        built.add_server(server, spec)
    for server, reason in errors.items():
        listed = servers.get(server, McpServer()).tools
        built.add_outage_entries(server, [t for t in expected.get(server, ()) if t not in listed], reason)


class _UniverseTools:
    """The tools in universe order (MCP servers first), the names defined twice, and the blocks of
    tools appended together, while a universe is built."""

    def __init__(self) -> None:
        self.tools: list[ToolEntry] = []
        self.names: list[str] = []
        self.duplicates: list[tuple[str, str, str]] = []
        # First definition of every name: MCP names by their first server (mcp_owner, filled
        # first: MCP servers come first in a universe), all other names by their place.
        self.mcp_owner: dict[str, str] = {}
        self.defined: dict[str, str] = {}
        self.blocks: list[tuple[int, int, str, ToolKind, bool]] = []
        """(start, end, namespace, kind, plain) of each block of tools appended together."""

    def add(self, registered: Sequence[str], namespace: str, kind: ToolKind, descriptions: Mapping[str, str]) -> None:
        """A block of tools with no duplicate among them (the bulk of a large registry)."""
        # Entries made by C-level calls, no Python frame per tool.
        tools = self.tools
        start = len(tools)
        described = map(descriptions.get, registered, repeat("")) if descriptions else repeat("")
        tools.extend(
            map(
                ToolEntry._make, zip(registered, repeat(namespace), repeat(kind), described, repeat(None), repeat(None))
            )
        )
        self.names.extend(registered)
        self.blocks.append((start, len(tools), namespace, kind, True))

    def define_all(self, registered: Sequence[str], where: str) -> None:
        """Record where non-MCP names are defined; a name defined before is a duplicate."""
        mcp_owner, defined = self.mcp_owner, self.defined
        fresh = dict.fromkeys(registered, where)
        if len(fresh) == len(registered) and mcp_owner.keys().isdisjoint(fresh) and defined.keys().isdisjoint(fresh):
            defined.update(fresh)  # the common case: no name defined before
            return
        for name in registered:
            owner = mcp_owner.get(name)
            if owner is not None:
                self.duplicates.append((name, f"mcp_servers.{owner}", where))
            elif name in defined:
                self.duplicates.append((name, defined[name], where))
            else:
                defined[name] = where

    def add_server(self, server: str, spec: McpServer) -> None:
        """One MCP server's tools; a name an earlier server has is kept as a duplicate entry (first wins)."""
        owned = dict.fromkeys(spec.tools, server)
        if len(owned) == len(spec.tools) and self.mcp_owner.keys().isdisjoint(owned):
            self.add(spec.tools, server, ToolKind.MCP, spec.descriptions)  # the common case: no name seen before
            self.mcp_owner.update(owned)
            return
        where = f"mcp_servers.{server}"
        tools = self.tools
        start = len(tools)
        for tool in spec.tools:
            first = self.mcp_owner.get(tool)
            description = spec.descriptions.get(tool, "") if spec.descriptions else ""
            tools.append(ToolEntry(tool, server, ToolKind.MCP, description, first))
            self.names.append(tool)
            if first is None:
                self.mcp_owner[tool] = server
            else:
                self.duplicates.append((tool, f"mcp_servers.{first}", where))
        self.blocks.append((start, len(tools), server, ToolKind.MCP, not any(t.duplicate_of for t in tools[start:])))

    def add_outage_entries(self, server: str, tools: Sequence[str], reason: str) -> None:
        """Tools the step expects from a server that failed discovery, each its own entry."""
        for tool in tools:
            self.blocks.append((len(self.tools), len(self.tools) + 1, server, ToolKind.MCP, False))
            self.tools.append(ToolEntry(tool, server, ToolKind.MCP, outage=reason))
            self.names.append(tool)

    def add_custom_categories(
        self, categories: Mapping[str, CustomCategory], problems: list[Problem]
    ) -> dict[str, tuple[str, ...]]:
        """Every plain category's tools; returns what each ``category:*`` expands to, aliases included."""
        expansion: dict[str, tuple[str, ...]] = {}
        for name, cat in categories.items():
            if cat.alias_of:
                if cat.tools or cat.also_registered:
                    problems.append(
                        Problem(f"custom_tools.{name}", "an alias category (alias_of) cannot list tools of its own")
                    )
                continue
            expansion[name] = cat.tools
            registered = (*cat.tools, *cat.also_registered)
            self.add(registered, name, ToolKind.CUSTOM, cat.descriptions)
            self.define_all(registered, f"custom_tools.{name}")
        for name, cat in categories.items():
            if cat.alias_of:
                expansion[name] = _alias_expansion(name, cat.alias_of, categories, expansion, problems)
        return expansion


def _alias_expansion(
    name: str,
    targets: Sequence[str],
    categories: Mapping[str, CustomCategory],
    expansion: Mapping[str, tuple[str, ...]],
    problems: list[Problem],
) -> tuple[str, ...]:
    """An alias category's tools: its plain targets' tools, in order, each once."""
    merged: list[str] = []
    for target in targets:
        if target in categories and categories[target].alias_of:
            problems.append(
                Problem(
                    f"custom_tools.{name}.alias_of",
                    f"{target!r} is itself an alias: alias_of must name plain categories",
                )
            )
            continue
        if target not in expansion:
            problems.append(Problem(f"custom_tools.{name}.alias_of", f"unknown category {target!r}"))
            continue
        merged.extend(t for t in expansion[target] if t not in merged)
    return tuple(merged)


def _runs(blocks: list[tuple[int, int, str, ToolKind, bool]]) -> tuple[tuple[int, int, str, str, bool], ...]:
    """Consecutive blocks with the same namespace and kind merged into one run (empty blocks dropped)."""
    runs: list[tuple[int, int, str, str, bool]] = []
    for start, end, namespace, kind, plain in blocks:
        if start == end:
            continue
        if runs and runs[-1][2] == namespace and runs[-1][3] == kind and runs[-1][1] == start:
            runs[-1] = (runs[-1][0], end, namespace, kind, runs[-1][4] and plain)
        else:
            runs.append((start, end, namespace, kind, plain))
    return tuple(runs)
