"""An AgentWorks step config + registry, as a ``Subject`` for the CLI, TUI and reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.enums import FindingKind, InputKind, RuleCode
from ..model.errors import InputError, Problem
from ..model.subject import resolved_paths
from ..model.verdicts import (
    AGENTWORKS_STAGES,
    Checklist,
    Evaluation,
    Finding,
    LoadedInput,
)
from ..text.shell import shell_join
from .checklist import build_checklist
from .invariants import check_invariants
from .pipeline import StepPipeline
from .profile import effective_enabled_entries
from .registry import McpServer, RegistryModel
from .selection_rewrite import SelectionRewrite, rewrite_selection
from .step_config import LoadedStep, load_all_steps, load_step_config
from .step_keys import unknown_key_findings
from .world import World, load_world, workflow_override

if TYPE_CHECKING:
    from ..mcp.results import DiscoveryResult


class AgentWorksSubject:
    """A step of a step config, evaluated against a registry."""

    def __init__(
        self,
        step: LoadedStep,
        world: World,
        *,
        registry_given: Path | None = None,
        extra_findings: tuple[Finding, ...] = (),
    ) -> None:
        """Everything the subject answers from is passed in: ``load_agentworks_subject`` reads the files."""
        self.world = world
        step, overridden = workflow_override(step, world)
        self.step = step
        mcp = world.mcp
        self.discovery: DiscoveryResult | None = mcp.result if mcp else None
        """The MCP DiscoveryResult behind the universe (live or snapshot), when the registry has mcp_config."""
        self.discovery_notes = mcp.notes if mcp else ()
        given = ["--registry", str(registry_given)] if registry_given is not None else []
        if world.origin is not None:
            given += ["--origin", world.origin]
        self.check_args = shell_join(
            [str(step.document.path), *(["--step", step.step.id] if step.index is not None else []), *given]
        )
        """How a suggested ``toolscope check`` command names this config: the paths as the user typed them,
        shell-quoted, so the command works when copied from where it was run."""
        registry_doc = world.registry_doc
        self.registry = registry = world.model
        self.universe = universe = world.universe
        enabled = effective_enabled_entries(step, registry.profile, registry_doc.name)
        rewrite = rewrite_selection(step, world.workflow_servers, registry_doc.name)
        self.pipeline = StepPipeline(universe, step, enabled, registry.denial_texts, rewrite)
        findings = [*world.findings, *unknown_key_findings(step), *overridden, *extra_findings]
        if registry.mcp_config is not None:
            from ..mcp.config import unknown_key_findings as unknown_server_key_findings

            findings += unknown_server_key_findings(world.registry_path.parent / registry.mcp_config)
        self.config_findings: tuple[Finding, ...] = tuple(findings)
        """Mistakes in the configuration itself (unknown keys, the era, the manifests), shown before any answer."""
        self.era_sentence = f"era: {world.era.label}" + (f"; origin {world.origin}" if world.origin else "")
        """Which era of layer 2 the answer is true for (every AgentWorks answer names it)."""
        self._cache: dict[str | None, Evaluation] = {}
        files = (
            (step.document.path.name, step.document.sha256),
            (registry_doc.name, registry_doc.sha256),
            *world.files,
            *(mcp.files if mcp else ()),
        )
        self.loaded = LoadedInput(
            kind=InputKind.STEP_CONFIG,
            label=f"AgentWorks step config {step.file_name} · step {step.step.id} · registry {registry_doc.name}",
            files=files,
            step=step.step.id,
            registry=registry_doc.name,
            extra=(
                ("execution", self.pipeline.execution.why),
                *((("origin", world.origin),) if world.origin else ()),
            ),
            paths=resolved_paths(step.document.path, registry_doc.path, *world.paths, *(mcp.paths if mcp else ())),
            era=world.era.value,
        )

    @property
    def selection_rewrite(self) -> SelectionRewrite:
        """selected_servers / selected_tools before and after the app's rewrite (stage 1's first sub-step)."""
        return self.pipeline.rewrite

    @property
    def mode_names(self) -> tuple[str, ...]:
        """The registry's workshop modes."""
        return self.universe.modes.modes if self.universe.modes else ()

    @property
    def default_mode(self) -> str | None:
        """The default mode: the registry's, workflow.json's workshop_mode, or the product era's builder."""
        return self.world.default_mode

    def resolve_mode(self, mode: str | None) -> str | None:
        """Canonical mode (aliases, case); unknown names are an InputError listing modes and aliases."""
        table = self.universe.modes
        if table is None:
            if mode is not None:
                raise InputError("--mode", f"{self.universe.source} defines no modes, so --mode does not apply")
            return None
        if mode is None:
            if self.world.default_mode is not None:
                return self.world.default_mode
            if len(table.modes) == 1:
                return table.modes[0]
            raise InputError(
                "--mode", "this registry has several modes and no modes.default: choose one", [_modes_problem(table)]
            )
        canonical = table.canonical(mode)
        if canonical is None:
            problems = [_modes_problem(table)]
            if table.unknown_note:
                problems = [
                    Problem("", f"modes: {', '.join(table.modes)}"),
                    Problem("", table.unknown_note.replace("{mode}", mode)),
                ]
            from ..text.suggest import close_matches

            close = close_matches(mode.lower(), [*table.modes, *table.aliases], 1)
            hint = f" (did you mean {table.canonical(close[0]) or close[0]}?)" if close else ""
            raise InputError("--mode", f"unknown mode {mode!r}{hint}", problems)
        if self.world.origin == "external" and canonical != "run":
            raise InputError(
                "--mode",
                f"an external caller reaches the run surface only, not {canonical!r}",
                [Problem("", "the Builder's external operations are chat.builder.external_tools, not a chat mode")],
            )
        return canonical

    def evaluate(self, mode: str | None) -> Evaluation:
        """Every tool's four stages in this canonical mode (cached per mode)."""
        cached = self._cache.get(mode)
        if cached is None:
            loaded = LoadedInput(**{**self.loaded.__dict__, "mode": mode})
            notes = (self.pipeline.execution.why, *self.discovery_notes)
            if self.world.mode_note and mode is not None:
                notes += (self.world.mode_note,)
            cached = Evaluation(loaded, AGENTWORKS_STAGES, self.pipeline.evaluate(mode), notes)
            self._cache[mode] = cached
        return cached

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The seed's four-step checklist for one tool name.

        For a tool of a failed MCP server, step 1 also quotes what AgentWorks' get_api_spec
        tells the agent in that case: the name is probably right, this is an outage.
        """
        checklist = build_checklist(self.pipeline, self.evaluate(mode).tools, tool, mode, self.check_args)
        verdict = checklist.verdict
        if self.discovery is None or verdict is None or verdict.stages[0].code != RuleCode.MCP_OUTAGE:
            return checklist
        from ..mcp.outage import get_api_spec_outage_text

        text = get_api_spec_outage_text(self.discovery, [verdict.namespace], [verdict.name])
        first = replace(checklist.steps[0], evidence=(*checklist.steps[0].evidence, f"get_api_spec says: {text}"))
        return replace(checklist, steps=(first, *checklist.steps[1:]))

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        """Invariant checks for this step and these modes."""
        return [*self.config_findings, *check_invariants(self.pipeline, modes)]

    def all_tool_names(self) -> tuple[str, ...]:
        """Every tool name of the universe, sorted."""
        return tuple(sorted(self.universe.all_names()))

    def drift_findings(self, snapshot: Path) -> list[Finding]:
        """Compare this run's live discovery with a saved snapshot: added, removed, renamed tools per server."""
        from ..mcp.snapshot import diff_snapshots, load_snapshot

        if self.discovery is None or self.discovery.source.kind != "live":
            raise InputError("--drift-from", "needs live discovery: a registry with mcp_config, and no --snapshot")
        drift = diff_snapshots(load_snapshot(snapshot), self.discovery)
        findings = []
        for server in drift.servers:
            if not server.changed:
                continue
            parts = [server.status] if server.status else []
            parts += [f"added {', '.join(server.added)}"] if server.added else []
            parts += [f"removed {', '.join(server.removed)}"] if server.removed else []
            parts += [f"renamed {', '.join(f'{a} -> {b}' for a, b in server.renamed)}"] if server.renamed else []
            findings.append(
                Finding(
                    FindingKind.MCP_DRIFT,
                    f'server "{server.server}" drifted since {snapshot.name}: ' + "; ".join(parts),
                    entry=server.server,
                    source=snapshot.name,
                )
            )
        return findings


