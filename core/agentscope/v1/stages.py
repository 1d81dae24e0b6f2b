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

from ...model.enums import RuleCode, StageId, ToolKind
from ...model.verdicts import Stage, ToolVerdict
from ..stages import ToolEntry, ToolRow, activation_call
from .build import META, BuiltToolkitV1, is_meta

AGENTSCOPE1_STAGES: tuple[StageId, ...] = (StageId.REGISTERED, StageId.VISIBLE)
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
        stages = (_registered(entry, built.origins), _visible(entry, active, names, armed))
        verdict = ToolVerdict(entry.name, entry.group, entry.kind, stages, entry.description)
        rows.append(ToolRow(entry, verdict, "n/a", "AgentScope 1.x has no permission engine", None))
    return rows


def _registered(entry: ToolEntry, origins: dict[tuple[str, str], str]) -> Stage:
    if entry.kind == ToolKind.META:
        return Stage(
            StageId.REGISTERED,
            True,
            "meta.registered",
            "AgentScope 1.x's meta tool, registered in basic (ReActAgent(enable_meta_tool=True) or by hand)",
            entry=entry.name,
            source=f"toolkit.tools['{META}']",
        )
    where = f"group '{entry.group}'" if entry.group != "basic" else "the basic group"
    via = " (from an MCP client)" if entry.kind == ToolKind.MCP else ""
    source = origins.get((entry.group, entry.name)) or f"toolkit.tools['{entry.name}']"
    return Stage(
        StageId.REGISTERED, True, "group.member", f"registered in {where}{via}", entry=entry.group, source=source
    )


def _visible(entry: ToolEntry, active: tuple[str, ...], names: set[str], armed: bool) -> Stage:
    flag = f"toolkit.groups['{entry.group}'].active"
    if entry.group == "basic":
        rule = "group 'basic' is always active"
        if entry.name not in names:
            return Stage(
                StageId.VISIBLE,
                None,
                "schema.missing",
                f"{rule}, but get_json_schemas() does not list it",
                entry="basic",
                source="toolkit.get_json_schemas()",
            )
        return Stage(StageId.VISIBLE, True, "group.basic", rule, entry="basic", source="toolkit.tools")
    if entry.group in active:
        if entry.name not in names:
            return Stage(
                StageId.VISIBLE,
                None,
                "schema.missing",
                f"group '{entry.group}' is active but get_json_schemas() does not list '{entry.name}'",
                entry=entry.group,
                source=flag,
            )
        return Stage(
            StageId.VISIBLE,
            True,
            "group.active",
            f"group '{entry.group}' is active ({flag} is True)",
            entry=entry.group,
            source=flag,
        )
    if armed:
        how = f"reset_equipped_tools must activate it: call reset_equipped_tools with {json.dumps(activation_call(active, entry.group))}"
    else:
        how = f"and the model cannot switch groups at all: reset_equipped_tools is not registered ({ARM_HINT})"
    return Stage(
        StageId.VISIBLE,
        False,
        RuleCode.GROUP_INACTIVE,
        f"group '{entry.group}' is not active ({flag} is False); {how}",
        entry=entry.group,
        source=flag,
    )
