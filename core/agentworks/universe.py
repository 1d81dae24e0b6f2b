"""The tool universe built from a registry: every tool, its kind and namespace, the
category expansion table and the resolved mode table.

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

from ..model.enums import ToolKind
from ..model.errors import InputError, Problem
from .names import normalize_tool_names
from .registry import EMPTY, McpServer, RegistryModel, RetiredTool


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
class ModeTable:
    """The allow-lists, resolved: each mode's tools with the list that allows them."""

    modes: tuple[str, ...]
    aliases: Mapping[str, str]
    default: str | None
    fallback: str | None
    applies_to_mcp: bool
    system: frozenset[str]
    allowed: Mapping[str, Mapping[str, str]]
    """mode → tool → label of the list that allows it (first one wins)."""
    exact: bool = False
    """Mode names match exactly (product.yaml's chats: ``ChatTools`` looks the mode up as given)."""
    withheld: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """mode → tool → why a tool of the mode's list is withheld anyway (the external view's denylist)."""
    not_listed: Mapping[str, str] = field(default_factory=dict)
    """mode → the sentence for a tool no list allows (default: the system slice and modes.lists)."""
    mcp_sentence: Mapping[str, str] = field(default_factory=dict)
    """mode → why MCP tools pass layer 2 (default: modes.applies_to_mcp is false)."""
    mcp_withheld: Mapping[str, str] = field(default_factory=dict)
    """mode → why MCP tools are withheld in that mode (product.yaml: no mcp_management)."""
    unknown_note: str | None = None
    """What an unknown mode name means to AgentWorks (product.yaml: a panic)."""
    product: str | None = None
    """The product.yaml file name, when the table is its chats (era C)."""
    gates_virtual: bool = True
    """Whether the lists gate virtual tools (product.yaml does not: mcpagent injects them)."""

    def canonical(self, mode: str) -> str | None:
        """Canonical mode for a name (case-insensitive, trimmed), or None when unknown."""
        if self.exact:
            return mode if mode in self.modes else None
        key = mode.strip().lower()
        for name in self.modes:
            if name.lower() == key:
                return name
        for alias, target in self.aliases.items():
            if alias.lower() == key:
                return target
        if key and self.fallback:
            return self.fallback
        return None


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
    tools: list[ToolEntry] = []
    names: list[str] = []
    duplicates: list[tuple[str, str, str]] = []
    # First definition of every name: MCP names by their first server (mcp_owner, filled
    # first: MCP servers come first in a universe), all other names by their place.
    mcp_owner: dict[str, str] = {}
    defined: dict[str, str] = {}
    # (start, end, namespace, kind, plain) of each block of tools appended together.
    blocks: list[tuple[int, int, str, ToolKind, bool]] = []

    def define_all(registered: Sequence[str], where: str) -> None:
        fresh = dict.fromkeys(registered, where)
        if len(fresh) == len(registered) and mcp_owner.keys().isdisjoint(fresh) and defined.keys().isdisjoint(fresh):
            defined.update(fresh)  # the common case: no name defined before
            return
        for name in registered:
            owner = mcp_owner.get(name)
            if owner is not None:
                duplicates.append((name, f"mcp_servers.{owner}", where))
            elif name in defined:
                duplicates.append((name, defined[name], where))
            else:
                defined[name] = where

    def add(registered: Sequence[str], namespace: str, kind: ToolKind, descriptions: Mapping[str, str]) -> None:
        # The bulk of a large registry: entries made by C-level calls, no Python frame per tool.
        start = len(tools)
        described = map(descriptions.get, registered, repeat("")) if descriptions else repeat("")
        tools.extend(
            map(
                ToolEntry._make, zip(registered, repeat(namespace), repeat(kind), described, repeat(None), repeat(None))
            )
        )
        names.extend(registered)
        blocks.append((start, len(tools), namespace, kind, True))

    servers = discovered if discovered is not None else dict(model.mcp_servers)
    for server, spec in servers.items():
        owned = dict.fromkeys(spec.tools, server)
        if len(owned) == len(spec.tools) and mcp_owner.keys().isdisjoint(owned):
            add(spec.tools, server, ToolKind.MCP, spec.descriptions)  # the common case: no name seen before
            mcp_owner.update(owned)
            continue
        where = f"mcp_servers.{server}"
        start = len(tools)
        for tool in spec.tools:
            first = mcp_owner.get(tool)
            description = spec.descriptions.get(tool, "") if spec.descriptions else ""
            tools.append(ToolEntry(tool, server, ToolKind.MCP, description, first))
            names.append(tool)
            if first is None:
                mcp_owner[tool] = server
            else:
                duplicates.append((tool, f"mcp_servers.{first}", where))
        blocks.append((start, len(tools), server, ToolKind.MCP, not any(t.duplicate_of for t in tools[start:])))
    errors = dict(server_errors or {})
    for server, reason in errors.items():
        for tool in (expected or {}).get(server, ()):
            if tool not in servers.get(server, McpServer()).tools:
                blocks.append((len(tools), len(tools) + 1, server, ToolKind.MCP, False))
                tools.append(ToolEntry(tool, server, ToolKind.MCP, outage=reason))
                names.append(tool)

    categories = dict(model.custom_tools)
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
        add(registered, name, ToolKind.CUSTOM, cat.descriptions)
        define_all(registered, f"custom_tools.{name}")
    for name, cat in categories.items():
        if not cat.alias_of:
            continue
        merged: list[str] = []
        for target in cat.alias_of:
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
        expansion[name] = tuple(merged)

    add(model.virtual_tools, "virtual", ToolKind.VIRTUAL, EMPTY)
    define_all(model.virtual_tools, "virtual_tools")
    for label, other in model.other_tools.items():
        add(other, label, ToolKind.OTHER, EMPTY)
        define_all(other, f"other_tools.{label}")

    mode_table = _build_modes(model, problems)
    if problems:
        raise InputError(source, "the registry contradicts itself", problems)
    runs = _runs(blocks)
    by_kind: dict[str, set[str]] = {}
    for start, end, _namespace, kind, _plain in runs:
        by_kind.setdefault(kind, set()).update(names[start:end])
    return Universe(
        source=source,
        tools=tuple(tools),
        runs=runs,
        names=tuple(names),
        category_tools=expansion,
        categories=frozenset(expansion),
        system_category_bases=model.system_categories,
        modes=mode_table,
        code_execution_providers=frozenset(p.strip().lower() for p in model.code_execution_providers),
        names_by_kind={k: frozenset(v) for k, v in by_kind.items()},
        server_errors=errors,
        duplicates=tuple(duplicates),
        retired=dict(model.retired_tools),
    )


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


