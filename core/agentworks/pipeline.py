"""The four AgentWorks gates for every tool of the universe, for one step and one mode.

1. registered — first the app's rewrite of ``selected_servers`` / ``selected_tools``
   against the workflow's servers (``selection_rewrite``); then custom tools:
   ``FilterCustomToolsByCategory`` over the effective ``enabled_custom_tools``, and every
   tool: ``ToolFilter.ShouldIncludeTool`` over the rewritten lists.
2. allow_listed — ``GetToolsForWorkshopMode(mode)``: system slice + the mode's list.
3. discoverable — code-execution providers find tools through the tool index and
   ``get_api_spec`` (custom tools gated by the allow-list, MCP tools by the server check);
   native providers get the allow-listed tool list.
4. callable — the execution gate: custom tools are checked against the allow-list
   (the era's denial text); MCP and virtual calls are not gated.

Stages 2-4 are made by ``later_stages``; this module decides stage 1 and puts rows together.
Stage objects are shared between tools decided by the same rule (a cache keyed by the
rule), and an evaluation holds each distinct row of stages once with a row number per
tool (``VerdictList``), which is what keeps a 50,000-tool universe fast.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace

from ..model.enums import RuleCode, StageId, ToolKind
from ..model.verdicts import Stage, ToolVerdict, VerdictList
from .custom_filter import CustomDecision, filter_custom_tools
from .filter_decisions import quote_list
from .later_stages import (
    AllowGate,
    Label,
    LaterStages,
    Withheld,
    execution_mode,
)
from .profile import EnabledEntry
from .registry import DenialTexts
from .selection_rewrite import WHERE, SelectionRewrite, rewrite_selection
from .step_config import LoadedStep
from .tool_filter import DEFAULT_SYSTEM_CATEGORY_BASES, FilterDecision, ToolFilter
from .universe import ToolEntry, Universe


class StepPipeline:
    """Evaluates tools of a universe for one step; reusable across modes."""

    def __init__(
        self,
        universe: Universe,
        step: LoadedStep,
        enabled: tuple[EnabledEntry, ...],
        denial_texts: DenialTexts | None = None,
        rewrite: SelectionRewrite | None = None,
    ) -> None:
        self.universe = universe
        self.denial_texts = denial_texts or DenialTexts()
        self.step = step
        self.enabled = enabled
        self.rewrite = rewrite or rewrite_selection(step, None, universe.source)
        """The app's rewrite of selected_servers/selected_tools: the filter sees its ``after`` lists."""
        bases = universe.system_category_bases
        self.system_bases = DEFAULT_SYSTEM_CATEGORY_BASES if bases is None else bases
        self.filter = ToolFilter(self.rewrite.tools.after, self.rewrite.servers.after, self.system_bases)
        configs = step.step.agent_configs
        self.written_filter = (
            ToolFilter(configs.selected_tools, configs.selected_servers, self.system_bases)
            if self.rewrite.changed
            else self.filter
        )
        """The filter as the step's lists are written (differs from ``filter`` only when the app rewrote them)."""
        self.enabled_origin: dict[str, str] = {}
        for item in enabled:
            self.enabled_origin.setdefault(item.entry, item.origin)
        custom_names = universe.names_by_kind.get(ToolKind.CUSTOM, frozenset())
        self.custom: dict[str, CustomDecision] = filter_custom_tools(
            [e.entry for e in enabled], universe.category_tools, custom_names
        )
        self.execution = execution_mode(universe, step)
        self.later = LaterStages(universe.source, self.execution, self.filter, universe.modes, universe.no_table)
        """Makes stages 2-4 (``_later_stages`` shares them between tools of the same case)."""
        # Rule key -> (number, result): each distinct stage-1 result and each distinct
        # stages 2-4 triple is made once and numbered, so rows are keyed by two integers.
        self._registered: dict[tuple, tuple[int, Stage]] = {}
        self._later: dict[tuple, tuple[int, tuple[Stage, Stage, Stage]]] = {}

    # -- stage 1 -------------------------------------------------------------
    def registered(self, tool: ToolEntry) -> Stage:
        """Stage 1 for one tool (shared Stage objects per deciding rule)."""
        return self._numbered_registered(tool)[1]

    def _numbered_registered(self, tool: ToolEntry) -> tuple[int, Stage]:
        if tool.kind == ToolKind.VIRTUAL:
            return self._share(
                ("v",),
                lambda: Stage(
                    StageId.REGISTERED,
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
                    StageId.REGISTERED,
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
                    StageId.REGISTERED,
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
                    StageId.REGISTERED,
                    False,
                    "mcp.duplicate",
                    f'duplicate name: server "{tool.duplicate_of}" registered a tool with this name first '
                    f'(first server wins; "{tool.namespace}"\'s copy is skipped)',
                    entry=tool.namespace,
                ),
            )
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

    def _entry_source(self, entry: str | None, field: str | None) -> str | None:
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
        source = self._entry_source(decision.entry, decision.field)
        return Stage(
            StageId.REGISTERED,
            decision.include,
            f"filter.{decision.code}",
            f"{decision.reason} ({source}){self._rewrite_part(decision, rewritten)}",
            entry=decision.entry,
            source=source,
        )

    def _custom_stage(self, custom: CustomDecision, decision: FilterDecision | None, rewritten: bool = False) -> Stage:
        origin = self.enabled_origin.get(custom.entry) if custom.entry else None
        custom_part = (
            f"{custom.reason} ({origin})" if origin else f"{custom.reason} ({self.step.where('enabled_custom_tools')})"
        )
        if decision is None:
            return Stage(
                StageId.REGISTERED,
                False,
                f"custom.{custom.code}",
                custom_part,
                entry=custom.entry,
                source=origin or self.step.where("enabled_custom_tools"),
            )
        source = self._entry_source(decision.entry, decision.field)
        if not decision.include:
            return Stage(
                StageId.REGISTERED,
                False,
                f"filter.{decision.code}",
                f"{custom_part}, but the tool filter excludes it: {decision.reason} ({source})"
                f"{self._rewrite_part(decision, rewritten)}",
                entry=decision.entry,
                source=source,
            )
        return Stage(
            StageId.REGISTERED,
            True,
            f"custom.{custom.code}+filter.{decision.code}",
            f"{custom_part}; tool filter: {decision.reason}{self._rewrite_part(decision, rewritten)}",
            entry=custom.entry,
            source=origin,
        )

    def _share(self, key: tuple, make: Callable[[], Stage]) -> tuple[int, Stage]:
        numbered = self._registered.get(key)
        if numbered is None:
            numbered = self._registered[key] = (len(self._registered), make())
        return numbered

    # -- stages 2-4 ------------------------------------------------------------
    def evaluate(self, mode: str | None) -> VerdictList:
        """Every tool's four stages in this (canonical) mode."""
        rows, row_of = self.stage_rows(mode)
        return VerdictList(self.universe.tools, rows, row_of)

    def stage_rows(self, mode: str | None) -> tuple[list[tuple[Stage, ...]], list[int]]:
        """The distinct rows of four stages, and each universe tool's row number, in universe order.

        Runs of tools whose namespace decides everything (an MCP server selected whole,
        excluded whole, or behind a wildcard) get one row; the others are decided tool by
        tool, with rows cached by the decisions that produced them.
        """
        table = self.universe.modes
        allowed: Mapping[str, Label] | None = (
            table.allowed.get(mode, {}) if table is not None and mode is not None else None
        )
        if allowed is not None and table is not None and table.withheld.get(mode or ""):
            # The external view: tools of the mode's list withheld anyway carry their reason as the label.
            allowed = {**allowed, **{t: Withheld(why) for t, why in table.withheld[mode or ""].items()}}
        gates_mcp = bool(table and table.applies_to_mcp)
        mcp_held = table.mcp_withheld.get(mode or "") if table is not None and allowed is not None else None
        mcp_label: Label = Withheld(mcp_held) if mcp_held else AllowGate.NOT_GATED
        tools = self.universe.tools
        rows: list[tuple[Stage, ...]] = []
        row_numbers: dict[tuple[int, int], int] = {}
        later_stages = self._later_stages

        def row_number(tool: ToolEntry, label: Label) -> int:
            # A row is the pair (stage-1 result, stages 2-4): both numbered where they are made.
            reg_number, reg = self._numbered_registered(tool)
            later_number, later = later_stages(tool, reg, label, mode)
            number = row_numbers.get((reg_number, later_number))
            if number is None:
                number = row_numbers[reg_number, later_number] = len(rows)
                rows.append((reg, *later))
            return number

        row_of = [0] * len(tools)
        label: Label
        for start, end, namespace, kind, plain in self.universe.runs:
            if kind == ToolKind.MCP and plain and not gates_mcp:
                label = AllowGate.NO_TABLE if allowed is None else mcp_label
                decisions = self._filter_decisions(namespace, start, end)
                if decisions is None:  # the namespace decides every tool alike
                    row_of[start:end] = [row_number(tools[start], label)] * (end - start)
                    continue
                # Stage 1 depends only on the filter's decisions here: one row per distinct decision.
                row_by_decision: dict[Hashable, int] = {}
                for offset, decision in enumerate(decisions):
                    if decision not in row_by_decision:
                        row_by_decision[decision] = row_number(tools[start + offset], label)
                row_of[start:end] = [row_by_decision[d] for d in decisions]
                continue
            if kind == ToolKind.CUSTOM and plain:
                # A custom tool's row depends only on its custom decision, the filter's
                # decisions for its category, and which list (if any) allows it.
                custom = self.custom
                decisions = self._filter_decisions(namespace, start, end) or [0] * (end - start)
                row_by_key: dict[tuple[CustomDecision, Hashable, Label], int] = {}
                for index, decision in enumerate(decisions, start):
                    tool = tools[index]
                    label = AllowGate.NO_TABLE if allowed is None else allowed.get(tool.name)
                    key = (custom[tool.name], decision, label)
                    row = row_by_key.get(key)
                    if row is None:
                        row = row_by_key[key] = row_number(tool, label)
                    row_of[index] = row
                continue
            for index in range(start, end):
                tool = tools[index]
                gated = kind != ToolKind.MCP or gates_mcp
                if allowed is None:
                    label = AllowGate.NO_TABLE
                elif kind == ToolKind.VIRTUAL and table is not None and not table.gates_virtual:
                    label = AllowGate.VIRTUAL_NOT_GATED
                else:
                    label = allowed.get(tool.name) if gated else mcp_label
                row_of[index] = row_number(tool, label)
        return rows, row_of

    def _filter_decisions(self, namespace: str, start: int, end: int) -> Sequence[Hashable] | None:
        """What decides stage 1 for each tool of a run besides its custom decision, as small keys:
        the filter's decision number and, where the app rewrote the lists, the number of the
        decision as the step is written too (it says whether the rewrite changed the answer).
        None when the namespace decides every tool alike."""
        plan = self.filter.package_plan(namespace)
        written = self.written_filter.package_plan(namespace) if self.written_filter is not self.filter else None
        if plan.uniform is not None and (written is None or written.uniform is not None):
            return None
        names = self.universe.names[start:end]
        normalized = self.universe.normalized_names(start, end)
        decisions = plan.decide_numbers(names, normalized)
        if written is None or written.uniform is not None:
            return decisions
        return list(zip(decisions, written.decide_numbers(names, normalized), strict=True))

    def _later_stages(
        self, tool: ToolEntry, reg: Stage, label: Label, mode: str | None
    ) -> tuple[int, tuple[Stage, Stage, Stage]]:
        server_ok: bool | None = None
        if tool.kind == ToolKind.MCP and self.execution.code_execution and reg.passed:
            server_ok = self.filter.should_include_server(tool.namespace).include
        key = (
            tool.kind,
            reg.passed,
            label,
            mode,
            server_ok,
            tool.namespace if tool.kind == ToolKind.MCP else None,
            tool.name == "get_api_spec",
        )
        numbered = self._later.get(key)
        if numbered is None:
            numbered = self._later[key] = (len(self._later), self.later.make(tool, reg, label, mode, server_ok))
        return numbered

    def denial(self, tool: str, mode: str | None) -> str:
        """The era's execution denial text for this tool."""
        return self.denial_texts.execution.replace("{tool}", tool).replace("{mode}", mode or "")

    def with_denial_text(self, verdict: ToolVerdict, mode: str | None) -> ToolVerdict:
        """The verdict with its callable stage quoting the exact denial text (for one tool's explanation)."""
        stages = tuple(
            replace(stage, rule=f"a call is refused with: {self.denial(verdict.name, mode)}")
            if stage.code == RuleCode.EXECUTION_DENIED
            else stage
            for stage in verdict.stages
        )
        return replace(verdict, stages=stages)
