"""The JSON form of a report: ``toolscope.report/1``, described by ``schema.json``."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from toolscope.core.report.model import (
    ModeSection,
    ReportData,
    Transcript,
    TurnSide,
    mode_label,
)


def _section(section: ModeSection) -> dict[str, Any]:
    tools = []
    for tool in section.tools:
        entry = tool.to_json()
        entry["description"] = tool.description
        tools.append(entry)
    return {
        "mode": section.mode,
        "stages": list(section.stage_names),
        "counts": section.counts(),
        "notes": list(section.notes),
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


def to_document(report: ReportData) -> dict[str, Any]:
    """The report as plain JSON data, keys in a fixed order."""
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
        "modes": [_section(s) for s in report.sections],
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


def render_json(report: ReportData) -> str:
    """The JSON report text: indented, UTF-8, ending with a newline; characters a terminal
    would act on (C1 controls, bidi overrides) as ``\\uXXXX``, non-finite numbers as strings."""
    from toolscope.core.safe_text import finite, inert_json

    return inert_json(json.dumps(finite(to_document(report)), indent=2, ensure_ascii=False, allow_nan=False)) + "\n"


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/1`` (shipped as package data)."""
    text = resources.files("toolscope.core.report").joinpath("schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
