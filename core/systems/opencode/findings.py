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
from ...model.verdicts import Finding
from .ids import OpenCodeFinding as K
from .ids import OpenCodeStage as S
from .rules import matches

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


def _unmatched_rules(subject: OpenCodeSubject, evaluation) -> list[Finding]:  # type: ignore[no-untyped-def]
    """Rules from the user's files whose key matches no tool name (only when every server listed its tools)."""
    if any(not r.started or not r.ok for r in subject.results.values()):
        return []
    names = [t.name for t in evaluation.tools if not t.name.endswith("_*")]
    ctx = subject.context(evaluation.loaded.mode or "build")
    out = []
    seen = set()
    for rule in ctx.rules:
        if rule.source.startswith("OpenCode") or rule.permission in _BUILTIN_KEYS or rule.permission in seen:
            continue
        seen.add(rule.permission)
        if not any(matches(n, rule.permission) for n in names):
            hint = ' (globs match the whole name, case-sensitive: a bare server name matches nothing; write "server_*")'
            out.append(
                Finding(
                    K.RULE_MATCHES_NOTHING,
                    f"{rule.text()} ({rule.source}) matches no tool of agent {ctx.agent}{hint}",
                    entry=rule.permission,
                    source=rule.source,
                )
            )
    return out


def _tool_findings(subject: OpenCodeSubject, tool) -> list[Finding]:  # type: ignore[no-untyped-def]
    out = []
    naming = tool.stage(S.NAMING)
    if naming is not None and naming.code == "naming.too_long":
        out.append(
            Finding(
                K.NAME_TOO_LONG,
                f"{tool.name} ({len(tool.name)} characters) is over 64: a provider enforcing OpenAI's limit rejects the whole request; fix: shorten the server key in mcp ({tool.namespace}) or the tool's name",
                tool=tool.name,
                entry=tool.name,
                source=subject.layers.at("mcp", tool.namespace),
            )
        )
    call = tool.stage(S.CALLABLE)
    if call is not None and call.code == "callable.deny":
        out.append(
            Finding(
                K.DENY_KEEPS_SCHEMA,
                f'{tool.name}: {call.rule}; fix: make {tool.name!r}: "deny" (pattern *) its last matching rule to remove the schema, or allow it',
                tool=tool.name,
                entry=call.entry,
                source=call.source,
            )
        )
    failing = tool.first_failing
    conn = tool.stage(S.CONNECTION)
    if conn is not None and conn.code == "connection.timeout":
        out.append(
            Finding(
                K.SLOW_SERVER,
                f"{tool.namespace}: {conn.rule}; fix: {subject.fix_for(tool)}",
                entry=tool.namespace,
                source=conn.source,
            )
        )
    elif conn is not None and conn.code == "mcp.outage":
        out.append(Finding(SharedFinding.MCP_OUTAGE, f"{tool.namespace}: {conn.rule}", entry=tool.namespace))
    elif failing is not None and failing.code == NOT_STARTED_CODE:
        out.append(
            Finding(
                SharedFinding.MCP_NOT_STARTED,
                f"{tool.namespace}: {failing.rule}; fix: {subject.fix_for(tool)}",
                entry=tool.namespace,
                severity=Severity.WARNING,
            )
        )
    if naming is not None and naming.code == "naming.collision":
        out.append(Finding(SharedFinding.DUPLICATE_NAME, f"{naming.rule}", tool=tool.name, entry=tool.name))
    return out
