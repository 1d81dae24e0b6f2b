"""``toolscope registry check REGISTRY --go-src DIR``: the registry against the Go source it models.

The seed's checklist step 4 ("so the registered-tool pool and workshop allow-list cannot
drift again") as a command: per list, the names the registry lacks and the names it has
that the source no longer does. Lists are compared only where the registry's era has them
(an allow-list registry's modes, a product-manifest registry's product.yaml); what could
not be found in the source is said, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .era import Era
from .go_source import HUMAN_CALL, GoFacts, GoList, unread_lines
from .registry import RegistryModel
from .tool_filter import DEFAULT_SYSTEM_CATEGORY_BASES
from .universe import Universe

DRIFT_SCHEMA = "toolscope.registry-check/1"


@dataclass(frozen=True)
class ListDrift:
    """One list as the source has it and as the registry has it."""

    fact: str
    source: str
    """``file.go: Function`` the list was read from."""
    registry: str
    """Where the registry keeps it."""
    lacks: tuple[str, ...] = ()
    """In the source, not in the registry."""
    stale: tuple[str, ...] = ()
    """In the registry, no longer in the source."""
    compared: int = 0

    @property
    def drifted(self) -> bool:
        """Whether the two differ."""
        return bool(self.lacks or self.stale)


@dataclass
class DriftReport:
    """Every comparison, and what could not be compared."""

    registry: str
    era: Era
    lists: list[ListDrift] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    """Facts the source was searched for and does not have (by the name looked for)."""
    not_compared: list[str] = field(default_factory=list)
    """Facts found in the source that this registry does not model, and why."""

    @property
    def drifted(self) -> bool:
        """Whether any list differs."""
        return any(item.drifted for item in self.lists)


def _diff(
    fact: str, source: GoList, registry_where: str, registry: Iterable[str], ignore: Iterable[str] = ()
) -> ListDrift:
    ignored = set(ignore)
    have = [n for n in dict.fromkeys(registry) if n not in ignored]
    want = [n for n in dict.fromkeys(source.names) if n not in ignored]
    have_set, want_set = set(have), set(want)
    return ListDrift(
        fact,
        source.where,
        registry_where,
        tuple(n for n in want if n not in have_set),
        tuple(n for n in have if n not in want_set),
        len(want_set),
    )


def _modes(report: DriftReport, facts: GoFacts, universe: Universe, source_name: str) -> None:
    table = universe.modes
    if report.era != Era.ALLOW_LIST or table is None:
        if facts.mode_lists:
            report.not_compared.append(
                f"GetToolsForWorkshopMode's mode lists: {source_name} models the {report.era.label}, which has none"
            )
        return
    if not facts.mode_lists:
        return
    # Human tools are added by a call the allow-list cannot be read from (the run branch filters in code):
    # they are compared as their own list below, and left out of the mode lists on both sides.
    human = set(facts.human_tools.names) if facts.human_tools and HUMAN_CALL in facts.mode_calls else set()
    labels_lacking = []
    for label, listed in facts.mode_lists.items():
        if label == "":
            report.not_compared.append(
                f"GetToolsForWorkshopMode's default branch ({len(listed.names)} names): the registry has no mode "
                "for an empty or unknown name"
            )
            continue
        mode = table.canonical(label)
        if mode is None:
            labels_lacking.append(label)
            continue
        where = f"{source_name}: modes.system + modes.lists.{mode}"
        report.lists.append(_diff(f'mode "{label}"', listed, where, table.allowed.get(mode, {}), human))
    source_labels = set(facts.mode_lists) | set(facts.mode_labels.names if facts.mode_labels else ())
    stale = [m for m in table.modes if m not in source_labels and not facts.mode_labels]
    if labels_lacking or stale:
        report.lists.append(
            ListDrift(
                "mode names",
                next(iter(facts.mode_lists.values())).where,
                f"{source_name}: modes.lists, modes.aliases",
                tuple(labels_lacking),
                tuple(stale),
                len(facts.mode_lists),
            )
        )
    if facts.mode_labels:
        lacking = tuple(label for label in facts.mode_labels.names if table.canonical(label) is None)
        report.lists.append(
            ListDrift(
                "mode canonicalisation labels",
                facts.mode_labels.where,
                f"{source_name}: modes.lists, modes.aliases, modes.fallback",
                lacking,
                (),
                len(facts.mode_labels.names),
            )
        )


def _denial(report: DriftReport, facts: GoFacts, model: RegistryModel, source_name: str) -> None:
    if facts.denial_formats is None:
        return
    texts = [f.replace("%q", '"{tool}"').replace("%s", "{tool}") for f in facts.denial_formats.names]
    registry_text = " ".join(model.denial_texts.execution.split())
    if any(registry_text.startswith(" ".join(t.split()).rstrip()) for t in texts):
        report.lists.append(
            ListDrift(
                "execution denial text",
                facts.denial_formats.where,
                f"{source_name}: denial_texts.execution",
                compared=1,
            )
        )
        return
    allowed = [t for t in texts if "not_found" not in t] or texts
    report.lists.append(
        ListDrift(
            "execution denial text",
            facts.denial_formats.where,
            f"{source_name}: denial_texts.execution",
            (allowed[0].strip(),),
            (registry_text[:120] + ("…" if len(registry_text) > 120 else ""),),
            1,
        )
    )


def compare_with_source(
    model: RegistryModel,
    universe: Universe,
    era: Era,
    facts: GoFacts,
    product_lists: Sequence[tuple[str, str, tuple[str, ...]]] = (),
    source_product_lists: Sequence[tuple[str, GoList]] = (),
) -> DriftReport:
    """Compare every list the source has with the registry's; ``product_lists`` are the registry's product.yaml
    lists (fact, where, names) and ``source_product_lists`` the checkout's (fact, list), in the same order."""
    name = universe.source
    report = DriftReport(name, era, not_found=list(facts.missing))
    if facts.truncated:
        report.not_found.append("the checkout has more Go files than toolscope reads; the rest were not searched")
    report.not_found += unread_lines(facts)
    _modes(report, facts, universe, name)
    human = model.custom_tools.get("human_tools")
    if facts.human_tools is not None:
        if human is None:
            report.not_compared.append(f"WorkshopHumanToolNames: {name} has no custom_tools.human_tools")
        else:
            report.lists.append(
                _diff("human tools", facts.human_tools, f"{name}: custom_tools.human_tools", human.tools)
            )
    if facts.system_categories is not None:
        bases = model.system_categories if model.system_categories is not None else DEFAULT_SYSTEM_CATEGORY_BASES
        where = (
            f"{name}: system_categories"
            if model.system_categories is not None
            else "toolscope's default system categories"
        )
        report.lists.append(_diff("system categories", facts.system_categories, where, bases))
    if facts.providers is not None:
        providers = [p.strip().lower() for p in model.code_execution_providers]
        report.lists.append(
            _diff("code-execution providers", facts.providers, f"{name}: code_execution_providers", providers)
        )
    if facts.bridge_tools is not None:
        if model.bridge_tools is None:
            report.not_compared.append(
                f"bridgeTools ({', '.join(facts.bridge_tools.names)}): {name} has no bridge_tools"
            )
        else:
            report.lists.append(_diff("bridge tools", facts.bridge_tools, f"{name}: bridge_tools", model.bridge_tools))
    _denial(report, facts, model, name)
    if era == Era.PRODUCT_MANIFEST:
        if facts.product is None:
            report.not_compared.append(f"{name}'s product.yaml: the checkout has no agentworksproduct/product.yaml")
        for (fact, where, names), (_fact, listed) in zip(product_lists, source_product_lists, strict=True):
            report.lists.append(_diff(fact, listed, where, names))
    elif facts.product is not None:
        report.not_compared.append(
            f"{facts.product.name} (era C admission lists) is in the checkout, but {name} models the {era.label}"
        )
    return report


