"""An AgentScope toolkit (spec or the user's factory) as a ``Subject``.

Modes are AgentScope's permission modes (``default``, ``accept_edits``, ``explore``,
``bypass``, ``dont_ask``); ``-`` and case are normalised (``accept-edits``). Stages:
``AGENTSCOPE_STAGES`` (see ``stages.py``).

Public API::

    load_toolkit_subject(target, kind: "toolkit_spec" | "toolkit_factory", groups=None) -> ToolkitSubject
    ToolkitSubject: Subject protocol + .built (BuiltToolkit), .toolkit, .state,
        .rows(mode) -> list[ToolRow], .group_names() -> tuple[str, ...],
        .active_groups() -> tuple[str, ...], .set_active_groups(groups) -> None,
        .session(steps=()) -> StepSession
    The stock meta tool's probed behaviour: ``probe.probe_stock_reset_tools()``.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from toolscope.core.agentscope.aio import run_sync
from toolscope.core.agentscope.spec import BuiltToolkit
from toolscope.core.agentscope.stages import (
    MODES,
    Collected,
    ToolRow,
    acollect,
    activation_call,
    aevaluate_tools,
    outage_verdicts,
)
from toolscope.core.errors import InputError, Problem
from toolscope.core.verdicts import (
    AGENTSCOPE_STAGES,
    Checklist,
    ChecklistStep,
    Evaluation,
    Finding,
    LoadedInput,
)


class ToolkitSubject:
    """A real Toolkit plus its initial AgentState, answering the Subject questions."""

    def __init__(self, built: BuiltToolkit, loaded: LoadedInput) -> None:
        self.built = built
        self.loaded = loaded
        self._collected: Collected | None = None
        self._rows: dict[str, list[ToolRow]] = {}

    # -- Subject protocol -----------------------------------------------------
    @property
    def toolkit(self) -> Any:
        return self.built.toolkit

    @property
    def state(self) -> Any:
        return self.built.state

    @property
    def mode_names(self) -> tuple[str, ...]:
        return MODES

    @property
    def default_mode(self) -> str | None:
        return self.state.permission_context.mode.value

    def resolve_mode(self, mode: str | None) -> str | None:
        if mode is None:
            return self.default_mode
        canonical = mode.strip().lower().replace("-", "_")
        if canonical not in MODES:
            close = difflib.get_close_matches(canonical, MODES, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise InputError("--mode", f"unknown permission mode '{mode}'{hint}", [Problem("", "expected one of: " + ", ".join(MODES))])
        return canonical

    def rows(self, mode: str | None) -> list[ToolRow]:
        """Every tool's verdict and permission decision in this mode (cached)."""
        mode = self.resolve_mode(mode) or "default"
        if mode not in self._rows:
            self._rows[mode] = run_sync(self._arows(mode))
        return self._rows[mode]

    async def _arows(self, mode: str) -> list[ToolRow]:
        if self._collected is None:
            self._collected = await acollect(self.toolkit)
        return await aevaluate_tools(self.toolkit, self.state, mode, self.built.origins, self._collected)

    def evaluate(self, mode: str | None) -> Evaluation:
        mode = self.resolve_mode(mode) or "default"
        rows = self.rows(mode)
        notes = [f"active groups: {json.dumps(list(self.active_groups()))} (basic is always active)", f"permission mode: {mode}"]
        outages = outage_verdicts(self._collected, tuple(self.active_groups())) if self._collected else []
        notes += [v.stages[0].rule for v in outages]
        loaded = LoadedInput(
            kind=self.loaded.kind, label=self.loaded.label, files=self.loaded.files, mode=mode, extra=self.loaded.extra
        )
        return Evaluation(loaded=loaded, stage_names=AGENTSCOPE_STAGES, tools=(*(r.verdict for r in rows), *outages), notes=tuple(notes))

    def all_tool_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.entry.name for r in self.rows(None)))

    def group_names(self) -> tuple[str, ...]:
        """Registered non-basic groups, in order."""
        return tuple(g.name for g in self.toolkit.tool_groups if g.name != "basic")

    def active_groups(self) -> tuple[str, ...]:
        return tuple(self.state.tool_context.activated_groups)

    def set_active_groups(self, groups: Sequence[str]) -> None:
        """Replace the initial active groups (validated) and drop cached verdicts."""
        _validate_groups(self.built, list(groups))
        self.state.tool_context.activated_groups[:] = list(dict.fromkeys(groups))
        self._rows.clear()

    def session(self, steps: Sequence[Any] = ()) -> Any:
        """A step-through session over this toolkit (lanes start from this state)."""
        from toolscope.core.agentscope.session import StepSession

        return StepSession(self.built, steps)

    # -- checklist --------------------------------------------------------------
    def checklist(self, tool: str, mode: str | None) -> Checklist:
        mode = self.resolve_mode(mode) or "default"
        rows = [r for r in self.rows(mode) if r.entry.name == tool]
        if not rows and ":" in tool:
            group, _, name = tool.partition(":")
            rows = [r for r in self.rows(mode) if r.entry.name == name and r.entry.group == group]
        if not rows:
            return self._unknown_checklist(tool, mode)
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
        active = self.active_groups()
        if entry.group == "basic":
            question = "Is its group active? ('basic' is always active)"
        else:
            question = f"Is group '{entry.group}' active in the agent state?"
        steps.append(
            ChecklistStep(
                question,
                {True: "yes", False: "no", None: "unknown"}[visible.passed],
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
                    (f"also in group(s): {', '.join(r.entry.group for r in rows[:-1])}; AgentScope keeps the last one registered",),
                )
            )
        return Checklist(tool=tool, mode=mode, verdict=verdict, steps=tuple(steps), fix=self._fix(row, mode))

    def _fix(self, row: ToolRow, mode: str) -> str | None:
        failing = row.verdict.first_failing
        if failing is None:
            return None
        name = row.entry.name
        if failing.name == "visible" and failing.passed is False:
            call = json.dumps(activation_call(self.active_groups(), row.entry.group))
            return (
                f"call reset_tools with {call} (it sets the final state: groups not named are "
                f"deactivated), or start the agent with '{row.entry.group}' in "
                f"state.tool_context.activated_groups"
            )
        if failing.name == "visible":
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

    def _unknown_checklist(self, tool: str, mode: str) -> Checklist:
        names = self.all_tool_names()
        close = tuple(difflib.get_close_matches(tool, names, n=3, cutoff=0.6))
        evidence = [f"registered tools: {len(names)} in {len(self.toolkit.tool_groups)} group(s)"]
        if tool in self.group_names():
            evidence.append(f"'{tool}' is a group, not a tool; its tools: " + ", ".join(r.entry.name for r in self.rows(mode) if r.entry.group == tool))
        steps = (ChecklistStep(f"Is '{tool}' registered in a group of the Toolkit?", "no", False, tuple(evidence)),)
        fix = f"register it: await toolkit.add_tool(tool, group_name=...) (in a spec: under 'tools:' or a group's 'tools:')"
        return Checklist(tool=tool, mode=mode, verdict=None, steps=steps, fix=fix, did_you_mean=close)

    # -- findings ---------------------------------------------------------------
    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        out: list[Finding] = []
        rows = self.rows(None)
        origins = self.built.group_origins
        for group in self.toolkit.tool_groups:
            if group.name == "basic":
                continue
            members = [r for r in rows if r.entry.group == group.name and r.entry.kind != "meta"]
            if not members and not (getattr(group, "mcps", None)):
                out.append(Finding("empty_group", f"group '{group.name}' has no tools: activating it adds nothing", entry=group.name, source=origins.get(group.name), severity="warning"))
            if not (group.description or "").strip():
                out.append(Finding("group_without_description", f"group '{group.name}' has no description: reset_tools offers the model only its name", entry=group.name, source=origins.get(group.name), severity="warning"))
        seen: dict[str, str] = {}
        for row in rows:
            if row.entry.kind == "meta":
                continue
            if row.entry.name in seen:
                out.append(Finding("duplicate_name", f"tool '{row.entry.name}' is in group '{seen[row.entry.name]}' and in group '{row.entry.group}': AgentScope keeps the last one registered (with a warning)", tool=row.entry.name, entry=row.entry.group, source=self.built.origins.get(row.entry.name)))
            seen.setdefault(row.entry.name, row.entry.group)
        groups = set(self.group_names())
        for name in self.active_groups():
            if name not in groups:
                out.append(Finding("unknown_active_group", f"activated_groups names '{name}', which no registered group answers to", entry=name, source="state.tool_context.activated_groups"))
        for group, client, error in (self._collected.mcp_outages if self._collected else []):
            out.append(Finding("mcp_outage", f"MCP client '{client}' in group '{group}' failed to list its tools ({error}): AgentScope drops them with only a log warning, so the group is empty", entry=client))
        resolved = [self.resolve_mode(m) or "default" for m in modes] or [self.default_mode or "default"]
        if len(resolved) > 1:
            per_mode = {m: {r.entry.name: r.verdict.stage("callable").passed for r in self.rows(m)} for m in resolved}
            for row in rows:
                if all(per_mode[m].get(row.entry.name) is False for m in resolved):
                    out.append(Finding("never_callable", f"tool '{row.entry.name}' is denied in every mode checked ({', '.join(resolved)})", tool=row.entry.name, source=self.built.origins.get(row.entry.name), severity="warning"))
        return out


