"""The data of a report, built once by ``build.build_report`` and rendered by every format.

Frozen dataclasses: what was loaded (``Provenance``), every tool's verdict per mode
(``ModeSection``), and the whole report (``ReportData``). Every string in them has already
been scrubbed of secrets (see ``redaction``), so the renderers cannot leak one.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass, field
from pathlib import PurePath

from ..model.attention import Attention, attention
from ..model.enums import Verdict
from ..model.verdicts import Checklist, Finding, ToolVerdict, VerdictList
from .diff import ModeDiff
from .transcript import Transcript

SCHEMA = "toolscope.report/2"


@dataclass(frozen=True)
class FileRef:
    """An input file: its name as shown (never an absolute path) and its sha256."""

    name: str
    sha256: str


@dataclass(frozen=True)
class Environment:
    """The software that produced the report."""

    toolscope_version: str
    python_version: str
    agentscope_version: str | None = None
    """Installed AgentScope, for toolkit inputs."""
    reset_tools: tuple[tuple[str, str], ...] = ()
    """Probed behaviour of the installed stock ``reset_tools`` as (question, answer)."""


@dataclass(frozen=True)
class Provenance:
    """What was loaded and how."""

    kind: str
    label: str
    files: tuple[FileRef, ...]
    step: str | None
    registry: str | None
    modes: tuple[str | None, ...]
    default_mode: str | None
    facts: tuple[tuple[str, str], ...]
    environment: Environment
    generated_at: str | None = None
    era: str | None = None
    """AgentWorks: the era of layer 2 the registry models (``allow_list``, …); None for other inputs."""

    def rows(self) -> list[tuple[str, str]]:
        """The provenance table as (key, value) rows, untrusted text unescaped: each key
        once (an input's own fact, like ``input: toolkit spec``, replaces the generic
        one), rows that do not apply to this input (a toolkit's step) left out."""
        facts = dict(self.facts)
        rows = self._input_rows()
        rows.update(facts)
        rows.update(self._environment_rows(facts))
        return list(rows.items())

    def _input_rows(self) -> dict[str, str]:
        """What was loaded: the input's kind, label, step, registry, era and modes."""
        rows: dict[str, str] = {"input": self.kind.replace("_", " ")}
        optional = {"loaded": self.label, "step": self.step, "registry": self.registry}
        rows.update((key, value) for key, value in optional.items() if value)
        if self.era:
            from ..systems.agentworks.era import Era  # every AgentWorks answer names its era

            rows["era"] = Era(self.era).label
        rows["mode(s)"] = ", ".join(mode_label(m) for m in self.modes)
        rows["default mode"] = mode_label(self.default_mode)
        return rows

    def _environment_rows(self, facts: dict[str, str]) -> dict[str, str]:
        """The versions that produced the answer (AgentScope's unless the input's facts name it)."""
        env = self.environment
        rows = {"toolscope": env.toolscope_version, "Python": env.python_version}
        if env.agentscope_version is not None and not any(k.lower() == "agentscope" for k in facts):
            rows["AgentScope"] = env.agentscope_version
        if self.generated_at:
            rows["generated at"] = self.generated_at
        return rows


@dataclass(frozen=True)
class ModeSection:
    """Every tool's verdict in one mode, hidden tools first, then unknown, then visible.

    ``evaluated`` is the evaluation as rows (each distinct row of stages once, a row number
    per tool, in the subject's order) and ``order`` the tool indexes in the section's order:
    counting and the JSON writer work per row and by index. ``tools`` builds the
    ToolVerdicts on first use (the Markdown and HTML tables).
    """

    mode: str | None
    stage_names: tuple[str, ...]
    evaluated: VerdictList
    order: array[int]
    """Indexes into ``evaluated``: hidden, unknown, then visible tools, each in the subject's order."""
    notes: tuple[str, ...] = ()

    @functools.cached_property
    def tools(self) -> tuple[ToolVerdict, ...]:
        """Every tool's ToolVerdict, in the section's order."""
        evaluated = self.evaluated
        return tuple(evaluated[index] for index in self.order)

    @functools.cached_property
    def verdicts(self) -> list[Verdict]:
        """Each tool's verdict, in the section's order."""
        by_row = self.evaluated.row_verdicts()
        row_of = self.evaluated.row_of
        return [by_row[row_of[index]] for index in self.order]

    def counts(self) -> dict[str, int]:
        """visible / hidden / unknown counts."""
        return self.evaluated.verdict_counts()

    @functools.cached_property
    def _not_visible(self) -> int:
        counts = self.counts()
        return counts[Verdict.HIDDEN] + counts[Verdict.UNKNOWN]

    @property
    def hidden(self) -> tuple[ToolVerdict, ...]:
        """Tools that are not visible (hidden or unknown)."""
        evaluated = self.evaluated
        return tuple(evaluated[index] for index in self.order[: self._not_visible])

    @property
    def visible(self) -> tuple[ToolVerdict, ...]:
        """Tools that pass every stage."""
        evaluated = self.evaluated
        return tuple(evaluated[index] for index in self.order[self._not_visible :])

    def hidden_after_registration(self) -> list[int]:
        """Indexes (into ``evaluated``) of tools registered but not visible: hidden by a later
        gate that a config change fixes, the easiest kind to miss (notify_user). Tools hidden
        by design (an inactive group, a virtual tool code-execution mode leaves out) are not
        among them (``core.model.attention``). In the section's order."""
        alert = [attention(row) is Attention.ALERT for row in self.evaluated.rows]
        row_of = self.evaluated.row_of
        return [index for index in self.order[: self._not_visible] if alert[row_of[index]]]


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows, in every format."""

    provenance: Provenance
    sections: tuple[ModeSection, ...]
    findings: tuple[Finding, ...]
    checklists: tuple[Checklist, ...]
    diff: ModeDiff | None = None
    transcript: Transcript | None = None
    schema: str = field(default=SCHEMA)


def mode_label(mode: str | None) -> str:
    """How a mode is shown; a subject without modes has the mode None."""
    return mode if mode is not None else "(none)"


def shown_name(name: str) -> str:
    """A file name safe to publish: relative names stay as given, absolute ones lose their folders."""
    path = PurePath(name)
    return path.name if path.is_absolute() or ".." in path.parts else name
