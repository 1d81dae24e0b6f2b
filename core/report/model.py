"""The data of a report, built once from a Subject and rendered by every format.

``build_report`` asks the Subject its questions (evaluate each mode, the findings, a
checklist per requested tool), adds provenance, and returns a frozen ``ReportData``.
Every string in it has already been scrubbed of secrets (see ``redaction``), so the
renderers cannot leak one. Nothing here reads the clock or the machine's paths unless
asked (``timestamp``), so the same inputs give the same report.
"""

from __future__ import annotations

import functools
import platform
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from toolscope.core.counts import count_of
from toolscope.core.enums import InputKind, Severity, Verdict
from toolscope.core.presentation import verdict_counts_text
from toolscope.core.report.diff import (
    DiffRow,
    ModeDiff,
    ModePair,
    mode_diff,
    tool_label,
)
from toolscope.core.report.redaction import Redactor
from toolscope.core.subject import Subject
from toolscope.core.verdicts import STAGE_TITLES, Checklist, Evaluation, Finding, ToolVerdict, VerdictList

__all__ = [
    "DiffRow",
    "Environment",
    "FileRef",
    "ModeDiff",
    "ModePair",
    "ModeSection",
    "Provenance",
    "ReportData",
    "Transcript",
    "Turn",
    "TurnSide",
    "build_report",
    "current_environment",
    "mode_label",
    "shown_name",
    "tool_label",
]

SCHEMA = "toolscope.report/2"


@dataclass(frozen=True)
class FileRef:
    """An input file: its name as shown (never an absolute path) and its sha256."""

    name: str
    sha256: str


def why_hidden(tool: ToolVerdict) -> str:
    """What a tool lacks, in the user's words: ``not allow-listed``; for a toolkit tool
    whose group is off, ``group 'web_search' not active`` (not the stage's title)."""
    failing = tool.first_failing
    if failing is None:
        return "visible"
    if failing.name == "visible" and failing.passed is False:
        return f"group '{tool.namespace}' not active"
    if failing.passed is None:
        return f"{_title(failing.name)} unknown"
    return f"not {_title(failing.name)}"


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

    def rows(self) -> list[tuple[str, str]]:
        """The provenance table as (key, value) rows, untrusted text unescaped: each key
        once (an input's own fact, like ``input: toolkit spec``, replaces the generic
        one), rows that do not apply to this input (a toolkit's step) left out."""
        facts = dict(self.facts)
        rows: dict[str, str] = {"input": self.kind.replace("_", " ")}
        if self.label:
            rows["loaded"] = self.label
        if self.step:
            rows["step"] = self.step
        if self.registry:
            rows["registry"] = self.registry
        rows["mode(s)"] = ", ".join(mode_label(m) for m in self.modes)
        rows["default mode"] = mode_label(self.default_mode)
        rows.update(facts)
        env = self.environment
        rows["toolscope"] = env.toolscope_version
        rows["Python"] = env.python_version
        if env.agentscope_version is not None and not any(k.lower() == "agentscope" for k in facts):
            rows["AgentScope"] = env.agentscope_version
        if self.generated_at:
            rows["generated at"] = self.generated_at
        return list(rows.items())


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
        gate, the easiest kind to miss (notify_user). In the section's order."""
        registered = [row[0].passed is True for row in self.evaluated.rows]
        row_of = self.evaluated.row_of
        return [index for index in self.order[: self._not_visible] if registered[row_of[index]]]


@dataclass(frozen=True)
class TurnSide:
    """One side (stock or guarded) of one scripted turn."""

    visible: tuple[str, ...]
    """Tool names the model sees after the turn."""
    outcome: str
    """What the reset_tools call did: its result text or state, secrets scrubbed."""
    active_groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """One turn of a reset_tools script, run stock and guarded."""

    index: int
    call: str
    stock: TurnSide
    guarded: TurnSide