def _validate_groups(built: BuiltToolkit, groups: list[str]) -> None:
    """InputError (naming --groups) for names no registered group answers to."""
    known = [g.name for g in built.toolkit.tool_groups if g.name != "basic"]
    problems = []
    for name in groups:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            problems.append(Problem(name, f"no such group{hint}; groups: {', '.join(known) or '(none)'}"))
    if problems:
        raise InputError("--groups", "unknown group", problems)


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_toolkit_subject(
    target: str,
    kind: Literal["toolkit_spec", "toolkit_factory"],
    groups: list[str] | None = None,
) -> ToolkitSubject:
    """Load a spec file or call a factory; ``groups`` replaces the initial active groups."""
    import agentscope

    if kind == "toolkit_spec":
        from toolscope.core.agentscope.spec import build_toolkit, load_spec

        spec, source, digest = load_spec(target)
        built = build_toolkit(spec, source)
        files: tuple[tuple[str, str], ...] = ((Path(target).name, digest),)
        what = "toolkit spec"
    else:
        from toolscope.core.agentscope.factory import load_factory, parse_target

        built = load_factory(target)
        where, _ = parse_target(target)
        files = ((Path(where).name, _file_digest(Path(where))),) if where.endswith(".py") and Path(where).is_file() else ()
        what = "toolkit factory"
    if groups is not None:
        _validate_groups(built, groups)
        built.state.tool_context.activated_groups[:] = list(dict.fromkeys(groups))
    loaded = LoadedInput(
        kind=kind,
        label=built.label,
        files=files,
        mode=None,
        extra=(("agentscope", getattr(agentscope, "__version__", "unknown")), ("input", what)),
    )
    return ToolkitSubject(built, loaded)
