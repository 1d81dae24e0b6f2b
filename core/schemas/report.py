"""``toolscope.report/2``: the JSON form of ``toolscope report`` (built by ``core.report.json_report``).

Version 2 shares stage results by reference within each mode section, as ``tools/2`` does:
version 1 repeated every tool's rule sentences (87 MB for 50,000 tools).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from pydantic.json_schema import JsonDict

from ..model.enums import InputKind, StageId, Verdict
from ..model.verdicts import Stage
from .base import Model
from .session_words import SourceKind, StartFrom
from .verdicts import ChecklistJson, FindingJson, ToolRefJson, VerdictCounts

# A file name as published: never an absolute path (POSIX or Windows).
_RELATIVE: JsonDict = {"not": {"pattern": r"^(/|[A-Za-z]:[\\/])"}}


class FileJson(Model):
    """An input file: its name as shown and its sha256."""

    name: str = Field(json_schema_extra=_RELATIVE)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Fact(Model):
    """A fact about the input (e.g. code-execution mode), secrets masked."""

    name: str
    value: str


class ResetToolsFact(Model):
    """One probed behaviour of the installed stock reset_tools."""

    question: str
    answer: str


class AgentScopeJson(Model):
    """The installed AgentScope, for toolkit inputs."""

    version: str
    reset_tools: list[ResetToolsFact]


class ProvenanceJson(Model):
    """What was loaded and by which software."""

    kind: InputKind
    label: str
    files: list[FileJson]
    step: str | None
    registry: str | None
    era: str | None
    """AgentWorks: the era of layer 2 the registry models (``allow_list``, ``registration_only``,
    ``product_manifest``); null for other inputs."""
    modes: list[str | None] = Field(min_length=1)
    default_mode: str | None
    facts: list[Fact]
    toolscope_version: str
    python_version: str
    agentscope: AgentScopeJson | None


class ReportToolJson(ToolRefJson):
    """A tool of a report's mode section: ``tools/2``'s per-tool object (stages by index into the
    section's ``stage_results``) plus its description."""

    description: str


class ModeJson(Model):
    """Every tool's verdict in one mode, hidden tools first."""

    mode: str | None
    stages: tuple[StageId, ...]
    counts: VerdictCounts
    notes: list[str]
    stage_results: list[Stage]
    """Every distinct stage result of this mode once, in order of first use."""
    tools: list[ReportToolJson]


class ChangedJson(Model):
    """A tool whose verdict differs between the modes; ``absent`` where it was not evaluated."""

    tool: str
    namespace: str
    verdicts: dict[str, Verdict | Literal["absent"]]


class PairJson(Model):
    """What changes from one mode to the next."""

    from_: str | None = Field(alias="from")
    to: str | None
    gained: list[str]
    lost: list[str]


class DiffJson(Model):
    """Verdict changes between the reported modes (two or more)."""

    modes: list[str | None] = Field(min_length=2)
    changed: list[ChangedJson]
    pairs: list[PairJson]


class SideJson(Model):
    """One side (stock or guarded) of one scripted turn."""

    visible: list[str]
    outcome: str
    active_groups: list[str]


class TurnJson(Model):
    """One turn of the reset_tools script, run stock and guarded."""

    turn: int = Field(ge=1)
    call: str
    stock: SideJson
    guarded: SideJson


class TranscriptJson(Model):
    """The step-through of a reset_tools script."""

    script: str
    turns: list[TurnJson]
    stock_final_groups: list[str]
    guarded_final_groups: list[str]
    notes: list[str]


class LostToolLinkJson(Model):
    """A recorded call that failed because an earlier reset_tools turn removed its group."""

    summary: str
    guarded: str | None
    """What the guard would have done with that turn."""


class ReportSessionJson(Model):
    """Where a replayed session came from, and the answer it gives (``report --session``)."""

    source: str
    kind: SourceKind
    agentscope_version: str | None
    starting_groups: list[str]
    starting_from: StartFrom
    diverged_turns: list[Annotated[int, Field(ge=1)]]
    lost_tool_links: list[LostToolLinkJson]


class SessionTranscriptJson(TranscriptJson):
    """The transcript of a replayed session: the step-through plus the ``session`` block."""

    session: ReportSessionJson


class ReportEnvelope(Model):
    """``toolscope report --format json``."""

    schema_: Literal["toolscope.report/2"] = Field("toolscope.report/2", alias="schema")
    generated_at: str | None
    """UTC time, only with --timestamp."""
    summary: list[str]
    provenance: ProvenanceJson
    modes: list[ModeJson] = Field(min_length=1)
    findings: list[FindingJson]
    checklists: list[ChecklistJson]
    diff: DiffJson | None
    transcript: SessionTranscriptJson | TranscriptJson | None
    """A --script step-through, or a --session replay (with ``session``); None without either."""


class WorkflowReportEnvelope(Model):
    """``toolscope report --format json`` without ``--step`` on a step config with several steps.

    ``findings`` are the workflow's own (the registry's era, product.yaml, workflow.json), once;
    ``steps`` holds a ``toolscope.report/2`` document per step, keyed by step id, in file order,
    each without the workflow's findings."""

    schema_: Literal["toolscope.workflow-report/1"] = Field("toolscope.workflow-report/1", alias="schema")
    generated_at: str | None
    """UTC time, only with --timestamp."""
    label: str
    """``AgentWorks step config steps.json · 3 steps · registry toolscope.registry.yaml``."""
    era: str | None
    """The era of layer 2 the registry models: ``allow_list``, ``registration_only``, ``product_manifest``."""
    summary: list[str]
    """The era, the workflow's findings, then a line per step (its modes' counts and findings)."""
    findings: list[FindingJson]
    steps: dict[str, ReportEnvelope]
