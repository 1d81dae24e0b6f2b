"""AgentScope's three stages for every tool of a real Toolkit: registered, visible, callable.

- **registered**: the tool is in some group of ``toolkit.tool_groups`` (Python tools and
  the tools MCP clients list live; ``reset_tools`` is there once a non-basic group exists);
- **visible**: its group is active in ``state.tool_context.activated_groups`` (``basic``
  always), cross-checked with what ``toolkit.get_tool_schemas(groups)`` really returns;
- **callable**: the real ``PermissionEngine`` under the given ``PermissionMode`` with the
  state's rules, checked with an empty input (rules with content, such as Bash patterns,
  need a concrete call). ALLOW and ASK pass (ASK: the call parks until the user
  confirms, ``code="permission.ask"``); DENY fails.

Public API::

    MODES = ("default", "accept_edits", "explore", "bypass", "dont_ask")
    await acollect(toolkit) -> Collected                          # tools by group, MCP outages
    await aevaluate_tools(toolkit, state, mode, origins, collected) -> list[ToolRow]
        # origins: (group, tool name) -> where declared
    ToolRow(entry, verdict: ToolVerdict, decision_behavior, decision_message, decision_reason)
    activation_call(active, group) -> dict                        # the reset_tools args
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from ...model.enums import ToolKind
from ...model.verdicts import Stage, ToolVerdict
from .group_stages import GroupWords, member_stage, visible_stage
from .ids import AgentScopeStage

MODES = ("default", "accept_edits", "explore", "bypass", "dont_ask")
META = "reset_tools"


@dataclass(frozen=True)
class ToolEntry:
    """A tool as registered: its name, group, the ToolBase, and its kind."""

    name: str
    group: str
    tool: Any = field(repr=False, compare=False)
    kind: ToolKind
    description: str = ""
    skills: tuple[str, ...] = ()
    """The ``Skill`` tool's row of a group: the names of the group's skills (else empty)."""


@dataclass
class Collected:
    """Every registered tool, in group order, plus what could not be listed."""

    entries: list[ToolEntry]
    groups: list[Any]
    mcp_outages: list[tuple[str, str, str]]
    """(group, client name, error) for MCP clients whose list_tools failed."""


@dataclass(frozen=True)
class ToolRow:
    """A tool's verdict plus the permission decision behind its callable stage."""

    entry: ToolEntry
    verdict: ToolVerdict
    decision_behavior: str
    decision_message: str
    decision_reason: str | None


def activation_call(active: tuple[str, ...] | list[str], group: str) -> dict[str, bool]:
    """reset_tools sets the final state: keep the active groups and add ``group``."""
    return {name: True for name in dict.fromkeys([*active, group])}


MCP_LIST_TIMEOUT = 10.0
"""Seconds toolscope waits for one MCP client's list_tools."""


def outage_verdicts(collected: Collected, active: tuple[str, ...]) -> list[ToolVerdict]:
    """One row per MCP client whose list_tools failed: an outage, not a missing tool.

    AgentScope drops such a client's tools with a log warning, so a group can be active and
    empty; the row says so where the framework stays silent.
    """
    rows = []
    for group, client, error in collected.mcp_outages:
        state = "active but empty" if group == "basic" or group in active else "inactive, and empty even once activated"
        rule = f"group {state}: MCP client '{client}' failed: {error}"
        stages = (
            Stage(AgentScopeStage.REGISTERED, None, "mcp.outage", rule, entry=client),
            Stage(
                AgentScopeStage.VISIBLE,
                None,
                "mcp.outage",
                "its tools cannot be offered: AgentScope skipped the client with a warning",
                entry=client,
            ),
            Stage(
                AgentScopeStage.CALLABLE,
                None,
                "mcp.outage",
                "a call would get ToolNotFoundError (not ToolGroupInactiveError)",
                entry=client,
            ),
        )
        rows.append(ToolVerdict(f"mcp__{client}__*", group, ToolKind.MCP, stages, f"tools of MCP client '{client}'"))
    return rows


async def acollect(toolkit: Any) -> Collected:
    """List every group's tools (MCP clients asked live; failures recorded, not raised)."""
    entries: list[ToolEntry] = []
    outages = []
    groups = list(toolkit.tool_groups)
    if any(g.name != "basic" for g in groups):
        meta = toolkit.builtin_meta_tool.tool
        entries.append(ToolEntry(meta.name, "basic", meta, ToolKind.META, _first_line(meta.description)))
    for group in groups:
        for tool in group.tools:
            entries.append(ToolEntry(tool.name, group.name, tool, ToolKind.TOOL, _first_line(tool.description)))
        skills = await _skill_names(group)
        if skills:
            # AgentScope offers its Skill tool while a skill is in basic or an active group:
            # modelled as a tool of each group that holds skills (upstream toolkit_skill_test).
            viewer = toolkit.builtin_skill_viewer.tool
            shown = ", ".join(skills[:5]) + (f" and {len(skills) - 5} more" if len(skills) > 5 else "")
            entries.append(
                ToolEntry(viewer.name, group.name, viewer, ToolKind.TOOL, f"reads the skills {shown}", tuple(skills))
            )
        for client in getattr(group, "mcps", []) or []:
            try:
                # A hanging server must not hang toolscope: AgentScope itself has no timeout here.
                for tool in await asyncio.wait_for(client.list_tools(), MCP_LIST_TIMEOUT):
                    entries.append(ToolEntry(tool.name, group.name, tool, ToolKind.MCP, _first_line(tool.description)))
            except Exception as exc:  # AgentScope itself skips such a client with a warning
                from ...mcp.agentscope_clients import describe_exception

                outages.append((group.name, getattr(client, "name", "?"), describe_exception(exc)))
    return Collected(entries, groups, outages)


