"""Codex findings: the traps a configuration falls into, each with its place and its fix.

An untrusted project's servers ignored, ``enabled_tools`` naming tools the server does not
list (raw names, not ``mcp__…``), and what the stages show once per server: requirements
blocks, name collisions, outages, servers toolscope did not start (a warning: tools unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Finding
from ...text.suggest import did_you_mean
from ..coding_cli.ids import CodingCliFinding
from .ids import CodexFinding, CodexStage
from .launch import DEFAULT_ENV_VARS, MAX_NAMES_SHOWN, surely_late
from .tools import value

if TYPE_CHECKING:
    from .subject import CodexSubject

_KIND_OF_CODE = {
    "requirements.not_listed": CodingCliFinding.SERVER_BLOCKED,
    "requirements.mismatch": CodingCliFinding.SERVER_BLOCKED,
    "naming.collision": CodingCliFinding.NAME_COLLISION,
    "mcp.outage": SharedFinding.MCP_OUTAGE,
    NOT_STARTED_CODE: SharedFinding.MCP_NOT_STARTED,
}


def codex_findings(subject: CodexSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Traps: untrusted project config, requirements blocks, enabled_tools typos, collisions, outages."""
    return [
        *_run_ends(subject),
        *_env_not_passed(subject),
        *_slow_servers(subject),
        *_untrusted_servers(subject),
        *_enabled_tools_typos(subject),
        *_stage_findings(subject, modes),
    ]


def _run_ends(subject: CodexSubject) -> list[Finding]:
    """Each cause that makes codex exec exit 1 before any request (so no tool reaches the model)."""
    return [
        Finding(end.kind, f"{end.message}; fix: {end.fix}", entry=end.entry or None, source=end.source)
        for end in subject.run_ends
    ]


def _slow_servers(subject: CodexSubject) -> list[Finding]:
    """Servers (measured with --discover) slower than Codex's start-up grace: late ones an error, close ones a warning."""
    return [
        Finding(
            CodingCliFinding.SLOW_SERVER,
            f"server slower than the CLI's start-up grace: {v.sentence()}; fix: {v.fix()}",
            entry=v.server,
            source=f"live discovery: {v.seconds:.1f} s",
            severity=Severity.ERROR if surely_late(v) else Severity.WARNING,
        )
        for v in subject.slow
    ]


def _env_not_passed(subject: CodexSubject) -> list[Finding]:
    """A server that fails with Codex's environment and starts with the shell's: name the variables in env_vars."""
    out = []
    for name, missing in subject.env_needed.items():
        shown = ", ".join(missing[:MAX_NAMES_SHOWN]) + (
            f" and {len(missing) - MAX_NAMES_SHOWN} more" if len(missing) > MAX_NAMES_SHOWN else ""
        )
        out.append(
            Finding(
                CodexFinding.ENV_NOT_PASSED,
                f"[mcp_servers.{name}] fails to start with the environment Codex gives servers "
                f"({', '.join(DEFAULT_ENV_VARS)}, env_vars and env) but starts with the shell's: it needs a variable "
                f'Codex does not pass (not passed here: {shown}); fix: env_vars = ["NAME"] in [mcp_servers.{name}] '
                "naming the variables it needs (or set them in its env table)",
                entry=name,
                source=subject.merged.servers[name].get("command", (None, ""))[1] or None,
            )
        )
    return out


def trust_fix(subject: CodexSubject) -> str:
    """The trust entry that makes every ``.codex/`` of this project read (the git root's, or the main repository's)."""
    folders = subject.folders
    target = folders.trust_target if folders else subject.project
    why = ""
    if folders and folders.root is not None and target != subject.project:
        where = "the main repository of this worktree" if folders.worktree else "the git root"
        why = f" (Codex decides trust for {where}, not for the working directory)"
    return f'[projects."{target}"] trust_level = "trusted" in $CODEX_HOME/config.toml{why}'


def _untrusted_servers(subject: CodexSubject) -> list[Finding]:
    """Servers defined only in a project config Codex ignores because the project is not trusted."""
    return [
        Finding(
            CodingCliFinding.UNTRUSTED_IGNORED,
            f"{shown} defines [mcp_servers.{name}] but Codex ignores it: the project is not trusted; fix: {trust_fix(subject)}",
            entry=name,
            source=shown,
        )
        for name, shown in subject.merged.ignored_servers.items()
        if name not in subject.merged.servers
    ]


def _enabled_tools_typos(subject: CodexSubject) -> list[Finding]:
    """``enabled_tools`` entries the server does not list, with the name probably meant."""
    out = []
    for name, server in subject.merged.servers.items():
        enabled, where = value(server, "enabled_tools")
        result = subject.results.get(name)
        if not (isinstance(enabled, list) and result and result.ok):
            continue
        wrong = [t for t in enabled if t not in result.tools]
        if not wrong:
            continue
        close = [
            (w.rpartition("__")[2],)
            if w.rpartition("__")[2] in result.tools
            else did_you_mean(w, result.tools, limit=1)
            for w in wrong
        ]
        hint = "; ".join(f'"{w}" → did you mean "{c[0]}"?' for w, c in zip(wrong, close, strict=True) if c)
        whole = " — none matches, so the whole server is hidden" if len(wrong) == len(enabled) else ""
        out.append(
            Finding(
                CodexFinding.TOOL_FILTER_MATCHES_NOTHING,
                f"enabled_tools ({where}) names {wrong} that server {name} does not list (raw names: {list(result.tools)}){whole}"
                + (f"; {hint}" if hint else ""),
                entry=str(wrong),
                source=where,
            )
        )
    return out


def _stage_findings(subject: CodexSubject, modes: Sequence[str | None]) -> list[Finding]:
    """A requirements block, a collision or an outage, once per server and kind."""
    out = []
    seen = set()
    for verdict in subject.evaluate(modes[0] if modes else None).tools:
        naming = verdict.stage(CodexStage.NAMING)
        failing = naming if naming is not None and naming.code == "naming.collision" else verdict.first_failing
        if failing is None or failing.code not in _KIND_OF_CODE or (failing.code, verdict.namespace) in seen:
            continue
        seen.add((failing.code, verdict.namespace))
        kind = _KIND_OF_CODE[failing.code]
        unknown = kind == SharedFinding.MCP_NOT_STARTED
        out.append(
            Finding(
                kind,
                f"{verdict.namespace}: {failing.rule}" + (f"; fix: {subject.fix_for(verdict)}" if unknown else ""),
                tool=verdict.name,
                entry=failing.entry,
                source=failing.source,
                severity=Severity.WARNING if unknown else Severity.ERROR,
            )
        )
    return out
