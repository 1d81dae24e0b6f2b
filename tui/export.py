"""Export what is on screen: an SVG screenshot and a Markdown report of the same state.

The Markdown here is deliberately small: the current view's data (the filtered rows or
the checklist), not the full report that ``toolscope report`` builds. Untrusted text is
escaped with ``export_text.md`` (inert like the report's, but UTF-8 instead of entities).
Files get the permissions of any new file (0666 minus the umask), see ``write_new``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..core.model.presentation import NOT_REACHED, STAGE_WORD, verdict_counts_text
from ..core.model.verdicts import Checklist, Evaluation, ToolVerdict
from ..core.outputs.output_file import write_new
from ..core.systems.registry import STAGE_TITLES
from .export_text import md, md_evidence, md_inline
from .rows import RowQuery, ToolKey, count_of, tool_key

__all__ = [
    "ExportPaths",
    "PngOutcome",
    "checklist_markdown",
    "export_stem",
    "md",
    "pipeline_markdown",
    "query_description",
    "write_export",
    "write_png",
]


@dataclass(frozen=True)
class ExportPaths:
    """Where an export was written."""

    svg: Path
    markdown: Path


def header_lines(evaluation: Evaluation, mode: str | None) -> list[str]:
    """What was loaded and in which mode."""
    loaded = evaluation.loaded
    lines = [f"- input: {md(loaded.label)} ({loaded.kind})"]
    if loaded.step:
        lines.append(f"- step: {md(loaded.step)}")
    if loaded.registry:
        lines.append(f"- registry: {md(loaded.registry)}")
    lines.append(f"- mode: {md(mode) if mode else '(none)'}")
    counts = evaluation.counts()
    lines.append(f"- tools: {len(evaluation.tools):,} ({verdict_counts_text(counts, grouped=True)})")
    lines.extend(f"- note: {md(note)}" for note in evaluation.notes)
    return lines


def pipeline_markdown(
    evaluation: Evaluation,
    mode: str | None,
    tools: Sequence[ToolVerdict],
    filter_description: str,
    selected: ToolVerdict | None,
    change_summary: str | None = None,
    previous_verdicts: Mapping[ToolKey, str] | None = None,
) -> str:
    """The pipeline view as Markdown: header, the rows shown, the selected tool's trace.

    After a mode switch (``change_summary``), a first column marks the changed tools with Δ
    and their verdict before the switch, as the grid does.
    """
    stages = evaluation.stage_names
    before = previous_verdicts or {}
    lines = ["# toolscope: pipeline view", "", *header_lines(evaluation, mode)]
    shown = count_of(len(tools), "tool")
    lines.append(f"- shown: {shown} ({md(filter_description)})" if filter_description else f"- shown: {shown}")
    if change_summary:
        lines.append(f"- Δ {md(change_summary)}")
    delta_header = "| Δ " if before else ""
    lines += [
        "",
        delta_header
        + "| tool | namespace | "
        + " | ".join(STAGE_TITLES.get(s, s) for s in stages)
        + " | verdict | decided by |",
    ]
    lines.append("|" + "---|" * (len(stages) + 4 + (1 if before else 0)))
    lines += [_pipeline_row(tool, stages, before) for tool in tools]
    if selected is not None:
        lines += ["", f"## Trace: {md(selected.name)}", ""]
        lines += trace_lines(selected)
    return "\n".join(lines) + "\n"


def _pipeline_row(tool: ToolVerdict, stages: Sequence[str], before: Mapping[ToolKey, str]) -> str:
    """One tool's table row; with ``before`` (a mode switch), first its verdict before it when it changed."""
    cells = [md(tool.name), md(tool.namespace)]
    if before:
        was = before.get(tool_key(tool))
        cells.insert(0, f"Δ was {was}" if was is not None and was != tool.verdict else "")
    for name in stages:
        stage = tool.stage(name)
        cells.append(STAGE_WORD[stage.passed] if stage else NOT_REACHED)
    failing = tool.first_failing
    cells.append(tool.verdict)
    cells.append(md(f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}") if failing else "")
    return "| " + " | ".join(cells) + " |"


def trace_lines(tool: ToolVerdict) -> list[str]:
    """One bullet per stage with its rule, entry and source."""
    lines = []
    for stage in tool.stages:
        title = STAGE_TITLES.get(stage.name, stage.name)
        line = f"- {STAGE_WORD[stage.passed]}: **{title}**: {md(stage.rule)} (`{stage.code}`)"
        if stage.entry is not None:
            line += f"; entry {md(stage.entry)}"
        if stage.source:
            line += f" in {md(stage.source)}"
        lines.append(line)
    return lines


def checklist_markdown(evaluation: Evaluation, mode: str | None, checklist: Checklist | None) -> str:
    """The checklist view as Markdown: every question, its evidence, and the fix."""
    lines = ["# toolscope: checklist", "", *header_lines(evaluation, mode), ""]
    if checklist is None:
        lines.append("No tool picked.")
        return "\n".join(lines) + "\n"
    lines.append(f"## {md(checklist.tool)}: {checklist.outcome}")
    if checklist.did_you_mean:
        lines += ["", "Did you mean: " + ", ".join(md(n) for n in checklist.did_you_mean)]
    lines.append("")
    for number, step in enumerate(checklist.steps, 1):
        lines.append(f"{number}. {md(step.question)} **{md(step.answer)}**")
        lines.extend(f"   - {md_evidence(evidence)}" for evidence in step.evidence)
    if checklist.fix:
        lines += ["", f"**Fix:** {md_inline(checklist.fix)}"]
    return "\n".join(lines) + "\n"


def write_export(directory: Path, stem: str, svg: str, markdown: str) -> ExportPaths:
    """Write ``stem.svg`` and ``stem.md``; never overwrites: ``stem-2``, ``stem-3``… instead.

    Both files share the suffix, so a screenshot and its report always pair up by name.
    """
    for number in range(1, 10_000):
        name = stem if number == 1 else f"{stem}-{number}"
        paths = ExportPaths(directory / f"{name}.svg", directory / f"{name}.md")
        if os.path.lexists(paths.svg) or os.path.lexists(paths.markdown):
            continue
        try:
            write_new(paths.svg, svg)
        except FileExistsError:
            continue
        try:
            write_new(paths.markdown, markdown)
        except FileExistsError:
            paths.svg.unlink()  # ours, written just now: the pair moves on to the next suffix
            continue
        return paths
    raise FileExistsError(f"no free export name for {stem} in {directory}")


def export_stem(view: str, mode: str | None) -> str:
    """``toolscope-pipeline-build``: the file name of an export, safe on every file system."""
    stem = f"toolscope-{view}-{mode or 'default'}"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in stem)


