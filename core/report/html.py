"""The HTML form of a report: one self-contained page, readable on screen and on paper.

Inline CSS only: no scripts, no external requests (fonts, images, styles). Every piece
of text goes through ``esc`` — HTML-escaped, quotes included, control characters shown
as ``\\xNN`` — so names like ``<script>`` or ``"><img onerror=…>`` stay text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from importlib import resources

from ..model.answers import ChecklistStep
from ..model.enums import Verdict
from ..model.presentation import NOT_REACHED, STAGE_CLASS, STAGE_WORD, VERDICT_CLASS, verdict_counts_text
from ..model.verdicts import Checklist, Finding, Stage
from ..systems.registry import STAGE_TITLES
from ..text.safe_text import inert
from .data import ModeSection, ReportData, mode_label
from .markdown_text import CODE_PATTERN, SPACES
from .summary import summary_lines
from .transcript import Transcript

FOLD_ROWS = 25


def esc(text: str | None) -> str:
    """Untrusted text as inert HTML (escaped, quotes too; control characters visible)."""
    return html.escape(inert(text or ""), quote=True)


_BREAK_AFTER = re.compile(r"([_./:-])(?=\w)")


def name_html(text: str | None) -> str:
    """A tool or namespace name, escaped, that may wrap after ``_ . / : -`` on a narrow
    page (``<wbr>``: a line-break opportunity that copies as nothing), never mid-word."""
    return _BREAK_AFTER.sub(r"\1<wbr>", esc(text))


def prose(text: str | None) -> str:
    """Untrusted prose as ``esc`` does, with suggested commands and JSON arguments in
    ``<code>`` (as in the Markdown report) and line breaks as spaces."""
    if not text:
        return ""
    text = SPACES.sub(" ", text.strip())
    out = []
    position = 0
    for match in CODE_PATTERN.finditer(text):
        out.append(esc(text[position : match.start()]))
        out.append(f"<code>{esc(match.group())}</code>")
        position = match.end()
    out.append(esc(text[position:]))
    return "".join(out)


def _css() -> str:
    return resources.files("toolscope.core.report").joinpath("report.css").read_text("utf-8")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "") -> str:
    """A table; header and cells are already-safe HTML."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    klass = f' class="{cls}"' if cls else ""
    # The wrapper scrolls a table sideways on a narrow screen instead of the whole page.
    return (
        f'<div class="scroll"><table{klass}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table></div>'
    )


def _fold(summary: str, body: str, fold: bool = True) -> str:
    # Open by default: a closed <details> prints as its summary only, and CSS cannot open it.
    if not fold:
        return body
    return f"<details open><summary>{summary}</summary>\n{body}\n</details>"


def _stage(stage: Stage | None) -> str:
    if stage is None:
        return NOT_REACHED
    word, cls = STAGE_WORD[stage.passed], STAGE_CLASS[stage.passed]
    return f'<span class="{cls} mark">{word}</span>'


def _verdict(verdict: str) -> str:
    cls = VERDICT_CLASS[verdict]
    return f'<span class="{cls} mark"><strong>{verdict}</strong></span>'


def _tool_table(section: ModeSection, tools: Sequence) -> str:
    header = [
        "tool",
        "namespace",
        *(f'<span class="mark">{esc(STAGE_TITLES.get(n, n))}</span>' for n in section.stage_names),
        "verdict",
        "decided by",
    ]
    rows = []
    for tool in tools:
        failing = tool.first_failing
        name = f"<strong>{name_html(tool.name)}</strong>"
        if tool.description:
            name += f'<div class="desc">{esc(tool.description)}</div>'
        rows.append(
            [
                name,
                name_html(tool.namespace),
                *(_stage(tool.stage(n)) for n in section.stage_names),
                _verdict(tool.verdict),
                prose(f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}") if failing else "",
            ]
        )
    return _table(header, rows, "tools")


