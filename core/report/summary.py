"""The short plain-text summary every report format starts with."""

from __future__ import annotations

from ..model.counts import count_of
from ..model.enums import Severity, SharedStage
from ..model.presentation import verdict_counts_text
from ..model.verdicts import ToolVerdict
from ..systems.registry import STAGE_TITLES
from .data import ReportData, mode_label


def summary_lines(report: ReportData) -> list[str]:
    """The short plain-text summary every format starts with (untrusted text unescaped)."""
    lines = []
    session = report.transcript.session if report.transcript is not None else None
    if session is not None:  # the answer first
        lines += [f"Lost tool: {link.summary}" for link in session.links]
    for section in report.sections:
        counts = section.counts()
        # Say which mode the report used, and when it is the config's default (no --mode needed).
        default = (
            " (the default mode)" if section.mode is not None and section.mode == report.provenance.default_mode else ""
        )
        lines.append(
            f"Mode {mode_label(section.mode)}{default}: {len(section.evaluated)} tools, {verdict_counts_text(counts)}."
        )
        # Registered but hidden by a later gate: the easiest kind to miss (notify_user).
        later = section.hidden_after_registration()
        if later:
            names = ", ".join(f"{t.name} ({why_hidden(t)})" for t in map(section.evaluated.__getitem__, later[:10]))
            more = f" and {len(later) - 10} more" if len(later) > 10 else ""
            lines.append(f"Registered but not visible in mode {mode_label(section.mode)}: {names}{more}.")
    errors = sum(1 for f in report.findings if f.severity == Severity.ERROR)
    warnings = len(report.findings) - errors
    lines.append(
        f"Invariant checks: {count_of(errors, 'error')}, {count_of(warnings, 'warning')}."
        if report.findings
        else "Invariant checks: no findings."
    )
    for checklist in report.checklists:
        line = f"Tool {checklist.tool} in mode {mode_label(checklist.mode)}: {checklist.outcome}"
        failing = checklist.verdict.first_failing if checklist.verdict else None
        if failing is not None and checklist.verdict is not None:
            line += f" ({why_hidden(checklist.verdict)})"
        elif checklist.verdict is None:
            line += " (not in the tool universe)"
        lines.append(line + ".")
    if report.diff is not None:
        lines.append(
            f"{count_of(len(report.diff.rows), 'tool')} {'changes' if len(report.diff.rows) == 1 else 'change'} visibility between the modes."
        )
    if session is not None and report.transcript is not None:
        lines.append(
            f"Replay of {count_of(len(report.transcript.turns), 'recorded reset_tools call')} from session {session.source}, "
            f"stock vs guarded; {count_of(len(session.links), 'lost-tool link')}."
        )
    elif report.transcript is not None:
        lines.append(f"Step-through of {count_of(len(report.transcript.turns), 'scripted turn')}, stock vs guarded.")
    return lines


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