async def _skill_names(group: Any) -> list[str]:
    """The group's skills (a loader reads its folder); none on an AgentScope without skills."""
    list_skills = getattr(group, "list_skills", None)
    if list_skills is None:
        return []
    return [skill.name for skill in await list_skills()]


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


async def aevaluate_tools(
    toolkit: Any,
    state: Any,
    mode: str,
    origins: dict[tuple[str, str], str],
    collected: Collected,
) -> list[ToolRow]:
    """One ToolRow per registered tool, in group order."""
    from agentscope.permission import (
        PermissionContext,
        PermissionEngine,
        PermissionMode,
    )

    active = tuple(state.tool_context.activated_groups)
    schemas = await toolkit.get_tool_schemas(list(active))
    offered = {s["function"]["name"] for s in schemas}
    context = PermissionContext(
        mode=PermissionMode(mode),
        working_directories=dict(state.permission_context.working_directories),
        allow_rules=dict(state.permission_context.allow_rules),
        deny_rules=dict(state.permission_context.deny_rules),
        ask_rules=dict(state.permission_context.ask_rules),
    )
    engine = PermissionEngine(context)
    armed = any(g.name != "basic" for g in collected.groups)
    rows = []
    for entry in collected.entries:
        registered = _registered_stage(entry, origins)
        visible = visible_stage(entry, active, offered, armed, WORDS_2X)
        decision = await engine.check_permission(entry.tool, {})
        callable_ = _callable_stage(entry, mode, decision, context)
        verdict = ToolVerdict(
            name=entry.name,
            namespace=entry.group,
            kind=entry.kind,
            stages=(registered, visible, callable_),
            description=entry.description,
        )
        rows.append(ToolRow(entry, verdict, decision.behavior.value, decision.message or "", decision.decision_reason))
    return rows


def _registered_stage(entry: ToolEntry, origins: dict[tuple[str, str], str]) -> Stage:
    if entry.kind == ToolKind.META:
        return Stage(
            AgentScopeStage.REGISTERED,
            True,
            "meta.armed",
            "AgentScope's meta tool: registered automatically once a non-basic group exists",
            entry=entry.name,
            source="Toolkit.builtin_meta_tool",
        )
    source = origins.get((entry.group, entry.name))  # by group: a name can be in several
    via = " (listed live from its MCP client)" if entry.kind == ToolKind.MCP else ""
    if entry.skills:
        via = f": AgentScope's {entry.name} tool, offered for the group's skills ({', '.join(entry.skills[:5])})"
    return member_stage(entry, via, source)


class Words2x(GroupWords):
    """2.x: activation is the state's ``activated_groups``; ``reset_tools`` exists with any non-basic group."""

    schemas = "get_tool_schemas"
    missing_hint = " (another tool with this name overwrote it?)"
    always_on_source = always_on_missing_source = "state.tool_context.activated_groups"

    def always_on(self, entry: ToolEntry) -> str | None:
        if entry.kind == ToolKind.META:
            return "reset_tools is offered whenever a non-basic group exists"
        return super().always_on(entry)

    def state(self, group: str, active: tuple[str, ...], on: bool) -> tuple[str, str]:
        return f"activated_groups: {json.dumps(list(active))}", "state.tool_context.activated_groups"

    def how(self, group: str, active: tuple[str, ...], armed: bool) -> str:
        if not armed:
            return "reset_tools must activate it"
        return f"reset_tools must activate it: call reset_tools with {json.dumps(activation_call(active, group))}"


WORDS_2X = Words2x()


def _callable_stage(entry: ToolEntry, mode: str, decision: Any, context: Any) -> Stage:
    behavior = decision.behavior.value
    message = decision.message or ""
    reason = f" ({decision.decision_reason})" if decision.decision_reason else ""
    rule_source = _rule_source(entry.name, behavior, decision, context)
    if behavior == "allow":
        return Stage(
            AgentScopeStage.CALLABLE,
            True,
            "permission.allow",
            f"PermissionEngine in mode {mode}: allow: {message}{reason}",
            entry=entry.name,
            source=rule_source,
        )
    if behavior == "ask":
        return Stage(
            AgentScopeStage.CALLABLE,
            True,
            "permission.ask",
            f"PermissionEngine in mode {mode}: ask: each call waits for the user to confirm: {message}{reason}",
            entry=entry.name,
            source=rule_source,
        )
    return Stage(
        AgentScopeStage.CALLABLE,
        False,
        f"permission.{behavior}",
        f"PermissionEngine in mode {mode}: {behavior}: {message}{reason}",
        entry=entry.name,
        source=rule_source,
    )


def _rule_source(name: str, behavior: str, decision: Any, context: Any) -> str:
    """Where the decision came from: a permission rule in the state, or the tool/mode."""
    by_rule = (decision.decision_reason or "").startswith("Rule") or (
        behavior == "allow" and decision.message == f"Permission granted for {name}" and not decision.decision_reason
    )
    rules = {"allow": context.allow_rules, "deny": context.deny_rules, "ask": context.ask_rules}.get(behavior, {})
    if decision.decision_reason == "Read-only operations are auto-allowed":
        return f"{name}.check_read_only (the engine's read-only fast path)"
    if by_rule:
        for rule in rules.get(name, []):
            return f"permission_context.{behavior}_rules[{name!r}] (source: {rule.source})"
    return f"PermissionMode.{context.mode.name} / {name}.check_permissions"
