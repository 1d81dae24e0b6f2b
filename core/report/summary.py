"""The short plain-text summary every report format starts with."""

from __future__ import annotations

from ..model.counts import count_of
from ..model.enums import Severity, SharedStage
from ..model.presentation import verdict_counts_text
from ..model.verdicts import Checklist, ToolVerdict
from ..systems.registry import STAGE_TITLES
from .data import ModeSection, ReportData, mode_label
from .transcript import Transcript


def summary_lines(report: ReportData) -> list[str]:
    """The short plain-text summary every format starts with (untrusted text unescaped)."""
    session = report.transcript.session if report.transcript is not None else None
    lines = [f"Lost tool: {link.summary}" for link in session.links] if session is not None else []  # the answer first
    for section in report.sections:
        lines += _section_lines(report, section)
    lines.append(_findings_line(report))
    lines += [_checklist_line(checklist) for checklist in report.checklists]
    if report.diff is not None:
        changes = "changes" if len(report.diff.rows) == 1 else "change"
        lines.append(f"{count_of(len(report.diff.rows), 'tool')} {changes} visibility between the modes.")
    if report.transcript is not None:
        lines.append(_transcript_line(report.transcript))
    return lines


def _section_lines(report: ReportData, section: ModeSection) -> list[str]:
    """One mode's counts, and the tools a later gate hid after registration."""
    counts = section.counts()
    # Say which mode the report used, and when it is the config's default (no --mode needed).
    is_default = section.mode is not None and section.mode == report.provenance.default_mode
    default = " (the default mode)" if is_default else ""
    lines = [
        f"Mode {mode_label(section.mode)}{default}: {len(section.evaluated)} tools, {verdict_counts_text(counts)}."
    ]
    # Registered but hidden by a later gate: the easiest kind to miss (notify_user).
    later = section.hidden_after_registration()
    if later:
        names = ", ".join(f"{t.name} ({why_hidden(t)})" for t in map(section.evaluated.__getitem__, later[:10]))
        more = f" and {len(later) - 10} more" if len(later) > 10 else ""
        lines.append(f"Registered but not visible in mode {mode_label(section.mode)}: {names}{more}.")
    return lines


def _findings_line(report: ReportData) -> str:
    if not report.findings:
        return "Invariant checks: no findings."
    errors = sum(1 for f in report.findings if f.severity == Severity.ERROR)
    warnings = len(report.findings) - errors
    return f"Invariant checks: {count_of(errors, 'error')}, {count_of(warnings, 'warning')}."


def _checklist_line(checklist: Checklist) -> str:
    line = f"Tool {checklist.tool} in mode {mode_label(checklist.mode)}: {checklist.outcome}"
    if checklist.verdict is None:
        line += " (not in the tool universe)"
    elif checklist.verdict.first_failing is not None:
        line += f" ({why_hidden(checklist.verdict)})"
    return line + "."


def _transcript_line(transcript: Transcript) -> str:
    """A replayed session or a scripted step-through: what the transcript section holds."""
    session = transcript.session
    if session is None:
        return f"Step-through of {count_of(len(transcript.turns), 'scripted turn')}, stock vs guarded."
    return (
        f"Replay of {count_of(len(transcript.turns), 'recorded reset_tools call')} from session {session.source}, "
        f"stock vs guarded; {count_of(len(session.links), 'lost-tool link')}."
    )


def why_hidden(tool: ToolVerdict) -> str:
    """What a tool lacks, in the user's words: ``not allow-listed``; for a toolkit tool
    whose group is off, ``group 'web_search' not active`` (not the stage's title)."""
    failing = tool.first_failing
    if failing is None:
        return "visible"
    if failing.name == SharedStage.VISIBLE and failing.passed is False:
        return f"group '{tool.namespace}' not active"
    if failing.passed is None:
        return f"{_title(failing.name)} unknown"
    return f"not {_title(failing.name)}"


def _title(stage: str) -> str:
    return STAGE_TITLES.get(stage, stage)
