"""Claude Code findings: the traps of reference §3, each with its place and its fix.

``config_findings`` are mistakes in the files themselves (shown before every answer):
servers in files Claude never reads, permission rules in a form that matches nothing.
``claude_findings`` adds what the stages show: untrusted keys ignored, servers the dialog
disabled, approval that differs between -p and interactive, managed-mcp.json dropping
servers, policy blocks, collisions, outages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding
from ...model.verdicts import Finding
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
    if not listed:
        return out
    names = {f"mcp__{claude_name_part(s)}__{claude_name_part(t)}": s for s, r in listed for t in r.tools}
    forms = [
        *names,
        *{f"mcp__{claude_name_part(s)}" for s, _ in listed},
        *{f"mcp__{claude_name_part(s)}__*" for s, _ in listed},
    ]
    raw_tools = {t: f"mcp__{claude_name_part(s)}__{claude_name_part(t)}" for s, r in listed for t in r.tools}
    for rule in collect_rules(subject.files, subject.args):
        text = rule.text.strip()
        if text in ("ToolSearch",) or not (text.startswith("mcp__") or text in raw_tools):
            continue
        if any(rule_matches(text, claude_name_part(server), name) for name, server in names.items()):
            continue
        guess = _normalised_rule(text)
        if text in raw_tools:
            guess = raw_tools[text]
        close = (
            (guess,)
            if guess in forms and guess != text
            else did_you_mean(guess, forms, normalize=lambda n: n.lower().replace("-", "_"), limit=2)
        )
        hint = f'; did you mean "{close[0]}"?' if close else ""
        out.append(Finding(
            ClaudeFinding.RULE_MATCHES_NOTHING,
            f"{rule.kind} rule \"{text}\" ({rule.source}) matches no tool: rules need the normalised form "
            f"mcp__<server>__<tool>, mcp__<server> or mcp__<server>__* (no dots, no (…)){hint}",
            tool=close[0] if close else None, entry=text, source=rule.source,
        ))  # fmt: skip
    return out


_STAGE_KINDS = {
    "approval.disabled": (ClaudeFinding.DISABLED_BY_DIALOG, Severity.ERROR),
    "source.managed_exclusive": (ClaudeFinding.MANAGED_EXCLUSIVE, Severity.ERROR),
    "policy.denied": (CodingCliFinding.SERVER_BLOCKED, Severity.ERROR),
    "policy.not_allowed": (CodingCliFinding.SERVER_BLOCKED, Severity.ERROR),
    "naming.collision": (CodingCliFinding.NAME_COLLISION, Severity.ERROR),
    "mcp.outage": (SharedFinding.MCP_OUTAGE, Severity.ERROR),
    "approval.pending": (ClaudeFinding.APPROVAL_DIFFERS, Severity.WARNING),
}


def claude_findings(subject: ClaudeCodeSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Every trap this configuration falls into, once per place."""
    out = list(subject.config_findings)
    files = subject.files
    if not files.trusted:
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
    seen: set[tuple[str, str]] = set()
    for mode in modes or (None,):
        for verdict in subject.evaluate(mode).tools:
            failing = verdict.first_failing
            for stage in verdict.stages:
                code = stage.code
                if code == "approval.headless" and "interactive: pending" in stage.rule:
                    code = "approval.pending"
                found = _STAGE_KINDS.get(code)
                if found is None or (stage.passed is True and code != "approval.pending"):
                    continue
                key = (code, verdict.namespace if code != "naming.collision" else verdict.name)
                if key in seen:
                    continue
                seen.add(key)
                kind, severity = found
                fix = fix_for(subject, verdict) if failing is stage else None
                message = f"{verdict.namespace}: {stage.rule}" + (f"; fix: {fix}" if fix else "")
                if code == "approval.pending":
                    message = (
                        f'{verdict.namespace}: this .mcp.json server connects in -p but is "Pending approval" in the '
                        f"interactive app and `claude mcp list` ({stage.rule})"
                    )
                out.append(
                    Finding(kind, message, tool=verdict.name, entry=stage.entry, source=stage.source, severity=severity)
                )
    return out
