"""Stage 1 ("registered"): mcpagent's ``ToolFilter``, reproduced decision for decision.

Source: ``manishiitg/mcpagent`` ``agent/tool_filter.go`` @ ``81894a11`` (reference
§1, §10). ``should_include_tool`` follows the 8-step first-match order of §1.4;
``should_include_server`` follows §1.5. Every answer is a :class:`FilterDecision`
carrying a stable ``code`` (one per Go return path) and a sentence naming the
config entry that decided.

Decision codes of ``should_include_tool`` (step of §1.4 in brackets):

* ``virtual`` [1] include: virtual tools are always included.
* ``no_filtering`` [2] include: selected_tools and selected_servers both empty.
* ``system_category`` [3] include: system category with no specific entries.
* ``wildcard`` [4] include: an ``ns:*`` entry names the package.
* ``specific_match`` [5] include: an ``ns:tool`` entry names this tool.
* ``specific_miss`` [5] exclude: the package has ``ns:tool`` entries, none for this tool.
* ``selected_server`` [6] include: the package is in selected_servers.
* ``server_not_selected`` [6] exclude: selected_servers is set and does not name it.
* ``strict_exclude`` [7] exclude: only selected_tools is set and nothing names the package.
* ``default_include`` [8] include: unreachable in Go (needs both lists empty), kept for parity.

Decision codes of ``should_include_server``: ``no_filtering``, ``wildcard``,
``specific_entries``, ``selected_server``, ``server_not_selected`` (all exclude
only in the last case) and ``servers_unrestricted`` (selected_servers empty: true).

Per-package outcomes are cached and shared (they never depend on the tool name), so a
call is a couple of dict lookups; only packages with specific entries look at the tool.
``package_plan`` gives that per-package answer as a :class:`PackagePlan` for callers that
decide many tools of a package at once (the pipeline). The lists are parsed into Go's lookups
by ``filter_entries``; ``ShouldIncludeServer``'s decisions are ``server_filter``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .filter_decisions import (
    CODE_DEFAULT_INCLUDE,
    CODE_NO_FILTERING,
    CODE_SELECTED_SERVER,
    CODE_SERVER_NOT_SELECTED,
    CODE_SERVERS_UNRESTRICTED,
    CODE_SPECIFIC_ENTRIES,
    CODE_SPECIFIC_MATCH,
    CODE_SPECIFIC_MISS,
    CODE_STRICT_EXCLUDE,
    CODE_SYSTEM_CATEGORY,
    CODE_VIRTUAL,
    CODE_WILDCARD,
    FIELD_SELECTED_SERVERS,
    FIELD_SELECTED_TOOLS,
    FilterDecision,
    quote,
    quote_list,
)
from .filter_entries import SelectedEntries
from .names import (
    DEFAULT_SYSTEM_CATEGORY_BASES,
    normalize_server_name,
    normalize_tool_name,
    system_categories,
)
from .package_plan import PackagePlan
from .server_filter import NO_FILTERING, decide_server

__all__ = [
    "CODE_DEFAULT_INCLUDE",
    "CODE_NO_FILTERING",
    "CODE_SELECTED_SERVER",
    "CODE_SERVER_NOT_SELECTED",
    "CODE_SERVERS_UNRESTRICTED",
    "CODE_SPECIFIC_ENTRIES",
    "CODE_SPECIFIC_MATCH",
    "CODE_SPECIFIC_MISS",
    "CODE_STRICT_EXCLUDE",
    "CODE_SYSTEM_CATEGORY",
    "CODE_VIRTUAL",
    "CODE_WILDCARD",
    "FIELD_SELECTED_SERVERS",
    "FIELD_SELECTED_TOOLS",
    "FilterDecision",
    "PackagePlan",
    "ToolFilter",
    "quote",
]


_VIRTUAL = FilterDecision(True, CODE_VIRTUAL, "virtual tool, always included")


class ToolFilter:
    """mcpagent's ``ToolFilter`` built from ``selected_tools`` and ``selected_servers``.

    The client map and custom categories of ``NewToolFilter`` never change an answer
    (reference §10.4), so they are not parameters. ``NO_SERVERS`` is an ordinary name
    here (§10.2).
    """

    def __init__(
        self,
        selected_tools: Sequence[str],
        selected_servers: Sequence[str],
        system_category_bases: Iterable[str] = DEFAULT_SYSTEM_CATEGORY_BASES,
    ) -> None:
        self.entries = SelectedEntries(selected_tools, selected_servers)
        self.selected_tools = self.entries.selected_tools
        self.selected_servers = self.entries.selected_servers
        self.bare_entries = self.entries.bare_entries
        self._system = system_categories(system_category_bases)
        self._active = bool(self.selected_tools) or bool(self.selected_servers)
        self._package_plan: dict[str, PackagePlan] = {}
        self._match_decisions: dict[str, FilterDecision] = {}
        self._server_cache: dict[str, FilterDecision] = {}

    @property
    def filtering_active(self) -> bool:
        """``not IsNoFilteringActive()``: either list is non-empty (bare entries count)."""
        return self._active

    def is_system_category(self, package: str) -> bool:
        """``IsSystemCategory``: the normalized or raw package is a system category."""
        return normalize_server_name(package) in self._system or package in self._system

    def entries_for(self, package: str) -> tuple[str, ...]:
        """Verbatim selected_tools entries (wildcard or specific) that address ``package``."""
        return self.entries.entries_for(package)

    # -- ShouldIncludeTool ----------------------------------------------------------

    def should_include_tool(self, package: str, tool: str, is_virtual: bool = False) -> FilterDecision:
        """``ShouldIncludeTool(package, tool, isCustom, isVirtual)``, §1.4 steps 1-8."""
        if is_virtual:
            return _VIRTUAL
        plan = self.package_plan(package)
        if plan.uniform is not None:
            return plan.uniform
        return plan.decide(tool, normalize_tool_name(tool))

    def package_plan(self, package: str) -> PackagePlan:
        """How every tool of ``package`` is decided (built once per package and kept)."""
        plan = self._package_plan.get(package)
        if plan is None:
            plan = self._package_plan[package] = self._plan_package(package)
        return plan

    def _match_decision(self, entry: str) -> FilterDecision:
        """Step 5's include for a specific entry (one shared object per entry, across packages)."""
        decision = self._match_decisions.get(entry)
        if decision is None:
            decision = self._match_decisions[entry] = FilterDecision(
                True,
                CODE_SPECIFIC_MATCH,
                f"selected_tools entry {quote(entry)} names this tool (specific entries beat selected_servers)",
                entry,
                FIELD_SELECTED_TOOLS,
            )
        return decision

    def _plan_package(self, package: str) -> PackagePlan:
        """The tool-independent part of §1.4 for one package (steps 2-4, 6, 7), or step 5's lookup."""
        decision = self._package_decision(package)
        if isinstance(decision, PackagePlan):
            return decision
        return PackagePlan(decision)

    def _package_decision(self, package: str) -> FilterDecision | PackagePlan:
        """Steps 2-5: no filtering, a system category, a wildcard, specific entries."""
        if not self._active:
            return NO_FILTERING
        entries = self.entries
        norm_package = normalize_server_name(package)
        has_specific = norm_package in entries.specific_ns or package in entries.specific_ns
        system = norm_package in self._system or package in self._system
        # Step 3: a system category passes whole unless it has specific entries.
        if system and not has_specific:
            return FilterDecision(
                True,
                CODE_SYSTEM_CATEGORY,
                f"{quote(package)} is a system category with no specific selected_tools "
                "entries, so all its tools are included by default",
            )
        # Step 4: a wildcard beats specific entries for the same namespace.
        wildcard = entries.all_tools.get(norm_package) or entries.all_tools.get(package)
        if wildcard is not None:
            return FilterDecision(
                True,
                CODE_WILDCARD,
                f"selected_tools entry {quote(wildcard)} selects every tool of "
                f"{quote(package)} (a wildcard beats specific entries)",
                wildcard,
                FIELD_SELECTED_TOOLS,
            )
        # Step 5: specific entries decide alone; selected_servers is never consulted.
        if has_specific:
            return self._specific_plan(package, norm_package, system)
        return self._unnamed_package(package, norm_package)

    def _specific_plan(self, package: str, norm_package: str, system: bool) -> PackagePlan:
        """Step 5: the package's tools are looked up one by one among its specific entries."""
        specific = self.entries.specific_entries_for(package)
        kind = "system category" if system else "namespace"
        miss = FilterDecision(
            False,
            CODE_SPECIFIC_MISS,
            f"{kind} {quote(package)} has specific selected_tools entries "
            f"({', '.join(quote(e) for e in specific)}) and this tool is not one of them",
            specific[0] if specific else None,
            FIELD_SELECTED_TOOLS,
        )
        return PackagePlan(
            None,
            miss=miss,
            norm_prefix=norm_package + ":",
            raw_prefix=package + ":",
            tool_keys=self.entries.tool_keys,
            match=self._match_decision,
        )

    def _unnamed_package(self, package: str, norm_package: str) -> FilterDecision:
        """Steps 6-8: no selected_tools entry names the package."""
        # Step 6: selected_servers, custom and MCP packages alike.
        if self.selected_servers:
            server = self.entries.selected_server_entry(package, norm_package)
            if server is not None:
                return FilterDecision(
                    True,
                    CODE_SELECTED_SERVER,
                    f"selected_servers entry {quote(server)} names {quote(package)} "
                    "and no selected_tools entry restricts it",
                    server,
                    FIELD_SELECTED_SERVERS,
                )
            return FilterDecision(
                False,
                CODE_SERVER_NOT_SELECTED,
                f"{quote(package)} is not in selected_servers "
                f"{self.entries.quoted_servers()} and no selected_tools entry names it",
            )
        # Step 7: only selected_tools is set and it never names this package.
        if self.selected_tools:
            note = ""
            if self.bare_entries:
                note = (
                    f"; entries without ':' ({quote_list(self.bare_entries)}) select nothing but keep filtering strict"
                )
            return FilterDecision(
                False,
                CODE_STRICT_EXCLUDE,
                f"selected_tools is set and no entry names {quote(package)} (selected_servers is empty){note}",
            )
        # Step 8: unreachable (both lists empty returned at step 2).
        return FilterDecision(True, CODE_DEFAULT_INCLUDE, "no restriction applies")

    # -- ShouldIncludeServer --------------------------------------------------------

    def should_include_server(self, server: str) -> FilterDecision:
        """``ShouldIncludeServer(server)``, §1.5; no system-category exemption (§10.3)."""
        cached = self._server_cache.get(server)
        if cached is None:
            cached = decide_server(self.entries, server) if self._active else NO_FILTERING
            self._server_cache[server] = cached
        return cached
