"""The JSON form of a report: ``toolscope.report/2``, the model ``core.schemas.report.ReportEnvelope``.

Version 2 shares stage results by reference, as ``tools --json`` (``toolscope.tools/2``)
does: each mode section lists its distinct stage results once in ``stage_results`` and each
tool's ``stages`` holds indexes into it. Version 1 repeated every tool's four rule
sentences: 87 MB for 50,000 tools, most of the run spent encoding them.

The text is indented, with each tool of a section on one line of its own: readable,
diffable, and fast, because those lines (the bulk of a large report) are built from
strings per distinct row instead of one model object per tool.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C escaper json.dumps uses
from typing import Any

from toolscope.core.report.model import (
    ModeSection,
    ReportData,
    Transcript,
    TurnSide,
    mode_label,
)
from toolscope.core.schemas import committed_schema
from toolscope.core.schemas.report import (
    AgentScopeJson,
    ChangedJson,
    DiffJson,
    Fact,
    FileJson,
    ModeJson,
    PairJson,
    ProvenanceJson,
    ReportEnvelope,
    ReportSessionJson,
    ReportToolJson,
    ResetToolsFact,
    SessionTranscriptJson,
    SideJson,
    TranscriptJson,
    TurnJson,
)
from toolscope.core.schemas.verdicts import ChecklistJson, FindingJson, VerdictCounts
from toolscope.core.verdicts import Stage


def _section_tools(section: ModeSection) -> tuple[list[Stage], list[str]]:
    """The section's distinct stage results, and one JSON line per tool (stages by index)."""
    from toolscope.core.tools_json import StageTable

    table = StageTable()
    tails: dict[int, tuple[str, Sequence[Stage]]] = {}
    lines = []
    escape = encode_basestring
    for tool in section.tools:
        row = tool.stages
        cached = tails.get(id(row))
        if cached is None:
            verdict, failing, indexes = table.row(row)
            tail = f'"verdict": "{verdict}", "first_failing_stage": {json.dumps(failing)}, "stages": {indexes}, '
            cached = tails[id(row)] = (tail, row)  # the row is kept so that its id stays unique
        lines.append(
            f'{{"tool": {escape(tool.name)}, "namespace": {escape(tool.namespace)}, "kind": {escape(tool.kind)}, '
            f'{cached[0]}"description": {escape(tool.description)}}}'
        )
    return list(table.index), lines


def _section(section: ModeSection, with_tools: bool = True) -> tuple[ModeJson, list[str]]:
    stage_results, lines = _section_tools(section)
    tools = [ReportToolJson.model_validate_json(line) for line in lines] if with_tools else []
    model = ModeJson(
        mode=section.mode,
        stages=section.stage_names,
        counts=VerdictCounts(**section.counts()),
        notes=list(section.notes),
        stage_results=stage_results,
        tools=tools,
    )
    return model, lines


def _side(side: TurnSide) -> SideJson:
    return SideJson(visible=list(side.visible), outcome=side.outcome, active_groups=list(side.active_groups))


def _transcript(transcript: Transcript) -> TranscriptJson:
    fields: dict[str, Any] = {
        "script": transcript.script,
        "turns": [
            TurnJson(turn=t.index, call=t.call, stock=_side(t.stock), guarded=_side(t.guarded))
            for t in transcript.turns
        ],
        "stock_final_groups": list(transcript.stock_final_groups),
        "guarded_final_groups": list(transcript.guarded_final_groups),
        "notes": list(transcript.notes),
    }
    session = transcript.session
    if session is None:  # a --script report keeps the shape it always had
        return TranscriptJson(**fields)
    return SessionTranscriptJson(
        **fields,
        session=ReportSessionJson.model_validate(
            {
                "source": session.source,
                "kind": session.kind,
                "agentscope_version": session.agentscope_version,
                "starting_groups": list(session.starting_groups),
                "starting_from": session.starting_from,
                "diverged_turns": list(session.diverged_turns),
                "lost_tool_links": [{"summary": link.summary, "guarded": link.guarded} for link in session.links],
            }
        ),
    )


def to_model(report: ReportData, _sections: list[list[str]] | None = None) -> ReportEnvelope:
    """The report as its typed JSON model.

    (``render_json`` passes ``_sections``: the sections' tools are then left empty and their
    JSON lines collected there, to be written as text.)
    """
    sections = [_section(s, with_tools=_sections is None) for s in report.sections]
    if _sections is not None:
        _sections.extend(lines for _model, lines in sections)
    prov = report.provenance
    env = prov.environment
    diff = report.diff
    return ReportEnvelope(
        generated_at=prov.generated_at,
        summary=report.summary_lines(),
        provenance=ProvenanceJson(
            kind=prov.kind,
            label=prov.label,
            files=[FileJson(name=f.name, sha256=f.sha256) for f in prov.files],
            step=prov.step,
            registry=prov.registry,
            modes=list(prov.modes),
            default_mode=prov.default_mode,
            facts=[Fact(name=k, value=v) for k, v in prov.facts],
            toolscope_version=env.toolscope_version,
            python_version=env.python_version,
            agentscope=None
            if env.agentscope_version is None
            else AgentScopeJson(
                version=env.agentscope_version,
                reset_tools=[ResetToolsFact(question=q, answer=a) for q, a in env.reset_tools],
            ),
        ),
        modes=[model for model, _lines in sections],
        findings=[FindingJson.of(f) for f in report.findings],
        checklists=[ChecklistJson.of(c) for c in report.checklists],
        diff=None
        if diff is None
        else DiffJson(
            modes=list(diff.modes),
            changed=[
                ChangedJson(
                    tool=row.tool,
                    namespace=row.namespace,
                    verdicts={mode_label(m): v for m, v in zip(diff.modes, row.verdicts, strict=True)},
                )
                for row in diff.rows
            ],
            pairs=[PairJson(from_=p.before, to=p.after, gained=list(p.gained), lost=list(p.lost)) for p in diff.pairs],
        ),
        transcript=None if report.transcript is None else _transcript(report.transcript),
    )


def to_document(report: ReportData) -> dict[str, Any]:
    """The report as plain JSON data, keys in a fixed order."""
    document: dict[str, Any] = to_model(report).model_dump(mode="json")
    return document


def render_json(report: ReportData) -> str:
    """The JSON report text: indented (a section's tools one per line), UTF-8, ending with a
    newline; as ``base.render`` writes every document (terminal-active characters escaped,
    non-finite numbers as strings)."""
    from toolscope.core.safe_text import finite, inert_json

    sections: list[list[str]] = []
    data = to_model(report, sections).model_dump(mode="json")
    # A marker no input can spell (random per render) holds each section's place.
    markers = [f"tools {os.urandom(16).hex()}" for _ in sections]
    for mode, marker in zip(data["modes"], markers, strict=True):
        mode["tools"] = marker
    text = json.dumps(finite(data), indent=2, ensure_ascii=False, allow_nan=False)
    pieces = []
    for marker, lines in zip(markers, sections, strict=True):
        before, _, text = text.partition(f'"{marker}"')
        # Sections are indented by 4 and their keys by 6: the tools' lines go at 8.
        pieces += [before, "[\n        " + ",\n        ".join(lines) + "\n      ]" if lines else "[]"]
    pieces.append(text)
    return inert_json("".join(pieces)) + "\n"


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/2`` (generated from the model, shipped as package data)."""
    return committed_schema("toolscope.report/2")
