"""A tool's path through the gates: each stage's answer, and the verdict a row of stages makes.

Both systems produce the same shapes. AgentWorks step configs have the stages
``registered``, ``allow_listed``, ``discoverable`` and ``callable``; AgentScope toolkits
have ``registered``, ``visible`` and ``callable``; Claude Code and Codex have their own. Every
stage carries the rule that decided it, as a code (data) and as a sentence naming the entry,
list and file.

These are frozen, slotted dataclasses rather than pydantic models: a 50,000-tool
universe builds 50,000 verdicts, and stage results are shared between tools that were
decided by the same rule (see ``core.systems.agentworks.pipeline``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .enums import StageId, ToolKind, Verdict


def empty_counts() -> dict[str, int]:
    """``{"visible": 0, "hidden": 0, "unknown": 0}``: the counter every verdict count starts from."""
    return {verdict.value: 0 for verdict in Verdict}


@dataclass(frozen=True, slots=True)
class Stage:
    """One gate's answer for one tool.

    Serialized as it is by the JSON models (``core.schemas``): the field order is the
    key order of every ``stages`` array, and nothing converts 50,000 stages on the way out.
    """

    # pydantic's ConfigDict, as a plain dict so this module does not import pydantic.
    __pydantic_config__ = {"extra": "forbid", "json_schema_serialization_defaults_required": True}

    name: StageId
    passed: bool | None
    """True passes, False hides the tool, None means unknown (e.g. an MCP outage)."""
    code: str
    """Machine-readable rule id, e.g. ``filter.specific_entry`` or ``mode.not_listed``."""
    rule: str
    """The deciding rule as a sentence naming the entry, the list and the file."""
    entry: str | None = None
    """The config entry that decided, verbatim, when one did."""
    source: str | None = None
    """Where that entry lives: ``file`` or ``file: path.in.document``."""


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    """A tool and every stage it passed or failed, in pipeline order."""

    name: str
    namespace: str
    """MCP server, custom category, virtual, or AgentScope group."""
    kind: ToolKind
    """``mcp``, ``custom``, ``virtual``, ``other`` (AgentWorks); ``tool``, ``mcp``, ``meta`` (AgentScope)."""
    stages: tuple[Stage, ...]
    description: str = ""

    @property
    def first_failing(self) -> Stage | None:
        """The first stage that did not pass (failed or unknown), or None when visible."""
        return first_failing(self.stages)

    @property
    def verdict(self) -> Verdict:
        """visible when every stage passes; unknown when the first non-pass is unknown."""
        return row_verdict(self.stages)

    def stage(self, name: str) -> Stage | None:
        """The stage with this id, if the pipeline has it."""
        for stage in self.stages:
            if stage.name == name:
                return stage
        return None


class ToolLabels(Protocol):
    """What a tool is, without its stages: a ``ToolVerdict``, or the engine's ``ToolEntry``."""

    @property
    def name(self) -> str: ...
    @property
    def namespace(self) -> str: ...
    @property
    def kind(self) -> ToolKind: ...
    @property
    def description(self) -> str: ...


def first_failing(row: Sequence[Stage]) -> Stage | None:
    """The first stage of a row that did not pass (failed or unknown), or None when all passed."""
    for stage in row:
        if stage.passed is not True:
            return stage
    return None


def row_verdict(row: Sequence[Stage]) -> Verdict:
    """The verdict of a row of stages (``ToolVerdict.verdict`` without the object)."""
    stage = first_failing(row)
    if stage is None:
        return Verdict.VISIBLE
    return Verdict.HIDDEN if stage.passed is False else Verdict.UNKNOWN
