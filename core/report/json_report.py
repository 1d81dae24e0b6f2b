"""The JSON form of a report: ``toolscope.report/2``, described by ``schema.json``.

Version 2 shares stage results by reference, as ``tools --json`` (``toolscope.tools/2``)
does: each mode section lists its distinct stage results once in ``stage_results`` and each
tool's ``stages`` holds indexes into it. Version 1 repeated every tool's four rule
sentences: 87 MB for 50,000 tools, most of the run spent encoding them.

The text is indented, with each tool of a section on one line of its own: readable,
diffable, and fast, because those lines (the bulk of a large report) are built from
strings per distinct row instead of by the standard library's indenting encoder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from importlib import resources
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from toolscope.core.report.model import (
    ModeSection,
    ReportData,
    Transcript,
    TurnSide,
    mode_label,
)


def _section_tools(section: ModeSection) -> tuple[list[dict[str, Any]], list[str]]:
    """The section's stage results, and one JSON line per tool (stages by index)."""
    from toolscope.core.tools_json import StageTable

    table = StageTable()
    tails: dict[int, tuple[str, Sequence[Any]]] = {}
    lines = []
    escape = encode_basestring
    for tool in section.tools:
        row = tool.stages
        cached = tails.get(id(row))
        if cached is None:
            verdict, failing, indexes = table.row(row)
            tail = f'"verdict": "{verdict}", "first_failing_stage": {json.dumps(failing)}, "stages": {indexes}, '
            cached = tails[id(row)] = (tail, row)  # the row is kept so its id stays unique
        lines.append(
            f'{{"tool": {escape(tool.name)}, "namespace": {escape(tool.namespace)}, "kind": {escape(tool.kind)}, '
            f'{cached[0]}"description": {escape(tool.description)}}}'
        )
    return table.results, lines


def _section(section: ModeSection, results: list[dict[str, Any]], tools: Any) -> dict[str, Any]:
    return {
        "mode": section.mode,
        "stages": list(section.stage_names),
        "counts": section.counts(),
        "notes": list(section.notes),
        "stage_results": results,
        "tools": tools,
    }


def _side(side: TurnSide) -> dict[str, Any]:
    return {"visible": list(side.visible), "outcome": side.outcome, "active_groups": list(side.active_groups)}


def _transcript(transcript: Transcript) -> dict[str, Any]:
    out: dict[str, Any] = {
        "script": transcript.script,
        "turns": [
            {"turn": t.index, "call": t.call, "stock": _side(t.stock), "guarded": _side(t.guarded)}
            for t in transcript.turns
        ],
        "stock_final_groups": list(transcript.stock_final_groups),
        "guarded_final_groups": list(transcript.guarded_final_groups),
        "notes": list(transcript.notes),
    }
    session = transcript.session
    if session is not None:  # only for report --session: script reports keep their shape
        out["session"] = {
            "source": session.source,
            "kind": session.kind,
            "agentscope_version": session.agentscope_version,
            "starting_groups": list(session.starting_groups),
            "starting_from": session.starting_from,
            "diverged_turns": list(session.diverged_turns),
            "lost_tool_links": [{"summary": link.summary, "guarded": link.guarded} for link in session.links],
        }
    return out


def to_document(report: ReportData, _placeholders: list[tuple[str, list[str]]] | None = None) -> dict[str, Any]:
    """The report as plain JSON data, keys in a fixed order.

    (``render_json`` passes ``_placeholders``: each section's tools are then a marker string
    and their JSON lines are appended to it.)
    """
    prov = report.provenance
    env = prov.environment
    diff = report.diff
    return {
        "schema": report.schema,
        "generated_at": prov.generated_at,
        "summary": report.summary_lines(),
        "provenance": {
            "kind": prov.kind,
            "label": prov.label,
            "files": [{"name": f.name, "sha256": f.sha256} for f in prov.files],
            "step": prov.step,
            "registry": prov.registry,
            "modes": list(prov.modes),
            "default_mode": prov.default_mode,
            "facts": [{"name": k, "value": v} for k, v in prov.facts],
            "toolscope_version": env.toolscope_version,
            "python_version": env.python_version,
            "agentscope": None
            if env.agentscope_version is None
            else {
                "version": env.agentscope_version,
                "reset_tools": [{"question": q, "answer": a} for q, a in env.reset_tools],
            },
        },
        "modes": _sections(report, _placeholders),
        "findings": [f.to_json() for f in report.findings],
        "checklists": [c.to_json() for c in report.checklists],
        "diff": None
        if diff is None
        else {
            "modes": list(diff.modes),
            "changed": [
                {
                    "tool": row.tool,
                    "namespace": row.namespace,
                    "verdicts": {mode_label(m): v for m, v in zip(diff.modes, row.verdicts, strict=True)},
                }
                for row in diff.rows
            ],
            "pairs": [
                {"from": p.before, "to": p.after, "gained": list(p.gained), "lost": list(p.lost)} for p in diff.pairs
            ],
        },
        "transcript": None if report.transcript is None else _transcript(report.transcript),
    }


def _sections(report: ReportData, placeholders: list[tuple[str, list[str]]] | None) -> list[dict[str, Any]]:
    out = []
    for section in report.sections:
        results, lines = _section_tools(section)
        if placeholders is None:
            out.append(_section(section, results, [json.loads(line) for line in lines]))
        else:
            # A marker no input can spell (random per render), replaced by the lines afterwards.
            marker = f"tools {os.urandom(16).hex()}"
            placeholders.append((marker, lines))
            out.append(_section(section, results, marker))
    return out


def render_json(report: ReportData) -> str:
    """The JSON report text: indented (a section's tools one per line), UTF-8, ending with a
    newline; characters a terminal would act on (C1 controls, bidi overrides) as ``\\uXXXX``,
    non-finite numbers as strings."""
    from toolscope.core.safe_text import finite, inert_json

    sections: list[tuple[str, list[str]]] = []
    text = json.dumps(finite(to_document(report, sections)), indent=2, ensure_ascii=False, allow_nan=False)
    pieces = []
    for marker, lines in sections:
        before, _, text = text.partition(f'"{marker}"')
        # Sections are indented by 4 and their keys by 6: the tools' lines go at 8.
        body = ",\n        ".join(lines)
        pieces += [before, "[\n        " + body + "\n      ]" if lines else "[]"]
    pieces.append(text)
    return inert_json("".join(pieces)) + "\n"


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/2`` (shipped as package data)."""
    text = resources.files("toolscope.core.report").joinpath("schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
