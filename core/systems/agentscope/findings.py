"""Findings about an AgentScope toolkit: empty or undescribed groups, name clashes,
unknown active groups, MCP outages, and tools denied in every mode checked.

Split out of ``subject.py`` (``ToolkitSubject.findings`` delegates here); the rules read
only the subject's public answers.

Public API::

    toolkit_findings(subject: ToolkitSubject, modes: Sequence[str | None]) -> list[Finding]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding, ToolKind
from ...model.verdicts import Finding, ToolVerdict
from .ids import AgentScopeFinding, AgentScopeStage

if TYPE_CHECKING:
    from .subject import ToolkitSubject


def toolkit_findings(subject: ToolkitSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Every finding for this toolkit; ``modes`` (two or more) enables ``never_callable``."""
    rows = subject.rows(None)
    out = _group_findings(subject, rows)
    origins = subject.built.origins
    seen: dict[str, str] = {}
    for row in rows:
        if row.entry.kind == ToolKind.META or row.entry.skills:  # one Skill tool serves every group
            continue
        if row.entry.name in seen:
            out.append(
                Finding(
                    SharedFinding.DUPLICATE_NAME,
                    f"tool '{row.entry.name}' is in group '{seen[row.entry.name]}' and in group '{row.entry.group}': "
                    "AgentScope keeps the last one registered (with a warning)",
                    tool=row.entry.name,
                    entry=row.entry.group,
                    source=origins.get((row.entry.group, row.entry.name)),
                )
            )
        seen.setdefault(row.entry.name, row.entry.group)
    groups = set(subject.group_names())
    for name in subject.active_groups():
        if name not in groups:
            out.append(
                Finding(
                    AgentScopeFinding.UNKNOWN_ACTIVE_GROUP,
                    f"activated_groups names '{name}', which no registered group answers to",
                    entry=name,
                    source="state.tool_context.activated_groups",
                )
            )
    for group, client, error in subject.mcp_outages():
        out.append(
            Finding(
                SharedFinding.MCP_OUTAGE,
                f"MCP client '{client}' in group '{group}' failed to list its tools ({error}): AgentScope drops "
                "them with only a log warning, so the group is empty",
                entry=client,
            )
        )
    resolved = [subject.resolve_mode(m) or "default" for m in modes] or [subject.default_mode or "default"]
    if len(resolved) > 1:
        per_mode = {m: {(r.entry.group, r.entry.name): _callable(r.verdict) for r in subject.rows(m)} for m in resolved}
        for row in rows:
            key = (row.entry.group, row.entry.name)
            if all(per_mode[m].get(key) is False for m in resolved):
                out.append(
                    Finding(
                        AgentScopeFinding.NEVER_CALLABLE,
                        f"tool '{row.entry.name}' is denied in every mode checked ({', '.join(resolved)})",
                        tool=row.entry.name,
                        source=origins.get(key),
                        severity=Severity.WARNING,
                    )
                )
    return out


def _group_findings(subject: ToolkitSubject, rows: list) -> list[Finding]:
    """Empty groups and groups without a description (the model sees only the name)."""
    out: list[Finding] = []
    origins = subject.built.group_origins
    for group in subject.toolkit.tool_groups:
        if group.name == "basic":
            continue
        members = [r for r in rows if r.entry.group == group.name and r.entry.kind != ToolKind.META]
        empty = not members and not getattr(group, "mcps", None)
        out += group_findings(group.name, group.description, empty, "reset_tools", origins.get(group.name))
    return out


def group_findings(
    name: str, description: str | None, empty: bool, meta_tool: str, source: str | None
) -> list[Finding]:
    """One group's warnings (2.x and 1.x alike): no tools, no description (``meta_tool`` offers only its name)."""
    out = []
    if empty:
        out.append(
            Finding(
                AgentScopeFinding.EMPTY_GROUP,
                f"group '{name}' has no tools: activating it adds nothing",
                entry=name,
                source=source,
                severity=Severity.WARNING,
            )
        )
    if not (description or "").strip():
        out.append(
            Finding(
                AgentScopeFinding.GROUP_WITHOUT_DESCRIPTION,
                f"group '{name}' has no description: {meta_tool} offers the model only its name",
                entry=name,
                source=source,
                severity=Severity.WARNING,
            )
        )
    return out


def _callable(verdict: ToolVerdict) -> bool | None:
    """The callable stage's answer (every AgentScope verdict has one)."""
    stage = verdict.stage(AgentScopeStage.CALLABLE)
    assert stage is not None, f"{verdict.name} has no callable stage"
    return stage.passed
