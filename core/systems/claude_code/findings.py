"""Claude Code findings: the traps of reference §3, each with its place and its fix.

``config_findings`` are mistakes in the files themselves (shown before every answer):
servers in files Claude never reads, permission rules in a form that matches nothing.
``claude_findings`` adds what the stages show: untrusted keys ignored, servers the dialog
disabled, approval that differs between -p and interactive, managed-mcp.json dropping
servers, policy blocks, collisions, outages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...mcp.startup import startup_verdicts
from ...model.enums import Severity, SharedFinding
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Finding, Stage, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.common import claude_name_part
from ..coding_cli.ids import CodingCliFinding
from .checklist import fix_for
from .ids import ClaudeFinding
from .permissions import collect_rules, rule_matches

if TYPE_CHECKING:
    from .subject import ClaudeCodeSubject


def _normalised_rule(rule: str) -> str:
    """What a rule probably meant, in the normalised form (``mcp__my.srv__get-time(*)`` → ``mcp__my_srv__get-time``)."""
    text = rule.strip().split("(", 1)[0]
    if text.startswith("mcp__"):
        return "__".join(claude_name_part(p) if p != "*" else p for p in text.split("__"))
    return text


def _unknown_servers(subject: ClaudeCodeSubject) -> set[str]:
    """``mcp__<server>`` of every server Claude would start whose tools are unknown (not started, failed)."""
    return {
        f"mcp__{claude_name_part(d.entry.name)}"
        for d in subject.decisions
        if d.passed and not (d.key in subject.results and subject.results[d.key].ok)
    }


def _may_match_unknown(text: str, unknown: set[str], raw_tools: dict[str, str]) -> bool:
    """A rule that could name a tool of a server whose tools are unknown: it matches nothing only as
    far as toolscope knows, so it is not reported."""
    if any(text == u or text.startswith(u + "__") for u in unknown):
        return True
    return bool(unknown) and text not in raw_tools and "*" in text


def config_findings(subject: ClaudeCodeSubject) -> list[Finding]:
    """Unread server definitions and permission rules that match no tool."""
    out = []
    for decision in subject.decisions:
        if decision.stages[0].code == "source.unread":
            entry = decision.entry
            out.append(Finding(
                ClaudeFinding.UNREAD_SERVERS,
                f"server \"{entry.name}\" is defined where Claude Code never reads servers ({entry.source}); "
                "fix: move it to .mcp.json or ~/.claude.json (`claude mcp add`)",
                tool=None, entry=entry.name, source=entry.source,
            ))  # fmt: skip
    listed = [
        (d.entry.name, subject.results[d.key])
        for d in subject.decisions
        if d.key in subject.results and subject.results[d.key].ok
    ]
    if listed:
        out += _rules_matching_nothing(subject, _ListedNames.of(listed), _unknown_servers(subject))
    return out


@dataclass(frozen=True)
class _ListedNames:
    """The names a rule can match, from the servers that listed their tools."""

    names: dict[str, str]
    """Each tool's normalised name → its server."""
    forms: list[str]
    """Every form a rule may take: tool names, mcp__<server> and mcp__<server>__*."""
    raw_tools: dict[str, str]
    """A tool's raw name → its normalised name."""

    @classmethod
    def of(cls, listed: list[tuple[str, Any]]) -> _ListedNames:
        names = {f"mcp__{claude_name_part(s)}__{claude_name_part(t)}": s for s, r in listed for t in r.tools}
        forms = [
            *names,
            *{f"mcp__{claude_name_part(s)}" for s, _ in listed},
            *{f"mcp__{claude_name_part(s)}__*" for s, _ in listed},
        ]
        raw_tools = {t: f"mcp__{claude_name_part(s)}__{claude_name_part(t)}" for s, r in listed for t in r.tools}
        return cls(names, forms, raw_tools)


def _rules_matching_nothing(subject: ClaudeCodeSubject, listed: _ListedNames, unknown: set[str]) -> list[Finding]:
    """An MCP permission rule (or a raw tool name used as one) that matches no listed tool (and could name
    no tool of a server whose tools are unknown: ``_may_match_unknown``)."""
    out = []
    for rule in collect_rules(subject.files, subject.args):
        text = rule.text.strip()
        if text in ("ToolSearch",) or not (text.startswith("mcp__") or text in listed.raw_tools):
            continue
        if _may_match_unknown(text, unknown, listed.raw_tools):
            continue
        if any(rule_matches(text, claude_name_part(server), name) for name, server in listed.names.items()):
            continue
        close = _meant_rule(text, listed)
        hint = f'; did you mean "{close[0]}"?' if close else ""
        out.append(Finding(
            ClaudeFinding.RULE_MATCHES_NOTHING,
            f"{rule.kind} rule \"{text}\" ({rule.source}) matches no tool: rules need the normalised form "
            f"mcp__<server>__<tool>, mcp__<server>, or a glob with * (no dots, no (…); ? and […] are literal){hint}",
            tool=close[0] if close else None, entry=text, source=rule.source,
        ))  # fmt: skip
    return out


