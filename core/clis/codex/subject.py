"""``codex:[PROJECT_DIR]`` as a ``Subject``: every MCP tool Codex would offer, stage by stage.

Modes are approval policies (``never`` is what ``codex exec`` uses; ``on-request``,
``untrusted``); the default is ``approval_policy`` from the config, else ``never``.
Tools are named ``namespace:function`` (``mcp__time:convert_time``); ``explain`` also takes
``mcp__time__convert_time``.

Public API::

    load_codex_subject(project, codex_home=None, system_dir=None, overrides=(), snapshot=None,
                       environ=None) -> CodexSubject
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...mcp.results import ServerResult
from ...model.enums import CODEX_STAGES, FindingKind, InputKind, StageId, ToolKind
from ...model.errors import InputError, Problem
from ...model.presentation import ANSWER_WORD
from ...model.subject import resolved_paths
from ...model.verdicts import Checklist, ChecklistStep, Evaluation, Finding, LoadedInput, Stage, ToolVerdict
from ...text.suggest import did_you_mean
from ..common import list_servers, stage
from .layers import Layer, Merged, load_layers, merge, read_toml
from .tools import (
    SERVER_NAME,
    approval_stage,
    context_stage,
    filter_stage,
    function_of,
    namespace_of,
    naming_stage,
    server_stages,
    value,
)

MODES = ("never", "on-request", "untrusted")


class CodexSubject:
    """The merged layers, the servers' listings, and the verdicts per approval policy."""

    config_findings: tuple[Finding, ...] = ()
    codex_home: Path = Path("~/.codex")
    """The folders read and the ``-c`` overrides, for the ``toolscope check`` command the checklist suggests."""
    default_home: Path = Path("~/.codex")
    system_dir: Path = Path("/etc/codex")
    overrides: tuple[str, ...] = ()

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
    ) -> None:
        """Wrap what was read; ``read_from``: (CODEX_HOME, its default, the system folder, the -c overrides)."""
        self.layers, self.merged, self.requirements, self.results = layers, merged, requirements, results
        self.where, self.loaded, self.project = where, loaded, project
        if read_from is not None:
            self.codex_home, self.default_home, self.system_dir, self.overrides = read_from
        self._cache: dict[str, Evaluation] = {}
        self.raw_names: dict[tuple[str, str], tuple[str, str]] = {}
        """(namespace, function) → (server, raw tool name): the names Codex's keys take."""

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
        raise InputError(
            "--mode", f"unknown Codex approval policy '{mode}'", [Problem("", "expected one of: " + ", ".join(MODES))]
        )

    def _names(self) -> list[str]:
        return list(dict.fromkeys([*self.merged.servers, *self.merged.ignored_servers]))

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's eight stages under this approval policy."""
        mode = self.resolve_mode(mode) or "never"
        if mode in self._cache:
            return self._cache[mode]
        model, model_source = self.merged.top.get("model", ("gpt-5.5", "Codex's default"))
        features = self.merged.top.get("features", ({}, ""))[0]
        prefixed = not (isinstance(features, dict) and features.get("non_prefixed_mcp_tool_names") is True)
        policy_source = (
            self.merged.top.get("approval_policy", (None, "codex exec's default"))[1]
            if mode == self.default_mode
            else "--mode"
        )
        req = self.requirements
        rows: list[ToolVerdict] = []
        listed: list[tuple[str, ServerResult]] = []
        decided: list[tuple[str, list[Stage], ServerResult | None]] = []
        for name in self._names():
            stages = server_stages(name, self.merged, req.data if req else None, req.shown if req else "")
            result = self.results.get(name)
            if all(s.passed for s in stages):
                if not SERVER_NAME.match(name):
                    stages.append(
                        stage(
                            StageId.CONNECTION,
                            False,
                            "connection.bad_name",
                            f"server name {name!r} must match ^[a-zA-Z0-9_:@/.-]+$: fails at startup, silently",
                            name,
                        )
                    )
                elif result is None:
                    stages.append(
                        stage(
                            StageId.CONNECTION,
                            None,
                            "connection.not_listed",
                            f"no listing of this server ({self.where})",
                        )
                    )
                elif not result.ok:
                    stages.append(
                        stage(
                            StageId.CONNECTION,
                            None,
                            "mcp.outage",
                            f"startup failed: {result.error} (codex exec still exits 0; only a stderr WARN with RUST_LOG=warn says so)",
                            name,
                        )
                    )
                else:
                    stages.append(
                        stage(
                            StageId.CONNECTION,
                            True,
                            "connection.ok",
                            f"started: lists {len(result.tools)} tools ({self.where})",
                        )
                    )
                    listed.append((name, result))
            decided.append((name, stages, result))
        # Tools after every server: a collision with a server listed later counts too.
        for name, stages, result in decided:
            if not (result and result.ok and result.tools) or not all(s.passed for s in stages):
                self.raw_names[(namespace_of(name, prefixed), "*")] = (name, "*")
                rows.append(ToolVerdict("*", namespace_of(name, prefixed), ToolKind.MCP, tuple(stages)))
                continue
            server = self.merged.servers[name]
            for tool in result.tools:
                self.raw_names[(namespace_of(name, prefixed), function_of(tool))] = (name, tool)
                row = [*stages, filter_stage(tool, server, result.tools)]
                if row[-1].passed:
                    row.append(naming_stage(name, tool, self._collides(name, tool, listed, prefixed), prefixed))
                if row[-1].passed:
                    row.append(context_stage(str(model), model_source))
                    row.append(approval_stage(tool, server, result.hints.get(tool, ()), mode, policy_source))
                rows.append(
                    ToolVerdict(
                        function_of(tool),
                        namespace_of(name, prefixed),
                        ToolKind.MCP,
                        tuple(row),
                        result.descriptions.get(tool, ""),
                    )
                )
        notes = (f"approval policy {mode} ({policy_source}); model {model} ({model_source})", self.where)
        self._cache[mode] = Evaluation(
            loaded=replace(self.loaded, mode=mode), stage_names=CODEX_STAGES, tools=tuple(rows), notes=notes
        )
        return self._cache[mode]

    def _collides(self, name: str, tool: str, listed: list[tuple[str, ServerResult]], prefixed: bool) -> str | None:
        """Which of the tool's names clashes with another's after sanitising: "namespace", "function" or None."""
        namespace = namespace_of(name, prefixed)
        if any(n != name and namespace_of(n, prefixed) == namespace for n, _ in listed):
            return "namespace"
        same = [t for n, r in listed if n == name for t in r.tools if t != tool and function_of(t) == function_of(tool)]
        return "function" if same else None

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The four questions for one tool (``namespace:function`` or ``mcp__server__function``)."""
        mode = self.resolve_mode(mode) or "never"
        tools = self.evaluate(mode).tools
        matches = [t for t in tools if tool in (f"{t.namespace}:{t.name}", f"{t.namespace}__{t.name}", t.name)]
        if not matches:  # a server that never listed its tools: its one row (namespace:*) explains them all
            matches = [t for t in tools if t.name == "*" and tool.startswith((f"{t.namespace}:", f"{t.namespace}__"))]
        if not matches:
            close = did_you_mean(tool, [f"{t.namespace}__{t.name}" for t in tools], normalize=str.lower)
            step = ChecklistStep(f"Is {tool} a tool of any server Codex would start?", "no", False, (self.where,))
            return Checklist(
                tool,
                mode,
                None,
                (step,),
                f"did you mean {close[0]}?"
                if close
                else "define its server under [mcp_servers] in $CODEX_HOME/config.toml",
                close,
            )
        verdict = max(matches, key=lambda v: len(v.stages))
        groups = (
            (
                (StageId.LAYER, StageId.REQUIREMENTS, StageId.ENABLED, StageId.CONNECTION),
                f"Does Codex start the server of {verdict.namespace}?",
            ),
            ((StageId.TOOL_FILTER, StageId.NAMING), "Do enabled_tools / disabled_tools keep it, and under which name?"),
            (
                (StageId.IN_CONTEXT, StageId.APPROVAL_POLICY),
                f"Does the model get it (in full or deferred), and would a call run under approval policy {mode}?",
            ),
        )
        steps = []
        for ids, question in groups:
            stages = [s for s in verdict.stages if s.name in ids]
            passed = (
                None
                if not stages
                else (
                    False
                    if any(s.passed is False for s in stages)
                    else (None if any(s.passed is None for s in stages) else True)
                )
            )
            steps.append(
                ChecklistStep(
                    question,
                    ANSWER_WORD[passed] if stages else "n/a",
                    passed,
                    tuple(s.rule for s in stages) or ("not reached",),
                )
            )
        steps.append(
            ChecklistStep(
                "Will a test catch it if it disappears again?",
                "add one",
                None,
                (self._check_command(tool if verdict.name == "*" else f"{verdict.namespace}:{verdict.name}"),),
            )
        )
        return Checklist(tool, mode, verdict, tuple(steps), self.fix_for(verdict))

    def _check_command(self, tool: str) -> str:
        """``toolscope check`` on the same files (non-default folders and ``-c`` overrides kept)."""
        import shlex

        parts = ["toolscope", "check", f"codex:{self.project}"]
        if self.codex_home != self.default_home:
            parts += ["--codex-home", str(self.codex_home)]
        if self.system_dir != Path("/etc/codex"):
            parts += ["--codex-system-dir", str(self.system_dir)]
        for override in self.overrides:
            parts += ["-c", override]
        return shlex.join([*parts, "--expect", f"visible:{tool}"])

    def fix_for(self, verdict: ToolVerdict) -> str | None:
        """The concrete change for the first failing stage, in Codex's own keys (raw server and tool names)."""
        server, raw = self.raw_names.get((verdict.namespace, verdict.name), (verdict.namespace, verdict.name))
        command = value(self.merged.servers.get(server, {}), "command")[0]
        return _fix(verdict, server, raw, self.project, command)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Traps: untrusted project config, requirements blocks, enabled_tools typos, collisions, outages."""
        out = []
        for name, shown in self.merged.ignored_servers.items():
            if name not in self.merged.servers:
                out.append(
                    Finding(
                        FindingKind.UNTRUSTED_IGNORED,
                        f'{shown} defines [mcp_servers.{name}] but Codex ignores it: the project is not trusted; fix: `codex exec --trust` or [projects."{self.project}"] trust_level = "trusted"',
                        entry=name,
                        source=shown,
                    )
                )
        for name, server in self.merged.servers.items():
            enabled, where = value(server, "enabled_tools")
            result = self.results.get(name)
            if isinstance(enabled, list) and result and result.ok:
                wrong = [t for t in enabled if t not in result.tools]
                if wrong:
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
                            FindingKind.TOOL_FILTER_MATCHES_NOTHING,
                            f"enabled_tools ({where}) names {wrong} that server {name} does not list (raw names: {list(result.tools)}){whole}"
                            + (f"; {hint}" if hint else ""),
                            entry=str(wrong),
                            source=where,
                        )
                    )
        seen = set()
        for verdict in self.evaluate(modes[0] if modes else None).tools:
            naming = verdict.stage(StageId.NAMING)
            failing = naming if naming is not None and naming.code == "naming.collision" else verdict.first_failing
            kinds = {
                "requirements.not_listed": FindingKind.SERVER_BLOCKED,
                "requirements.mismatch": FindingKind.SERVER_BLOCKED,
                "naming.collision": FindingKind.NAME_COLLISION,
                "mcp.outage": FindingKind.MCP_OUTAGE,
            }
            if failing is not None and failing.code in kinds and (failing.code, verdict.namespace) not in seen:
                seen.add((failing.code, verdict.namespace))
                out.append(
                    Finding(
                        kinds[failing.code],
                        f"{verdict.namespace}: {failing.rule}",
                        tool=verdict.name,
                        entry=failing.entry,
                        source=failing.source,
                    )
                )
        return out

    def all_tool_names(self) -> tuple[str, ...]:
        """Every ``namespace:function``."""
        return tuple(f"{t.namespace}:{t.name}" for t in self.evaluate(None).tools)


def _key(name: str) -> str:
    """A TOML key as written in a table header (quoted unless bare)."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)


