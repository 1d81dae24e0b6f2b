"""The Markdown form of a report, for GitHub issues, PRs and chats.

A short summary first, then tables; long sections folded in ``<details>``. The output
is pure ASCII: toolscope's own text uses words instead of symbols, and any non-ASCII
character from the inputs becomes a numeric character reference, which GitHub renders
as the character. Text from the inputs is escaped so it can never become Markdown or
HTML: ``<script>`` stays text, ``|`` cannot break a table, ``@name`` pings nobody.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from toolscope.core.enums import Verdict
from toolscope.core.report.model import (
    ModeSection,
    ReportData,
    Transcript,
    mode_label,
)
from toolscope.core.safe_text import inert
from toolscope.core.verdicts import STAGE_TITLES, Checklist, ToolVerdict

# Tables longer than this are folded; the hidden-tools table is folded from here too.
FOLD_ROWS = 25
# Inline constructs: emphasis, code, links/images, tables, strikethrough.
_MD_PUNCT = re.compile(r"([\\`*_\[\]|~])")
# Block constructs only start a line: headings, list items, quotes ("> " is an entity).
_BLOCK_START = re.compile(r"^(\d+)([.)])|^([#+\-=])")
# Bidirectional and invisible formatting characters reorder or hide text on screen.
_FORMAT_CHARS = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_WORD = {True: "pass", False: "FAIL", None: "unknown"}


_ENTITY = re.compile(r"[&<>@]|[^\x00-\x7e]")
_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;"}  # "@": no @mentions from inputs


def _entity(match: re.Match[str]) -> str:
    ch = match.group()
    return _NAMED.get(ch) or f"&#x{ord(ch):X};"


def _entities(text: str) -> str:
    """HTML-special, ``@`` and non-ASCII characters as character references."""
    return _ENTITY.sub(_entity, text)


@functools.lru_cache(maxsize=65536)  # rules and namespaces repeat across thousands of rows
def md(text: str | None) -> str:
    """Untrusted text as inert, single-line, ASCII Markdown (safe in table cells)."""
    if text is None:
        return ""
    text = visible_format_chars(inert(text, single_line=True))
    text = _MD_PUNCT.sub(r"\\\1", text)
    text = _BLOCK_START.sub(_escape_block_start, text)
    return _entities(text)


def _escape_block_start(match: re.Match[str]) -> str:
    if match.group(3):
        return "\\" + match.group(3)
    return f"{match.group(1)}\\{match.group(2)}"


def visible_format_chars(text: str) -> str:
    """Bidi overrides and zero-width characters shown as ``\\uXXXX`` (they can disguise text)."""
    return _FORMAT_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def html_inline(text: str | None) -> str:
    """Untrusted text for inside HTML elements (``<summary>``), where backslashes show."""
    return _entities(visible_format_chars(inert(text or "", single_line=True)))


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
            cells.append(_WORD[stage.passed] if stage else "-")
        cells.append(f"**{tool.verdict}**" if tool.verdict != Verdict.VISIBLE else tool.verdict)
        cells.append(md(f"{failing.name}: {failing.rule}") if failing else "")
        rows.append(cells)
    return rows


def _section(section: ModeSection) -> list[str]:
    counts = section.counts()
    label = mode_label(section.mode)
    out = [f"## Mode {md(label)}", ""]
    out.append(
        f"{len(section.tools)} tools: {counts['visible']} visible, "
        f"{counts['hidden']} hidden, {counts['unknown']} unknown."
    )
    out.append("")
    out += [f"- {md(note)}" for note in section.notes]
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
    out = ["## Invariant findings", ""]
    if not report.findings:
        return out + ["No findings.", ""]
    rows = [[f.severity, md(f.kind), md(f.tool), md(f.message), md(f.source)] for f in report.findings]
    body = _table(["severity", "kind", "tool", "finding", "source"], rows)
    out += _fold(f"{len(rows)} findings", body, len(rows) > FOLD_ROWS)
    return out + [""]


def _checklist(checklist: Checklist) -> list[str]:
    out = [f"## Checklist: {md(checklist.tool)} in mode {md(mode_label(checklist.mode))}", ""]
    out.append(f"Verdict: **{checklist.outcome}**")
    out.append("")
    verdict = checklist.verdict
    if verdict is not None:
        rows = [[STAGE_TITLES.get(s.name, s.name), _WORD[s.passed], md(s.rule)] for s in verdict.stages]
        out += _table(["stage", "result", "rule"], rows)
        out.append("")
        if verdict.description:
            out += [f"Description: {md(verdict.description)}", ""]
    for number, step in enumerate(checklist.steps, 1):
        out.append(f"{number}. {md(step.question)} **{md(step.answer)}**")
        out += [f"    - {md(evidence)}" for evidence in step.evidence]
    if checklist.steps:
        out.append("")
    if checklist.fix:
        out += [f"**Fix:** {md(checklist.fix)}", ""]
    if checklist.did_you_mean:
        out += ["Did you mean: " + ", ".join(md(name) for name in checklist.did_you_mean), ""]
    return out


def _diff(report: ReportData) -> list[str]:
    diff = report.diff
    assert diff is not None
    labels = [mode_label(m) for m in diff.modes]
    out = ["## Visibility across modes", ""]
    for pair in diff.pairs:
        gained = ", ".join(md(n) for n in pair.gained) or "none"
        lost = ", ".join(md(n) for n in pair.lost) or "none"
        out.append(
            f"- From {md(mode_label(pair.before))} to {md(mode_label(pair.after))}: "
            f"{len(pair.gained)} gained ({gained}); {len(pair.lost)} lost ({lost})."
        )
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
            out.append(f"- {md(link.summary)}")
            if link.guarded:
                out.append(f"  - {md(link.guarded)}")
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
            md(t.call),
            _names(t.stock.visible),
            md(t.stock.outcome),
            _names(t.guarded.visible),
            md(t.guarded.outcome),
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
    out += [f"- {md(note)}" for note in transcript.notes]
    return out + [""]


def _provenance(report: ReportData) -> list[str]:
    prov = report.provenance
    env = prov.environment
    rows = [
        ["input", md(prov.kind)],
        ["loaded", md(prov.label)],
        ["step", md(prov.step) or "-"],
        ["registry", md(prov.registry) or "-"],
        ["mode(s)", ", ".join(md(mode_label(m)) for m in prov.modes)],
        ["default mode", md(mode_label(prov.default_mode))],
        *([md(k), md(v)] for k, v in prov.facts),
        ["toolscope", md(env.toolscope_version)],
        ["Python", md(env.python_version)],
    ]
    if env.agentscope_version is not None and not any(k.lower() == "agentscope" for k, _ in prov.facts):
        rows.append(["AgentScope", md(env.agentscope_version)])
    if prov.generated_at:
        rows.append(["generated at", md(prov.generated_at)])
    body = _table(["", ""], rows) + [""]
    body += _table(["file", "sha256"], ([md(f.name), f.sha256] for f in prov.files))
    if env.reset_tools:
        body += ["", "Installed stock reset_tools, probed:", ""]
        body += _table(["behaviour", "observed"], ([md(q), md(a)] for q, a in env.reset_tools))
    return ["## Provenance", "", *body, ""]


def render_markdown(report: ReportData) -> str:
    """The Markdown report text (ASCII, ends with a newline)."""
    prov = report.provenance
    out = [f"# toolscope report: {md(prov.label)}", ""]
    out += [f"- {md(line)}" for line in report.summary_lines()]
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
    out += ["---", f"Generated by toolscope {md(prov.environment.toolscope_version)}."]
    return "\n".join(out) + "\n"
