"""The shared result model: a tool's path through the gates, stage by stage.

Both systems produce the same shapes. AgentWorks step configs have the stages
``registered``, ``allow_listed``, ``discoverable`` and ``callable``; AgentScope toolkits
have ``registered``, ``visible`` and ``callable``. Every stage carries the rule that
decided it, as a code (data) and as a sentence naming the entry, list and file.

These are frozen, slotted dataclasses rather than pydantic models: a 50,000-tool
universe builds 50,000 verdicts, and stage results are shared between tools that were
decided by the same rule (see ``core.agentworks.pipeline``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscope.core.enums import (
    AGENTSCOPE_STAGES,
    AGENTWORKS_STAGES,
    FindingKind,
    InputKind,
    Severity,
    StageId,
    ToolKind,
    Verdict,
)

__all__ = [
    "AGENTSCOPE_STAGES",
    "AGENTWORKS_STAGES",
    "STAGE_TITLES",
    "Checklist",
    "ChecklistStep",
    "Evaluation",
    "Finding",
    "LoadedInput",
    "Stage",
    "ToolVerdict",
    "Verdict",
    "VerdictList",
    "empty_counts",
]

STAGE_TITLES: dict[str, str] = {
    StageId.REGISTERED: "registered",
    StageId.ALLOW_LISTED: "allow-listed",
    StageId.DISCOVERABLE: "discoverable",
    StageId.CALLABLE: "callable",
    StageId.VISIBLE: "visible",
}


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
        for stage in self.stages:
            if stage.passed is not True:
                return stage
        return None

    @property
    def verdict(self) -> Verdict:
        """visible when every stage passes; unknown when the first non-pass is unknown."""
        stage = self.first_failing
        if stage is None:
            return Verdict.VISIBLE
        return Verdict.HIDDEN if stage.passed is False else Verdict.UNKNOWN

    def stage(self, name: str) -> Stage | None:
        """The stage with this id, if the pipeline has it."""
        for stage in self.stages:
            if stage.name == name:
                return stage
        return None


@dataclass(frozen=True)
class LoadedInput:
    """What was loaded, for headers, reports and provenance."""

    kind: InputKind
    label: str
    """Short, machine-independent description shown in headers."""
    files: tuple[tuple[str, str], ...] = ()
    """(file name as given, sha256) of every input file read."""
    step: str | None = None
    registry: str | None = None
    mode: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    """Other facts worth showing (e.g. AgentScope version, code-execution mode)."""
    paths: tuple[Path, ...] = ()
    """Resolved path of every file behind this input (the ones ``files`` lists, an mcp_config's
    ``_user.json`` override, a factory's module): never shown (machine-dependent); what output
    protection refuses to overwrite and where secrets are looked for."""


@dataclass(frozen=True)
class Evaluation:
    """Every tool's verdict for one input and one mode."""

    loaded: LoadedInput
    stage_names: tuple[StageId, ...]
    tools: Sequence[ToolVerdict]
    """A tuple, or a lazily built ``VerdictList`` for large universes."""
    notes: tuple[str, ...] = field(default=())
    """Facts about the whole evaluation (e.g. 'code-execution mode: claude-code')."""

    def find(self, name: str) -> list[ToolVerdict]:
        """Tools with this exact name; ``ns:tool`` narrows to one namespace."""
        matches = [t for t in self.tools if t.name == name]
        if not matches and ":" in name:
            namespace, _, tool = name.partition(":")
            matches = [t for t in self.tools if t.name == tool and t.namespace == namespace]
        return matches

    def counts(self) -> dict[str, int]:
        """How many tools are visible, hidden and unknown."""
        if isinstance(self.tools, VerdictList):
            return self.tools.verdict_counts()
        out = empty_counts()
        for tool in self.tools:
            out[tool.verdict] += 1
        return out


@dataclass(frozen=True)
class ChecklistStep:
    """One question of the "agent says it doesn't have tool X" checklist."""

    question: str
    answer: str
    """Short answer: yes, no, unknown, n/a."""
    passed: bool | None
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Checklist:
    """The walkthrough for one tool name, ending at a concrete fix."""

    tool: str
    mode: str | None
    verdict: ToolVerdict | None
    """None when the name is not in the universe at all."""
    steps: tuple[ChecklistStep, ...]
    fix: str | None
    """The concrete fix (exact entry, list, file), or None when visible."""
    did_you_mean: tuple[str, ...] = ()

    @property
    def outcome(self) -> Verdict:
        """visible / hidden / unknown; a name outside the universe is unknown."""
        return self.verdict.verdict if self.verdict else Verdict.UNKNOWN


@dataclass(frozen=True)
class Finding:
    """One result of ``check``: an invariant that does not hold, or an expectation that failed."""

    kind: FindingKind
    message: str
    tool: str | None = None
    entry: str | None = None
    source: str | None = None
    severity: Severity = Severity.ERROR


class VerdictList(Sequence[ToolVerdict]):
    """ToolVerdicts built on first access from (tool, stages) rows.

    The engine decides every stage of every tool up front; wrapping 50,000 decisions in
    objects is deferred to whoever looks at them (a screen shows a few dozen rows).
    ``rows`` holds one stage tuple per tool, shared between tools decided by the same rules.
    """

    __slots__ = ("_entries", "_rows", "_built")

    def __init__(self, entries: Sequence[Any], rows: Sequence[tuple[Stage, ...]]) -> None:
        # entries: objects with name, namespace, kind, description (core.agentworks.universe.ToolEntry)
        self._entries = entries
        self._rows = rows
        self._built: list[ToolVerdict | None] = [None] * len(rows)

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def entries(self) -> Sequence[Any]:
        """The tool entries the verdicts are built from, in order (the universe's tools)."""
        return self._entries

    def _build(self, index: int) -> ToolVerdict:
        verdict = self._built[index]
        if verdict is None:
            entry = self._entries[index]
            verdict = ToolVerdict(entry.name, entry.namespace, entry.kind, self._rows[index], entry.description)
            self._built[index] = verdict
        return verdict

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self._rows)))]
        if index < 0:
            index += len(self._rows)
        if not 0 <= index < len(self._rows):
            raise IndexError(index)
        return self._build(index)

    def __iter__(self):  # type: ignore[no-untyped-def]
        for index in range(len(self._rows)):
            yield self._build(index)

    def entry_rows(self) -> list[tuple[Any, tuple[Stage, ...]]]:
        """(entry, stages) per tool, in order, without building ToolVerdicts (fast JSON writers).

        An entry has ``name``, ``namespace``, ``kind`` and ``description`` like a ToolVerdict.
        """
        return list(zip(self._entries, self._rows, strict=True))

    def verdict_counts(self) -> dict[str, int]:
        """visible / hidden / unknown counts without building ToolVerdicts (one look per distinct row)."""
        by_row: dict[int, Verdict] = {}
        out = empty_counts()
        for row in self._rows:
            key = id(row)
            verdict = by_row.get(key)
            if verdict is None:
                verdict = Verdict.VISIBLE
                for stage in row:
                    if stage.passed is not True:
                        verdict = Verdict.HIDDEN if stage.passed is False else Verdict.UNKNOWN
                        break
                by_row[key] = verdict
            out[verdict] += 1
        return out
