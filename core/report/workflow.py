"""A whole workflow's report: ``report CONFIG`` on a step config with several steps and no ``--step``.

The workflow's own findings (the registry's era, product.yaml, workflow.json) come once; then one
``ReportData`` per step, built by ``build_report`` like a one-step report but without those
findings. Rendered as Markdown and HTML (one section per step, the step's report nested under it)
and as ``toolscope.workflow-report/1`` JSON: a ``toolscope.report/2`` document per step, keyed by
step id, in file order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.counts import count_of
from ..model.enums import Severity
from ..model.presentation import verdict_counts_text
from ..model.verdicts import Finding
from .data import Environment, ReportData, mode_label
from .redaction import Redactor

if TYPE_CHECKING:
    from ..systems.agentworks.subject import AgentWorksSubject

WORKFLOW_SCHEMA = "toolscope.workflow-report/1"


@dataclass(frozen=True)
class StepReport:
    """One step of the workflow and its report."""

    step: str
    title: str | None
    report: ReportData


@dataclass(frozen=True)
class WorkflowReportData:
    """Everything a whole-workflow report shows; every string already scrubbed of secrets."""

    label: str
    era: str | None
    era_sentence: str
    findings: tuple[Finding, ...]
    """The workflow's own findings, once (each step's report leaves them out)."""
    steps: tuple[StepReport, ...]
    environment: Environment
    generated_at: str | None = None


def build_workflow_report(
    subjects: Sequence[AgentWorksSubject],
    modes: Sequence[str | None] = (),
    tools: Sequence[str] = (),
    *,
    environment: Environment | None = None,
    secrets: Sequence[str] = (),
    generated_at: str | None = None,
) -> WorkflowReportData:
    """Every step's report (the same modes and ``--tool`` names in each) and the workflow's findings."""
    from .build import build_report, current_environment

    first = subjects[0]
    shared = tuple(first.world.findings)
    env = environment or current_environment(first.loaded.kind)
    steps = tuple(
        StepReport(
            subject.step.step.id,
            subject.step.step.title,
            build_report(
                subject,
                modes,
                tools,
                environment=env,
                secrets=secrets,
                generated_at=generated_at,
                leave_out=shared,
            ),
        )
        for subject in subjects
    )
    redactor = Redactor(secrets, public=first.all_tool_names() if secrets else ())
    label = (
        f"AgentWorks step config {first.step.file_name} · {len(subjects)} steps · "
        f"registry {first.world.registry_doc.name}"
    )
    data = WorkflowReportData(
        label=label,
        era=first.loaded.era,
        era_sentence=first.era_sentence,
        findings=shared,
        steps=steps,
        environment=env,
        generated_at=generated_at,
    )
    scrubbed: WorkflowReportData = redactor.deep(data)
    return scrubbed


def workflow_summary(data: WorkflowReportData) -> list[str]:
    """The plain-text summary every format starts with: the era, the workflow's findings, a line per step."""
    errors = sum(1 for f in data.findings if f.severity == Severity.ERROR)
    lines = [
        f"Workflow of {count_of(len(data.steps), 'step')}; {data.era_sentence}.",
        f"Workflow findings: {count_of(errors, 'error')}, {count_of(len(data.findings) - errors, 'warning')}."
        if data.findings
        else "Workflow findings: none.",
    ]
    for step in data.steps:
        report = step.report
        modes = "; ".join(
            f"mode {mode_label(s.mode)}: {len(s.evaluated)} tools, {verdict_counts_text(s.counts())}"
            for s in report.sections
        )
        step_errors = sum(1 for f in report.findings if f.severity == Severity.ERROR)
        found = (
            f"{count_of(step_errors, 'error')}, {count_of(len(report.findings) - step_errors, 'warning')}"
            if report.findings
            else "no findings"
        )
        lines.append(f"Step {step.step}, {modes}; {found}.")
    return lines


# Nested under a step's heading, a step report's headings go one level down. Only headings start
# a line with "#" (or are <hN> tags): untrusted text is escaped where it is written
# (``markdown.md``, ``html.esc``), so no input can make a line that looks like one.
def _demote_markdown(lines: Sequence[str]) -> list[str]:
    return ["#" + line if line.startswith("#") else line for line in lines]


_HTML_HEADING = re.compile(r"<(/?)h([1-5])>")


def _demote_html(part: str) -> str:
    return _HTML_HEADING.sub(lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}>", part)


def render_workflow_markdown(data: WorkflowReportData) -> str:
    """The Markdown form: title, summary, the workflow's findings, then a section per step."""
    from .markdown import findings_table, markdown_body
    from .markdown_text import md, prose

    out = [f"# toolscope workflow report: {md(data.label)}", ""]
    out += [f"- {prose(line)}" for line in workflow_summary(data)]
    out += ["", "## Workflow findings", "", *findings_table(data.findings)]
    for step in data.steps:
        title = f": {md(step.title)}" if step.title else ""
        out += [f"## Step {md(step.step)}{title}", ""]
        out += _demote_markdown(markdown_body(step.report))
    out += ["---", f"Generated by toolscope {md(data.environment.toolscope_version)}."]
    return "\n".join(out) + "\n"


def render_workflow_html(data: WorkflowReportData) -> str:
    """The HTML form: a complete document with the same parts as the Markdown."""
    from .html import esc, findings_html, html_body, html_document, prose

    summary = "".join(f"<li>{prose(line)}</li>" for line in workflow_summary(data))
    body = [
        f"<h1>toolscope workflow report: {esc(data.label)}</h1>",
        f'<section class="summary"><h2>Summary</h2><ul>{summary}</ul></section>',
        f"<section><h2>Workflow findings</h2>\n{findings_html(data.findings)}\n</section>",
    ]
    for step in data.steps:
        title = f": {esc(step.title)}" if step.title else ""
        body.append(f'<section class="step"><h2>Step {esc(step.step)}{title}</h2>')
        body += [_demote_html(part) for part in html_body(step.report)]
        body.append("</section>")
    body.append(f"<footer>Generated by toolscope {esc(data.environment.toolscope_version)}.</footer>")
    return html_document(f"toolscope workflow report: {esc(data.label)}", body)


def workflow_document(data: WorkflowReportData) -> dict[str, Any]:
    """``toolscope.workflow-report/1`` as plain data, keys in the schema's order."""
    from .json_report import finding_json, report_document

    return {
        "schema": WORKFLOW_SCHEMA,
        "generated_at": data.generated_at,
        "label": data.label,
        "era": data.era,
        "summary": workflow_summary(data),
        "findings": [finding_json(f) for f in data.findings],
        "steps": {step.step: report_document(step.report) for step in data.steps},
    }


def render_workflow_json(data: WorkflowReportData) -> str:
    """The JSON text, written like ``report/2`` (indented, a section's tools one per line)."""
    from ..outputs.json_text import indented
    from ..text.safe_text import inert_json

    return indented(workflow_document(data), finish=inert_json) + "\n"
