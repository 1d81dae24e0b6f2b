"""``claude-code:[PROJECT_DIR]`` as a ``Subject``: every MCP tool Claude Code would offer, stage by stage.

Modes are Claude Code's permission modes; the default is what the session's flags or the
settings say (``permissions.defaultMode``). Whether the session is ``-p`` comes from
``--client-args`` (interactive otherwise): stage 3 and stage 9 answer for that session and
name the other answer in the rule. The servers' tools are listed once (live or snapshot); a server
is started only as ``launch`` says (``--discover``, or the user's own definition).

Public API::

    load_claude_code_subject(project, home=None, managed_dir=None, client_args=None,
                             snapshot=None, environ=None, discover=False) -> ClaudeCodeSubject
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...mcp.results import ServerResult
from ...model.enums import StageId, ToolKind
from ...model.errors import unknown_mode_error
from ...model.opt_in import header_extra
from ...model.subject import resolved_paths
from ...model.verdicts import Checklist, Evaluation, Finding, LoadedInput, Stage, ToolVerdict
from ..coding_cli.common import check_project_dir, claude_name_part
from .args import ClientArgs, parse_client_args
from .files import ClaudeFiles, load_claude_files
from .ids import CLAUDE_CODE_STAGES, ClaudeInput
from .launch import claude_grace, list_claude_servers
from .permissions import MODES, collect_rules, effective_mode
from .servers import ServerDecision, connection_stage, decide_servers
from .tools import (
    Context,
    build_context,
    callable_stage,
    collisions,
    context_stage,
    deny_stage,
    final_name,
    naming_stage,
)

DEFAULT_MANAGED_DIR = Path("/etc/claude-code")

if TYPE_CHECKING:
    from ..contract import OpenRequest


class ClaudeCodeSubject:
    """The files of one project, the servers' listings, and the verdicts per mode."""

    discover: bool = False
    """Whether this run may start servers (``--discover``): suggested commands repeat it."""

    def __init__(
        self,
        files: ClaudeFiles,
        args: ClientArgs,
        decisions: list[ServerDecision],
        results: dict[str, ServerResult],
        where: str,
        environ: Mapping[str, str],
        loaded: LoadedInput,
        discover: bool = False,
    ) -> None:
        """Wrap what was read; verdicts are computed per mode on demand."""
        self.files, self.args, self.decisions, self.results = files, args, decisions, results
        self.where, self.environ, self.loaded = where, environ, loaded
        self.discover = discover
        self.grace = claude_grace(files, environ)
        """How long the first request waits for servers (``launch.claude_grace``)."""
        self._cache: dict[str, Evaluation] = {}
        from .findings import config_findings

        self.config_findings: tuple[Finding, ...] = tuple(config_findings(self))

    @property
    def mode_names(self) -> tuple[str, ...]:
        """Claude Code's permission modes."""
        return MODES

    @property
    def default_mode(self) -> str | None:
        """The mode the session's flags or settings choose."""
        return effective_mode(self.files, self.args, None)[0]

    def resolve_mode(self, mode: str | None) -> str | None:
        """Case-insensitive mode name; InputError naming --mode with the modes for an unknown one."""
        if mode is None:
            return self.default_mode
        for known in MODES:
            if known.lower() == mode.strip().lower().replace("-", "").replace("_", ""):
                return known
        raise unknown_mode_error("Claude Code permission mode", mode, MODES)

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's nine stages in this permission mode."""
        mode = self.resolve_mode(mode) or "default"
        if mode not in self._cache:
            self._cache[mode] = self._evaluate(mode)
        return self._cache[mode]

    def _evaluate(self, mode: str) -> Evaluation:
        chosen = effective_mode(self.files, self.args, mode if mode != self.default_mode else None)
        rules = collect_rules(self.files, self.args)
        ctx = build_context(self.files, self.args, rules, chosen, self.environ)
        tool_search_denied = any(r.kind == "deny" and r.counts and r.text.strip() == "ToolSearch" for r in rules)
        server_rows, connected = self._server_stages()
        lost = collisions(connected)
        rows = [
            row
            for decision, stages, result in server_rows
            for row in _server_rows(ctx, decision, stages, result, lost, tool_search_denied)
        ]
        session = "-p (headless)" if self.args.print_mode else "interactive (no -p in --client-args)"
        # Unset, the source already says so in full ("ENABLE_TOOL_SEARCH unset").
        search = (
            f"ENABLE_TOOL_SEARCH={ctx.tool_search} ({ctx.tool_search_source})"
            if ctx.tool_search is not None
            else ctx.tool_search_source
        )
        notes = (
            f"session: {session}; permission mode {ctx.mode} ({ctx.mode_source})",
            f"model {ctx.model}; {search}",
            self.where,
        )
        return Evaluation(
            loaded=replace(self.loaded, mode=mode), stage_names=CLAUDE_CODE_STAGES, tools=tuple(rows), notes=notes
        )

    def _server_stages(
        self,
    ) -> tuple[list[tuple[ServerDecision, tuple[Stage, ...], ServerResult | None]], list[tuple[str, ServerResult]]]:
        """Each server's stages (with its connection when the earlier ones let it start) and its
        listing; and the (name, listing) of the servers that connected."""
        server_rows = []
        connected = []
        for decision in self.decisions:
            result = self.results.get(decision.key)
            stages = decision.stages
            if decision.passed:
                stages = (*stages, connection_stage(decision, result, self.where, self.grace))
                if stages[-1].passed and result is not None:
                    connected.append((decision.entry.name, result))
            server_rows.append((decision, stages, result))
        return server_rows, connected

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The four questions for one tool (``mcp__server__tool``, or ``server:tool``), ending at the fix."""
        from .checklist import claude_checklist

        return claude_checklist(self, tool, self.resolve_mode(mode) or "default")

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """The traps of reference §3 that this configuration falls into."""
        from .findings import claude_findings

        return claude_findings(self, modes)

    def all_tool_names(self) -> tuple[str, ...]:
        """Every final tool name (and ``mcp__server__*`` rows)."""
        return tuple(dict.fromkeys(t.name for t in self.evaluate(None).tools))


def load_claude_code_subject(
    project: Path,
    home: Path | None = None,
    managed_dir: Path | None = None,
    client_args: str | None = None,
    snapshot: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = False,
) -> ClaudeCodeSubject:
    """Read the project's Claude Code files, list the servers' tools, and wrap it all.

    ``discover``: start every server Claude Code would start (``launch``); without it only the
    user's own definitions are started, the others' tools are unknown (not started)."""
    environ = dict(os.environ if environ is None else environ)
    check_project_dir(project, "claude-code")
    home = (home or Path(environ.get("HOME") or Path.home())).expanduser().resolve()
    args = parse_client_args(client_args)
    files = load_claude_files(project, home, (managed_dir or DEFAULT_MANAGED_DIR), args)
    decisions = decide_servers(files, args)
    results, where = list_claude_servers(decisions, files, environ, snapshot, discover)
    loaded = LoadedInput(
        kind=ClaudeInput.CLAUDE_CODE,
        label=f"Claude Code project {files.project.name or files.project} · {len(decisions)} server definitions · {where}",
        files=tuple((f.shown, f.sha256) for f in files.files if f.sha256),
        extra=(
            ("input", "claude-code"),
            ("modelled on Claude Code", "2.1.332"),
            *header_extra(sum(1 for r in results.values() if not r.started)),
        ),
        paths=resolved_paths(*(f.path for f in files.files if f.sha256)),
    )
    return ClaudeCodeSubject(files, args, decisions, results, where, environ, loaded, discover)


def stage_of(verdict: ToolVerdict, name: StageId) -> Stage | None:
    """The stage with this id in a verdict, if reached."""
    return verdict.stage(name)


def open_subject(request: OpenRequest) -> ClaudeCodeSubject:
    """The registry's opener: ``claude-code:DIR``."""
    return load_claude_code_subject(
        request.path,
        home=request.get("home"),
        managed_dir=request.get("managed_dir"),
        client_args=request.get("client_args"),
        snapshot=request.get("snapshot"),
        discover=bool(request.get("discover")),
    )


