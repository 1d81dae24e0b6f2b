"""Gemini CLI findings: the traps of reference §4, each with its place and its fix.

The ``tools.core`` trap comes first and as an error whenever ``tools.core`` is set and hides an
MCP tool (the one thing users never guess: even ``[]`` denies every MCP tool, above trust,
mcp.allowed and yolo). Then folder trust, headless tools nothing allows, wildcards that miss
sanitised server names, policy denies that lose, filter typos, collisions, outages, too many tools.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Finding, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.ids import CodingCliFinding
from .ids import GeminiFinding, GeminiStage
from .naming import wildcard_misses
from .policy import DENY

if TYPE_CHECKING:
    from .subject import GeminiSubject

API_LIMIT = 512
"""The Gemini API's limit on function declarations per request (a 400 past it)."""

_KIND_OF_CODE = {
    "naming.collision": CodingCliFinding.NAME_COLLISION,
    "mcp.outage": SharedFinding.MCP_OUTAGE,
    NOT_STARTED_CODE: SharedFinding.MCP_NOT_STARTED,
    "gate.not_allowed": CodingCliFinding.SERVER_BLOCKED,
    "gate.excluded": CodingCliFinding.SERVER_BLOCKED,
}


def config_findings(subject: GeminiSubject) -> list[Finding]:
    """Settings the binary warns about and ignores."""
    value, file = subject.files.settings.last("general.defaultApprovalMode")
    if value == "yolo" and file is not None:
        where = file.at("general.defaultApprovalMode")
        return [
            Finding(
                GeminiFinding.SETTINGS_WARNING,
                f'general.defaultApprovalMode: "yolo" ({where}) is ignored (a validation warning): use --yolo',
                entry="yolo",
                source=where,
                severity=Severity.WARNING,
            )
        ]
    return []


