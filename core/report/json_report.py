"""The JSON form of a report: ``toolscope.report/1``, the model ``core.schemas.report.ReportEnvelope``."""

from __future__ import annotations

from typing import Any

from toolscope.core.report.model import (
    ModeSection,
    ReportData,
    Transcript,
    TurnSide,
    mode_label,
)
from toolscope.core.schemas import committed_schema
from toolscope.core.schemas.base import render
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


def _section(section: ModeSection) -> ModeJson:
    tools = []
    for tool in section.tools:
        failing = tool.first_failing
        # One per tool: unvalidated, like ToolJson.of.
        tools.append(
            ReportToolJson.model_construct(
                tool=tool.name,
                namespace=tool.namespace,
                kind=tool.kind,
                verdict=tool.verdict,
                first_failing_stage=failing.name if failing else None,
                stages=tool.stages,
                description=tool.description,
            )
        )
    return ModeJson(
        mode=section.mode,
        stages=section.stage_names,
        counts=VerdictCounts(**section.counts()),
        notes=list(section.notes),
        tools=tools,
    )


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


def to_model(report: ReportData) -> ReportEnvelope:
    """The report as its typed JSON model."""
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
        modes=[_section(s) for s in report.sections],
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
    """The JSON report text: indented, UTF-8, ending with a newline."""
    return render(to_model(report))


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/1`` (generated from the model, shipped as package data)."""
    return committed_schema("toolscope.report/1")
