"""An AgentWorks step config + registry, as a ``Subject`` for the CLI, TUI and reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...model.enums import RuleCode
from ...model.errors import InputError, Problem
from ...model.subject import resolved_paths
from ...model.verdicts import (
    Checklist,
    Evaluation,
    Finding,
    LoadedInput,
)
from ...text.shell import shell_join
from .checklist import build_checklist
from .discovery_drift import drift_findings
from .ids import AGENTWORKS_STAGES, AgentWorksInput
from .invariants import check_invariants
from .load_request import StepConfigLoad
from .mode_table import ModeTable
from .pipeline import StepPipeline
from .profile import effective_enabled_entries
from .selection_rewrite import SelectionRewrite, rewrite_selection
from .step_config import LoadedStep, load_all_steps, load_step_config
from .step_keys import unknown_key_findings
from .world import World, load_world, workflow_override

if TYPE_CHECKING:
    from ...mcp.results import DiscoveryResult
    from ..contract import OpenRequest


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
        self.config_findings: tuple[Finding, ...] = (
            *world.findings,
            *unknown_key_findings(step),
            *overridden,
            *extra_findings,
            *_mcp_config_findings(world),
        )
        """Mistakes in the configuration itself (unknown keys, the era, the manifests), shown before any answer."""
        self.era_sentence = f"era: {world.era.label}" + (f"; origin {world.origin}" if world.origin else "")
        """Which era of layer 2 the answer is true for (every AgentWorks answer names it)."""
        self._cache: dict[str | None, Evaluation] = {}
        self.loaded = self._loaded_input()

    def _loaded_input(self) -> LoadedInput:
        """What was read (every file, for provenance and output protection) and how the header names it."""
        step, world, mcp = self.step, self.world, self.world.mcp
        registry_doc = world.registry_doc
        files = (
            (step.document.path.name, step.document.sha256),
            (registry_doc.name, registry_doc.sha256),
            *world.files,
            *(mcp.files if mcp else ()),
        )
        return LoadedInput(
            kind=AgentWorksInput.STEP_CONFIG,
            label=f"AgentWorks step config {step.file_name} · step {step.step.id} · registry {registry_doc.name}",
            files=files,
            step=step.step.id,
            registry=registry_doc.name,
            extra=(
                ("execution", self.pipeline.execution.why),
                *((("origin", world.origin),) if world.origin else ()),
                *_stale_header(self.discovery),
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
            raise _unknown_mode(table, mode)
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

    def release(self) -> None:
        """Forget the cached evaluations. A whole workflow answers one step at a time: keeping every
        step's verdicts alive (200 steps x 50,000 tools) made each garbage collection slower, so the
        time a step took grew with the number of steps (workflow_bench: 1.19x at 200 steps, 1.04x
        without them)."""
        self._cache.clear()

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        """The seed's four-step checklist for one tool name.

        For a tool of a failed MCP server, step 1 also quotes what AgentWorks' get_api_spec
        tells the agent in that case: the name is probably right, this is an outage.
        """
        checklist = build_checklist(self.pipeline, self.evaluate(mode).tools, tool, mode, self.check_args)
        verdict = checklist.verdict
        if self.discovery is None or verdict is None or verdict.stages[0].code != RuleCode.MCP_OUTAGE:
            return checklist
        from ...mcp.outage import get_api_spec_outage_text

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
        return drift_findings(self.discovery, snapshot)


def _stale_header(discovery: DiscoveryResult | None) -> tuple[tuple[str, str], ...]:
    """The header's word on MCP listings past the ttl their servers gave (none when fresh)."""
    if discovery is None or not (stale := discovery.stale_servers):
        return ()
    from ...mcp.results import STALE_KEY

    return ((STALE_KEY, ", ".join(s.name for s in stale)),)


def _unknown_mode(table: ModeTable, mode: str) -> InputError:
    """``--mode`` names no mode or alias: the modes (or the registry's own note), and the nearest name."""
    from ...text.suggest import close_matches

    problems = [_modes_problem(table)]
    if table.unknown_note:
        problems = [
            Problem("", f"modes: {', '.join(table.modes)}"),
            Problem("", table.unknown_note.replace("{mode}", mode)),
        ]
    close = close_matches(mode.lower(), [*table.modes, *table.aliases], 1)
    hint = f" (did you mean {table.canonical(close[0]) or close[0]}?)" if close else ""
    return InputError("--mode", f"unknown mode {mode!r}{hint}", problems)


def _mcp_config_findings(world: World) -> tuple[Finding, ...]:
    """Unknown keys in the registry's mcp_config, when it has one."""
    if world.model.mcp_config is None:
        return ()
    from ...mcp.config import unknown_key_findings as unknown_server_key_findings

    return tuple(unknown_server_key_findings(world.registry_path.parent / world.model.mcp_config))


def _modes_problem(table: ModeTable) -> Problem:
    aliases = ", ".join(f"{a} → {t}" for a, t in table.aliases.items()) or "none"
    return Problem("", f"modes: {', '.join(table.modes)}; aliases: {aliases}")


def load_agentworks_subject(request: StepConfigLoad) -> AgentWorksSubject:
    """Load a step config and its registry (next to it, or ``--registry``), complete: every file it
    needs is read here, and its findings about the configuration itself are passed in."""
    loaded_step = load_step_config(request.path, request.step)
    world = load_world(request, [loaded_step])
    extra = _client_findings(loaded_step, request.client_home)
    return AgentWorksSubject(loaded_step, world, registry_given=request.registry, extra_findings=extra)


def _client_findings(step: LoadedStep, client_home: Path | None) -> tuple[Finding, ...]:
    """The step's CLI provider's own settings in ``client_home`` (issue 23's link, ``core.systems.coding_cli.bridge``):
    each step has its own provider, so each step is checked on its own."""
    if client_home is None:
        return ()
    from ..coding_cli.bridge import bridge_findings

    llm = step.step.agent_configs.execution_llm
    return tuple(bridge_findings(llm.provider if llm else None, client_home))


def load_workflow_subjects(request: StepConfigLoad) -> list[AgentWorksSubject]:
    """Every step of a step config, each a subject, all sharing one world (one universe);
    ``request.step`` is not read."""
    steps = load_all_steps(request.path)
    world = load_world(request, steps)
    return [
        AgentWorksSubject(
            step, world, registry_given=request.registry, extra_findings=_client_findings(step, request.client_home)
        )
        for step in steps
    ]


def open_subject(request: OpenRequest) -> AgentWorksSubject:
    """The registry's opener: one step of the step config ``request.path``."""
    return load_agentworks_subject(StepConfigLoad.of(request.path, request))
