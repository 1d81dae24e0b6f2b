"""Stage 1, registered: whether AgentWorks registers a tool for the step, and why in its words.

Virtual tools always; other registrations whatever the step says; a failed MCP server's tools
unknown; a duplicate name skipped (first server wins). Custom tools pass
``FilterCustomToolsByCategory`` over the effective ``enabled_custom_tools`` first; then every
tool passes ``ToolFilter.ShouldIncludeTool`` over the lists as the app rewrote them, and the
sentence says so where the rewrite changed the answer. Each distinct result is made once per
deciding rule and numbered: tools decided by the same rule share one ``Stage``.
"""

from __future__ import annotations

from collections.abc import Callable

from ...model.enums import ToolKind
from ...model.verdicts import Stage
from .custom_filter import CustomDecision
from .filter_decisions import quote_list
from .ids import AgentWorksStage
from .selection_rewrite import WHERE, SelectionRewrite
from .step_config import LoadedStep
from .tool_filter import FilterDecision, ToolFilter
from .universe import ToolEntry, Universe


class RegisteredStage:
    """Stage 1 for the tools of one universe and one step (the same in every mode)."""

    def __init__(
        self,
        universe: Universe,
        step: LoadedStep,
        rewrite: SelectionRewrite,
        filters: tuple[ToolFilter, ToolFilter],
        custom: dict[str, CustomDecision],
        enabled_origin: dict[str, str],
    ) -> None:
        """``filters``: the filter over the rewritten lists, and over the lists as written (the same
        object when the app did not rewrite them)."""
        self.universe, self.step, self.rewrite = universe, step, rewrite
        self.filter, self.written_filter = filters
        self.custom, self.enabled_origin = custom, enabled_origin
        # Rule key -> (number, result): each distinct result is made once and numbered.
        self._numbers: dict[tuple, tuple[int, Stage]] = {}

    def stage(self, tool: ToolEntry) -> Stage:
        """Stage 1 for one tool (shared Stage objects per deciding rule)."""
        return self.numbered(tool)[1]

    def numbered(self, tool: ToolEntry) -> tuple[int, Stage]:
        """Stage 1 for one tool and its rule's number (rows are keyed by it)."""
        fixed = self._regardless_of_step(tool)
        if fixed is not None:
            return fixed
        if tool.kind == ToolKind.CUSTOM:
            custom = self.custom[tool.name]
            if not custom.include:
                return self._share(
                    ("c", custom.code, custom.reason, custom.entry), lambda: self._custom_stage(custom, None)
                )
        else:
            custom = None
        decision = self.filter.should_include_tool(tool.namespace, tool.name)
        # The rewrite is part of the rule only where it changed the answer for this tool.
        rewritten = False
        if self.written_filter is not self.filter:
            written = self.written_filter.should_include_tool(tool.namespace, tool.name)
            rewritten = written.include != decision.include
        key = (
            "f",
            custom.reason if custom else None,
            decision.include,
            decision.code,
            decision.reason,
            decision.entry,
            rewritten,
        )
        return self._share(
            key,
            lambda: (
                self._custom_stage(custom, decision, rewritten) if custom else self._filter_stage(decision, rewritten)
            ),
        )

    def _regardless_of_step(self, tool: ToolEntry) -> tuple[int, Stage] | None:
        """Tools the step's lists do not decide: virtual, other registrations, a failed server's, duplicates."""
        if tool.kind == ToolKind.VIRTUAL:
            return self._share(
                ("v",),
                lambda: Stage(
                    AgentWorksStage.REGISTERED,
                    True,
                    "filter.virtual",
                    f"virtual tool ({self.universe.source}: virtual_tools): always included (ShouldIncludeTool step 1)",
                    source=self.universe.source,
                ),
            )
        if tool.kind == ToolKind.OTHER:
            return self._share(
                ("o", tool.namespace),
                lambda: Stage(
                    AgentWorksStage.REGISTERED,
                    True,
                    "other_registration",
                    f'registered by "{tool.namespace}" ({self.universe.source}: other_tools); the step\'s filters do not apply',
                    source=self.universe.source,
                ),
            )
        if tool.outage is not None:
            return self._share(
                ("out", tool.namespace),
                lambda: Stage(
                    AgentWorksStage.REGISTERED,
                    None,
                    "mcp.outage",
                    f'unknown: server "{tool.namespace}" failed: {tool.outage}',
                    entry=tool.namespace,
                ),
            )
        if tool.duplicate_of is not None:
            return self._share(
                ("dup", tool.duplicate_of, tool.namespace),
                lambda: Stage(
                    AgentWorksStage.REGISTERED,
                    False,
                    "mcp.duplicate",
                    f'duplicate name: server "{tool.duplicate_of}" registered a tool with this name first '
                    f'(first server wins; "{tool.namespace}"\'s copy is skipped)',
                    entry=tool.namespace,
                ),
            )
        return None

    def _entry_source(self, entry: str | None, field: str | None) -> str | None:
        """Where the deciding entry was written (its origin when the app added it), else the step file."""
        if entry is None or field is None:
            return self.step.file_name
        listed = self.rewrite.list_for(field)
        return listed.origins.get(entry) or self.step.where(field)

    def _rewrite_part(self, decision: FilterDecision, rewritten: bool) -> str:
        """What the app did to the lists, when that changed this tool's answer (the stage-1 sub-step)."""
        if not rewritten:
            return ""
        parts = []
        for field in ("selected_servers", "selected_tools"):
            listed = self.rewrite.list_for(field)
            if listed.changed:
                parts.append(f"{field} {quote_list(listed.before)} → {quote_list(listed.after)}")
        if not parts:
            return ""
        written = "excluded" if decision.include else "included"
        return (
            f"; as the step is written the tool would be {written}, but the app rewrote its lists before the filter "
            f"({'; '.join(parts)}; {WHERE})"
        )

    def _filter_stage(self, decision: FilterDecision, rewritten: bool = False) -> Stage:
        """A tool the tool filter alone decides."""
        source = self._entry_source(decision.entry, decision.field)
        return Stage(
            AgentWorksStage.REGISTERED,
            decision.include,
            f"filter.{decision.code}",
            f"{decision.reason} ({source}){self._rewrite_part(decision, rewritten)}",
            entry=decision.entry,
            source=source,
        )

    def _custom_stage(self, custom: CustomDecision, decision: FilterDecision | None, rewritten: bool = False) -> Stage:
        """A custom tool: its category decision, then (``decision``, when it passed) the tool filter's."""
        origin = self.enabled_origin.get(custom.entry) if custom.entry else None
        custom_part = (
            f"{custom.reason} ({origin})" if origin else f"{custom.reason} ({self.step.where('enabled_custom_tools')})"
        )
        if decision is None:
            return Stage(
                AgentWorksStage.REGISTERED,
                False,
                f"custom.{custom.code}",
                custom_part,
                entry=custom.entry,
                source=origin or self.step.where("enabled_custom_tools"),
            )
        source = self._entry_source(decision.entry, decision.field)
        if not decision.include:
            return Stage(
                AgentWorksStage.REGISTERED,
                False,
                f"filter.{decision.code}",
                f"{custom_part}, but the tool filter excludes it: {decision.reason} ({source})"
                f"{self._rewrite_part(decision, rewritten)}",
                entry=decision.entry,
                source=source,
            )
        return Stage(
            AgentWorksStage.REGISTERED,
            True,
            f"custom.{custom.code}+filter.{decision.code}",
            f"{custom_part}; tool filter: {decision.reason}{self._rewrite_part(decision, rewritten)}",
            entry=custom.entry,
            source=origin,
        )

    def _share(self, key: tuple, make: Callable[[], Stage]) -> tuple[int, Stage]:
        """The numbered result for this rule key, made on first use."""
        numbered = self._numbers.get(key)
        if numbered is None:
            numbered = self._numbers[key] = (len(self._numbers), make())
        return numbered
