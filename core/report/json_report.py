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

import os
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C escaper json.dumps uses
from typing import TYPE_CHECKING, Any

from .data import ModeSection, ReportData, mode_label
from .json_data import report_data, section_tools
from .summary import summary_lines
from .transcript import Transcript, TurnSide

if TYPE_CHECKING:
    from ..schemas.report import ModeJson, ReportEnvelope, SideJson, TranscriptJson


def _section(section: ModeSection) -> ModeJson:
    from ..schemas.report import ModeJson, ReportToolJson
    from ..schemas.verdicts import VerdictCounts

    stage_results, lines = section_tools(section)
    return ModeJson(
        mode=section.mode,
        stages=section.stage_names,
        counts=VerdictCounts(**section.counts()),
        notes=list(section.notes),
        stage_results=stage_results,  # type: ignore[arg-type]  # validated into Stage
        tools=[ReportToolJson.model_validate_json(line) for line in lines],
    )


def _side(side: TurnSide) -> SideJson:
    from ..schemas.report import SideJson

    return SideJson(visible=list(side.visible), outcome=side.outcome, active_groups=list(side.active_groups))


def _transcript(transcript: Transcript) -> TranscriptJson:
    from ..schemas.report import ReportSessionJson, SessionTranscriptJson, TranscriptJson, TurnJson

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
    """The report as its typed JSON model (``render_json`` writes the same data without it: ``json_data``)."""
    from ..schemas.report import (
        AgentScopeJson,
        ChangedJson,
        DiffJson,
        Fact,
        FileJson,
        PairJson,
        ProvenanceJson,
        ReportEnvelope,
        ResetToolsFact,
    )
    from ..schemas.verdicts import ChecklistJson, FindingJson

    sections = [_section(s) for s in report.sections]
    prov = report.provenance
    env = prov.environment
    diff = report.diff
    return ReportEnvelope(
        generated_at=prov.generated_at,
        summary=summary_lines(report),
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
        modes=sections,
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
    import json

    from ..text.safe_text import finite, inert_json

    data, sections = report_data(report)
    # Markers no input can spell (random per render) hold the places of the large arrays,
    # whose text is made here: the tools' lines, and the stage results and findings (flat
    # objects) in the layout json.dumps(indent=2) gives them, without its Python encoder.
    spliced: list[tuple[str, str, str, str]] = []

    def hold(text: str, opening: str = "", closing: str = "") -> str:
        # The opening and closing go around the text unless it is empty (an empty array: []).
        marker = f"spliced {os.urandom(16).hex()}"
        spliced.append((marker, opening, text, closing) if text else (marker, "", "[]", ""))
        return marker

    for mode, lines in zip(data["modes"], sections, strict=True):
        # Sections are indented by 4 and their keys by 6: their arrays' items go at 8.
        flat = _flat_objects(mode["stage_results"], 8)
        if flat is not None:  # else json.dumps writes them where they are
            mode["stage_results"] = hold(flat)
        mode["tools"] = hold(",\n        ".join(lines) if lines else "", "[\n        ", "\n      ]")
    flat = _flat_objects(data["findings"], 4)
    if flat is not None:
        data["findings"] = hold(flat)
    text = json.dumps(finite(data), indent=2, ensure_ascii=False, allow_nan=False)
    pieces = []
    for marker, opening, piece, closing in spliced:
        before, _, text = text.partition(f'"{marker}"')
        # Each piece is made inert on its own (character by character, so the same as the
        # whole): the tools' lines, most of a large report, are usually ASCII and need no regex pass.
        pieces += [inert_json(before), opening, inert_json(piece), closing]
    pieces += [inert_json(text), "\n"]
    return "".join(pieces)


def _flat_objects(items: list[dict[str, Any]], indent: int) -> str | None:
    """A list of objects with scalar values as ``json.dumps(indent=2)`` writes it when the list's
    items are indented by ``indent``; None when a value is not a string, int, bool or None."""
    if not items:
        return "[]"
    inner = " " * (indent + 2)
    objects = []
    for item in items:
        if not item:
            objects.append(" " * indent + "{}")
            continue
        fields = []
        for key, value in item.items():
            if isinstance(value, str):
                encoded = encode_basestring(value)
            elif value is None:
                encoded = "null"
            elif isinstance(value, bool):
                encoded = "true" if value else "false"
            elif type(value) is int:
                encoded = int.__repr__(value)
            else:
                return None
            fields.append(f"{inner}{encode_basestring(key)}: {encoded}")
        objects.append(" " * indent + "{\n" + ",\n".join(fields) + "\n" + " " * indent + "}")
    return "[\n" + ",\n".join(objects) + "\n" + " " * (indent - 2) + "]"


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``toolscope.report/2`` (generated from the model, shipped as package data)."""
    from ..schemas import committed_schema

    return committed_schema("toolscope.report/2")
