"""``gemini-cli:[PROJECT_DIR]`` as a ``Subject``: every MCP tool Gemini CLI would send, stage by stage.

Modes are approval modes (``default``, ``auto_edit``, ``yolo``, ``plan``); the default is what
the session's flags say (``--approval-mode``, ``--yolo``), else ``general.defaultApprovalMode``
(``yolo`` there is ignored by the CLI), else ``default``. Whether the session is ``-p`` comes
from ``--client-args``: headless, a tool no rule allows is not sent; interactive, it is (the CLI
asks). Tools are named as sent: ``mcp_<server>_<tool>``.

Public API::

    load_gemini_subject(project, home=None, system_dir=None, client_args=None, snapshot=None,
                        environ=None, discover=False) -> GeminiSubject
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...mcp.results import ServerResult
from ...model.counts import count_of
from ...model.enums import ToolKind
from ...model.errors import unknown_mode_error
from ...model.opt_in import header_extra
from ...model.subject import resolved_paths
from ...model.verdicts import Checklist, Evaluation, Finding, LoadedInput, Stage, ToolVerdict
from ..coding_cli.common import check_project_dir
from .args import MODES, GeminiArgs, parse_gemini_args
from .files import GeminiFiles, load_gemini_files
from .ids import GEMINI_STAGES, GeminiInput
from .launch import list_gemini_servers
from .naming import sanitise, sent_name
from .policy import PolicyFile
from .rules import collect_rules
from .servers import ServerEntry, gather_servers, server_stages
from .tools import Session, connection_stage, excludes, tool_stages

if TYPE_CHECKING:
    from ..contract import OpenRequest

VERSION = "0.61.0"
DEFAULT_SYSTEM_DIR = Path("/etc/gemini-cli")


class GeminiSubject:
    """The files of one session, the servers' listings, and the verdicts per approval mode."""

    def __init__(
        self,
        files: GeminiFiles,
        args: GeminiArgs,
        servers: dict[str, ServerEntry],
        results: dict[str, ServerResult],
        where: str,
        loaded: LoadedInput,
        system_dir: Path,
        discover: bool = False,
        default_home: Path | None = None,
    ) -> None:
        self.files, self.args, self.servers, self.results = files, args, servers, results
        self.where, self.loaded, self.system_dir, self.discover = where, loaded, system_dir, discover
        self.default_home = default_home or files.home
        """The home toolscope reads without --home: suggested commands name --home when it differs."""
        self._cache: dict[str, Evaluation] = {}
        self.policy_files: list[PolicyFile] = []
        self.raw_names: dict[str, tuple[str, str]] = {}
        """Sent name → (server, raw tool name), filled by ``evaluate``."""
        from .findings import config_findings

        self.config_findings: tuple[Finding, ...] = tuple(config_findings(self))

    @property
    def mode_names(self) -> tuple[str, ...]:
        return MODES

    def mode_source(self) -> tuple[str, str]:
        """The session's approval mode and what chose it."""
        if self.args.mode():
            return str(self.args.mode()), "--client-args"
        value, file = self.files.settings.last("general.defaultApprovalMode")
        if value in ("default", "auto_edit", "plan") and file is not None:
            return str(value), file.at("general.defaultApprovalMode")
        return "default", "the CLI's default"

    @property
    def default_mode(self) -> str | None:
        return self.mode_source()[0]

    def resolve_mode(self, mode: str | None) -> str | None:
        if mode is None:
            return self.default_mode
        wanted = mode.strip().lower().replace("-", "_")
        if wanted == "autoedit":
            wanted = "auto_edit"
        if wanted in MODES:
            return wanted
        raise unknown_mode_error("Gemini CLI approval mode", mode, MODES)

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's stages in this approval mode."""
        mode = self.resolve_mode(mode) or "default"
        if mode not in self._cache:
            self._cache[mode] = self._evaluate(mode)
        return self._cache[mode]

    def _session(self, mode: str) -> Session:
        rules, self.policy_files = collect_rules(self.files, self.servers, self.args, mode, self.system_dir)
        default, source = self.mode_source()
        return Session(mode, source if mode == default else "--mode", self.args.headless, rules, excludes(self.files))

    def _evaluate(self, mode: str) -> Evaluation:
        session = self._session(mode)
        staged = [(s, server_stages(s, self.files, self.args)) for s in self.servers.values()]
        connected: dict[str, list[str]] = {}
        rows: list[ToolVerdict] = []
        for server, stages in staged:
            if all(st.passed for st in stages):
                stages.append(connection_stage(server, self.results.get(server.name), self.where))
                result = self.results.get(server.name)
                if stages[-1].passed and result is not None:
                    for tool in result.tools:
                        connected.setdefault(sent_name(server.name, tool), []).append(server.name)
        for server, stages in staged:
            rows += self._rows(session, server, stages, connected)
        session_word = "-p (headless)" if self.args.headless else "interactive (no -p in --client-args)"
        notes = (f"session: {session_word}; approval mode {mode} ({session.mode_source})", self.where)
        return Evaluation(
            loaded=replace(self.loaded, mode=mode), stage_names=GEMINI_STAGES, tools=tuple(rows), notes=notes
        )

    def _rows(
        self, session: Session, server: ServerEntry, stages: list[Stage], connected: Mapping[str, list[str]]
    ) -> list[ToolVerdict]:
        result = self.results.get(server.name)
        if not _listed(result, stages):
            name = f"mcp_{sanitise(server.name)}_*"
            self.raw_names[name] = (server.name, "*")
            return [ToolVerdict(name, server.name, ToolKind.MCP, tuple(stages))]
        assert result is not None
        rows = []
        for tool in result.tools:
            name = sent_name(server.name, tool)
            self.raw_names[name] = (server.name, tool)
            row = [*stages, *tool_stages(session, server, result, tool, _shared(name, server.name, connected))]
            rows.append(ToolVerdict(name, server.name, ToolKind.MCP, tuple(row), result.descriptions.get(tool, "")))
        return rows

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        from .checklist import gemini_checklist

        return gemini_checklist(self, tool, self.resolve_mode(mode) or "default")

    def fix_for(self, verdict: ToolVerdict) -> str | None:
        from .checklist import fix_for

        return fix_for(self, verdict)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        from .findings import gemini_findings

        return gemini_findings(self, modes)

    def all_tool_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.name for t in self.evaluate(None).tools))


