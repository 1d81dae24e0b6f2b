"""``toolscope.report/2``: each mode's stage results once, tools by index, one tool per
line; the same facts as every ToolVerdict, and a valid document of the committed schema."""

from __future__ import annotations

import json
from pathlib import Path

from json_contracts import validated
from report_helpers import SAMPLES, golden_environment

from toolscope.cli.commands.report_document import make_report
from toolscope.core.report.json_report import render_json


def seed_report():
    report, _ = make_report(
        str(SAMPLES / "seed" / "step_config.json"),
        modes=["build", "run"],
        tools=["notify_user"],
        environment=golden_environment("seed"),
    )
    return report


def test_text_is_a_valid_document_and_each_tool_is_one_line():
    report = seed_report()
    text = render_json(report)
    validated(text)
    tool_lines = [line for line in text.splitlines() if line.lstrip().startswith('{"tool": ')]
    assert len(tool_lines) == sum(len(s.tools) for s in report.sections)


def test_resolved_stages_are_each_verdicts_own():
    report = seed_report()
    document = json.loads(render_json(report))
    for section, data in zip(report.sections, document["modes"], strict=True):
        results = data["stage_results"]
        resolved = [{**t, "stages": [results[i] for i in t["stages"]]} for t in data["tools"]]
        assert resolved == [{**_tool_json(tool), "description": tool.description} for tool in section.tools]
        assert {i for t in data["tools"] for i in t["stages"]} == set(range(len(results)))
        assert len({json.dumps(r, sort_keys=True) for r in results}) == len(results)  # each result once
    # Checklists keep their stages whole: one tool, read on its own.
    assert isinstance(document["checklists"][0]["stages"][0], dict)


def test_a_description_cannot_forge_the_tools_placeholder(tmp_path: Path):
    registry = {
        "mcp_servers": {"srv": {"tools": ["a", "b"], "descriptions": {"a": '"tools 00ff", "x"\n  ]', "b": "\x00"}}},
        "modes": {"lists": {"build": []}, "default": "build"},
    }
    (tmp_path / "toolscope.registry.json").write_text(json.dumps(registry))
    step = tmp_path / "step_config.json"
    step.write_text(json.dumps({"id": "s", "agent_configs": {"selected_servers": ["srv"]}}))
    report, _ = make_report(str(step), environment=golden_environment("seed"))
    document = json.loads(render_json(report))
    assert {t["tool"]: t["description"] for t in document["modes"][0]["tools"]} == {
        "a": '"tools 00ff", "x"\n  ]',
        "b": "\x00",
    }


def _tool_json(tool) -> dict:  # type: ignore[no-untyped-def]
    """A tool with its stages inline, as ``explain`` and version 1 wrote it."""
    from toolscope.core.schemas.verdicts import ToolJson

    return ToolJson.of(tool).model_dump(mode="json")
