"""The registry's modes, resolved (layer 2, the allow-list era): each mode's tools with the list
that allows them, aliases, the default and the fallback.

A ``modes`` block that contradicts itself (two modes differing in case, an alias of an unknown
mode, a ``@group`` that does not exist, a group listing ``@group``, an unknown default) adds a
``Problem`` each; ``build_universe`` raises them together. ``product_modes`` builds the same
table from product.yaml's chats (era C).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...model.errors import Problem
from .registry import Modes, RegistryModel


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


def build_mode_table(model: RegistryModel, problems: list[Problem]) -> ModeTable | None:
    """The registry's mode table (None without ``modes``); its contradictions are added to ``problems``."""
    modes = model.modes
    if modes is None:
        return None
    names = tuple(modes.lists)
    _check_names(modes, names, problems)
    allowed = {mode: _allowed_in(modes, mode, entries, problems) for mode, entries in modes.lists.items()}
    return ModeTable(
        modes=names,
        aliases=dict(modes.aliases),
        default=modes.default,
        fallback=modes.fallback,
        applies_to_mcp=modes.applies_to_mcp,
        system=frozenset(modes.system),
        allowed=allowed,
    )


def _check_names(modes: Modes, names: tuple[str, ...], problems: list[Problem]) -> None:
    """Mode names, groups, aliases, the default and the fallback that contradict each other."""
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
    _check_aliases(modes, names, lowered, problems)
    for key in ("default", "fallback"):
        value = getattr(modes, key)
        if value is not None and value not in modes.lists:
            problems.append(Problem(f"modes.{key}", f"unknown mode {value!r} (modes: {', '.join(names)})"))


def _check_aliases(modes: Modes, names: tuple[str, ...], lowered: set[str], problems: list[Problem]) -> None:
    """Aliases: empty, the same name twice (ignoring case), of an unknown mode, or a mode's own name."""
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


def _allowed_in(modes: Modes, mode: str, entries: tuple[str, ...], problems: list[Problem]) -> dict[str, str]:
    """Tool → the label of the first list that allows it in ``mode``: the system slice, then the mode's list."""
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
    return table