@dataclass(frozen=True)
class LostToolLink:
    """A recorded session's lost-tool link: the sentence, and what the guard did with that call."""

    summary: str
    guarded: str | None = None


@dataclass(frozen=True)
class SessionSummary:
    """Where a replayed session came from, and the answer it gives (``report --session``)."""

    source: str
    kind: str
    agentscope_version: str | None
    starting_groups: tuple[str, ...]
    starting_from: str
    diverged_turns: tuple[int, ...]
    """Model turns where the stock replay differs from the recording."""
    links: tuple[LostToolLink, ...] = ()


@dataclass(frozen=True)
class Transcript:
    """The step-through of a reset_tools script (or a recorded session): stock vs guarded, turn by turn."""

    script: str
    turns: tuple[Turn, ...]
    stock_final_groups: tuple[str, ...] = ()
    guarded_final_groups: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    session: SessionSummary | None = None


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

    def summary_lines(self) -> list[str]:
        """The short plain-text summary every format starts with (untrusted text unescaped)."""
        lines = []
        session = self.transcript.session if self.transcript is not None else None
        if session is not None:  # the answer first
            lines += [f"Lost tool: {link.summary}" for link in session.links]
        for section in self.sections:
            counts = section.counts()
            # Say which mode the report used, and when it is the config's default (no --mode needed).
            default = (
                " (the default mode)"
                if section.mode is not None and section.mode == self.provenance.default_mode
                else ""
            )
            lines.append(
                f"Mode {mode_label(section.mode)}{default}: {len(section.evaluated)} tools, "
                f"{verdict_counts_text(counts)}."
            )
            # Registered but hidden by a later gate: the easiest kind to miss (notify_user).
            later = section.hidden_after_registration()
            if later:
                names = ", ".join(f"{t.name} ({why_hidden(t)})" for t in map(section.evaluated.__getitem__, later[:10]))
                more = f" and {len(later) - 10} more" if len(later) > 10 else ""
                lines.append(f"Registered but not visible in mode {mode_label(section.mode)}: {names}{more}.")
        errors = sum(1 for f in self.findings if f.severity == Severity.ERROR)
        warnings = len(self.findings) - errors
        lines.append(
            f"Invariant checks: {count_of(errors, 'error')}, {count_of(warnings, 'warning')}."
            if self.findings
            else "Invariant checks: no findings."
        )
        for checklist in self.checklists:
            line = f"Tool {checklist.tool} in mode {mode_label(checklist.mode)}: {checklist.outcome}"
            failing = checklist.verdict.first_failing if checklist.verdict else None
            if failing is not None and checklist.verdict is not None:
                line += f" ({why_hidden(checklist.verdict)})"
            elif checklist.verdict is None:
                line += " (not in the tool universe)"
            lines.append(line + ".")
        if self.diff is not None:
            lines.append(
                f"{count_of(len(self.diff.rows), 'tool')} {'changes' if len(self.diff.rows) == 1 else 'change'} visibility between the modes."
            )
        if session is not None and self.transcript is not None:
            lines.append(
                f"Replay of {count_of(len(self.transcript.turns), 'recorded reset_tools call')} from session {session.source}, "
                f"stock vs guarded; {count_of(len(session.links), 'lost-tool link')}."
            )
        elif self.transcript is not None:
            lines.append(f"Step-through of {count_of(len(self.transcript.turns), 'scripted turn')}, stock vs guarded.")
        return lines


def _title(stage: str) -> str:
    return STAGE_TITLES.get(stage, stage)


def mode_label(mode: str | None) -> str:
    """How a mode is shown; a subject without modes has the mode None."""
    return mode if mode is not None else "(none)"


def shown_name(name: str) -> str:
    """A file name safe to publish: relative names stay as given, absolute ones lose their folders."""
    path = PurePath(name)
    return path.name if path.is_absolute() or ".." in path.parts else name