def _build_modes(model: RegistryModel, problems: list[Problem]) -> ModeTable | None:
    modes = model.modes
    if modes is None:
        return None
    names = tuple(modes.lists)
    lowered: set[str] = set()
    for name in names:
        if name.lower() in lowered:
            problems.append(Problem(f"modes.lists.{name}", "two modes differ only in case (mode names ignore case)"))
        lowered.add(name.lower())
    for group, members in modes.groups.items():
        for index, member in enumerate(members):
            if member.startswith("@"):
                problems.append(
                    Problem(
                        f"modes.groups.{group}[{index}]",
                        f"{member!r}: groups list tools; only mode lists can use @group",
                    )
                )
    seen_aliases: dict[str, str] = {}
    for alias, target in modes.aliases.items():
        if not alias.strip():
            problems.append(Problem("modes.aliases", "an alias name is empty"))
        if alias.lower() in seen_aliases:
            problems.append(
                Problem(
                    f"modes.aliases.{alias}",
                    f"is the same name as alias {seen_aliases[alias.lower()]!r} (aliases ignore case)",
                )
            )
        seen_aliases.setdefault(alias.lower(), alias)
        if target not in modes.lists:
            problems.append(
                Problem(f"modes.aliases.{alias}", f"aliases unknown mode {target!r} (modes: {', '.join(names)})")
            )
        if alias.lower() in lowered:
            problems.append(Problem(f"modes.aliases.{alias}", "is also a mode name"))
    for key in ("default", "fallback"):
        value = getattr(modes, key)
        if value is not None and value not in modes.lists:
            problems.append(Problem(f"modes.{key}", f"unknown mode {value!r} (modes: {', '.join(names)})"))
    allowed: dict[str, dict[str, str]] = {}
    for mode, entries in modes.lists.items():
        table: dict[str, str] = {}
        for tool in modes.system:
            table.setdefault(tool, "the system slice (modes.system)")
        for index, entry in enumerate(entries):
            if entry.startswith("@"):
                group = entry[1:]
                if group not in modes.groups:
                    problems.append(Problem(f"modes.lists.{mode}[{index}]", f"unknown group {entry!r}"))
                    continue
                for tool in modes.groups[group]:
                    table.setdefault(tool, f'group "{group}" of mode "{mode}" (modes.lists.{mode})')
            else:
                table.setdefault(entry, f'mode "{mode}"\'s list (modes.lists.{mode})')
        allowed[mode] = table
    return ModeTable(
        modes=names,
        aliases=dict(modes.aliases),
        default=modes.default,
        fallback=modes.fallback,
        applies_to_mcp=modes.applies_to_mcp,
        system=frozenset(modes.system),
        allowed=allowed,
    )
