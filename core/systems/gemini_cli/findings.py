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
from ...model.verdicts import Finding, Stage, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.ids import CodingCliFinding
from .ids import GeminiFinding, GeminiStage
from .naming import wildcard_misses
from .policy import DENY, Rule
from .servers import ServerEntry

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


def _policy_code(tool: ToolVerdict) -> str | None:
    stage = tool.stage(GeminiStage.POLICY)
    return stage.code if stage is not None else None


def _names(tools: Sequence[ToolVerdict], cap: int = 8) -> str:
    more = f" and {len(tools) - cap} more" if len(tools) > cap else ""
    return ", ".join(t.name for t in tools[:cap]) + more


def _core(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    hidden = [t for t in tools if _policy_code(t) == "policy.core_wildcard"]
    value, file = subject.files.settings.last("tools.core")
    if not hidden or file is None:
        return []
    add = ", ".join(f'"mcp_{s}_*"' for s in sorted({t.namespace or "" for t in hidden})[:5])
    where = file.at("tools.core")
    text = (
        f"tools.core is set ({where} = {json.dumps(value)}): its wildcard DENY hides every MCP tool it does not name, "
        f"above trust, mcp.allowed and --yolo ({len(hidden)} hidden: {_names(hidden)}); "
        f"fix: add {add} to tools.core, or remove tools.core"
    )
    return [Finding(GeminiFinding.CORE_HIDES_MCP, text, entry=str(value), source=where)]


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


def _keyed(subject: GeminiSubject, name: str) -> list[str]:
    """The settings that name the server by its raw name: trust, mcp.allowed."""
    allowed, _ = subject.files.settings.last("mcp.allowed")
    out = ["trust"] if subject.servers[name].entry.get("trust") is True else []
    return out + (["mcp.allowed"] if isinstance(allowed, list) and name in allowed else [])


def _wildcards(subject: GeminiSubject) -> list[Finding]:
    out = []
    for name, server in subject.servers.items():
        result = subject.results.get(name)
        tools = result.tools if result is not None and result.ok else ("x",)
        keyed = _keyed(subject, name)
        if not keyed or not any(wildcard_misses(name, t) for t in tools):
            continue
        text = (
            f'server "{name}": {" and ".join(keyed)} match sent names starting "mcp_{name}_", but the CLI sanitises or '
            'cuts this server\'s names, so they allow nothing; fix: rename the server to A-Za-z0-9_ (no "mcp_" '
            "prefix, short), or list its sent names in tools.allowed"
        )
        out.append(Finding(GeminiFinding.WILDCARD_MISSES, text, entry=name, source=server.at()))
    return out


def _outranked(subject: GeminiSubject, rule: Rule, tools: Sequence[ToolVerdict]) -> Finding | None:
    """A user DENY that matches a tool another rule sends anyway."""
    mode = subject.evaluate(None).loaded.mode or "default"
    for tool in tools:
        stage = tool.stage(GeminiStage.POLICY)
        if stage is None or not stage.passed or stage.source == rule.source:
            continue
        if rule.matches(tool.name, mode, subject.args.headless, False):
            text = (
                f'the DENY for "{rule.pattern}" ({rule.source}, priority {rule.priority:.3f}) loses for {tool.name}: '
                f"{stage.rule}; fix: raise its priority above that rule's (a user rule is 4 + priority/1000)"
            )
            return Finding(GeminiFinding.POLICY_LOSES, text, tool=tool.name, source=rule.source)
    return None


def _losing_denies(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    out = []
    for policy_file in subject.policy_files:
        if policy_file.error:
            text = f"{policy_file.shown}: {policy_file.error}"
            out.append(Finding(GeminiFinding.POLICY_LOSES, text, source=policy_file.shown))
            continue
        denies = [r for r in policy_file.rules if r.decision == DENY and not r.args_pattern]
        out += [f for r in denies if (f := _outranked(subject, r, tools)) is not None]
    return out


def _typo_hint(wrong: str, tools: Sequence[str]) -> str | None:
    close = did_you_mean(wrong.rpartition("_")[2] if wrong.startswith("mcp_") else wrong, tools, limit=1)
    return f'"{wrong}" → did you mean "{close[0]}"?' if close else None


def _unlisted(listed: object, tools: Sequence[str]) -> list[str]:
    """The names of an includeTools / excludeTools list that the server does not list."""
    return [t for t in listed if isinstance(t, str) and t not in tools] if isinstance(listed, list) else []


def _filter_typo(name: str, server: ServerEntry, key: str, tools: Sequence[str]) -> Finding | None:
    listed: list[object] = server.entry.get(key) or []
    wrong = _unlisted(listed, tools)
    if not wrong:
        return None
    hints = [h for w in wrong if (h := _typo_hint(w, tools))]
    whole = " (none matches: the server sends no tool)" if key == "includeTools" and len(wrong) == len(listed) else ""
    text = f"{key} ({server.at(key)}) names {wrong} that server {name} does not list (raw names: {list(tools)[:20]}){whole}"
    text += f"; {'; '.join(hints)}" if hints else ""
    return Finding(GeminiFinding.FILTER_MATCHES_NOTHING, text, entry=str(wrong), source=server.at(key))


def _filter_typos(subject: GeminiSubject) -> list[Finding]:
    out = []
    for name, server in subject.servers.items():
        result = subject.results.get(name)
        if result is None or not result.ok:
            continue
        out += [f for key in ("includeTools", "excludeTools") if (f := _filter_typo(name, server, key, result.tools))]
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


def _deciding(verdict: ToolVerdict) -> Stage | None:
    """The stage a finding is about: a collision (which passes), else the first failing one."""
    naming = verdict.stage(GeminiStage.NAMING)
    return naming if naming is not None and naming.code == "naming.collision" else verdict.first_failing


def _stage_finding(subject: GeminiSubject, verdict: ToolVerdict, failing: Stage) -> Finding:
    fix = subject.fix_for(verdict) if failing.passed is not True else None
    text = f"{verdict.namespace}: {failing.rule}" + (f"; fix: {fix}" if fix and fix != failing.rule else "")
    quiet = failing.code == NOT_STARTED_CODE or bool(failing.passed)
    severity = Severity.WARNING if quiet else Severity.ERROR
    kind = _KIND_OF_CODE[failing.code]
    return Finding(kind, text, tool=verdict.name, entry=failing.entry, source=failing.source, severity=severity)


def _stage_findings(subject: GeminiSubject, tools: Sequence[ToolVerdict]) -> list[Finding]:
    out, seen = [], set()
    for verdict in tools:
        failing = _deciding(verdict)
        if failing is None or failing.code not in _KIND_OF_CODE or (failing.code, verdict.namespace) in seen:
            continue
        seen.add((failing.code, verdict.namespace))
        out.append(_stage_finding(subject, verdict, failing))
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