def current_environment(kind: str) -> Environment:
    """Versions of the running software; for toolkits also AgentScope and its reset_tools probe."""
    from toolscope import __version__

    agentscope_version = None
    reset_tools: tuple[tuple[str, str], ...] = ()
    if kind != InputKind.STEP_CONFIG:
        from importlib.metadata import PackageNotFoundError, version

        try:
            agentscope_version = version("agentscope")
        except PackageNotFoundError:
            agentscope_version = "not installed"
        reset_tools = probe_reset_tools()
    return Environment(__version__, platform.python_version(), agentscope_version, reset_tools)


def probe_reset_tools() -> tuple[tuple[str, str], ...]:
    """The installed stock reset_tools' behaviour, probed through ``core.agentscope.probe``."""
    from toolscope.core.report.adapters import probe_facts

    return probe_facts()


def _sorted_section(mode: str | None, evaluation: Evaluation) -> ModeSection:
    """The section of one evaluation: hidden, then unknown, then visible tools, each in the
    subject's own order (stable); verdicts decided once per distinct row of stages."""
    evaluated = VerdictList.of(evaluation.tools)
    return ModeSection(
        mode, evaluation.stage_names, evaluated, array("l", evaluated.order_by_verdict()), evaluation.notes
    )


def _public_names(subject: Subject, sections: Sequence[ModeSection]) -> set[str]:
    # Structural names the report must show as they are: tools, servers/namespaces, modes.
    names = {mode for mode in subject.mode_names if mode} | set(subject.all_tool_names())
    for section in sections:
        if section.mode:
            names.add(section.mode)
        for tool in section.evaluated.entries:
            names.update((tool.name, tool.namespace, tool_label(tool)))
    return names


def build_report(
    subject: Subject,
    modes: Sequence[str | None] = (),
    tools: Sequence[str] = (),
    *,
    transcript: Transcript | None = None,
    extra_files: Sequence[tuple[str, str]] = (),
    environment: Environment | None = None,
    secrets: Sequence[str] = (),
    generated_at: str | None = None,
) -> ReportData:
    """Build the report for these modes (default: the subject's) and these ``--tool`` names.

    ``extra_files`` are (name, sha256) of inputs the subject did not read itself (the
    script); ``secrets`` are values to mask wherever they appear (the rule of
    ``redaction``: secret-looking values only, never inside tool, namespace or mode
    names); ``environment`` defaults to the running software (tests pass a fixed one).
    """
    resolved: list[str | None] = []
    for mode in modes or (subject.default_mode,):
        canonical = subject.resolve_mode(mode)
        if canonical not in resolved:
            resolved.append(canonical)
    sections = []
    for mode in resolved:
        sections.append(_sorted_section(mode, subject.evaluate(mode)))
    loaded = subject.loaded
    env = environment or current_environment(loaded.kind)
    files = [FileRef(shown_name(name), digest) for name, digest in loaded.files]
    files += [FileRef(shown_name(name), digest) for name, digest in extra_files if (name, digest) not in loaded.files]
    # The public names only ever spare secrets: without secrets, no need to collect them.
    redactor = Redactor(secrets, public=_public_names(subject, sections) if secrets else ())
    provenance = Provenance(
        kind=loaded.kind,
        label=loaded.label,
        files=tuple(files),
        step=loaded.step,
        registry=shown_name(loaded.registry) if loaded.registry else None,
        modes=tuple(resolved),
        default_mode=subject.default_mode,
        facts=tuple(redactor.pair(k, v) for k, v in loaded.extra),
        environment=env,
        generated_at=generated_at,
    )
    checklists = tuple(subject.checklist(tool, mode) for tool in tools for mode in resolved)
    report = ReportData(
        provenance=provenance,
        sections=tuple(sections),
        findings=tuple(subject.findings(resolved)),
        checklists=checklists,
        diff=mode_diff(sections) if len(sections) >= 2 else None,
        transcript=transcript,
    )
    scrubbed: ReportData = redactor.deep(report)
    return scrubbed
