"""``codex:[PROJECT_DIR]`` as a ``Subject``: every MCP tool Codex would offer, stage by stage.

Modes are approval policies (``never`` is what ``codex exec`` uses; ``on-request``,
``untrusted``); the default is ``approval_policy`` from the config, else ``never``.
Tools are named ``namespace:function`` (``mcp__time:convert_time``); ``explain`` also takes
``mcp__time__convert_time``.

Public API::

    load_codex_subject(project, codex_home=None, system_dir=None, overrides=(), snapshot=None,
                       environ=None, discover=False) -> CodexSubject
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...mcp.results import ServerResult
from ...mcp.startup import StartupVerdict
from ...model.counts import count_of
from ...model.errors import unknown_mode_error
from ...model.opt_in import header_extra
from ...model.subject import resolved_paths
from ...model.verdicts import Checklist, Evaluation, Finding, LoadedInput, ToolVerdict
from ..coding_cli.common import check_project_dir
from .args import parse_codex_args
from .checklist import codex_checklist, fix_for
from .fatal import RunEnd, run_ends
from .findings import codex_findings
from .folders import ProjectFolders
from .ids import CODEX_STAGES, CodexInput
from .launch import CODEX_GRACE, late_servers, list_codex_servers, startable_servers, surely_late
from .layers import Layer, Merged, load_layers, merge, read_toml
from .rows import Policy, RawNames, tool_rows

MODES = ("never", "on-request", "untrusted")

if TYPE_CHECKING:
    from ..contract import OpenRequest


@dataclass(frozen=True)
class CodexFacts:
    """What loading found beyond the layers and listings: the project folders, the profile, servers that need a
    shell variable, what ends the run, and the servers slower than the start-up grace."""

    folders: ProjectFolders | None = None
    profile: str | None = None
    env_needed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    run_ends: tuple[RunEnd, ...] = ()
    slow: tuple[StartupVerdict, ...] = ()


class CodexSubject:
    """The merged layers, the servers' listings, and the verdicts per approval policy."""

    config_findings: tuple[Finding, ...] = ()
    codex_home: Path = Path("~/.codex")
    """The folders read and the ``-c`` overrides, for the ``toolscope check`` command the checklist suggests."""
    default_home: Path = Path("~/.codex")
    system_dir: Path = Path("/etc/codex")
    overrides: tuple[str, ...] = ()
    discover: bool = False
    """Whether this run may start servers (``--discover``): suggested commands repeat it."""

    def __init__(
        self,
        layers: list[Layer],
        merged: Merged,
        requirements: Layer | None,
        results: dict[str, ServerResult],
        where: str,
        loaded: LoadedInput,
        project: Path,
        read_from: tuple[Path, Path, Path, tuple[str, ...]] | None = None,
        discover: bool = False,
        facts: CodexFacts | None = None,
    ) -> None:
        """Wrap what was read; ``read_from``: (CODEX_HOME, its default, the system folder, the -c overrides)."""
        self.layers, self.merged, self.requirements, self.results = layers, merged, requirements, results
        self.where, self.loaded, self.project = where, loaded, project
        self.discover = discover
        facts = facts or CodexFacts()
        self.folders, self.profile, self.env_needed = facts.folders, facts.profile, facts.env_needed
        self.run_ends, self.slow = facts.run_ends, facts.slow
        if read_from is not None:
            self.codex_home, self.default_home, self.system_dir, self.overrides = read_from
        self._cache: dict[str, Evaluation] = {}
        self.raw_names: RawNames = {}
        """(namespace, function) → (server, raw tool name): the names Codex's keys take, filled by ``evaluate``."""

    @property
    def mode_names(self) -> tuple[str, ...]:
        """Codex approval policies."""
        return MODES

    @property
    def default_mode(self) -> str | None:
        """``approval_policy`` from the config, else never (codex exec)."""
        found = self.merged.top.get("approval_policy")
        return found[0] if found and found[0] in MODES else "never"

    def resolve_mode(self, mode: str | None) -> str | None:
        """An approval policy name; InputError naming --mode otherwise."""
        if mode is None:
            return self.default_mode
        if mode.strip().lower() in MODES:
            return mode.strip().lower()
        raise unknown_mode_error("Codex approval policy", mode, MODES)

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's eight stages under this approval policy."""
        mode = self.resolve_mode(mode) or "never"
        if mode not in self._cache:
            policy = self._policy(mode)
            rows = tool_rows(self.merged, policy, self.results, self.where, self.requirements, self.raw_names)
            notes = (
                f"approval policy {mode} ({policy.source}); model {policy.model} ({policy.model_source})",
                self.where,
            )
            self._cache[mode] = Evaluation(
                loaded=replace(self.loaded, mode=mode), stage_names=CODEX_STAGES, tools=tuple(rows), notes=notes
            )
        return self._cache[mode]

    def evaluate_at(self, mode: str | None, seconds: float) -> Evaluation:
        """The evaluation for a request sent ``seconds`` after the first: a server slower than the start-up
        grace is offered once its measured start-up has passed (observed: Codex adds its tools to the next
        request after it is ready)."""
        still = _still_late(self.slow, seconds)
        if still == _still_late(self.slow, 0.0):
            return self.evaluate(mode)
        mode = self.resolve_mode(mode) or "never"
        key = f"{mode}@{','.join(sorted(still))}"
        if key not in self._cache:
            policy = self._policy(mode)
            policy = replace(policy, late={n: s for n, s in policy.late.items() if n in still})
            rows = tool_rows(self.merged, policy, self.results, self.where, self.requirements, {})
            self._cache[key] = replace(self.evaluate(mode), tools=tuple(rows))
        return self._cache[key]

    def _policy(self, mode: str) -> Policy:
        """The approval policy and where it came from, the model, and whether tool names get the mcp__ prefix."""
        model, model_source = self.merged.top.get("model", ("gpt-5.5", "Codex's default"))
        features = self.merged.top.get("features", ({}, ""))[0]
        prefixed = not (isinstance(features, dict) and features.get("non_prefixed_mcp_tool_names") is True)
        source = (
            self.merged.top.get("approval_policy", (None, "codex exec's default"))[1]
            if mode == self.default_mode
            else "--mode"
        )
        run_end = self.run_ends[0].message if self.run_ends else ""
        late = {v.server: v.sentence() for v in self.slow if surely_late(v)}
        return Policy(mode, source, str(model), model_source, prefixed, run_end, late)

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The four questions for one tool (``namespace:function`` or ``mcp__server__function``)."""
        return codex_checklist(self, tool, self.resolve_mode(mode) or "never")

    def fix_for(self, verdict: ToolVerdict) -> str | None:
        """The concrete change for the first failing stage, in Codex's own keys (raw server and tool names)."""
        return fix_for(self, verdict)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Traps: untrusted project config, requirements blocks, enabled_tools typos, collisions, outages."""
        return codex_findings(self, modes)

    def all_tool_names(self) -> tuple[str, ...]:
        """Every ``namespace:function``."""
        return tuple(f"{t.namespace}:{t.name}" for t in self.evaluate(None).tools)


def _still_late(slow: tuple[StartupVerdict, ...], seconds: float) -> set[str]:
    """The late servers still not started ``seconds`` after the first request."""
    return {v.server for v in slow if surely_late(v) and v.seconds > CODEX_GRACE.seconds + seconds}


def load_codex_subject(
    project: Path,
    codex_home: Path | None = None,
    system_dir: Path | None = None,
    overrides: tuple[str, ...] = (),
    snapshot: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = False,
    client_args: str | None = None,
) -> CodexSubject:
    """Read the layers, list the servers' tools, and wrap it all.

    ``discover``: start every server Codex would start (``launch``); without it only the user's
    own servers are started, the others' tools are unknown (not started). ``client_args``: the
    session's own flags (``--profile``, ``-c``, ``-m``, ``--enable``/``--disable``)."""
    environ = dict(os.environ if environ is None else environ)
    check_project_dir(project, "codex")
    project = project.resolve()
    args = parse_codex_args(client_args)
    overrides = (*overrides, *args.overrides)
    default_home = Path(environ.get("CODEX_HOME") or Path(environ.get("HOME") or Path.home()) / ".codex")
    home = (codex_home or default_home).expanduser().resolve()
    system_dir = system_dir or Path("/etc/codex")
    layers, folders = load_layers(project, home, system_dir, overrides, args.profile)
    merged = merge(layers)
    requirements = read_toml(system_dir / "requirements.toml", str(system_dir / "requirements.toml"), "requirements")
    results, where, needed = list_codex_servers(merged, requirements, environ, snapshot, discover)
    read = [la for la in [*layers, requirements] if la is not None and la.path is not None]
    read_from = (home, default_home.expanduser().resolve(), Path(system_dir), tuple(overrides))
    loaded = _loaded(project, merged, where, read, results)
    startable = startable_servers(merged, requirements)
    facts = CodexFacts(
        folders,
        args.profile,
        needed,
        tuple(run_ends(layers, merged, results, startable, args.profile)),
        late_servers(results, startable) if discover and snapshot is None else (),
    )
    return CodexSubject(layers, merged, requirements, results, where, loaded, project, read_from, discover, facts)


def _loaded(
    project: Path, merged: Merged, where: str, read: list[Layer], results: dict[str, ServerResult]
) -> LoadedInput:
    return LoadedInput(
        kind=CodexInput.CODEX,
        label=f"Codex project {project.name} · {count_of(len(merged.servers), 'server')} · {where}",
        files=tuple((la.shown, la.sha256) for la in read),
        extra=(
            ("input", "codex"),
            ("modelled on Codex", "0.171.0"),
            *header_extra(sum(1 for r in results.values() if not r.started)),
        ),
        paths=resolved_paths(*(la.path for la in read)),
    )


def open_subject(request: OpenRequest) -> CodexSubject:
    """The registry's opener: ``codex:DIR``."""
    return load_codex_subject(
        request.path,
        codex_home=request.get("codex_home"),
        system_dir=request.get("codex_system_dir"),
        overrides=tuple(request.get("codex_config") or ()),
        snapshot=request.get("snapshot"),
        discover=bool(request.get("discover")),
        client_args=request.get("client_args"),
    )
