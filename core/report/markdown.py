"""The Markdown form of a report, for GitHub issues, PRs and chats.

A short summary first, then tables; long sections folded in ``<details>``. UTF-8 text
as it reads (no character references a plain-text viewer would show raw). Text from the
inputs goes through ``markdown_text``, so it can never become Markdown or HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.enums import Verdict
from ..model.presentation import NOT_REACHED, STAGE_WORD, verdict_counts_text
from ..model.verdicts import Checklist, Finding, ToolVerdict
from ..systems.registry import STAGE_TITLES
from .data import ModeSection, ReportData, mode_label
from .markdown_text import code, html_inline, md, prose
from .summary import summary_lines
from .transcript import Transcript

# Tables longer than this are folded; the hidden-tools table is folded from here too.
FOLD_ROWS = 25


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return lines


def _fold(summary: str, body: list[str], fold: bool = True) -> list[str]:
    """Body lines, inside <details> when fold; summary is already HTML-safe."""
    if not fold:
        return body
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>"]


def _tool_rows(section: ModeSection, tools: Sequence[ToolVerdict]) -> list[list[str]]:
    rows = []
    for tool in tools:
        failing = tool.first_failing
        cells = [md(tool.name), md(tool.namespace)]
        for name in section.stage_names:
            stage = tool.stage(name)
            cells.append(STAGE_WORD[stage.passed] if stage else NOT_REACHED)
        cells.append(f"**{tool.verdict}**" if tool.verdict != Verdict.VISIBLE else tool.verdict)
        cells.append(
            prose(f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}", cell=True) if failing else ""
        )
        rows.append(cells)
    return rows


def _section(section: ModeSection) -> list[str]:
    counts = section.counts()
    label = mode_label(section.mode)
    out = [f"## Mode {md(label)}", ""]
    out.append(f"{len(section.tools)} tools: {verdict_counts_text(counts)}.")
    out.append("")
    out += [f"- {prose(note)}" for note in section.notes]
    if section.notes:
        out.append("")
    header = ["tool", "namespace", *(STAGE_TITLES.get(n, n) for n in section.stage_names), "verdict", "decided by"]
    hidden = section.hidden
    visible = tuple(t for t in section.tools if t.verdict == Verdict.VISIBLE)
    if hidden:
        out += [f"### Not visible in mode {md(label)}", ""]
        body = _table(header, _tool_rows(section, hidden))
        out += _fold(f"{len(hidden)} tools not visible", body, len(hidden) > FOLD_ROWS)
        out.append("")
    if visible:
        out += _fold(
            f"{len(visible)} visible tools in mode {html_inline(label)}",
            _table(header, _tool_rows(section, visible)),
        )
        out.append("")
    return out


def _findings(report: ReportData) -> list[str]:
    return ["## Invariant findings", "", *findings_table(report.findings)]


def findings_table(findings: Sequence[Finding]) -> list[str]:
    """The findings as a table (folded when long), or "No findings."."""
    if not findings:
        return ["No findings.", ""]
    rows = [[f.severity, md(f.kind), md(f.tool), prose(f.message, cell=True), md(f.source)] for f in findings]
    body = _table(["severity", "kind", "tool", "finding", "source"], rows)
    return [*_fold(f"{len(rows)} findings", body, len(rows) > FOLD_ROWS), ""]


def _checklist(checklist: Checklist) -> list[str]:
    out = [f"## Checklist: {md(checklist.tool)} in mode {md(mode_label(checklist.mode))}", ""]
    out.append(f"Verdict: **{checklist.outcome}**")
    out.append("")
    verdict = checklist.verdict
    if verdict is not None:
        rows = [
            [STAGE_TITLES.get(s.name, s.name), STAGE_WORD[s.passed], prose(s.rule, cell=True)] for s in verdict.stages
        ]
        out += _table(["stage", "result", "rule"], rows)
        out.append("")
        if verdict.description:
            out += [f"Description: {prose(verdict.description)}", ""]
    for number, step in enumerate(checklist.steps, 1):
        out.append(f"{number}. {prose(step.question)} **{md(step.answer)}**")
        out += [f"    - {prose(evidence)}" for evidence in step.evidence]
    if checklist.steps:
        out.append("")
    if checklist.fix:
        out += [f"**Fix:** {prose(checklist.fix)}", ""]
    if checklist.did_you_mean:
        out += ["Did you mean: " + ", ".join(md(name) for name in checklist.did_you_mean), ""]
    return out


def _diff(report: ReportData) -> list[str]:
    diff = report.diff
    assert diff is not None
    labels = [mode_label(m) for m in diff.modes]
    out = ["## Visibility across modes", ""]
    out += [f"- {pair.sentence(md)}" for pair in diff.pairs]
    out.append("")
    if diff.rows:
        rows = [[md(r.tool), md(r.namespace), *r.verdicts] for r in diff.rows]
        body = _table(["tool", "namespace", *(md(label) for label in labels)], rows)
        out += _fold(f"{len(rows)} tools change visibility", body, len(rows) > FOLD_ROWS)
        out.append("")
    else:
        out += ["The visible sets are the same in every mode.", ""]
    return out


def _names(names: Sequence[str]) -> str:
    return ", ".join(md(n) for n in names) or "(none)"


def _session(transcript: Transcript) -> list[str]:
    session = transcript.session
    if session is None:
        return []
    out = [f"## Recorded session: {md(session.source)}", ""]
    if session.links:
        out += ["Lost tools:", ""]
        for link in session.links:
            out.append(f"- {prose(link.summary)}")
            if link.guarded:
                out.append(f"  - {prose(link.guarded)}")
    else:
        out.append("No lost tools: no recorded call failed because the recording had turned its group off.")
    version = session.agentscope_version or "not recorded"
    out += [
        "",
        f"- Source: {md(session.kind)}; AgentScope version of the recording: {md(version)}",
        f"- Starting groups: {_names(session.starting_groups)} ({md(session.starting_from)})",
    ]
    if session.diverged_turns:
        turns = ", ".join(str(t) for t in session.diverged_turns)
        out.append(f"- The stock replay differs from the recording at turn(s) {turns}")
    return out + [""]


def _transcript(transcript: Transcript) -> list[str]:
    out = _session(transcript)
    out += [f"## Step-through: {md(transcript.script)}, stock vs guarded", ""]
    rows = [
        [
            str(t.index),
            code(t.call, cell=True),
            _names(t.stock.visible),
            prose(t.stock.outcome, cell=True),
            _names(t.guarded.visible),
            prose(t.guarded.outcome, cell=True),
        ]
        for t in transcript.turns
    ]
    out += _table(
        ["turn", "call", "stock: visible after", "stock: outcome", "guarded: visible after", "guarded: outcome"], rows
    )
    out += [
        "",
        f"- Active groups at the end, stock: {_names(transcript.stock_final_groups)}",
        f"- Active groups at the end, guarded: {_names(transcript.guarded_final_groups)}",
    ]
    out += [f"- {prose(note)}" for note in transcript.notes]
    return out + [""]


def _provenance(report: ReportData) -> list[str]:
    prov = report.provenance
    body = _table(["", ""], ([md(key), md(value)] for key, value in prov.rows())) + [""]
    body += _table(["file", "sha256"], ([md(f.name), code(f.sha256)] for f in prov.files))
    if prov.environment.reset_tools:
        body += ["", "Installed stock reset\\_tools, probed:", ""]
        body += _table(
            ["behaviour", "observed"], ([prose(q, cell=True), md(a)] for q, a in prov.environment.reset_tools)
        )
    return ["## Provenance", "", *body, ""]


def render_markdown(report: ReportData) -> str:
    """The Markdown report text (ASCII, ends with a newline)."""
    prov = report.provenance
    out = [f"# toolscope report: {md(prov.label)}", "", *markdown_body(report)]
    out += ["---", f"Generated by toolscope {md(prov.environment.toolscope_version)}."]
    return "\n".join(out) + "\n"


def markdown_body(report: ReportData) -> list[str]:
    """The report's lines under its title: the summary, provenance, sections, findings, ... (a whole
    workflow's report nests one per step under a heading of its own)."""
    out = [f"- {prose(line)}" for line in summary_lines(report)]
    out.append("")
    out += _provenance(report)
    for section in report.sections:
        out += _section(section)
    out += _findings(report)
    for checklist in report.checklists:
        out += _checklist(checklist)
    if report.diff is not None:
        out += _diff(report)
    if report.transcript is not None:
        out += _transcript(report.transcript)
    return out
