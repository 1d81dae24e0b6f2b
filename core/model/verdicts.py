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

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, overload

from .enums import (
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
    "ToolLabels",
    "ToolVerdict",
    "Verdict",
    "VerdictList",
    "empty_counts",
    "first_failing",
    "row_verdict",
]

STAGE_TITLES: dict[str, str] = {
    StageId.REGISTERED: "registered",
    StageId.ALLOW_LISTED: "allow-listed",
    StageId.DISCOVERABLE: "discoverable",
    StageId.CALLABLE: "callable",
    StageId.VISIBLE: "offered",  # the model is sent its schema; "visible" is the verdict (#22)
    StageId.SOURCE: "source",
    StageId.PRECEDENCE: "precedence",
    StageId.APPROVAL: "approval",
    StageId.POLICY: "policy",
    StageId.CONNECTION: "connection",
    StageId.NAMING: "naming",
    StageId.DENY: "deny",
    StageId.IN_CONTEXT: "in context",
    StageId.LAYER: "layer",
    StageId.REQUIREMENTS: "requirements",
    StageId.ENABLED: "enabled",
    StageId.TOOL_FILTER: "tool filter",
    StageId.APPROVAL_POLICY: "approval",
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
    era: str | None = None
    """AgentWorks: the era of layer 2 the registry models (``allow_list``, ``registration_only``,
    ``product_manifest``); None for toolkits."""
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

    def offered_count(self) -> int | None:
        """Toolkits: how many tools the model is offered (their "offered" stage passed), callable
        or not; None for a pipeline without that stage. It differs from the visible count by the
        tools offered but denied (file_delete under the PermissionEngine)."""
        if StageId.VISIBLE not in self.stage_names:
            return None
        rows = self.tools if isinstance(self.tools, VerdictList) else VerdictList.of(self.tools)
        offered = [any(s.name == StageId.VISIBLE and s.passed is True for s in row) for row in rows.rows]
        return sum(count for row, count in Counter(rows.row_of).items() if offered[row])


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


class VerdictList(Sequence[ToolVerdict]):
    """Every tool's verdict as distinct rows of stages and a row number per tool.

    The engine decides every stage of every tool up front, and tools decided by the same
    rules have the same row: a 50,000-tool universe has a few hundred distinct rows.
    ``rows`` holds each distinct row once, ``row_of[i]`` is tool ``i``'s row, so counting,
    bucketing by verdict and writing JSON work once per row and then by index. A
    ``ToolVerdict`` is built only when one is asked for (a screen shows a few dozen).
    """

    __slots__ = ("_entries", "rows", "row_of", "_built", "_row_verdicts", "_counts")

    def __init__(self, entries: Sequence[ToolLabels], rows: Sequence[tuple[Stage, ...]], row_of: Sequence[int]) -> None:
        if len(entries) != len(row_of):
            raise ValueError(f"{len(entries)} tools but {len(row_of)} row numbers")
        self._entries = entries
        self.rows: Sequence[tuple[Stage, ...]] = rows
        """Each distinct row of stages once, in order of first use."""
        self.row_of: Sequence[int] = row_of
        """Tool index → its row's index in ``rows``."""
        self._built: list[ToolVerdict | None] = [None] * len(row_of)
        self._row_verdicts: list[Verdict] | None = None
        self._counts: dict[str, int] | None = None

    @classmethod
    def of(cls, verdicts: Sequence[ToolVerdict]) -> VerdictList:
        """The rows of already built verdicts (e.g. an AgentScope toolkit's): equal rows numbered once."""
        if isinstance(verdicts, VerdictList):
            return verdicts
        numbers: dict[tuple[Stage, ...], int] = {}
        row_of = [numbers.setdefault(v.stages, len(numbers)) for v in verdicts]
        made = cls(verdicts, list(numbers), row_of)
        made._built = list(verdicts)
        return made

    def __len__(self) -> int:
        return len(self.row_of)

    @property
    def entries(self) -> Sequence[ToolLabels]:
        """The tools without their stages, in order (the universe's tools)."""
        return self._entries

    def _build(self, index: int) -> ToolVerdict:
        verdict = self._built[index]
        if verdict is None:
            entry = self._entries[index]
            stages = self.rows[self.row_of[index]]
            verdict = ToolVerdict(entry.name, entry.namespace, entry.kind, stages, entry.description)
            self._built[index] = verdict
        return verdict

    @overload
    def __getitem__(self, index: int) -> ToolVerdict: ...
    @overload
    def __getitem__(self, index: slice) -> list[ToolVerdict]: ...
    def __getitem__(self, index: int | slice) -> ToolVerdict | list[ToolVerdict]:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self.row_of)))]
        if index < 0:
            index += len(self.row_of)
        if not 0 <= index < len(self.row_of):
            raise IndexError(index)
        return self._build(index)

    def __iter__(self) -> Iterator[ToolVerdict]:
        for index in range(len(self.row_of)):
            yield self._build(index)

    def row_verdicts(self) -> list[Verdict]:
        """Each distinct row's verdict, by row index (decided once)."""
        if self._row_verdicts is None:
            self._row_verdicts = [row_verdict(row) for row in self.rows]
        return self._row_verdicts

    def verdict_counts(self) -> dict[str, int]:
        """visible / hidden / unknown counts without building ToolVerdicts (one look per distinct row)."""
        if self._counts is None:
            verdicts = self.row_verdicts()
            counts = empty_counts()
            for row, count in Counter(self.row_of).items():
                counts[verdicts[row]] += count
            self._counts = counts
        return dict(self._counts)

    def order_by_verdict(self) -> list[int]:
        """Tool indexes: hidden, then unknown, then visible, each in the tools' own order (stable)."""
        rank = {Verdict.HIDDEN: 0, Verdict.UNKNOWN: 1, Verdict.VISIBLE: 2}
        row_rank = [rank[v] for v in self.row_verdicts()]
        tool_rank = [row_rank[row] for row in self.row_of]
        return sorted(range(len(tool_rank)), key=tool_rank.__getitem__)
