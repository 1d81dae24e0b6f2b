"""Everything a step config is evaluated against, read once for all its steps.

The registry (or AgentWorks' own product.yaml given in its place), its era, the product
manifest's chats when it models era C, the workflow's ``workflow.json`` when there is one,
and the universe built from them. ``subject`` makes one ``AgentWorksSubject`` per step
from a world; a whole workflow shares one world (one universe for 200 steps).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...inputs.documents import Document
from ...model.enums import Severity
from ...model.errors import InputError, Problem
from ...model.verdicts import Finding
from .era import Era, resolve_era
from .ids import AgentWorksFinding
from .load_request import StepConfigLoad
from .mcp_tools import McpTools, discover_mcp_tools, expected_tools
from .product_manifest import EXTERNAL, ProductManifest, load_product_manifest
from .product_modes import product_mode_table
from .registry import RegistryModel, find_registry, load_registry_model
from .selection_rewrite import WorkflowServers
from .step_config import LoadedStep
from .universe import Universe, build_universe
from .workflow_manifest import PRECEDENCE, WORKSHOP_MODES, WorkflowManifest, find_workflow, load_workflow_manifest

PRODUCT_TOOLS_LABEL = "product.yaml chat tools (registered in Go; the registry is the manifest alone)"


@dataclass(frozen=True)
class World:
    """The registry side of an evaluation, shared by every step of a step config."""

    registry_path: Path
    registry_doc: Document
    model: RegistryModel
    universe: Universe
    era: Era
    mcp: McpTools | None
    product: ProductManifest | None
    workflow: WorkflowManifest | None
    workflow_servers: WorkflowServers | None
    findings: tuple[Finding, ...]
    """The registry's, the manifest's and workflow.json's own findings (once per workflow, not per step)."""
    origin: str | None
    default_mode: str | None
    mode_note: str | None
    """Why the default mode is what it is, when the registry does not say."""

    @property
    def files(self) -> tuple[tuple[str, str], ...]:
        """(name, sha256) of the product manifest and workflow.json, when read."""
        out = []
        if self.product is not None and self.product.path != self.registry_path:
            out.append((self.product.name, self.product.sha256))
        if self.workflow is not None:
            out.append((self.workflow.name, self.workflow.sha256))
        return tuple(out)

    @property
    def paths(self) -> tuple[Path, ...]:
        """The product manifest's and workflow.json's paths."""
        return tuple(
            p for p in (self.product.path if self.product else None, self.workflow.path if self.workflow else None) if p
        )


def _is_product_manifest(document: Document) -> bool:
    data = document.data
    return (
        isinstance(data, dict)
        and "chat" in data
        and not {"custom_tools", "mcp_servers", "modes", "product"} & set(data)
    )


def load_registry_or_product(path: Path) -> tuple[Document, RegistryModel, ProductManifest | None]:
    """The registry, or a product.yaml given where a registry is expected (then the manifest's own
    tools are the universe: registered in Go, which the manifest does not describe)."""
    from ...inputs.documents import load_document

    document = load_document(path, "registry")
    if _is_product_manifest(document):
        manifest = load_product_manifest(path)
        names = tuple(dict.fromkeys(t.strip() for chat in manifest.chats.values() for t in chat.tools if t.strip()))
        return (
            document,
            RegistryModel(name=path.name, product=path.name, other_tools={PRODUCT_TOOLS_LABEL: names}),  # type: ignore[call-arg]  # __validation__ is not a field
            manifest,
        )
    document, model = load_registry_model(path)
    return document, model, None


def _workflow_servers(
    manifest: WorkflowManifest | None, model: RegistryModel, registry_name: str
) -> WorkflowServers | None:
    """workflow.json's capabilities when it names servers; else the registry's hand-written section."""
    fallback = WorkflowServers.of_registry(model.workflow, registry_name) if model.workflow else None
    if manifest is None or manifest.servers is None:
        return fallback
    append = model.workflow.append_selected_tools if model.workflow else ()
    return WorkflowServers(
        manifest.servers,
        manifest.selected_tools,
        append,
        manifest.where("capabilities", "selected_servers"),
        manifest.where("capabilities", "selected_tools"),
        f"{registry_name}: workflow.append_selected_tools",
    )


def load_world(request: StepConfigLoad, steps: list[LoadedStep]) -> World:
    """Read the registry side for these steps of ``request.path`` (all of its files, once)."""
    step_config, registry, snapshot, timeout = request.path, request.registry, request.snapshot, request.timeout
    workflow, origin = request.workflow, request.origin
    registry_path = find_registry(step_config, registry)
    registry_doc, model, product = load_registry_or_product(registry_path)
    source = registry_doc.name
    era, apply_modes, apply_product, findings = resolve_era(
        model.era, model.modes is not None, model.product is not None, source
    )
    product = _product_manifest(registry_path, model, product) if apply_product else None
    if origin is not None and product is None:
        raise InputError(
            "--origin", f"applies to the product-manifest era (product.yaml); {source} models the {era.label}"
        )
    mcp = discover_mcp_tools(registry_path, model, snapshot, timeout)
    errors = mcp.errors if mcp else {}
    universe = build_universe(model, source, mcp.servers if mcp else None, errors, _expected(steps, errors))
    universe, default_mode, mode_note = _in_era(universe, era, apply_modes, product, origin)
    if product is not None:
        findings += list(product.findings)
    workflow_path = find_workflow(step_config, workflow)
    manifest = load_workflow_manifest(workflow_path) if workflow_path is not None else None
    if manifest is not None:
        findings += list(manifest.findings)
        default_mode, mode_note = _workflow_mode(manifest, universe, default_mode, mode_note)
    return World(
        registry_path,
        registry_doc,
        model,
        universe,
        era,
        mcp,
        product,
        manifest,
        _workflow_servers(manifest, model, source),
        tuple(findings),
        origin,
        default_mode,
        mode_note,
    )


