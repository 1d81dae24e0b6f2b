"""``explain`` and ``check`` on an AgentScope 1.x toolkit: the checklist of one tool, and
the findings 1.x makes possible.

Findings: ``empty_group``, ``group_without_description`` (as on 2.x), ``duplicate_name``
cannot happen (1.x refuses a second function of one name), and ``meta_tool_missing``:
groups that start inactive while ``reset_equipped_tools`` is not registered hold tools
nobody can reach — the model cannot switch groups at all. ``unknown_group_activated``
(a recorded call named a group that does not exist, and 1.x claimed success) comes from a
replayed session (``session_findings``).

Public API::

    toolkit_checklist_v1(subject, tool, active_groups=None) -> Checklist
    toolkit_findings_v1(subject) -> list[Finding]
    session_findings(replay) -> list[Finding]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....model.enums import ToolKind
from ....model.presentation import ANSWER_WORD
from ....model.verdicts import Checklist, ChecklistStep, Finding
from ....text.suggest import close_matches
from ..findings import group_findings
from ..ids import AgentScopeFinding, AgentScopeStage
from ..stages import activation_call
from .build import META
from .stages import ARM_HINT, CALLABLE_NOTE, meta_armed

if TYPE_CHECKING:
    from .subject import ToolkitSubjectV1


def toolkit_checklist_v1(subject: ToolkitSubjectV1, tool: str, active_groups: Sequence[str] | None = None) -> Checklist:
    """Registered? group active? can the model switch groups? — and the one fix."""
    rows = subject.rows(None, active_groups)
    matching = [r for r in rows if r.entry.name == tool]
    if not matching:
        names = subject.all_tool_names()
        evidence = [
            f"registered tools: {len(names)} (toolkit.tools); groups: {', '.join(subject.group_names()) or '(none)'}"
        ]
        if tool in subject.group_names():
            evidence.append(
                f"'{tool}' is a group, not a tool; its tools: "
                + ", ".join(r.entry.name for r in rows if r.entry.group == tool)
            )
        if tool == META:
            evidence.append(f"the meta tool is registered only on request: {ARM_HINT}")
        missing = (ChecklistStep(f"Is '{tool}' registered in the Toolkit?", "no", False, tuple(evidence)),)
        fix = (
            ARM_HINT
            if tool == META
            else "register it: toolkit.register_tool_function(func, group_name=...) (in a spec: under 'tools:' or a group's 'tools:')"
        )
        return Checklist(
            tool=tool, mode=None, verdict=None, steps=missing, fix=fix, did_you_mean=close_matches(tool, names, n=3)
        )
    row = matching[-1]
    entry, verdict = row.entry, row.verdict
    registered, visible = verdict.stages
    active = subject.active_groups() if active_groups is None else tuple(g for g in active_groups if g != "basic")
    steps: list[ChecklistStep] = [
        ChecklistStep(
            f"Is '{entry.name}' registered in the Toolkit?",
            "yes",
            True,
            tuple(e for e in (registered.rule, registered.source and f"declared at {registered.source}") if e),
        ),
        ChecklistStep(
            "Is its group active? ('basic' is always active)"
            if entry.group == "basic"
            else f"Is group '{entry.group}' active on the Toolkit?",
            ANSWER_WORD[visible.passed],
            visible.passed,
            (visible.rule, f"toolkit.state_dict() = {json.dumps({'active_groups': list(active)})}"),
        ),
    ]
    armed = meta_armed(subject.toolkit)
    if entry.group != "basic":
        steps.append(
            ChecklistStep(
                "Can the model switch groups? (reset_equipped_tools registered)",
                "yes" if armed else "no",
                armed,
                (f"{META} is in toolkit.tools" if armed else f"{META} is not registered: {ARM_HINT}",),
            )
        )
    steps.append(ChecklistStep("Would a call be checked for permission?", "no check", None, (CALLABLE_NOTE,)))
    return Checklist(tool=tool, mode=None, verdict=verdict, steps=tuple(steps), fix=_fix(row, active, armed))


def _fix(row: Any, active: Sequence[str], armed: bool) -> str | None:
    failing = row.verdict.first_failing
    if failing is None:
        return None
    group = row.entry.group
    if failing.name == AgentScopeStage.VISIBLE and failing.passed is False:
        start = f"toolkit.update_tool_groups(['{group}'], active=True) before the agent starts"
        if not armed:
            return f"the model cannot switch groups: {ARM_HINT}; or start with the group on: {start}"
        call = json.dumps(activation_call(tuple(active), group))
        return (
            f"call reset_equipped_tools with {call} (it sets the final state: groups not named are "
            f"deactivated), or {start}"
        )
    return f"find why get_json_schemas() does not list '{row.entry.name}' although its group is active"


def toolkit_findings_v1(subject: ToolkitSubjectV1) -> list[Finding]:
    """Empty and undescribed groups; unreachable groups when the meta tool is missing."""
    out: list[Finding] = []
    rows = subject.rows(None)
    origins = subject.built.group_origins
    for name, group in subject.toolkit.groups.items():
        members = [r for r in rows if r.entry.group == name and r.entry.kind != ToolKind.META]
        out += group_findings(name, group.description, not members, META, origins.get(name))
    if not meta_armed(subject.toolkit):
        inactive = [g for g in subject.group_names() if g not in subject.active_groups()]
        stuck = [r.entry.name for r in rows if r.entry.group in inactive]
        if stuck:
            shown = ", ".join(stuck[:8]) + (f" and {len(stuck) - 8} more" if len(stuck) > 8 else "")
            out.append(
                Finding(
                    AgentScopeFinding.META_TOOL_MISSING,
                    f"group(s) {', '.join(inactive)} start inactive and {META} is not registered: nobody can reach "
                    f"{shown} (the model cannot switch groups); {ARM_HINT}",
                    entry=inactive[0],
                    source=origins.get(inactive[0]),
                )
            )
    return out


def session_findings(replay: Any) -> list[Finding]:
    """A recorded call that activated a group that does not exist (1.x claimed success)."""
    out = []
    known = set(replay.session.known_groups())
    for turn in replay.turns:
        try:
            args = json.loads(turn.call.raw_input or "{}")
        except ValueError:
            continue
        unknown = [k for k, v in (args.items() if isinstance(args, dict) else []) if v is True and k not in known]
        v1 = turn.call.name == META
        if not v1 and turn.call.result_state != "success":
            continue  # 2.0.11 refuses unknown names with an error: the model was told
        for name in unknown:
            close = close_matches(name, sorted(known), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            reply = (
                "1.x replied that it was activated and turned every group off"
                if v1
                else "the recorded reply was a success"
            )
            out.append(
                Finding(
                    AgentScopeFinding.UNKNOWN_GROUP_ACTIVATED,
                    f"model turn {turn.call.model_turn}: {turn.call.name} activated '{name}', which does not exist{hint}; "
                    + reply,
                    entry=name,
                    source=replay.recorded.source,
                )
            )
    return out
