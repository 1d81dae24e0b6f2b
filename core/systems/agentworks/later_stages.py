"""Stages 2-4 of the AgentWorks pipeline (allow_listed, discoverable, callable) for one tool.

Built once per distinct case (a tool's kind, its stage 1, the list that allows it, the
mode, its server's discovery answer) by ``StepPipeline``, which shares the results between
every tool of that case.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ...model.enums import ToolKind
from ...model.verdicts import Stage
from .ids import AgentWorksStage
from .mode_table import ModeTable
from .step_config import LoadedStep
from .tool_filter import ToolFilter
from .universe import ToolEntry, Universe

__all__ = ["DENIED_RULE", "AllowGate", "ExecutionMode", "Label", "LaterStages", "Withheld", "execution_mode"]

DENIED_RULE = (
    "a call is refused: the execution gate (CallCustomToolWithSession) answers tools outside "
    "the allow-list with the era's denial text (registry denial_texts.execution)"
)


class AllowGate(Enum):
    """Why a tool's allow-list stage has no list label: the registry has no mode table, or
    the table does not gate MCP tools. A plain Enum, so it never equals a real list label
    (a list could be called "no-table")."""

    NO_TABLE = "no-table"
    NOT_GATED = "not-gated"
    VIRTUAL_NOT_GATED = "virtual-not-gated"


@dataclass(frozen=True)
class Withheld:
    """A tool a list would allow, withheld anyway, and why (product.yaml's external denylist,
    MCP tools of a chat without mcp_management)."""

    why: str


Label = str | AllowGate | Withheld | None
"""The allow-list that lets a tool through in a mode, an AllowGate, a Withheld, or None (no list does)."""


@dataclass(frozen=True)
class ExecutionMode:
    """How the step's agent reaches tools."""

    code_execution: bool
    why: str


def execution_mode(universe: Universe, step: LoadedStep) -> ExecutionMode:
    """Code-execution mode is forced for CLI providers, else the step's own setting."""
    configs = step.step.agent_configs
    provider = (configs.execution_llm.provider if configs.execution_llm else None) or ""
    if provider.strip().lower() in universe.code_execution_providers:
        return ExecutionMode(
            True, f'provider "{provider}" is a code-execution (CLI) provider: tools are reached through get_api_spec'
        )
    if configs.use_code_execution_mode:
        where = step.where("use_code_execution_mode")
        return ExecutionMode(True, f"use_code_execution_mode is true ({where}): tools are reached through get_api_spec")
    shown = f'provider "{provider}"' if provider else "no execution_llm.provider"
    return ExecutionMode(False, f"{shown}, use_code_execution_mode off: tools are offered natively")