def _server_rows(
    ctx: Context,
    decision: ServerDecision,
    stages: tuple[Stage, ...],
    result: ServerResult | None,
    lost: Mapping[tuple[str, str], str],
    tool_search_denied: bool,
) -> list[ToolVerdict]:
    """One row per listed tool; one ``mcp__<server>__*`` row for a server without a listing."""
    server = decision.entry.name
    if result is None or not result.ok or not result.tools:
        return [ToolVerdict(f"mcp__{claude_name_part(server)}__*", server, ToolKind.MCP, stages)]
    rows = []
    for tool in result.tools:
        row = stages
        if all(s.passed for s in stages):
            row += _tool_stages(ctx, decision, result, tool, lost.get((server, tool)), tool_search_denied)
        name = final_name(server, tool)
        rows.append(ToolVerdict(name, server, ToolKind.MCP, row, result.descriptions.get(tool, "")))
    return rows


def _tool_stages(
    ctx: Context, decision: ServerDecision, result: ServerResult, tool: str, lost: str | None, tool_search_denied: bool
) -> tuple[Stage, ...]:
    """A listed tool's own stages after its server's: naming, then deny, then in context and callable,
    each only when the one before passed."""
    server = decision.entry.name
    name = final_name(server, tool)
    row = [naming_stage(server, tool, lost)]
    if row[-1].passed:
        row.append(deny_stage(ctx, server, name))
    if row[-1].passed:
        row.append(context_stage(ctx, decision.entry.entry, result.hints.get(tool, ()), tool_search_denied))
        row.append(callable_stage(ctx, server, name))
    return tuple(row)
