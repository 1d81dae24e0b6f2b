"""``report --capture FILE [CONFIG]``: a capture's requests, their tool-list changes and (with a
config) the comparison with toolscope's prediction, as Markdown, HTML or JSON
(``toolscope.capture-report/1``, ``schemas.capture_report``).

Disagreements come first, as in every other output. Only reset_tools' argument text is
shown (other tools' arguments are the user's data); names are made inert by the same
helpers as the tool-visibility report. Long capture files are bounded: the request table
lists at most ``MAX_ROWS`` requests and the tool lists at most ``MAX_LISTED`` requests.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..capture.observed import ObservedCapture
from ..capture.timeline import Step, describe_calls, timeline
from ..comparison.compare import CaptureComparison
from .markdown_text import code, md

SCHEMA = "toolscope.capture-report/1"
MAX_ROWS = 2_000
MAX_LISTED = 200


@dataclass(frozen=True)
class CaptureReport:
    """What the report shows."""

    capture: ObservedCapture
    steps: tuple[Step, ...]
    comparison: CaptureComparison | None
    label: str | None
    """The config's label, when one was compared."""
    toolscope_version: str

    @classmethod
    def of(
        cls, capture: ObservedCapture, comparison: CaptureComparison | None, label: str | None, version: str
    ) -> CaptureReport:
        """The report of one capture (and its comparison)."""
        return cls(capture, tuple(timeline(capture)), comparison, label, version)


def _summary(report: CaptureReport) -> list[str]:
    cap = report.capture
    lines = [f"{len(cap.requests)} model requests in {Path(cap.path).name}"]
    changes = [s.request.index for s in report.steps if s.changed]
    which = "request" if len(changes) == 1 else "requests"
    lines.append(f"the tool list changed at {len(changes)} {which}" + (f" ({_list(changes)})" if changes else ""))
    comparison = report.comparison
    if comparison is not None:
        if comparison.agrees:
            lines.append(f"{report.label}: toolscope's prediction agrees with every request")
        else:
            bad = [r.request.index for r in comparison.disagreeing]
            which = "request" if len(bad) == 1 else "requests"
            lines.append(
                f"{report.label}: toolscope's prediction disagrees at {which} {_list(bad)}: "
                "a layer toolscope does not model, or a bug in toolscope"
            )
    if cap.truncated:
        lines.append(f"cut: {cap.truncated}")
    return lines


def _list(indexes: list[int]) -> str:
    shown = ", ".join(map(str, indexes[:20]))
    return shown + (f" … ({len(indexes)} in all)" if len(indexes) > 20 else "")


def _names(names: Any) -> str:
    names = list(names)
    return ", ".join(code(n, cell=True) for n in names) if names else "(none)"


def render_capture_markdown(report: CaptureReport) -> str:
    """The Markdown report."""
    out = [f"# toolscope capture report: {md(Path(report.capture.path).name)}", ""]
    out += [f"- {md(line)}" for line in _summary(report)] + [""]
    comparison = report.comparison
    if comparison is not None and comparison.disagreeing:
        out += ["## Disagreements", "", "| request | missing | unexpected | foreign | basis |", "|---|---|---|---|---|"]
        for item in comparison.disagreeing[:MAX_ROWS]:
            foreign = set(item.foreign)
            known = [n for n in item.main.unexpected if n not in foreign]
            out.append(
                f"| {item.request.index} | {_names(item.main.missing)} | {_names(known)} | "
                f"{_names(item.foreign)} | {md(item.prediction.basis)} |"
            )
        offered = [(item.request.index, line) for item in comparison.disagreeing[:MAX_ROWS] if item.offer is not None
                   for line in item.offer.sentences()]  # fmt: skip
        if offered:
            out += [""] + [f"- request {index}, {label}: {md(sentence)}" for index, (label, sentence) in offered]
        documented = "" if comparison.rule.documented else " (unverified)"
        out += ["", f"Names{documented}: {md(comparison.rule.summary)}", ""]
        out += [f"- note: {md(note)}" for note in comparison.notes] + [""]
    out += ["## Requests", "", "| # | protocol | model | tools | tokens | appeared | disappeared | after |"]
    out.append("|---|---|---|---|---|---|---|---|")
    for step in report.steps[:MAX_ROWS]:
        req = step.request
        after = md(describe_calls(step.caused_by)) if req.index > 1 else ""
        appeared = _names(step.appeared) if req.index > 1 and step.appeared else ""
        out.append(
            f"| {req.index} | {md(req.protocol)} | {md(req.model)} | {len(req.tools)} | {req.tokens:,} | "
            f"{appeared} | {_names(step.disappeared) if step.disappeared else ''} | {after} |"
        )
    if len(report.steps) > MAX_ROWS:
        out.append(f"\n… {len(report.steps) - MAX_ROWS:,} more requests (the JSON report has them all)")
    out += ["", "## Tool lists", ""]
    for step in report.steps[:MAX_LISTED]:
        if step.request.index == 1 or step.changed:
            out.append(f"- request {step.request.index}: {_names(step.request.tools)}")
    out += ["", f"Generated by toolscope {md(report.toolscope_version)}.", ""]
    return "\n".join(out)


