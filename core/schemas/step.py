"""``toolscope.step/1``: a reset_tools script stepped through the stock and the guarded meta tool."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from toolscope.core.enums import InputKind, TurnKind
from toolscope.core.schemas.base import Model


class StepInput(Model):
    """What was loaded: kind, label, and (file name, sha256) pairs."""

    kind: InputKind
    label: str
    files: list[tuple[str, str]]


class ProbeJson(Model):
    """The installed stock reset_tools' behaviour, probed on a throwaway state."""

    agentscope_version: str
    refused_call_changes_state: bool
    refusal_reported_as_error: bool
    unknown_names_stored: bool
    coerces_yes: bool
    coerces_one: bool
    summary: str


class PlanJson(Model):
    """GroupActivationGuard's plan for one call: accepted or refused, and the group diff."""

    accepted: bool
    requested: list[str]
    unknown: list[str]
    non_bool: list[str]
    known: list[str]
    before: list[str]
    after: list[str]
    activated: list[str]
    deactivated: list[str]
    kept: list[str]
    summary: str


class LaneTurnJson(Model):
    """One lane's side of one call turn."""

    turn: int = Field(ge=1)
    call: str
    """The raw argument text sent to reset_tools."""
    args: dict[str, Any] | None
    """The arguments as parsed (None when the text is not a JSON object)."""
    accepted: bool
    response_state: str
    response_text: str
    groups_before: list[str]
    groups_after: list[str]
    visible_tools: list[str]
    token_estimate: int = Field(ge=0)


class GuardedLaneTurnJson(LaneTurnJson):
    """The guarded lane's side also carries the guard's plan (None when the guard never ran)."""

    plan: PlanJson | None


class Lanes(Model):
    """Each lane's call turns, in order."""

    stock: list[LaneTurnJson]
    guarded: list[GuardedLaneTurnJson]


class EventJson(Model):
    """A group registered mid-session."""

    turn: int = Field(ge=1)
    kind: Literal[TurnKind.REGISTER_GROUP]
    group: str | None
    description: str


class FinalGroups(Model):
    """Each lane's active groups after the last turn."""

    stock: list[str]
    guarded: list[str]


class StepEnvelope(Model):
    """``toolscope step --json``."""

    schema_: Literal["toolscope.step/1"] = Field("toolscope.step/1", alias="schema")
    input: StepInput
    script: str
    """The script's file name."""
    agentscope_version: str
    initial_groups: list[str]
    probe: ProbeJson
    lanes: Lanes
    events: list[EventJson]
    final_groups: FinalGroups