def query_description(query: RowQuery) -> str:
    """The pipeline's filter in words, for the export's header (empty: every tool)."""
    parts = (
        f"filter {query.text!r}" if query.text else "",
        "only not-visible" if query.only_hidden else "",
        "only changed (Δ)" if query.only_changed else "",
        "grouped by namespace" if query.grouped else "",
    )
    return ", ".join(part for part in parts if part)


@dataclass(frozen=True)
class PngOutcome:
    """What a PNG export did, as the toast that says it."""

    path: Path | None
    message: str
    title: str
    severity: Literal["information", "warning", "error"] = "information"


def write_png(svg: str, target: Path) -> PngOutcome:
    """Render an exported SVG to ``target`` with Chromium (slow: call it from a worker thread).

    Never writes over an existing file; never raises for a missing Chromium or a failed render.
    """
    from ..core.model.errors import ToolscopeError
    from ..core.report.png import find_chromium, svg_to_png

    if find_chromium() is None:
        return PngOutcome(None, "no Chromium installed: SVG only (apt-get install chromium)", "PNG")
    try:
        data = svg_to_png(svg, what="PNG export")
        with open(target, "xb") as handle:
            handle.write(data)
    except (ToolscopeError, OSError) as exc:
        text = exc.render() if isinstance(exc, ToolscopeError) else f"{target}: {exc}"
        return PngOutcome(None, text, "PNG export failed", "error")
    return PngOutcome(target, f"PNG: {target}", "exported")
