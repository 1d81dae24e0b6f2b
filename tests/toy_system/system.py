"""The toy system's registry entry: data, and its hooks by name."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from toolscope.core.systems.contract import Hook, StageSpec, System


class ToyStage(StrEnum):
    LISTED = "toy_listed"
    SWITCHED_ON = "toy_switched_on"


class ToyFinding(StrEnum):
    SWITCHED_OFF = "toy_switched_off"


TOY_INPUT = "toybox"


def sniff_document(data: Mapping[str, Any]) -> str | None:
    """A toybox file has ``toys``."""
    return TOY_INPUT if "toys" in data else None


SYSTEM = System(
    key="toy",
    title="Toybox",
    summary="toy:[DIR]: the tools of DIR/toybox.json (a test system)",
    input_kinds=(TOY_INPUT,),
    stages=(
        StageSpec(ToyStage.LISTED, "in the box", "BOX"),
        StageSpec(ToyStage.SWITCHED_ON, "switched on", "ON"),
    ),
    finding_kinds=(ToyFinding.SWITCHED_OFF,),
    opener=Hook("toy_system.subject:open_subject"),
    prefix="toy:",
    markers=("toybox.json",),
    sniff_document=sniff_document,
    document_hint="a toybox (an object with 'toys')",
)