def _product_manifest(registry_path: Path, model: RegistryModel, product: ProductManifest | None) -> ProductManifest:
    """The product.yaml the registry names (or the one given in its place)."""
    if product is not None:
        return product
    assert model.product is not None  # the era applies the product manifest only when it names one
    product_path = registry_path.parent / model.product
    if not product_path.is_file():
        raise InputError(
            str(registry_path),
            "product names a file that does not exist",
            [Problem("product", f"{model.product!r} (looked for {product_path})")],
        )
    return load_product_manifest(product_path)


def _expected(steps: list[LoadedStep], errors: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The tools any of the steps expects from each failed server, each once."""
    expected: dict[str, tuple[str, ...]] = {}
    for step in steps:
        for server, tools in expected_tools(step, errors).items():
            expected[server] = tuple(dict.fromkeys((*expected.get(server, ()), *tools)))
    return expected


def _in_era(
    universe: Universe, era: Era, apply_modes: bool, product: ProductManifest | None, origin: str | None
) -> tuple[Universe, str | None, str | None]:
    """The universe with the era's layer 2 (product.yaml's chats, the registry's modes, or none),
    its default mode and the note that explains that default."""
    if product is not None:
        note = (
            "mode run: an external (token-backed) caller reaches the run surface"
            if origin == EXTERNAL
            else "mode builder by default: AgentWorks derives the mode from workflow access (write: builder, "
            "read-only: run), never from the client; --mode run for a read-only caller"
        )
        chat = "run" if origin == EXTERNAL else "builder"
        return replace(universe, modes=product_mode_table(product, origin), era=era.value), chat, note
    if not apply_modes:
        no_table = f"{universe.source} models the {era.label}: no allow-list applies, registration is the only source"
        return replace(universe, modes=None, era=era.value, no_table=no_table), None, None
    default = universe.modes.default if universe.modes else None
    return replace(universe, era=era.value), default, None


def _workflow_mode(
    manifest: WorkflowManifest, universe: Universe, default: str | None, note: str | None
) -> tuple[str | None, str | None]:
    """``execution_defaults.workshop_mode`` as the default mode, where the registry's modes can take it."""
    raw = manifest.workshop_mode
    if raw is None or not raw.strip():
        return default, note
    where = manifest.where("execution_defaults", "workshop_mode")
    normalized = WORKSHOP_MODES.get(raw.strip().lower())
    table = universe.modes
    if table is None or normalized is None:
        return default, note
    if table.product:
        return default, f"{note}; {where} does not choose a chat mode in this era (the mode is derived)"
    canonical = table.canonical(normalized)
    if canonical is None:
        return default, note
    return canonical, f"mode {canonical} by default: {where} is {raw!r}"


def workflow_override(step: LoadedStep, world: World) -> tuple[LoadedStep, list[Finding]]:
    """The step as AgentWorks runs it: workflow.json's non-empty ``execution_defaults.enabled_custom_tools``
    replaces the step's own list (and a step that had one gets a finding saying so)."""
    manifest = world.workflow
    if manifest is None or not manifest.enabled_custom_tools:
        return step, []
    own = step.step.agent_configs.enabled_custom_tools
    replaced = WorkflowDefaultsStep(step, manifest)
    if not own:
        return replaced, []
    return replaced, [
        Finding(
            AgentWorksFinding.WORKFLOW_OVERRIDE,
            f"the step's own enabled_custom_tools ({len(own)} {'entry' if len(own) == 1 else 'entries'}) is replaced by "
            f"{manifest.where('execution_defaults', 'enabled_custom_tools')}: {PRECEDENCE}, so a non-empty "
            "workflow list replaces every step's own (update_workflow_config's description says the opposite)",
            entry="enabled_custom_tools",
            source=step.where("enabled_custom_tools"),
            severity=Severity.WARNING,
        )
    ]


class WorkflowDefaultsStep(LoadedStep):
    """A step whose enabled_custom_tools is workflow.json's: places in that list point at workflow.json."""

    def __init__(self, base: LoadedStep, manifest: WorkflowManifest) -> None:
        configs = base.step.agent_configs._replace(enabled_custom_tools=manifest.enabled_custom_tools)
        super().__init__(base.document, base.step._replace(agent_configs=configs), base.index)
        self.manifest = manifest

    def where(self, field: str, item: int | None = None) -> str:
        if field != "enabled_custom_tools":
            return super().where(field, item)
        path = ("execution_defaults", "enabled_custom_tools", *(() if item is None else (item,)))
        return f"{self.manifest.where(*path)}, which replaces every step's own list"

    def target(self, field: str) -> str:
        if field != "enabled_custom_tools":
            return super().target(field)
        return f"execution_defaults.enabled_custom_tools in {self.manifest.name}"


def static_world(registry_doc: Document, model: RegistryModel, universe: Universe) -> World:
    """A world from a registry and a universe already built (no product.yaml, no workflow.json)."""
    era, _modes, _product, findings = resolve_era(model.era, model.modes is not None, False, registry_doc.name)
    universe = replace(universe, era=era.value)
    workflow = WorkflowServers.of_registry(model.workflow, registry_doc.name) if model.workflow else None
    default = universe.modes.default if universe.modes else None
    return World(
        registry_doc.path,
        registry_doc,
        model,
        universe,
        era,
        None,
        None,
        None,
        workflow,
        tuple(findings),
        None,
        default,
        None,
    )