def _modes_problem(table) -> Problem:  # type: ignore[no-untyped-def]
    aliases = ", ".join(f"{a} → {t}" for a, t in table.aliases.items()) or "none"
    return Problem("", f"modes: {', '.join(table.modes)}; aliases: {aliases}")


def load_agentworks_subject(
    path: Path,
    step: str | None = None,
    registry: Path | None = None,
    snapshot: Path | None = None,
    timeout: float = 10.0,
    workflow: Path | None = None,
    origin: str | None = None,
    client_home: Path | None = None,
) -> AgentWorksSubject:
    """Load a step config and its registry (next to it, or ``--registry``), complete: every file it
    needs is read here, and its findings about the configuration itself are passed in."""
    loaded_step = load_step_config(path, step)
    world = load_world(path, [loaded_step], registry, snapshot, timeout, workflow, origin)
    extra: tuple[Finding, ...] = ()
    if client_home is not None:  # issue 23's link: the CLI provider's own settings (core.clis.bridge)
        from ..clis.bridge import bridge_findings

        llm = loaded_step.step.agent_configs.execution_llm
        extra = tuple(bridge_findings(llm.provider if llm else None, client_home))
    return AgentWorksSubject(loaded_step, world, registry_given=registry, extra_findings=extra)


def load_workflow_subjects(
    path: Path,
    registry: Path | None = None,
    snapshot: Path | None = None,
    timeout: float = 10.0,
    workflow: Path | None = None,
    origin: str | None = None,
) -> list[AgentWorksSubject]:
    """Every step of a step config, each a subject, all sharing one world (one universe)."""
    steps = load_all_steps(path)
    world = load_world(path, steps, registry, snapshot, timeout, workflow, origin)
    return [AgentWorksSubject(step, world, registry_given=registry) for step in steps]


