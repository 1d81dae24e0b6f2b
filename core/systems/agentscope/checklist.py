"""The ``explain`` checklist of one tool of an AgentScope toolkit: registered, visible,
callable, name clashes, and the one change that fixes the first failing stage.

Split out of ``subject.py`` (``ToolkitSubject.checklist`` delegates here).

Public API::

    toolkit_checklist(subject: ToolkitSubject, tool: str, mode: str | None, active_groups=None) -> Checklist
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.counts import count_of
from ...model.presentation import ANSWER_WORD
from ...model.verdicts import Checklist, ChecklistStep
from ...text.suggest import close_matches
from .ids import AgentScopeStage
from .stages import ToolRow, activation_call

if TYPE_CHECKING:
    from .subject import ToolkitSubject


def toolkit_checklist(
    subject: ToolkitSubject, tool: str, mode: str | None, active_groups: Sequence[str] | None = None
) -> Checklist:
    """Why ``tool`` (or ``group:tool``) passes or fails each stage, and the fix.

    ``active_groups`` asks about another activation state than the initial one (see
    ``ToolkitSubject.rows``), e.g. the activation view's guarded lane after a turn.
    """
    mode = subject.resolve_mode(mode) or "default"
    all_rows = subject.rows(mode, active_groups)
    rows = [r for r in all_rows if r.entry.name == tool]
    if not rows and ":" in tool:
        group, _, name = tool.partition(":")
        rows = [r for r in all_rows if r.entry.name == name and r.entry.group == group]
    if not rows:
        return _unknown_checklist(subject, tool, mode)
    row = rows[-1]  # AgentScope's later registration wins a name clash
    entry, verdict = row.entry, row.verdict
    registered, visible, callable_ = verdict.stages
    steps = [
        ChecklistStep(
            f"Is '{entry.name}' registered in a group of the Toolkit?",
            "yes",
            True,
            tuple(e for e in (registered.rule, registered.source and f"declared at {registered.source}") if e),
        )
    ]
    active = subject.active_groups() if active_groups is None else tuple(g for g in active_groups if g != "basic")
    if entry.group == "basic":
        question = "Is its group active? ('basic' is always active)"
    else:
        question = f"Is group '{entry.group}' active in the agent state?"
    steps.append(
        ChecklistStep(
            question,
            ANSWER_WORD[visible.passed],
            visible.passed,
            (visible.rule, f"state.tool_context.activated_groups = {json.dumps(list(active))}"),
        )
    )
    steps.append(
        ChecklistStep(
            f"Does the PermissionEngine allow calling it in mode {mode}?",
            row.decision_behavior,
            callable_.passed,
            tuple(e for e in (callable_.rule, callable_.source) if e),
        )
    )
    if len(rows) > 1:
        steps.append(
            ChecklistStep(
                "Is the name unique across groups?",
                "no",
                False,
                (
                    f"also in group(s): {', '.join(r.entry.group for r in rows[:-1])}; AgentScope keeps the last one registered",
                ),
            )
        )
    return Checklist(tool=tool, mode=mode, verdict=verdict, steps=tuple(steps), fix=_fix(row, mode, active))


def _fix(row: ToolRow, mode: str, active: Sequence[str]) -> str | None:
    """The one change that makes the first failing stage pass."""
    failing = row.verdict.first_failing
    if failing is None:
        return None
    name = row.entry.name
    if failing.name == AgentScopeStage.VISIBLE and failing.passed is False:
        call = json.dumps(activation_call(tuple(active), row.entry.group))
        return (
            f"call reset_tools with {call} (it sets the final state: groups not named are "
            f"deactivated), or start the agent with '{row.entry.group}' in "
            f"state.tool_context.activated_groups"
        )
    if failing.name == AgentScopeStage.VISIBLE:
        return f"find why get_tool_schemas does not list '{name}' although its group is active (a tool with the same name in another group?)"
    reason = row.decision_reason or ""
    if reason.startswith("Rule"):
        return f"remove the deny rule for '{name}' from state.permission_context.deny_rules ({failing.source})"
    if mode == "explore":
        return f"explore mode only allows read-only tools: use --mode default or accept_edits, or mark '{name}' read-only (is_read_only / read_only: true in a spec)"
    if mode == "dont_ask":
        return (
            f"add an allow rule: PermissionRule(tool_name={name!r}, rule_content=None, behavior=PermissionBehavior.ALLOW, "
            f"source=...) in state.permission_context.allow_rules (in a spec: permissions: {{allow: [{name}]}})"
        )
    return f"'{name}'.check_permissions returns deny: change the tool's permission (a spec's 'permission:')"


def _unknown_checklist(subject: ToolkitSubject, tool: str, mode: str) -> Checklist:
    """The checklist of a name no group registers (did-you-mean, group hint)."""
    names = subject.all_tool_names()
    close = close_matches(tool, names, n=3)
    evidence = [f"registered tools: {len(names)} in {count_of(len(subject.toolkit.tool_groups), 'group')}"]
    if tool in subject.group_names():
        evidence.append(
            f"'{tool}' is a group, not a tool; its tools: "
            + ", ".join(r.entry.name for r in subject.rows(mode) if r.entry.group == tool)
        )
    outages = subject.mcp_outages()
    if outages:
        # A failed client's tools cannot be listed, so a missing name is most likely one of
        # them: an outage, not a tool to register (AgentScope only logs a warning).
        prefixed = [o for o in outages if tool.startswith(f"mcp__{o[1]}__")]
        failed = prefixed or outages
        for group, client, error in failed:
            evidence.append(
                f"MCP client '{client}' (group '{group}') failed: {error}; its tools could not be listed, "
                f"so '{tool}' may well be one of them: the name is probably right"
            )
        steps = (ChecklistStep(f"Is '{tool}' registered in a group of the Toolkit?", "unknown", None, tuple(evidence)),)
        clients = ", ".join(f"'{client}'" for _, client, _ in failed)
        fix = (
            f"outage: MCP client {clients} failed; fix that server (the error above says why), then check again "
            "(registering the tool again, or guessing other names, will not help)"
        )
        return Checklist(tool=tool, mode=mode, verdict=None, steps=steps, fix=fix, did_you_mean=close)
    steps = (ChecklistStep(f"Is '{tool}' registered in a group of the Toolkit?", "no", False, tuple(evidence)),)
    fix = "register it: await toolkit.add_tool(tool, group_name=...) (in a spec: under 'tools:' or a group's 'tools:')"
    return Checklist(tool=tool, mode=mode, verdict=None, steps=steps, fix=fix, did_you_mean=close)
