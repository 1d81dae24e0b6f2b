"""A report section's order (hidden, unknown, visible; stable) and its verdicts, decided once
per distinct row of stages: a 50,000-tool universe has a few hundred rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_helpers import SAMPLES, golden_environment

from toolscope.cli.commands.report_document import make_report
from toolscope.core.model.verdicts import VerdictList
from toolscope.core.report.json_report import render_json

RANK = {"hidden": 0, "unknown": 1, "visible": 2}


def test_sections_are_hidden_unknown_visible_in_the_subjects_order(in_repo: Path) -> None:
    from toolscope.cli.inputs import open_subject

    config = str(SAMPLES / "seed" / "step_config.json")
    report, _ = make_report(config, modes=["build", "run"], environment=golden_environment("seed"))
    subject = open_subject(config)
    for section in report.sections:
        original = list(subject.evaluate(section.mode).tools)
        expected = sorted(original, key=lambda t: RANK[t.verdict])  # sorted() is stable
        assert [(t.namespace, t.name) for t in section.tools] == [(t.namespace, t.name) for t in expected]
        assert section.verdicts == [t.verdict for t in section.tools]
        assert section.counts() == {v: sum(t.verdict == v for t in original) for v in ("visible", "hidden", "unknown")}


def test_each_distinct_row_is_decided_once(in_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolscope.core.model.verdict_list as verdict_list

    calls: list[int] = []
    real = verdict_list.row_verdict
    monkeypatch.setattr(verdict_list, "row_verdict", lambda row: (calls.append(1), real(row))[1])
    report, _ = make_report(str(SAMPLES / "seed" / "step_config.json"), environment=golden_environment("seed"))
    render_json(report)
    (section,) = report.sections
    assert len(section.evaluated.rows) < len(section.evaluated)  # tools share rows
    assert len(calls) == len(section.evaluated.rows)
    assert len(set(section.evaluated.rows)) == len(section.evaluated.rows)  # each distinct row once


def test_the_json_report_builds_no_tool_verdicts(in_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON writer works from the rows by index: 50,000 tools are not wrapped in 50,000 objects."""
    built: list[int] = []
    real = VerdictList._build
    monkeypatch.setattr(VerdictList, "_build", lambda self, index: (built.append(index), real(self, index))[1])
    report, _ = make_report(
        str(SAMPLES / "seed" / "step_config.json"), modes=["build", "run"], environment=golden_environment("seed")
    )
    text = render_json(report)
    # Only the summary's few examples of tools hidden after registration are built.
    assert len(built) <= 10 * len(report.sections)
    assert json.loads(text)["modes"][0]["counts"] == report.sections[0].counts()