@dataclass(frozen=True)
class McpTools:
    """What a registry's mcp_config (discovered live) or a saved snapshot adds to the universe."""

    servers: dict[str, McpServer]
    """Every server as the registry would list it (static entries kept for servers the config lacks)."""
    errors: dict[str, str]
    """Failed servers (or servers with no tools) and why."""
    files: tuple[tuple[str, str], ...]
    """(name, sha256) of the files discovery read, for provenance."""
    paths: tuple[Path, ...]
    """The mcp_config and its ``_user.json`` override when they exist (inputs even when a snapshot
    means they were not used this time: they hold the secrets), and the snapshot."""
    notes: tuple[str, ...]
    result: DiscoveryResult


def _expected_tools(step: LoadedStep, failed: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Tools the step names for each failed server (``server:tool`` entries)."""
    from .names import normalize_server_name

    by_norm = {normalize_server_name(s): s for s in failed}
    out: dict[str, list[str]] = {}
    for entry in step.step.agent_configs.selected_tools:
        namespace, sep, tool = entry.partition(":")
        server = by_norm.get(normalize_server_name(namespace)) if sep else None
        if server is not None and tool and tool != "*":
            out.setdefault(server, []).append(tool)
    return {k: tuple(v) for k, v in out.items()}


def _discover(registry_path: Path, model: RegistryModel, snapshot: Path | None, timeout: float) -> McpTools | None:
    """Live MCP discovery (or a saved snapshot) for registries that point at an mcpServers config;
    None for a static registry."""
    if model.mcp_config is None and snapshot is None:
        return None
    # Deferred past the common case: a static registry never loads the MCP modules.
    from ..mcp.universe import load_mcp_universe

    config_path = registry_path.parent / model.mcp_config if model.mcp_config else None
    if snapshot is None and config_path is not None and not config_path.is_file():
        raise InputError(
            str(registry_path),
            "mcp_config names a file that does not exist",
            [Problem("mcp_config", f"{model.mcp_config!r} (looked for {config_path})")],
        )
    result = load_mcp_universe(config_path, snapshot, timeout)
    discovered: dict[str, McpServer] = {}
    errors: dict[str, str] = {}
    for server in result.servers:
        discovered[server.name] = McpServer(tools=tuple(server.tools), descriptions=dict(server.descriptions))
        if not server.ok:
            errors[server.name] = server.error or "failed"
        elif not server.tools:
            # AgentWorks keeps such a server configured with zero tools: the same outage symptom.
            errors[server.name] = "connected but advertised no tools"
    # Static entries for servers the config does not have keep the registry's view.
    for name, value in model.mcp_servers.items():
        discovered.setdefault(name, value)
    source = result.source
    files = []
    if config_path is not None and config_path.is_file():
        import hashlib

        # The file as it is now (a snapshot records the sha256 it was taken from; a note says if they differ).
        files.append((config_path.name, hashlib.sha256(config_path.read_bytes()).hexdigest()))
    elif source.config_file:
        files.append((Path(source.config_file).name, source.config_sha256))
    if source.user_config_file and source.user_config_sha256:
        files.append((Path(source.user_config_file).name, source.user_config_sha256))
    if snapshot is not None:
        import hashlib

        files.append((snapshot.name, hashlib.sha256(snapshot.read_bytes()).hexdigest()))
    how = f"MCP tools from snapshot {snapshot.name}" if snapshot is not None else "MCP tools discovered live"
    servers = len(result.servers)
    failed = f"; {len(errors)} failed" if errors else ""
    notes = (f"{how} ({servers} server{'' if servers == 1 else 's'}{failed})", *tuple(source.notes or ()))
    from ..mcp.config import user_override_path

    existing = [p for p in (config_path, user_override_path(config_path) if config_path else None) if p and p.is_file()]
    return McpTools(discovered, errors, tuple(files), resolved_paths(*existing, snapshot), notes, result)
