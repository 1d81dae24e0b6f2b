"""``toolscope.step/1``: a reset_tools script stepped through the stock and the guarded meta tool."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel

from ..model.enums import InputKind, TurnKind
from .base import Model
from .capture_compare import CaptureJson
from .session_words import Failure, SourceKind, StartFrom, Visibility


class StepInput(Model):
    """What was loaded: kind, label, and (file name, sha256) pairs."""

    kind: InputKind
    label: str
    files: list[tuple[str, str]]


class ProbeFacts(Model):
    """What the installed stock meta tool did on throwaway states: the probe's facts, declared
    once (``core.systems.agentscope.probe.StockProbe`` is this plus its summary sentence)."""

    agentscope_version: str
    # A call with a non-boolean value changed the active groups (clear-before-validate).
    refused_call_changes_state: bool
    # That refused call came back with state ERROR (2.0.6: SUCCESS with an error text).
    refusal_reported_as_error: bool
    # An unregistered group name ended up in activated_groups.
    unknown_names_stored: bool
    # "yes" became true through call_tool.
    coerces_yes: bool
    # "1" became true through call_tool.
    coerces_one: bool


class ProbeJson(ProbeFacts):
    """The installed stock reset_tools' behaviour, probed on a throwaway state."""

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
    received_args: dict[str, Any] | None = None
    """The arguments as the guard received them, when they differ from ``args``: AgentScope
    2.0.11's ``call_tool`` repairs a call against the schema (coerces ``"yes"``, fills in
    defaults such as ``scraping: false`` that the model never wrote). None: as written."""


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


class SessionSource(Model):
    """Where the recorded session came from."""

    path: str
    kind: SourceKind
    session_id: str | None


class StartingGroups(Model):
    """The groups the replay started from, and where they came from."""

    groups: list[str]
    from_: StartFrom = Field(alias="from")


class RecordedResult(Model):
    """What the recording says the reset_tools call returned."""

    state: str | None
    text: str | None
    groups_after: list[str] | None


class ReplayedTurnJson(Model):
    """A recorded reset_tools call, replayed on both lanes."""

    turn: int = Field(ge=1)
    model_turn: int
    call: str | None
    assistant_text: str
    recorded: RecordedResult
    stock_matches_recording: bool
    difference: str | None
    note: str | None


class OtherCallJson(Model):
    """A recorded call of another tool, and whether its group was active at that point."""

    position: int
    model_turn: int
    tool: str
    recorded_state: str | None
    failure: Failure | None
    after_turn: int | None
    group: str | None
    visibility: Visibility
    lost_to_turn: int | None


class LostToolLinkJson(Model):
    """A failed call linked to the reset_tools turn that removed its group."""

    turn: int | None
    model_turn: int | None
    call: str | None
    removed_groups: list[str]
    tools: list[str]
    failed_calls: list[int]
    failed_model_turns: list[int]
    summary: str
    guarded: str | None
    """What the guard would have done with that call."""


class SessionJson(Model):
    """The ``session`` block of ``step --session --json``."""

    source: SessionSource
    agentscope_version: str | None
    starting_groups: StartingGroups
    recorded_final_groups: list[str] | None
    model_turns: int
    turns: list[ReplayedTurnJson]
    other_calls: list[OtherCallJson]
    diverged_turns: list[int]
    lost_tool_links: list[LostToolLinkJson]
    headline: list[str]
    notes: list[str]


class McpOutageJson(Model):
    """An MCP client of a group that failed to list its tools: an outage, not a deactivation."""

    group: str
    client: str
    error: str


class CallNotesJson(Model):
    """Notes on how the installed AgentScope treats one turn's call (from the guarded lane's arguments)."""

    turn: int = Field(ge=1)
    notes: list[str]


class _StepDocument(Model):
    """The keys both forms of ``toolscope.step/1`` share, in order."""

    schema_: Literal["toolscope.step/1"] = Field("toolscope.step/1", alias="schema")
    input: StepInput
    script: str | None
    """The script's file name (None for a recorded session)."""
    agentscope_version: str
    initial_groups: list[str]
    probe: ProbeJson
    lanes: Lanes
    events: list[EventJson]
    final_groups: FinalGroups


class StepEnvelope(_StepDocument):
    """``toolscope step --script S --json``."""

    mcp_outages: list[McpOutageJson]
    call_notes: list[CallNotesJson]
    """Only turns with notes."""


class SessionStepEnvelope(_StepDocument):
    """``toolscope step --session FILE --json``: the shared keys plus the ``session`` block."""

    session: SessionJson


class CaptureStepEnvelope(_StepDocument):
    """``toolscope step --capture FILE --json``: the shared keys (the lanes are the replayed
    reset_tools calls of the capture's replies) plus the ``capture`` block."""

    capture: CaptureJson


class StepDocument(RootModel[SessionStepEnvelope | CaptureStepEnvelope | StepEnvelope]):
    """``toolscope.step/1``: a scripted step-through, a replayed session (with ``session``), or a
    capture compared with the lanes (with ``capture``)."""
