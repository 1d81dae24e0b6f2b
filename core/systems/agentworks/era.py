"""The era of AgentWorks' layer 2 a registry models (reference ``agentworks-today.md`` §1).

A. allow-list: ``GetToolsForWorkshopMode`` (coding-agent-loop up to 2026-08-08): the
   registry's ``modes`` section.
B. registration only (coding-agent-loop ``6c4a8908`` on): the allow-list is gone,
   registration is the only source: no ``modes``.
C. product manifest (agentworks, from ~2026-09): ``product.yaml`` ``chat.<mode>.tools``:
   the registry's ``product``.

An answer about layer 2 is true for one era only, so every AgentWorks answer names it. A
registry may say its era (``era:``); otherwise its sections decide. Sections of another
era are a finding and are not applied (no stream of false "allow-listed in no mode" errors).
"""

from __future__ import annotations

from enum import StrEnum

from ...model.enums import Severity
from ...model.errors import InputError, Problem
from ...model.verdicts import Finding
from .ids import AgentWorksFinding


class Era(StrEnum):
    """Which mechanism decides "usable in this mode"."""

    ALLOW_LIST = "allow_list"
    REGISTRATION_ONLY = "registration_only"
    PRODUCT_MANIFEST = "product_manifest"

    @property
    def label(self) -> str:
        """``allow-list era (GetToolsForWorkshopMode)``, for sentences."""
        return ERA_LABELS[self]


ERA_LABELS = {
    Era.ALLOW_LIST: "allow-list era (GetToolsForWorkshopMode)",
    Era.REGISTRATION_ONLY: "registration-only era (no allow-list since coding-agent-loop 6c4a8908)",
    Era.PRODUCT_MANIFEST: "product-manifest era (product.yaml chat.<mode>.tools)",
}


def resolve_era(
    declared: str | None, has_modes: bool, has_product: bool, source: str
) -> tuple[Era, bool, bool, list[Finding]]:
    """(era, apply modes, apply product, findings) for a registry's ``era`` and sections.

    A declared era without its own section is bad input; a section of another era is a
    ``mixed_era`` finding and is ignored.
    """
    if declared is not None and declared not in {e.value for e in Era}:
        raise InputError(
            source, "unknown era", [Problem("era", f"{declared!r}: expected {', '.join(e.value for e in Era)}")]
        )
    era = (
        Era(declared)
        if declared is not None
        else (Era.PRODUCT_MANIFEST if has_product else Era.ALLOW_LIST if has_modes else Era.REGISTRATION_ONLY)
    )
    if era == Era.ALLOW_LIST and not has_modes:
        raise InputError(
            source, "era allow_list needs a modes section", [Problem("era", "add modes, or say era: registration_only")]
        )
    if era == Era.PRODUCT_MANIFEST and not has_product:
        raise InputError(
            source, "era product_manifest needs product: PATH", [Problem("era", "name AgentWorks' product.yaml")]
        )
    findings = []
    if has_modes and era != Era.ALLOW_LIST:
        findings.append(
            Finding(
                AgentWorksFinding.MIXED_ERA,
                f"{source} models the {era.label} but also has a modes section (the allow-list era's "
                "GetToolsForWorkshopMode): the modes are not applied",
                source=f"{source}: modes",
                severity=Severity.WARNING,
            )
        )
    if has_product and era != Era.PRODUCT_MANIFEST:
        findings.append(
            Finding(
                AgentWorksFinding.MIXED_ERA,
                f"{source} models the {era.label} but also names a product manifest: it is not applied",
                source=f"{source}: product",
                severity=Severity.WARNING,
            )
        )
    return era, has_modes and era == Era.ALLOW_LIST, has_product and era == Era.PRODUCT_MANIFEST, findings