def _fix(verdict: ToolVerdict, server: str, raw: str, project: Path, command: Any) -> str | None:
    failing = verdict.first_failing
    if failing is None:
        return None
    table = f"mcp_servers.{_key(server)}"
    identity = f" command = {json.dumps(command)}" if isinstance(command, str) else ' command = "…"'
    fixes = {
        "layer.untrusted": f'trust the project: `codex exec --trust`, or [projects.{json.dumps(str(project))}] trust_level = "trusted" '
        f"in $CODEX_HOME/config.toml; or move [{table}] from {failing.source} to $CODEX_HOME/config.toml",
        "requirements.not_listed": f"add [{table}.identity]{identity} to {failing.source} (the organisation's allowlist)",
        "requirements.mismatch": f"make [{table}]'s command/url match {failing.source} exactly",
        "enabled.false": f"set enabled = true in [{table}] ({failing.source})",
        "filter.not_enabled": f'add the raw tool name "{raw}" to enabled_tools ({failing.source}): Codex matches the '
        "server's own names, not mcp__… names",
        "filter.disabled": f'remove "{raw}" from disabled_tools ({failing.source})',
        "approval.refused": f'add [{table}.tools.{_key(raw)}] approval_mode = "approve" (or default_tools_approval_mode = '
        f'"approve" in [{table}]) to $CODEX_HOME/config.toml, or run with another approval policy',
        "connection.bad_name": f"rename the server {json.dumps(server)} to match ^[a-zA-Z0-9_:@/.-]+$ (no spaces)",
    }
    return fixes.get(failing.code, failing.rule)


