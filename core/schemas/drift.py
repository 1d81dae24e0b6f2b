"""``toolscope registry check --json``: a registry against the AgentWorks Go source it models."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .base import Model

if TYPE_CHECKING:
    from ..systems.agentworks.registry_drift import DriftReport


class ListDriftJson(Model):
    """One list: where each side keeps it, the names the registry lacks and the names it still has."""

    fact: str
    source: str
    """``file.go: Function`` the list was read from (the file relative to its --go-src folder)."""
    registry: str
    lacks: list[str]
    """In the source, not in the registry."""
    stale: list[str]
    """In the registry, no longer in the source."""
    compared: int
    """How many names the source's list has."""


class RegistryCheckEnvelope(Model):
    """Every comparison, what could not be found in the source, and what was not compared."""

    schema_: Literal["toolscope.registry-check/1"] = Field("toolscope.registry-check/1", alias="schema")
    registry: str
    era: str
    drift: bool
    lists: list[ListDriftJson]
    not_found: list[str]
    not_compared: list[str]

    @classmethod
    def of(cls, report: DriftReport) -> RegistryCheckEnvelope:
        """From the core report."""
        return cls(
            registry=report.registry,
            era=report.era.value,
            drift=report.drifted,
            lists=[
                ListDriftJson(
                    fact=item.fact,
                    source=item.source,
                    registry=item.registry,
                    lacks=list(item.lacks),
                    stale=list(item.stale),
                    compared=item.compared,
                )
                for item in report.lists
            ],
            not_found=report.not_found,
            not_compared=report.not_compared,
        )