def report_json(report: CaptureReport) -> dict[str, Any]:
    """The ``toolscope.capture-report/1`` document as data."""
    return {
        "schema": SCHEMA,
        "source": report.capture.to_json(),
        "summary": _summary(report),
        "requests": [step.to_json() for step in report.steps],
        "compared_with": report.label,
        "capture": report.comparison.to_json() if report.comparison is not None else None,
        "toolscope_version": report.toolscope_version,
    }


def render_capture_json(report: CaptureReport) -> str:
    """The JSON report, validated by its model."""
    from ..schemas.base import render
    from ..schemas.capture_report import CaptureReportEnvelope

    return render(CaptureReportEnvelope.model_validate(report_json(report)))


def render_capture_html(report: CaptureReport) -> str:
    """A self-contained HTML page with the same content as the Markdown report."""
    esc = html.escape
    name = esc(Path(report.capture.path).name)
    parts = [f"<h1>toolscope capture report: {name}</h1>", "<ul>"]
    parts += [f"<li>{esc(line)}</li>" for line in _summary(report)] + ["</ul>"]
    comparison = report.comparison
    if comparison is not None and comparison.disagreeing:
        parts.append(
            "<h2>Disagreements</h2><table><tr><th>request</th><th>missing</th><th>unexpected</th><th>basis</th></tr>"
        )
        for item in comparison.disagreeing[:MAX_ROWS]:
            parts.append(
                f"<tr><td>{item.request.index}</td><td>{esc(', '.join(item.main.missing))}</td>"
                f"<td>{esc(', '.join(item.main.unexpected))}</td><td>{esc(item.prediction.basis)}</td></tr>"
            )
        parts.append("</table><ul>")
        parts += [
            f"<li>request {item.request.index}, {label}: {esc(sentence)}</li>"
            for item in comparison.disagreeing[:MAX_ROWS]
            if item.offer is not None
            for label, sentence in item.offer.sentences()
        ]
        parts.append(f"</ul><p>Names: {esc(comparison.rule.summary)}</p>")
    parts.append("<h2>Requests</h2><table><tr><th>#</th><th>tools</th><th>tokens</th><th>appeared</th>")
    parts.append("<th>disappeared</th><th>after</th></tr>")
    for step in report.steps[:MAX_ROWS]:
        req = step.request
        parts.append(
            f"<tr><td>{req.index}</td><td>{esc(', '.join(req.tools))}</td><td>{req.tokens:,}</td>"
            f"<td>{esc(', '.join(step.appeared)) if req.index > 1 else ''}</td><td>{esc(', '.join(step.disappeared))}</td>"
            f"<td>{esc(describe_calls(step.caused_by)) if req.index > 1 else ''}</td></tr>"
        )
    parts.append(f"</table><footer>Generated by toolscope {esc(report.toolscope_version)}.</footer>")
    from ..text.safe_text import inert

    body = inert("\n".join(parts))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>toolscope capture report: {name}</title>\n"
        "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}"
        "table{border-collapse:collapse}</style>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n"
    )


def render_capture(report: CaptureReport, fmt: str) -> str:
    """md, html or json."""
    if fmt == "md":
        return render_capture_markdown(report)
    if fmt == "html":
        return render_capture_html(report)
    return render_capture_json(report)