def _meant_rule(text: str, listed: _ListedNames) -> tuple[str, ...]:
    """What the rule was likely meant to be: its normalised form when that is a real one, else the closest."""
    guess = listed.raw_tools.get(text) or _normalised_rule(text)
    if guess in listed.forms and guess != text:
        return (guess,)
    return did_you_mean(guess, listed.forms, normalize=lambda n: n.lower().replace("-", "_"), limit=2)


_STAGE_KINDS = {
    "approval.disabled": (ClaudeFinding.DISABLED_BY_DIALOG, Severity.ERROR),
    "source.managed_exclusive": (ClaudeFinding.MANAGED_EXCLUSIVE, Severity.ERROR),
    "source.mcp_config_fatal": (ClaudeFinding.MCP_CONFIG_FATAL, Severity.ERROR),
    "source.setting_sources": (ClaudeFinding.SETTING_SOURCES, Severity.WARNING),
    "policy.denied": (CodingCliFinding.SERVER_BLOCKED, Severity.ERROR),
    "policy.not_allowed": (CodingCliFinding.SERVER_BLOCKED, Severity.ERROR),
    "naming.collision": (CodingCliFinding.NAME_COLLISION, Severity.ERROR),
    "mcp.outage": (SharedFinding.MCP_OUTAGE, Severity.ERROR),
    "connection.late": (CodingCliFinding.SLOW_SERVER, Severity.ERROR),
    NOT_STARTED_CODE: (SharedFinding.MCP_NOT_STARTED, Severity.WARNING),
    "approval.pending": (ClaudeFinding.APPROVAL_DIFFERS, Severity.WARNING),
}


def claude_findings(subject: ClaudeCodeSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Every trap this configuration falls into, once per place."""
    out = list(subject.config_findings)
    if not subject.files.trusted:
        out += _untrusted_ignored(subject.files)
    out += _close_to_grace(subject)
    seen: set[tuple[str, str]] = set()
    for mode in modes or (None,):
        for verdict in subject.evaluate(mode).tools:
            for stage in verdict.stages:
                code = _finding_code(stage)
                if code is None:
                    continue
                key = (code, _finding_place(code, verdict))
                if key not in seen:
                    seen.add(key)
                    out.append(_stage_finding(subject, verdict, stage, code))
    return out


def _close_to_grace(subject: ClaudeCodeSubject) -> list[Finding]:
    """Servers measured close to the start-up grace (the late ones fail their connection stage)."""
    by_key = {d.key: d for d in subject.decisions}
    out = []
    for key, result in subject.results.items():
        decision = by_key.get(key)
        if decision is None or not decision.passed:
            continue
        for verdict in startup_verdicts([replace(result, name=decision.entry.name)], subject.grace):
            if not verdict.late:
                out.append(Finding(
                    CodingCliFinding.SLOW_SERVER, f"{verdict.sentence()}; fix: {verdict.fix()}",
                    tool=None, entry=decision.entry.name, source=decision.entry.source, severity=Severity.WARNING,
                ))  # fmt: skip
    return out


def _finding_place(code: str, verdict: ToolVerdict) -> str:
    """What a finding is reported once for: the tool (collisions), the whole run (a fatal flag), the server."""
    if code == "naming.collision":
        return verdict.name
    return "" if code == "source.mcp_config_fatal" else verdict.namespace


def _untrusted_ignored(files: Any) -> list[Finding]:
    """The project settings' keys Claude Code ignores until the project is trusted."""
    out = []
    for source in files.settings_in("project"):
        data = source.file.data
        ignored: list[str] = [k for k in ("enableAllProjectMcpServers", "enabledMcpjsonServers") if k in data]
        if isinstance(data.get("permissions"), dict) and data["permissions"].get("allow"):
            ignored.append("permissions.allow")
        if ignored:
            out.append(Finding(
                CodingCliFinding.UNTRUSTED_IGNORED,
                f"{source.file.shown}: {', '.join(ignored)} ignored because the project is not trusted, while its deny "
                f"rules, defaultMode and server policy apply; fix: accept the trust dialog (~/.claude.json: projects."
                f"\"{files.project_key}\".hasTrustDialogAccepted) or move them to .claude/settings.local.json",
                entry=", ".join(ignored), source=source.file.shown,
            ))  # fmt: skip
    return out


def _finding_code(stage: Stage) -> str | None:
    """The stage's code when it is a trap (``_STAGE_KINDS``); a pending interactive approval is
    one even when the stage passes (it passes in -p)."""
    code = stage.code
    if code == "approval.headless" and "interactive: pending" in stage.rule:
        return "approval.pending"
    return code if code in _STAGE_KINDS and stage.passed is not True else None


def _stage_finding(subject: ClaudeCodeSubject, verdict: ToolVerdict, stage: Stage, code: str) -> Finding:
    kind, severity = _STAGE_KINDS[code]
    if code == "approval.pending":
        message = (
            f'{verdict.namespace}: this .mcp.json server connects in -p but is "Pending approval" in the '
            f"interactive app and `claude mcp list` ({stage.rule})"
        )
    else:
        fix = fix_for(subject, verdict) if verdict.first_failing is stage else None
        message = f"{verdict.namespace}: {stage.rule}" + (f"; fix: {fix}" if fix else "")
    return Finding(kind, message, tool=verdict.name, entry=stage.entry, source=stage.source, severity=severity)