def _section(section: ModeSection) -> str:
    counts = section.counts()
    label = esc(mode_label(section.mode))
    parts = [
        f"<section><h2>Mode {label}</h2>",
        f"<p>{len(section.tools)} tools: {verdict_counts_text(counts)}.</p>",
    ]
    if section.notes:
        parts.append("<ul>" + "".join(f"<li>{prose(n)}</li>" for n in section.notes) + "</ul>")
    hidden = section.hidden
    visible = [t for t in section.tools if t.verdict == Verdict.VISIBLE]
    if hidden:
        parts.append(f"<h3>Not visible in mode {label}</h3>")
        parts.append(_fold(f"{len(hidden)} tools not visible", _tool_table(section, hidden), len(hidden) > FOLD_ROWS))
    if visible:
        parts.append(f"<h3>Visible in mode {label}</h3>")
        parts.append(_fold(f"{len(visible)} visible tools", _tool_table(section, visible)))
    parts.append("</section>")
    return "\n".join(parts)


def _findings(report: ReportData) -> str:
    if not report.findings:
        return "<section><h2>Invariant findings</h2><p>No findings.</p></section>"
    return f"<section><h2>Invariant findings</h2>\n{findings_html(report.findings)}\n</section>"


def findings_html(findings: Sequence[Finding]) -> str:
    """The findings as a table (folded when long), or "No findings."."""
    if not findings:
        return "<p>No findings.</p>"
    rows = [[esc(f.severity), esc(f.kind), esc(f.tool), prose(f.message), esc(f.source)] for f in findings]
    table = _table(["severity", "kind", "tool", "finding", "source"], rows)
    return _fold(f"{len(rows)} findings", table, len(rows) > FOLD_ROWS)


def _checklist(checklist: Checklist) -> str:
    parts = [
        f"<section><h2>Checklist: {esc(checklist.tool)} in mode {esc(mode_label(checklist.mode))}</h2>",
        f"<p>Verdict: {_verdict(checklist.outcome)}</p>",
    ]
    verdict = checklist.verdict
    if verdict is not None:
        rows = [[esc(STAGE_TITLES.get(s.name, s.name)), _stage(s), prose(s.rule)] for s in verdict.stages]
        parts.append(_table(["stage", "result", "rule"], rows))
        if verdict.description:
            parts.append(f'<p class="desc">{prose(verdict.description)}</p>')
    if checklist.steps:
        parts.append("<ol>" + "\n".join(_checklist_step(step) for step in checklist.steps) + "</ol>")
    if checklist.fix:
        parts.append(f'<p class="fix"><strong>Fix:</strong> {prose(checklist.fix)}</p>')
    if checklist.did_you_mean:
        parts.append("<p>Did you mean: " + ", ".join(esc(n) for n in checklist.did_you_mean) + "</p>")
    parts.append("</section>")
    return "\n".join(parts)


def _checklist_step(step: ChecklistStep) -> str:
    """One question, its answer, and the evidence for it as a nested list."""
    evidence = "".join(f"<li>{prose(e)}</li>" for e in step.evidence)
    nested = f"<ul>{evidence}</ul>" if evidence else ""
    return f"<li>{esc(step.question)} <strong>{esc(step.answer)}</strong>{nested}</li>"


def _diff(report: ReportData) -> str:
    diff = report.diff
    assert diff is not None
    items = [f"<li>{pair.sentence(esc)}</li>" for pair in diff.pairs]
    parts = ["<section><h2>Visibility across modes</h2>", "<ul>" + "".join(items) + "</ul>"]
    if diff.rows:
        header = ["tool", "namespace", *(esc(mode_label(m)) for m in diff.modes)]
        rows = [[esc(r.tool), esc(r.namespace), *(esc(v) for v in r.verdicts)] for r in diff.rows]
        parts.append(_fold(f"{len(rows)} tools change visibility", _table(header, rows), len(rows) > FOLD_ROWS))
    else:
        parts.append("<p>The visible sets are the same in every mode.</p>")
    parts.append("</section>")
    return "\n".join(parts)


