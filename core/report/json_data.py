"""The ``toolscope.report/2`` document as plain JSON data, without the pydantic models.

``render_json`` writes from this: creating the report's ~30 model classes costs more than
the rest of a small report, and the 50,000-tool lines are strings anyway. The data is
exactly what ``ReportEnvelope.model_dump(mode="json")`` gives, keys in the same order
(``tests/report/test_report_json_data.py`` compares the two on every kind of report; the
test suite validates the text against the committed schema).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C escaper json.dumps uses
from typing import Any

from ..model.enums import StageId
from ..model.verdicts import Checklist, Finding, Stage
from .data import SCHEMA, ModeSection, ReportData, mode_label
from .summary import summary_lines
from .transcript import Transcript, TurnSide


def section_tools(section: ModeSection) -> tuple[list[dict[str, Any]], list[str]]:
    """The section's distinct stage results (JSON objects), and one JSON line per tool (stages by index).

    Each distinct row of stages is encoded once, by its row number; a tool adds its labels.
    """
    from ..outputs.tools_json import StageTable

    table = StageTable()
    evaluated = section.evaluated
    entries, row_of = evaluated.entries, evaluated.row_of
    tails: list[str | None] = [None] * len(evaluated.rows)
    lines = []
    escape = encode_basestring
    for index in section.order:
        tool = entries[index]
        row = row_of[index]
        tail = tails[row]
        if tail is None:
            verdict, failing, indexes = table.row(evaluated.rows[row])
            tail = tails[row] = (
                f'"verdict": "{verdict}", "first_failing_stage": {json.dumps(failing)}, "stages": {indexes}, '
            )
        lines.append(
            f'{{"tool": {escape(tool.name)}, "namespace": {escape(tool.namespace)}, "kind": {escape(tool.kind)}, '
            f'{tail}"description": {escape(tool.description)}}}'
        )
    return table.results, lines


def _plain(value: Any) -> Any:
    # Enum members (StrEnum) as their plain values, tuples as lists: what model_dump(mode="json") gives.
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _stage(stage: Stage) -> dict[str, Any]:
    return {
        "name": str(stage.name),
        "passed": stage.passed,
        "code": str(stage.code),
        "rule": stage.rule,
        "entry": stage.entry,
        "source": stage.source,
    }


def _finding(finding: Finding) -> dict[str, Any]:
    return {
        "kind": _plain(finding.kind),
        "severity": _plain(finding.severity),
        "message": finding.message,
        "tool": finding.tool,
        "entry": finding.entry,
        "source": finding.source,
    }


def _checklist(checklist: Checklist) -> dict[str, Any]:
    # The fields of ChecklistJson.fields_of, in its order.
    verdict = checklist.verdict
    failing = verdict.first_failing if verdict else None
    return {
        "tool": checklist.tool,
        "mode": checklist.mode,
        "verdict": _plain(checklist.outcome),
        "namespace": verdict.namespace if verdict else None,
        "kind": _plain(verdict.kind) if verdict else None,
        "first_failing_stage": _plain(failing.name) if failing else (None if verdict else str(StageId.REGISTERED)),
        "stages": [_stage(s) for s in verdict.stages] if verdict else [],
        "checklist": [
            {"question": s.question, "answer": s.answer, "passed": s.passed, "evidence": _plain(s.evidence)}
            for s in checklist.steps
        ],
        "fix": checklist.fix,
        "did_you_mean": _plain(checklist.did_you_mean),
    }


def _side(side: TurnSide) -> dict[str, Any]:
    return {"visible": list(side.visible), "outcome": side.outcome, "active_groups": list(side.active_groups)}


def _transcript(transcript: Transcript) -> dict[str, Any]:
    data: dict[str, Any] = {
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
    if session is not None:  # a --script report keeps the shape it always had
        data["session"] = {
            "source": session.source,
            "kind": _plain(session.kind),
            "agentscope_version": session.agentscope_version,
            "starting_groups": list(session.starting_groups),
            "starting_from": _plain(session.starting_from),
            "diverged_turns": list(session.diverged_turns),
            "lost_tool_links": [{"summary": link.summary, "guarded": link.guarded} for link in session.links],
        }
    return data


def report_data(report: ReportData) -> tuple[dict[str, Any], list[list[str]]]:
    """The document's data with each section's ``tools`` left empty, and each section's tool lines."""
    sections = []
    all_lines = []
    for section in report.sections:
        stage_results, lines = section_tools(section)
        all_lines.append(lines)
        sections.append(
            {
                "mode": section.mode,
                "stages": _plain(section.stage_names),
                "counts": section.counts(),
                "notes": list(section.notes),
                "stage_results": stage_results,
                "tools": [],
            }
        )
    prov = report.provenance
    env = prov.environment
    diff = report.diff
    data = {
        "schema": SCHEMA,
        "generated_at": prov.generated_at,
        "summary": summary_lines(report),
        "provenance": {
            "kind": _plain(prov.kind),
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
        "modes": sections,
        "findings": [_finding(f) for f in report.findings],
        "checklists": [_checklist(c) for c in report.checklists],
        "diff": None
        if diff is None
        else {
            "modes": list(diff.modes),
            "changed": [
                {
                    "tool": row.tool,
                    "namespace": row.namespace,
                    "verdicts": {mode_label(m): _plain(v) for m, v in zip(diff.modes, row.verdicts, strict=True)},
                }
                for row in diff.rows
            ],
            "pairs": [
                {"from": p.before, "to": p.after, "gained": list(p.gained), "lost": list(p.lost)} for p in diff.pairs
            ],
        },
        "transcript": None if report.transcript is None else _transcript(report.transcript),
    }
    return data, all_lines