def gemini_findings(subject: GeminiSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Every trap, the tools.core one first."""
    tools = subject.evaluate(modes[0] if modes else None).tools
    return [
        *_core(subject, tools),
        *_trust(subject),
        *_headless(subject, tools),
        *_wildcards(subject),
        *_losing_denies(subject, tools),
        *_filter_typos(subject),
        *_claude_names(subject),
        *_stage_findings(subject, tools),
        *_too_many(tools),
    ]


def _core(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    hidden = [t for t in tools if (s := t.stage(GeminiStage.POLICY)) is not None and s.code == "policy.core_wildcard"]
    value, file = subject.files.settings.last("tools.core")
    if not hidden or file is None:
        return []
    names = ", ".join(t.name for t in hidden[:8]) + (f" and {len(hidden) - 8} more" if len(hidden) > 8 else "")
    servers = sorted({t.namespace or "" for t in hidden})
    add = ", ".join(f'"mcp_{s}_*"' for s in servers[:5])
    return [
        Finding(
            GeminiFinding.CORE_HIDES_MCP,
            f"tools.core is set ({file.at('tools.core')} = {json.dumps(value)}): its wildcard DENY hides every MCP tool it does not name, "
            f"above trust, mcp.allowed and --yolo ({len(hidden)} hidden: {names}); fix: add {add} to tools.core, or remove tools.core",
            entry=str(value),
            source=file.at("tools.core"),
        )
    ]


def _trust(subject: GeminiSubject) -> list[Finding]:
    trust, args = subject.files.trust, subject.args
    ignored = subject.files.settings.ignored
    if trust.trusted:
        return []
    if args.headless and not args.skip_trust:
        text = f"the folder is not trusted ({trust.rule}): gemini -p exits 55 and sends nothing"
    elif ignored:
        text = f"the folder is not trusted ({trust.rule}): {ignored[0].shown} is not read" + (
            " (--skip-trust drops it)" if args.skip_trust else ""
        )
    else:
        return []
    fix = f'add "{subject.files.project}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json, or set GEMINI_CLI_TRUST_WORKSPACE=true'
    return [Finding(GeminiFinding.FOLDER_UNTRUSTED, f"{text}; fix: {fix}", source=trust.source)]


def _headless(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    out, seen = [], set()
    for tool in tools:
        policy = tool.stage(GeminiStage.POLICY)
        if policy is None or policy.code != "policy.headless_default" or tool.namespace in seen:
            continue
        seen.add(tool.namespace)
        out.append(
            Finding(
                GeminiFinding.HEADLESS_UNALLOWED,
                f'server "{tool.namespace}" connects, but in -p nothing allows its tools, so none is sent (`gemini mcp list` still says Connected); fix: {subject.fix_for(tool)}',
                tool=tool.name,
                entry=tool.namespace,
                source=subject.servers[tool.namespace].at() if tool.namespace in subject.servers else None,
            )
        )
    return out


def _wildcards(subject: GeminiSubject) -> list[Finding]:
    out = []
    allowed, _ = subject.files.settings.last("mcp.allowed")
    for name, server in subject.servers.items():
        result = subject.results.get(name)
        tools = result.tools if result is not None and result.ok else ("x",)
        keyed = [k for k in ("trust",) if server.entry.get(k) is True] + (
            ["mcp.allowed"] if isinstance(allowed, list) and name in allowed else []
        )
        if keyed and any(wildcard_misses(name, t) for t in tools):
            out.append(
                Finding(
                    GeminiFinding.WILDCARD_MISSES,
                    f'server "{name}": {" and ".join(keyed)} match sent names starting "mcp_{name}_", but the CLI sanitises or cuts this server\'s names, so they allow nothing; fix: rename the server to A-Za-z0-9_ (no "mcp_" prefix, short), or list its sent names in tools.allowed',
                    entry=name,
                    source=server.at(),
                )
            )
    return out


def _losing_denies(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    out = []
    for policy_file in subject.policy_files:
        if policy_file.error:
            out.append(
                Finding(
                    GeminiFinding.POLICY_LOSES, f"{policy_file.shown}: {policy_file.error}", source=policy_file.shown
                )
            )
            continue
        for rule in policy_file.rules:
            if rule.decision != DENY or rule.args_pattern:
                continue
            for tool in tools:
                stage = tool.stage(GeminiStage.POLICY)
                if (
                    stage is not None
                    and stage.passed
                    and stage.source != rule.source
                    and rule.matches(
                        tool.name, subject.evaluate(None).loaded.mode or "default", subject.args.headless, False
                    )
                ):
                    out.append(
                        Finding(
                            GeminiFinding.POLICY_LOSES,
                            f'the DENY for "{rule.pattern}" ({rule.source}, priority {rule.priority:.3f}) loses for {tool.name}: {stage.rule}; fix: raise its priority above that rule\'s (a user rule is 4 + priority/1000)',
                            tool=tool.name,
                            source=rule.source,
                        )
                    )
                    break
    return out


def _filter_typos(subject: GeminiSubject) -> list[Finding]:
    out = []
    for name, server in subject.servers.items():
        result = subject.results.get(name)
        if result is None or not result.ok:
            continue
        for key in ("includeTools", "excludeTools"):
            listed = server.entry.get(key)
            wrong = (
                [t for t in listed if isinstance(t, str) and t not in result.tools] if isinstance(listed, list) else []
            )
            if wrong:
                hints = [
                    f'"{w}" → did you mean "{c[0]}"?'
                    for w in wrong
                    if (c := did_you_mean(w.rpartition("_")[2] if w.startswith("mcp_") else w, result.tools, limit=1))
                ]
                whole = (
                    " (none matches: the server sends no tool)"
                    if key == "includeTools" and len(wrong) == len(listed)
                    else ""
                )
                out.append(
                    Finding(
                        GeminiFinding.FILTER_MATCHES_NOTHING,
                        f"{key} ({server.at(key)}) names {wrong} that server {name} does not list (raw names: {list(result.tools)[:20]}){whole}"
                        + (f"; {'; '.join(hints)}" if hints else ""),
                        entry=str(wrong),
                        source=server.at(key),
                    )
                )
    return out


def _claude_names(subject: GeminiSubject) -> list[Finding]:
    out = []
    for key in ("tools.allowed", "tools.exclude", "tools.core"):
        for item, where in subject.files.settings.union(key):
            if "__" in item and not item.startswith("mcp_"):
                server, _, tool = item.partition("__")
                out.append(
                    Finding(
                        GeminiFinding.CLAUDE_STYLE_NAME,
                        f'"{item}" ({where}) is a Claude-style name and matches nothing: Gemini CLI names it mcp_{server.removeprefix("mcp")}_{tool}'.replace(
                            "mcp__", "mcp_"
                        ),
                        entry=item,
                        source=where,
                        severity=Severity.WARNING,
                    )
                )
    return out


def _stage_findings(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    out, seen = [], set()
    for verdict in tools:
        naming = verdict.stage(GeminiStage.NAMING)
        failing = naming if naming is not None and naming.code == "naming.collision" else verdict.first_failing
        if failing is None or failing.code not in _KIND_OF_CODE or (failing.code, verdict.namespace) in seen:
            continue
        seen.add((failing.code, verdict.namespace))
        unknown = failing.code in (NOT_STARTED_CODE,)
        fix = subject.fix_for(verdict) if failing.passed is not True else None
        out.append(
            Finding(
                _KIND_OF_CODE[failing.code],
                f"{verdict.namespace}: {failing.rule}" + (f"; fix: {fix}" if fix and fix != failing.rule else ""),
                tool=verdict.name,
                entry=failing.entry,
                source=failing.source,
                severity=Severity.WARNING if unknown or failing.passed else Severity.ERROR,
            )
        )
    return out


def _too_many(tools: Sequence[ToolVerdict]) -> list[Finding]:
    sent = sum(1 for t in tools if (s := t.stage(GeminiStage.POLICY)) is not None and s.passed)
    if sent + 8 <= API_LIMIT:
        return []
    return [
        Finding(
            GeminiFinding.TOO_MANY_TOOLS,
            f"{sent} MCP tools plus the built-ins pass every stage: the CLI sends them all and the Gemini API answers 400 past {API_LIMIT} function declarations; fix: trim with includeTools, tools.exclude or a policy DENY",
        )
    ]
