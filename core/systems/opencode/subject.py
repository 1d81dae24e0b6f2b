"""``opencode:[PROJECT_DIR]`` as a ``Subject``: every tool an OpenCode agent's model would get, stage by stage.

Modes are agents (``build``, ``plan``, the config's primary or ``all`` agents); the default is the
one ``--agent`` in ``--client-args`` names (a subagent or unknown name falls back to the default
agent, as ``opencode run`` does, with its warning in the notes), else ``default_agent``, else
``build``. ``-m provider/model`` in ``--client-args`` (else ``model``) picks the model, which
decides ``apply_patch`` against ``edit``/``write``. The environment the session runs in is
toolscope's own (``OPENCODE_CONFIG*``, ``OPENCODE_PERMISSION``, ``{env:…}``).

Public API::

    load_opencode_subject(project, home=None, client_args="", managed_dir=None, snapshot=None,
                          environ=None, discover=False) -> OpenCodeSubject
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...mcp.results import ServerResult
from ...model.counts import count_of
from ...model.enums import ToolKind
from ...model.errors import InputError, Problem, unknown_mode_error
from ...model.opt_in import header_extra
from ...model.subject import resolved_paths
from ...model.verdicts import Checklist, Evaluation, Finding, LoadedInput, Stage, ToolVerdict
from ..coding_cli.common import check_project_dir
from .agents import HIDDEN, agents_of, resolve_agent
from .ids import OPENCODE_STAGES, OpenCodeInput
from .launch import list_opencode_servers, server_entries
from .layers import Layers, load_layers
from .rows import Context, builtin_rows, config_problems, naming_stage, sanitise, server_stages, tool_name, tool_row
from .rules import ruleset

if TYPE_CHECKING:
    from ..contract import OpenRequest

VERSION = "1.18.33"


def parse_client_args(text: str) -> tuple[str | None, str | None]:
    """``--agent NAME`` and ``-m/--model provider/model`` of an ``opencode run`` command line."""
    try:
        words = shlex.split(text or "")
    except ValueError as exc:
        raise InputError(
            "--client-args", f"cannot split: {exc}", [Problem("", 'expected e.g. "--agent plan -m local/gpt-5"')]
        ) from None
    found: dict[str, str] = {}
    for i, word in enumerate(words[:200]):
        flag, eq, value = word.partition("=")
        key = {"--agent": "agent", "-m": "model", "--model": "model"}.get(flag)
        if key is None:
            continue
        if not eq:
            if i + 1 >= len(words):
                raise InputError("--client-args", f"{flag} needs a value", [Problem(flag, "expected a value after it")])
            value = words[i + 1]
        found[key] = value
    return found.get("agent"), found.get("model")


def api_id(merged: dict[str, Any], chosen: str) -> str:
    """``provider/model`` → the id sent to the API (``provider.P.models.M.id``, else M)."""
    provider, _, key = chosen.partition("/")
    providers = merged.get("provider")
    block = providers.get(provider) if isinstance(providers, dict) else None
    models = block.get("models") if isinstance(block, dict) else None
    entry = models.get(key) if isinstance(models, dict) else None
    found = entry.get("id") if isinstance(entry, dict) else None
    return found if isinstance(found, str) else key


class OpenCodeSubject:
    """The merged config, the servers' listings, and the verdicts per agent."""

    def __init__(self, layers: Layers, results: dict[str, ServerResult], where: str, loaded: LoadedInput, project: Path,
                 environ: Mapping[str, str], client: tuple[str | None, str | None], discover: bool) -> None:  # fmt: skip
        self.layers, self.results, self.where, self.loaded, self.project = layers, results, where, loaded, project
        self.environ, self.discover = environ, discover
        self.requested_agent, self.requested_model = client
        self.agent, self.agent_warning = resolve_agent(self.requested_agent, layers.merged)
        self.invalid = config_problems(layers)
        self._cache: dict[str, Evaluation] = {}
        self.config_findings: tuple[Finding, ...] = ()

    @property
    def mode_names(self) -> tuple[str, ...]:
        """The agents a run can use (primary or ``all``, not hidden)."""
        return tuple(n for n, m in agents_of(self.layers.merged).items() if m in ("primary", "all") and n not in HIDDEN)

    @property
    def default_mode(self) -> str | None:
        """The agent ``--client-args`` names (after the binary's fallback), else the default agent."""
        return self.agent

    def resolve_mode(self, mode: str | None) -> str | None:
        """An agent name; InputError naming --mode otherwise."""
        if mode is None:
            return self.agent
        if mode.strip() in self.mode_names:
            return mode.strip()
        raise unknown_mode_error("OpenCode agent", mode, self.mode_names)

    def model(self) -> tuple[str, str]:
        """The model's API id (``provider.P.models.M.id``, else M) and where it was chosen."""
        if self.requested_model:
            return api_id(self.layers.merged, self.requested_model), f"{self.requested_model}, --client-args -m"
        chosen = self.layers.merged.get("model")
        if not isinstance(chosen, str) or not chosen:
            return "(none)", "no model configured"
        return api_id(self.layers.merged, chosen), f"{chosen}, {self.layers.at('model') or 'config'}"

    def context(self, agent: str) -> Context:
        """What every row of one agent's evaluation reads."""
        rules = ruleset(agent, self.layers.merged, self.layers.where, self.environ)
        model, source = self.model()
        code = any(self.environ.get(v) for v in ("OPENCODE_EXPERIMENTAL_CODE_MODE", "OPENCODE_EXPERIMENTAL"))
        return Context(agent, rules, model, source, code, self.invalid)

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's stages for one agent."""
        agent = self.resolve_mode(mode) or "build"
        if agent not in self._cache:
            ctx = self.context(agent)
            rows = [*self._mcp_rows(ctx), *builtin_rows(ctx)]
            notes = [f"agent {agent}; model {ctx.model} ({ctx.model_source})", self.where]
            if self.agent_warning and mode is None:
                notes.insert(0, f"opencode run prints: {self.agent_warning}")
            self._cache[agent] = Evaluation(
                replace(self.loaded, mode=agent), OPENCODE_STAGES, tuple(rows), tuple(notes)
            )
        return self._cache[agent]

    def _listed(self, ctx: Context) -> list[tuple[str, list[Stage], ServerResult | None]]:
        """Each server's stages, and its result when every stage passed (None otherwise)."""
        listed = []
        for server in server_entries(self.layers.merged):
            result = self.results.get(server)
            stages = server_stages(server, self.layers, ctx, result, self.where)
            ok = all(s.passed for s in stages) and result is not None
            listed.append((server, stages, result if ok else None))
        return listed

    def _mcp_rows(self, ctx: Context) -> list[ToolVerdict]:
        listed = self._listed(ctx)
        owners = {tool_name(n, t): f"{n}/{t}" for n, _, r in listed if r is not None for t in r.tools}
        rows: list[ToolVerdict] = []
        for server, stages, result in listed:
            if result is None or not result.tools:
                rows.append(ToolVerdict(f"{sanitise(server)}_*", server, ToolKind.MCP, tuple(stages)))
                continue
            for tool in result.tools:
                name = tool_name(server, tool)
                naming = naming_stage(name, owners.get(name), server, tool)
                description = result.descriptions.get(tool, "")
                rows.append(tool_row(name, stages, naming, ctx, ToolKind.MCP, server, description))
        return rows

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The questions for one tool (``server_tool`` as the model sees it)."""
        from .checklist import opencode_checklist

        return opencode_checklist(self, tool, self.resolve_mode(mode) or "build")

    def fix_for(self, verdict: ToolVerdict) -> str | None:
        """The concrete change for the first failing stage, in OpenCode's own keys."""
        from .checklist import fix_for

        return fix_for(self, verdict)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Traps: invalid config, rules matching nothing, denies that keep the schema, long names, slow servers."""
        from .findings import opencode_findings

        return opencode_findings(self, modes)

    def all_tool_names(self) -> tuple[str, ...]:
        """Every tool name."""
        return tuple(t.name for t in self.evaluate(None).tools)


def _startable(layers: Layers) -> list[str]:
    """The servers OpenCode starts: none when it refuses the config, else every one not disabled."""
    if config_problems(layers):
        return []
    return [n for n, e in server_entries(layers.merged).items() if e.get("enabled") is not False]


def _loaded(project: Path, layers: Layers, results: dict[str, ServerResult], where: str) -> LoadedInput:
    skipped = sum(1 for r in results.values() if not r.started)
    return LoadedInput(
        kind=OpenCodeInput.OPENCODE,
        label=f"OpenCode project {project.name} · {count_of(len(server_entries(layers.merged)), 'server')} · {where}",
        files=tuple((la.shown, la.sha256) for la in layers.layers),
        extra=(("input", "opencode"), ("modelled on OpenCode", VERSION), *header_extra(skipped)),
        paths=resolved_paths(*(la.path for la in layers.layers if la.path is not None)),
    )


def load_opencode_subject(
    project: Path,
    home: Path | None = None,
    client_args: str = "",
    managed_dir: Path | None = None,
    snapshot: Path | None = None,
    environ: Mapping[str, str] | None = None,
    discover: bool = False,
) -> OpenCodeSubject:
    """Read the layers, start (or not) the servers, and wrap it all."""
    environ = dict(os.environ if environ is None else environ)
    check_project_dir(project, "opencode")
    project = project.resolve()
    home = (home or Path(environ.get("HOME") or Path.home())).expanduser().resolve()
    client = parse_client_args(client_args)
    layers = load_layers(project, home, environ, managed_dir or Path("/etc/opencode"))
    results, where = list_opencode_servers(layers, _startable(layers), environ, project, snapshot, discover)
    loaded = _loaded(project, layers, results, where)
    return OpenCodeSubject(layers, results, where, loaded, project, environ, client, discover)


def open_subject(request: OpenRequest) -> OpenCodeSubject:
    """The registry's opener: ``opencode:DIR``."""
    return load_opencode_subject(
        request.path,
        home=request.get("home"),
        client_args=request.get("client_args") or "",
        managed_dir=request.get("managed_dir"),
        snapshot=request.get("snapshot"),
        discover=bool(request.get("discover")),
    )
