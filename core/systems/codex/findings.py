"""Codex findings: the traps a configuration falls into, each with its place and its fix.

An untrusted project's servers ignored, ``enabled_tools`` naming tools the server does not
list (raw names, not ``mcp__…``), and what the stages show once per server: requirements
blocks, name collisions, outages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.enums import SharedFinding
from ...model.verdicts import Finding
from ...text.suggest import did_you_mean
from ..coding_cli.ids import CodingCliFinding
from .ids import CodexFinding, CodexStage
from .tools import value

if TYPE_CHECKING:
    from .subject import CodexSubject

_KIND_OF_CODE = {
    "requirements.not_listed": CodingCliFinding.SERVER_BLOCKED,
    "requirements.mismatch": CodingCliFinding.SERVER_BLOCKED,
    "naming.collision": CodingCliFinding.NAME_COLLISION,
    "mcp.outage": SharedFinding.MCP_OUTAGE,
}


def codex_findings(subject: CodexSubject, modes: Sequence[str | None]) -> list[Finding]:
    """Traps: untrusted project config, requirements blocks, enabled_tools typos, collisions, outages."""
    return [*_untrusted_servers(subject), *_enabled_tools_typos(subject), *_stage_findings(subject, modes)]


def _untrusted_servers(subject: CodexSubject) -> list[Finding]:
    """Servers defined only in a project config Codex ignores because the project is not trusted."""
    return [
        Finding(
            CodingCliFinding.UNTRUSTED_IGNORED,
            f'{shown} defines [mcp_servers.{name}] but Codex ignores it: the project is not trusted; fix: `codex exec --trust` or [projects."{subject.project}"] trust_level = "trusted"',
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
        out.append(
            Finding(
                _KIND_OF_CODE[failing.code],
                f"{verdict.namespace}: {failing.rule}",
                tool=verdict.name,
                entry=failing.entry,
                source=failing.source,
            )
        )
    return out