def _names(names: Sequence[str]) -> str:
    return ", ".join(esc(n) for n in names) or "(none)"


def _session(transcript: Transcript) -> str:
    session = transcript.session
    if session is None:
        return ""
    items = []
    for link in session.links:
        guarded = f"<br><small>{esc(link.guarded)}</small>" if link.guarded else ""
        items.append(f"<li><strong>{esc(link.summary)}</strong>{guarded}</li>")
    links = (
        f"<p>Lost tools:</p><ul>{''.join(items)}</ul>"
        if items
        else "<p>No lost tools: no recorded call failed because the recording had turned its group off.</p>"
    )
    diverged = ", ".join(str(t) for t in session.diverged_turns)
    facts = (
        f"<li>Source: {esc(session.kind)}; AgentScope version of the recording: "
        f"{esc(session.agentscope_version or 'not recorded')}</li>"
        f"<li>Starting groups: {_names(session.starting_groups)} ({esc(session.starting_from)})</li>"
        + (f"<li>The stock replay differs from the recording at turn(s) {diverged}</li>" if diverged else "")
    )
    return f"<section><h2>Recorded session: {esc(session.source)}</h2>\n{links}\n<ul>{facts}</ul></section>\n"


def _transcript(transcript: Transcript) -> str:
    rows = [
        [
            str(t.index),
            f"<code>{esc(t.call)}</code>",
            _names(t.stock.visible),
            prose(t.stock.outcome),
            _names(t.guarded.visible),
            prose(t.guarded.outcome),
        ]
        for t in transcript.turns
    ]
    table = _table(
        ["turn", "call", "stock: visible after", "stock: outcome", "guarded: visible after", "guarded: outcome"], rows
    )
    notes = "".join(f"<li>{esc(n)}</li>" for n in transcript.notes)
    return _session(transcript) + (
        f"<section><h2>Step-through: {esc(transcript.script)}, stock vs guarded</h2>\n{table}\n<ul>"
        f"<li>Active groups at the end, stock: {_names(transcript.stock_final_groups)}</li>"
        f"<li>Active groups at the end, guarded: {_names(transcript.guarded_final_groups)}</li>"
        f"{notes}</ul></section>"
    )


def _provenance(report: ReportData) -> str:
    prov = report.provenance
    body = _table(["", ""], ([esc(key), esc(value)] for key, value in prov.rows()), "facts")
    body += "\n" + _table(["file", "sha256"], ([esc(f.name), f"<code>{esc(f.sha256)}</code>"] for f in prov.files))
    if prov.environment.reset_tools:
        body += "\n<p>Installed stock reset_tools, probed:</p>\n"
        body += _table(["behaviour", "observed"], ([esc(q), esc(a)] for q, a in prov.environment.reset_tools))
    return f"<section><h2>Provenance</h2>\n{body}\n</section>"


def render_html(report: ReportData) -> str:
    """The HTML report: a complete, self-contained document."""
    prov = report.provenance
    body = [f"<h1>toolscope report: {esc(prov.label)}</h1>", *html_body(report)]
    body.append(f"<footer>Generated by toolscope {esc(prov.environment.toolscope_version)}.</footer>")
    return html_document(f"toolscope report: {esc(prov.label)}", body)


def html_document(title: str, body: Sequence[str]) -> str:
    """A complete, self-contained HTML document (``title`` already escaped)."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>\n{_css()}</style>\n</head>\n"
        "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def html_body(report: ReportData) -> list[str]:
    """The report's parts under its title (a whole workflow's report nests one per step)."""
    summary = "".join(f"<li>{prose(line)}</li>" for line in summary_lines(report))
    body = [
        f'<section class="summary"><h2>Summary</h2><ul>{summary}</ul></section>',
        _provenance(report),
        *(_section(s) for s in report.sections),
        _findings(report),
        *(_checklist(c) for c in report.checklists),
    ]
    if report.diff is not None:
        body.append(_diff(report))
    if report.transcript is not None:
        body.append(_transcript(report.transcript))
    return body