class LaterStages:
    """Makes stages 2-4 for a step: the registry file for sentences, the execution mode, the filter."""

    def __init__(
        self,
        source: str,
        execution: ExecutionMode,
        tool_filter: ToolFilter,
        table: ModeTable | None = None,
        no_table: str | None = None,
    ) -> None:
        self.source = source
        self.no_table = no_table
        """The sentence for "no allow-list applies" (the registration-only era says why)."""
        self.execution = execution
        self.filter = tool_filter
        self.table = table

    def make(
        self, tool: ToolEntry, reg: Stage, label: Label, mode: str | None, server_ok: bool | None
    ) -> tuple[Stage, Stage, Stage]:
        src = self.source
        if label is AllowGate.NO_TABLE:
            allow = Stage(
                AgentWorksStage.ALLOW_LISTED,
                True,
                "mode.no_table",
                self.no_table or f"{src} has no mode table: no allow-list applies",
                source=src,
            )
        elif label is AllowGate.NOT_GATED:
            custom = self.table.mcp_sentence.get(mode or "") if self.table is not None else None
            allow = Stage(
                AgentWorksStage.ALLOW_LISTED,
                True,
                "mode.mcp_not_gated",
                custom
                or f"MCP tools are not gated by the workshop-mode allow-list ({src}: modes.applies_to_mcp is false)",
                source=src,
            )
        elif label is AllowGate.VIRTUAL_NOT_GATED:
            allow = Stage(
                AgentWorksStage.ALLOW_LISTED,
                True,
                "mode.virtual_not_gated",
                "virtual tools are injected by mcpagent itself, not admitted by the product manifest's lists",
                source=src,
            )
        elif isinstance(label, Withheld):
            allow = Stage(AgentWorksStage.ALLOW_LISTED, False, "mode.withheld", label.why, source=src)
        elif label is not None:
            allow = Stage(AgentWorksStage.ALLOW_LISTED, True, "mode.listed", f"allowed by {label} ({src})", source=src)
        else:
            custom = self.table.not_listed.get(mode or "") if self.table is not None else None
            allow = Stage(
                AgentWorksStage.ALLOW_LISTED,
                False,
                "mode.not_listed",
                custom
                or f'not in the system slice nor in mode "{mode}"\'s list ({src}: modes.system, modes.lists.{mode})',
                source=src,
            )
        return (allow, self._discoverable(tool, reg, allow, server_ok), self._callable(tool, reg, allow, mode))

    def _discoverable(self, tool: ToolEntry, reg: Stage, allow: Stage, server_ok: bool | None) -> Stage:
        if reg.passed is None:
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                None,
                "discovery.outage",
                "unknown: its server failed, so get_api_spec reports an outage for it",
            )
        if reg.passed is not True:
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                False,
                "discovery.not_registered",
                "not registered, so neither the tool index nor get_api_spec can list it",
            )
        if not self.execution.code_execution:
            if allow.passed:
                return Stage(
                    AgentWorksStage.DISCOVERABLE,
                    True,
                    "discovery.native",
                    f"offered in the native tool list ({self.execution.why})",
                )
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                False,
                "discovery.native_blocked",
                f"the allow-list filters the native tool list each turn too ({self.execution.why})",
            )
        if tool.kind == ToolKind.MCP:
            decision = self.filter.should_include_server(tool.namespace)
            if not decision.include:
                return Stage(
                    AgentWorksStage.DISCOVERABLE,
                    False,
                    "discovery.server_excluded",
                    f"get_api_spec / the tool index skip this server: {decision.reason}",
                    entry=decision.entry,
                )
            if not allow.passed:
                return Stage(
                    AgentWorksStage.DISCOVERABLE,
                    False,
                    "discovery.not_allowed",
                    "the allow-list also gates MCP tools in the tool index",
                )
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                True,
                "discovery.server_included",
                f'in the tool index under server "{tool.namespace}" ({decision.reason}); {self.execution.why}',
            )
        if tool.kind == ToolKind.VIRTUAL and tool.name != "get_api_spec":
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                False,
                "discovery.virtual_cut",
                "in code-execution mode the native list keeps only get_api_spec of the virtual tools, "
                f"and the tool index skips virtual tools ({self.execution.why})",
            )
        if not allow.passed:
            return Stage(
                AgentWorksStage.DISCOVERABLE,
                False,
                "discovery.not_allowed",
                "the mode's allow-list also gates discovery: the tool index and get_api_spec will not list it "
                f"(code_execution_tools.go; {self.execution.why})",
            )
        where = "the native list" if tool.kind == ToolKind.VIRTUAL else "the tool index and get_api_spec"
        return Stage(
            AgentWorksStage.DISCOVERABLE, True, "discovery.listed", f"listed in {where} ({self.execution.why})"
        )

    def _callable(self, tool: ToolEntry, reg: Stage, allow: Stage, mode: str | None) -> Stage:
        if reg.passed is None:
            return Stage(
                AgentWorksStage.CALLABLE,
                None,
                "execution.outage",
                "unknown: its server failed, so a call has nothing to reach",
            )
        if reg.passed is not True:
            return Stage(
                AgentWorksStage.CALLABLE, False, "execution.not_registered", "not registered: a call cannot reach it"
            )
        if tool.kind == ToolKind.MCP:
            return Stage(
                AgentWorksStage.CALLABLE,
                True,
                "execution.mcp_not_gated",
                "MCP calls are not gated by the allow-list (only the discovery checks apply)",
            )
        if tool.kind == ToolKind.VIRTUAL:
            return Stage(
                AgentWorksStage.CALLABLE,
                True,
                "execution.virtual_not_gated",
                "virtual tool calls are not gated by the allow-list",
            )
        if allow.passed:
            return Stage(
                AgentWorksStage.CALLABLE,
                True,
                "execution.allowed",
                "the execution gate (CallCustomToolWithSession) lets it through",
            )
        # Shared by every denied tool (no tool name in it); `denial()` gives the exact text
        # for one tool, and `with_denial_text()` puts it into a single tool's stage.
        return Stage(AgentWorksStage.CALLABLE, False, "execution.denied", DENIED_RULE)
