"""OpenCode findings: the silent traps a configuration falls into, each with its place and its fix.

An invalid config (``opencode run`` exits 1, no request: a Claude-format ``mcp`` entry, a missing
``{file:…}``), a ``tools``/``permission`` key that matches no tool, a deny that only refuses calls
while the schema is still sent, a name over 64 characters (the whole request fails at an
OpenAI-style provider), a server slower than its ``timeout``, ``--agent`` falling back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Evaluation, Finding, Stage, ToolVerdict
from .ids import OpenCodeFinding as K
from .rules import Rule, matches

if TYPE_CHECKING:
    from .subject import OpenCodeSubject

_BUILTIN_KEYS = (
    "*",
    "edit",
    "read",
    "external_directory",
    "doom_loop",
    "question",
    "plan_enter",
    "plan_exit",
    "list",
    "websearch",
    "lsp",
    "codesearch",
    "patch",
)


def opencode_findings(subject: OpenCodeSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Every trap, once each."""
    evaluation = subject.evaluate(modes[0] if modes else None)
    out = [
        Finding(
            K.CONFIG_INVALID,
            f'opencode run exits 1 before any request: {p}; fix: give the entry "type": "local" and "command": [program, args…]',
            entry=p.split(": ", 1)[-1],
            source=p.split(": ")[0],
        )
        for p in subject.invalid
    ]
    if subject.agent_warning:
        out.append(
            Finding(
                K.AGENT_FALLBACK,
                f"opencode run prints: {subject.agent_warning}; fix: give --agent a primary agent ({', '.join(subject.mode_names)})",
                entry=subject.requested_agent,
                source="--client-args",
                severity=Severity.WARNING,
            )
        )
    out += _unmatched_rules(subject, evaluation)
    for tool in evaluation.tools:
        out += _tool_findings(subject, tool)
    return out


def _user_rules(subject: OpenCodeSubject, agent: str) -> list[Rule]:
    """The agent's rules from the user's files and environment, once per key."""
    seen: dict[str, Rule] = {}
    for rule in subject.context(agent).rules:
        if not rule.source.startswith("OpenCode") and rule.permission not in _BUILTIN_KEYS:
            seen.setdefault(rule.permission, rule)
    return list(seen.values())


def _unmatched_rules(subject: OpenCodeSubject, evaluation: Evaluation) -> list[Finding]:
    """Rules from the user's files whose key matches no tool name (only when every server listed its tools)."""
    if any(not r.started or not r.ok for r in subject.results.values()):
        return []
    names = [t.name for t in evaluation.tools if not t.name.endswith("_*")]
    agent = evaluation.loaded.mode or "build"
    hint = ' (globs match the whole name, case-sensitive: a bare server name matches nothing; write "server_*")'
    return [
        Finding(
            K.RULE_MATCHES_NOTHING,
            f"{r.text()} ({r.source}) matches no tool of agent {agent}{hint}",
            entry=r.permission,
            source=r.source,
        )
        for r in _user_rules(subject, agent)
        if not any(matches(n, r.permission) for n in names)
    ]


def _too_long(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    why = f"{tool.name} ({len(tool.name)} characters) is over 64: a provider enforcing OpenAI's limit rejects the whole request"
    fix = f"shorten the server key in mcp ({tool.namespace}) or the tool's name"
    return Finding(
        K.NAME_TOO_LONG,
        f"{why}; fix: {fix}",
        tool=tool.name,
        entry=tool.name,
        source=subject.layers.at("mcp", tool.namespace),
    )


def _keeps_schema(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    fix = f'make {tool.name!r}: "deny" (pattern *) its last matching rule to remove the schema, or allow it'
    return Finding(
        K.DENY_KEEPS_SCHEMA,
        f"{tool.name}: {stage.rule}; fix: {fix}",
        tool=tool.name,
        entry=stage.entry,
        source=stage.source,
    )


def _slow(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    return Finding(
        K.SLOW_SERVER,
        f"{tool.namespace}: {stage.rule}; fix: {subject.fix_for(tool)}",
        entry=tool.namespace,
        source=stage.source,
    )


def _outage(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    return Finding(SharedFinding.MCP_OUTAGE, f"{tool.namespace}: {stage.rule}", entry=tool.namespace)


def _not_started(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    message = f"{tool.namespace}: {stage.rule}; fix: {subject.fix_for(tool)}"
    return Finding(SharedFinding.MCP_NOT_STARTED, message, entry=tool.namespace, severity=Severity.WARNING)


def _collision(subject: OpenCodeSubject, tool: ToolVerdict, stage: Stage) -> Finding:
    return Finding(SharedFinding.DUPLICATE_NAME, stage.rule, tool=tool.name, entry=tool.name)


_BY_CODE = {
    "naming.too_long": _too_long,
    "callable.deny": _keeps_schema,
    "connection.timeout": _slow,
    "mcp.outage": _outage,
    NOT_STARTED_CODE: _not_started,
    "naming.collision": _collision,
}


def _tool_findings(subject: OpenCodeSubject, tool: ToolVerdict) -> list[Finding]:
    """The findings one row's stages show (a call refused only for MCP tools: a built-in's depends on its argument)."""
    return [_BY_CODE[s.code](subject, tool, s) for s in tool.stages if s.code in _BY_CODE]