def check_registry_against_source(registry_path: Path, roots: list[Path]) -> DriftReport:
    """Load the registry (static: no MCP discovery) and compare it with the Go checkouts at ``roots``."""
    from dataclasses import replace

    from .era import resolve_era
    from .go_source import read_all_go_facts
    from .product_manifest import load_product_manifest
    from .universe import build_universe
    from .world import load_registry_or_product

    document, model, product = load_registry_or_product(registry_path)
    source = document.name
    era, apply_modes, apply_product, _findings = resolve_era(
        model.era, model.modes is not None, model.product is not None, source
    )
    universe = build_universe(model, source)
    if not apply_modes:
        universe = replace(universe, modes=None)
    facts = read_all_go_facts(roots)
    registry_lists: list[tuple[str, str, tuple[str, ...]]] = []
    source_lists: list[tuple[str, GoList]] = []
    if apply_product and facts.product is not None:
        if product is None and model.product is not None:
            product = load_product_manifest(registry_path.parent / model.product)
        theirs = load_product_manifest(facts.product)
        assert product is not None  # era C has a product
        where = _relative(facts.product, roots)
        for mode, key in (("builder", "tools"), ("run", "tools"), ("run", "external_denylist")):
            mine = product.chats.get(mode)
            other = theirs.chats.get(mode)
            registry_lists.append(
                (f"chat.{mode}.{key}", f"{product.name}: chat.{mode}.{key}", getattr(mine, key) if mine else ())
            )
            source_lists.append(
                (f"chat.{mode}.{key}", GoList(getattr(other, key) if other else (), f"{where}: chat.{mode}.{key}"))
            )
    return compare_with_source(model, universe, era, facts, registry_lists, source_lists)


def _relative(path: Path, roots: list[Path]) -> str:
    for root in roots:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            continue
    return path.name
