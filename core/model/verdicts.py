"""The shared result model: what was loaded, and every tool's verdict for it in one mode.

This is the module every front end imports the model from: the shapes defined beside it
(``tool_verdict``: a stage and a tool's row of stages; ``verdict_list``: the compact store of a
large evaluation; ``answers``: checklists and findings) are re-exported here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .answers import Checklist, ChecklistStep, Finding
from .enums import InputKind, SharedStage, StageId, Verdict
from .tool_verdict import Stage, ToolLabels, ToolVerdict, empty_counts, first_failing, row_verdict
from .verdict_list import VerdictList

__all__ = [
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
        if SharedStage.VISIBLE not in self.stage_names:
            return None
        rows = self.tools if isinstance(self.tools, VerdictList) else VerdictList.of(self.tools)
        offered = [any(s.name == SharedStage.VISIBLE and s.passed is True for s in row) for row in rows.rows]
        return sum(count for row, count in Counter(rows.row_of).items() if offered[row])