def load_codex_subject(
    project: Path,
    codex_home: Path | None = None,
    system_dir: Path | None = None,
    overrides: tuple[str, ...] = (),
    snapshot: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> CodexSubject:
    """Read the layers, list the servers' tools, and wrap it all."""
    environ = dict(os.environ if environ is None else environ)
    if not project.is_dir():
        from ...inputs.input_files import missing_path_problems

        near = missing_path_problems(project, want_dir=True, prefix="codex:") if not project.exists() else []
        raise InputError(
            f"codex:{project}",
            "no such directory" if not project.exists() else "not a directory",
            [Problem("", "expected codex:PROJECT_DIR"), *near],
        )
    project = project.resolve()
    home = (
        (codex_home or Path(environ.get("CODEX_HOME") or Path(environ.get("HOME") or Path.home()) / ".codex"))
        .expanduser()
        .resolve()
    )
    system_dir = system_dir or Path("/etc/codex")
    layers, _, _ = load_layers(project, home, system_dir, overrides)
    merged = merge(layers)
    requirements = read_toml(system_dir / "requirements.toml", str(system_dir / "requirements.toml"), "requirements")
    entries = {
        n: {k: v for k, (v, _) in s.items()}
        for n, s in merged.servers.items()
        if SERVER_NAME.match(n) and value(s, "enabled")[0] is not False
    }
    results, where = list_servers(entries, snapshot)
    read = [la for la in [*layers, requirements] if la is not None and la.path is not None]
    loaded = LoadedInput(
        kind=InputKind.CODEX,
        label=f"Codex project {project.name} · {len(merged.servers)} servers · {where}",
        files=tuple((la.shown, la.sha256) for la in read),
        extra=(("input", "codex"), ("codex_model", "0.171.0")),
        paths=resolved_paths(*(la.path for la in read)),
    )
    default_home = Path(environ.get("CODEX_HOME") or Path(environ.get("HOME") or Path.home()) / ".codex")
    read_from = (home, default_home.expanduser().resolve(), Path(system_dir), tuple(overrides))
    return CodexSubject(layers, merged, requirements, results, where, loaded, project, read_from)
