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

Stage 1 is made by ``registered_stage``, stages 2-4 by ``later_stages``; this module puts rows together.
Stage objects are shared between tools decided by the same rule (a cache keyed by the
rule), and an evaluation holds each distinct row of stages once with a row number per
tool (``VerdictList``), which is what keeps a 50,000-tool universe fast.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

from ...model.enums import RuleCode, ToolKind
from ...model.verdicts import Stage, ToolVerdict, VerdictList
from .custom_filter import CustomDecision, filter_custom_tools
from .later_stages import (
    AllowGate,
    Label,
    LaterStages,
    Withheld,
    execution_mode,
)
from .mode_table import ModeTable
from .profile import EnabledEntry
from .registered_stage import RegisteredStage
from .registry import DenialTexts
from .selection_rewrite import SelectionRewrite, rewrite_selection
from .step_config import LoadedStep
from .tool_filter import DEFAULT_SYSTEM_CATEGORY_BASES, ToolFilter
from .universe import ToolEntry, Universe


@dataclass(frozen=True)
class ModeLabels:
    """What stage 2 reads in one mode: the mode's list, and which kinds of tool it gates."""

    allowed: Mapping[str, Label] | None
    """Tool name → label from the mode's list; None when the universe has no mode table."""
    gates_mcp: bool
    gates_virtual: bool
    mcp: Label
    """The label of MCP tools the list does not gate (withheld in the external view)."""

    def of(self, tool: ToolEntry, kind: str) -> Label:
        """One tool's label, for tools decided one by one."""
        if self.allowed is None:
            return AllowGate.NO_TABLE
        if kind == ToolKind.VIRTUAL and not self.gates_virtual:
            return AllowGate.VIRTUAL_NOT_GATED
        gated = kind != ToolKind.MCP or self.gates_mcp
        return self.allowed.get(tool.name) if gated else self.mcp


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
        self.stage1 = RegisteredStage(
            universe, step, self.rewrite, (self.filter, self.written_filter), self.custom, self.enabled_origin
        )
        """Makes stage 1 (the same in every mode)."""
        # Rule key -> (number, result): each distinct stage-1 result and each distinct
        # stages 2-4 triple is made once and numbered, so rows are keyed by two integers.
        self._later: dict[tuple, tuple[int, tuple[Stage, Stage, Stage]]] = {}

    def registered(self, tool: ToolEntry) -> Stage:
        """Stage 1 for one tool (shared Stage objects per deciding rule)."""
        return self.stage1.stage(tool)

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
        labels = self._mode_labels(mode)
        tools = self.universe.tools
        rows: list[tuple[Stage, ...]] = []
        row_numbers: dict[tuple[int, int], int] = {}
        numbered_registered = self.stage1.numbered
        later_stages = self._later_stages

        def row_number(tool: ToolEntry, label: Label) -> int:
            # A row is the pair (stage-1 result, stages 2-4): both numbered where they are made.
            reg_number, reg = numbered_registered(tool)
            later_number, later = later_stages(tool, reg, label, mode)
            number = row_numbers.get((reg_number, later_number))
            if number is None:
                number = row_numbers[reg_number, later_number] = len(rows)
                rows.append((reg, *later))
            return number

        row_of = [0] * len(tools)
        for start, end, namespace, kind, plain in self.universe.runs:
            if kind == ToolKind.MCP and plain and not labels.gates_mcp:
                label = AllowGate.NO_TABLE if labels.allowed is None else labels.mcp
                row_of[start:end] = self._mcp_run_rows(namespace, start, end, label, row_number)
            elif kind == ToolKind.CUSTOM and plain:
                row_of[start:end] = self._custom_run_rows(namespace, start, end, labels, row_number)
            else:
                for index in range(start, end):
                    row_of[index] = row_number(tools[index], labels.of(tools[index], kind))
        return rows, row_of

    def _mode_labels(self, mode: str | None) -> ModeLabels:
        """Stage 2's input for every tool in this mode: the mode's list (None: no mode table)."""
        table = self.universe.modes
        if table is None:
            return ModeLabels(None, gates_mcp=False, gates_virtual=True, mcp=AllowGate.NOT_GATED)
        allowed = _mode_list_labels(table, mode) if mode is not None else None
        mcp_held = table.mcp_withheld.get(mode) if mode is not None else None
        return ModeLabels(
            allowed,
            gates_mcp=bool(table.applies_to_mcp),
            gates_virtual=table.gates_virtual,
            mcp=Withheld(mcp_held) if mcp_held else AllowGate.NOT_GATED,
        )

    def _mcp_run_rows(
        self, namespace: str, start: int, end: int, label: Label, row_number: Callable[[ToolEntry, Label], int]
    ) -> list[int]:
        """Row numbers of one MCP server's tools, none of them gated by the mode's list."""
        tools = self.universe.tools
        decisions = self._filter_decisions(namespace, start, end)
        if decisions is None:  # the namespace decides every tool alike
            return [row_number(tools[start], label)] * (end - start)
        # Stage 1 depends only on the filter's decisions here: one row per distinct decision.
        row_by_decision: dict[Hashable, int] = {}
        for offset, decision in enumerate(decisions):
            if decision not in row_by_decision:
                row_by_decision[decision] = row_number(tools[start + offset], label)
        return [row_by_decision[d] for d in decisions]

    def _custom_run_rows(
        self, namespace: str, start: int, end: int, labels: ModeLabels, row_number: Callable[[ToolEntry, Label], int]
    ) -> list[int]:
        """Row numbers of one custom category's tools.

        A custom tool's row depends only on its custom decision, the filter's decisions for its
        category, and which list (if any) allows it."""
        tools = self.universe.tools
        custom = self.custom
        allowed = labels.allowed
        decisions = self._filter_decisions(namespace, start, end) or [0] * (end - start)
        row_by_key: dict[tuple[CustomDecision, Hashable, Label], int] = {}
        out = []
        for index, decision in enumerate(decisions, start):
            tool = tools[index]
            label = AllowGate.NO_TABLE if allowed is None else allowed.get(tool.name)
            key = (custom[tool.name], decision, label)
            row = row_by_key.get(key)
            if row is None:
                row = row_by_key[key] = row_number(tool, label)
            out.append(row)
        return out

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
        """Stages 2-4 for one tool and their number, shared between tools of the same case."""
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


def _mode_list_labels(table: ModeTable, mode: str) -> Mapping[str, Label]:
    """The mode's list: tool → the list that allows it; in the external view, tools of the list
    withheld anyway carry their reason as the label."""
    allowed: Mapping[str, Label] = table.allowed.get(mode, {})
    withheld = table.withheld.get(mode)
    if withheld:
        allowed = {**allowed, **{t: Withheld(why) for t, why in withheld.items()}}
    return allowed
