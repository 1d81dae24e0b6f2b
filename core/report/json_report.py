"""The JSON form of a report: ``toolscope.report/2``, its one writer.

Version 2 shares stage results by reference, as ``tools --json`` (``toolscope.tools/2``)
does: each mode section lists its distinct stage results once in ``stage_results`` and each
tool's ``stages`` holds indexes into it. Version 1 repeated every tool's four rule
sentences: 87 MB for 50,000 tools, most of the run spent encoding them.

The document is built as plain data here and written by ``core.outputs.json_text``:
indented, with each tool of a section on one line of its own (readable, diffable, and
fast: those lines, the bulk of a large report, are built from strings per distinct row).
Its shape is the model ``core.schemas.report.ReportEnvelope``, whose generated schema is
committed; the tests validate what this writes against that schema (not against the
model: building the report's ~30 model classes would cost more than a small report).
"""

from __future__ import annotations

from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C escaper json.dumps uses
from typing import Any

from ..model.enums import SharedStage
from ..model.verdicts import Checklist, Finding, Stage
from ..outputs.json_text import OneLinePerItem, compact, indented
from ..text.safe_text import inert_json
from .data import SCHEMA, ModeSection, ReportData, mode_label
from .summary import summary_lines
from .transcript import Transcript, TurnSide


def render_json(report: ReportData) -> str:
    """The JSON report text: indented (a section's tools one per line), UTF-8, ending with a
    newline, unsafe characters escaped (``inert_json``)."""
    return indented(report_document(report), finish=inert_json) + "\n"


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/2`` (generated from the model, shipped as package data)."""
    from ..schemas import committed_schema

    return committed_schema("toolscope.report/2")


def section_tools(section: ModeSection) -> tuple[list[dict[str, Any]], OneLinePerItem]:
    """The section's distinct stage results (JSON objects), and one JSON line per tool (stages by index).

    Each distinct row of stages is encoded once, by its row number; a tool adds its labels.
    """
    from ..schemas.tools_json import StageTable

    table = StageTable()
    evaluated = section.evaluated
    entries, row_of, verdicts = evaluated.entries, evaluated.row_of, evaluated.row_verdicts()
    tails: list[str | None] = [None] * len(evaluated.rows)
    lines = OneLinePerItem()
    escape = encode_basestring
    for index in section.order:
        tool = entries[index]
        row = row_of[index]
        tail = tails[row]
        if tail is None:
            failing, indexes = table.row(evaluated.rows[row])
            tail = tails[row] = (
                f'"verdict": "{verdicts[row]}", "first_failing_stage": {compact(failing)}, "stages": {indexes}, '
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


def finding_json(finding: Finding) -> dict[str, Any]:
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
        "first_failing_stage": _plain(failing.name) if failing else (None if verdict else str(SharedStage.REGISTERED)),
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


def report_document(report: ReportData) -> dict[str, Any]:
    """The document as plain data, keys in the schema's order; each section's ``tools`` is
    its JSON lines (``OneLinePerItem``)."""
    sections = []
    for section in report.sections:
        stage_results, lines = section_tools(section)
        sections.append(
            {
                "mode": section.mode,
                "stages": _plain(section.stage_names),
                "counts": section.counts(),
                "notes": list(section.notes),
                "stage_results": stage_results,
                "tools": lines,
            }
        )
    prov = report.provenance
    env = prov.environment
    diff = report.diff
    return {
        "schema": SCHEMA,
        "generated_at": prov.generated_at,
        "summary": summary_lines(report),
        "provenance": {
            "kind": _plain(prov.kind),
            "label": prov.label,
            "files": [{"name": f.name, "sha256": f.sha256} for f in prov.files],
            "step": prov.step,
            "registry": prov.registry,
            "era": prov.era,
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
        "findings": [finding_json(f) for f in report.findings],
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