def _listed(result: ServerResult | None, stages: list[Stage]) -> bool:
    """The server passed its stages and listed tools (else one ``mcp_<server>_*`` row stands for it)."""
    return result is not None and result.ok and bool(result.tools) and all(s.passed for s in stages)


def _shared(name: str, server: str, connected: Mapping[str, list[str]]) -> str | None:
    """Who else sends ``name`` (another server, or another tool of this one), or None."""
    owners = connected.get(name, [])
    others = [s for s in owners if s != server]
    if others:
        return f'server "{others[0]}"'
    return "another tool" if len(owners) > 1 else None


def default_home(environ: Mapping[str, str]) -> Path:
    """``$GEMINI_CLI_HOME``, else ``$HOME``."""
    return Path(environ.get("GEMINI_CLI_HOME") or environ.get("HOME") or Path.home()).expanduser().resolve()


def _loaded(
    project: Path, files: GeminiFiles, servers: int, results: dict[str, ServerResult], where: str
) -> LoadedInput:
    read = files.read_files()
    skipped = sum(1 for r in results.values() if not r.started)
    return LoadedInput(
        kind=GeminiInput.GEMINI_CLI,
        label=f"Gemini CLI project {project.name or project} · {count_of(servers, 'server')} · {where}",
        files=tuple((shown, digest) for shown, digest, _ in read),
        extra=(("input", "gemini-cli"), ("modelled on Gemini CLI", VERSION), *header_extra(skipped)),
        paths=resolved_paths(*(p for _, _, p in read)),
    )


def load_gemini_subject(
    project: Path,
    home: Path | None = None,
    system_dir: Path | None = None,
    client_args: str | None = None,
    snapshot: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = False,
) -> GeminiSubject:
    """Read the session's files, list the servers' tools (as ``launch`` allows), and wrap it all."""
    environ = dict(os.environ if environ is None else environ)
    check_project_dir(project, "gemini-cli")
    project = project.resolve()
    own_home = default_home(environ)
    args = parse_gemini_args(client_args)
    files = load_gemini_files(project, home.expanduser().resolve() if home else own_home, system_dir, args, environ)
    servers = gather_servers(files)
    startable = [s for s in servers.values() if all(st.passed for st in server_stages(s, files, args))]
    results, where = list_gemini_servers(startable, files, environ, snapshot, discover)
    loaded = _loaded(project, files, len(servers), results, where)
    system = system_dir or DEFAULT_SYSTEM_DIR
    return GeminiSubject(files, args, servers, results, where, loaded, system, discover, own_home)


def open_subject(request: OpenRequest) -> GeminiSubject:
    """The registry's opener: ``gemini-cli:DIR``."""
    return load_gemini_subject(
        request.path,
        home=request.get("home"),
        system_dir=request.get("gemini_system_dir"),
        client_args=request.get("client_args"),
        snapshot=request.get("snapshot"),
        discover=bool(request.get("discover")),
    )
