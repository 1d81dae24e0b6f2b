"""AgentScope 1.x's stages for every tool of a real 1.x Toolkit: registered and visible.

- **registered**: the tool is in ``toolkit.tools`` (with its ``group``; ``basic`` is the
  implicit default). The meta tool ``reset_equipped_tools`` is a row only when registered;
- **visible**: ``basic``, or ``toolkit.groups[group].active`` — cross-checked with what
  ``toolkit.get_json_schemas()`` really returns for that activation;
- there is no **callable** stage: 1.x has no permission engine (``call_tool_function``
  checks only that the tool exists and that its group is active). ``CALLABLE_NOTE`` says
  so, once, in the evaluation's notes — not as a pass on every row.

Evaluating another activation than the toolkit's own flips the flags with
``load_state_dict`` for the length of one ``get_json_schemas`` call and puts them back.

Public API::

    AGENTSCOPE1_STAGES = (registered, visible);  CALLABLE_NOTE
    collect(toolkit) -> list[ToolEntry]
    evaluate(built, groups) -> list[ToolRow]
    offered(built, groups) -> list[dict]            # get_json_schemas() for that activation
    meta_armed(toolkit) -> bool;  ARM_HINT
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ....model.enums import StageId, ToolKind
from ....model.verdicts import Stage, ToolVerdict
from ..group_stages import GroupWords, member_stage, visible_stage
from ..ids import AgentScopeStage
from ..stages import ToolEntry, ToolRow, activation_call
from .build import META, BuiltToolkitV1, is_meta

AGENTSCOPE1_STAGES: tuple[StageId, ...] = (AgentScopeStage.REGISTERED, AgentScopeStage.VISIBLE)
CALLABLE_NOTE = (
    "callable: AgentScope 1.x has no permission engine; call_tool_function only checks that the tool "
    "exists and that its group is active, so every visible tool can be called (no --mode)"
)
ARM_HINT = (
    "arm it with ReActAgent(..., enable_meta_tool=True) or toolkit.register_tool_function(toolkit.reset_equipped_tools)"
)


def meta_armed(toolkit: Any) -> bool:
    """The toolkit's own reset_equipped_tools is registered (the model can switch groups)."""
    tool = toolkit.tools.get(META)
    return tool is not None and is_meta(tool, toolkit)


def collect(toolkit: Any) -> list[ToolEntry]:
    """Every registered tool function, in registration order (``toolkit.tools``)."""
    entries = []
    for name, tool in toolkit.tools.items():
        if is_meta(tool, toolkit):
            kind = ToolKind.META
        elif getattr(tool, "source", "") == "mcp_server":
            kind = ToolKind.MCP
        else:
            kind = ToolKind.TOOL
        description = (tool.json_schema.get("function", {}).get("description") or "").strip()
        entries.append(ToolEntry(name, tool.group, tool, kind, description.splitlines()[0] if description else ""))
    return entries


def offered(built: BuiltToolkitV1, groups: Sequence[str]) -> list[dict[str, Any]]:
    """``get_json_schemas()`` with exactly ``groups`` active; the toolkit's flags are restored."""
    saved = built.active()
    built.set_groups(groups)
    try:
        return list(built.toolkit.get_json_schemas())
    finally:
        built.set_groups(saved)


def evaluate(built: BuiltToolkitV1, groups: Sequence[str]) -> list[ToolRow]:
    """One ToolRow per registered tool for this activation."""
    toolkit = built.toolkit
    active = tuple(g for g in groups if g in toolkit.groups)
    names = {s["function"]["name"] for s in offered(built, active)}
    armed = meta_armed(toolkit)
    rows = []
    for entry in collect(toolkit):
        stages = (_registered(entry, built.origins), visible_stage(entry, active, names, armed, WORDS_1X))
        verdict = ToolVerdict(entry.name, entry.group, entry.kind, stages, entry.description)
        rows.append(ToolRow(entry, verdict, "n/a", "AgentScope 1.x has no permission engine", None))
    return rows


def _registered(entry: ToolEntry, origins: dict[tuple[str, str], str]) -> Stage:
    if entry.kind == ToolKind.META:
        return Stage(
            AgentScopeStage.REGISTERED,
            True,
            "meta.registered",
            "AgentScope 1.x's meta tool, registered in basic (ReActAgent(enable_meta_tool=True) or by hand)",
            entry=entry.name,
            source=f"toolkit.tools['{META}']",
        )
    via = " (from an MCP client)" if entry.kind == ToolKind.MCP else ""
    return member_stage(entry, via, origins.get((entry.group, entry.name)) or f"toolkit.tools['{entry.name}']")


class Words1x(GroupWords):
    """1.x: activation is each group's ``active`` flag on the Toolkit; the meta tool may not be registered."""

    schemas = "get_json_schemas()"
    always_on_source = "toolkit.tools"
    always_on_missing_source = "toolkit.get_json_schemas()"

    def state(self, group: str, active: tuple[str, ...], on: bool) -> tuple[str, str]:
        flag = f"toolkit.groups['{group}'].active"
        return f"{flag} is {on}", flag

    def how(self, group: str, active: tuple[str, ...], armed: bool) -> str:
        if armed:
            call = json.dumps(activation_call(active, group))
            return f"reset_equipped_tools must activate it: call reset_equipped_tools with {call}"
        return f"and the model cannot switch groups at all: reset_equipped_tools is not registered ({ARM_HINT})"


WORDS_1X = Words1x()
