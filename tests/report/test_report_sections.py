"""A report section's order (hidden, unknown, visible; stable) and its verdicts, decided once
per distinct row of stages: a 50,000-tool universe has a few hundred rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_helpers import SAMPLES, golden_environment

from toolscope.commands.report import make_report
from toolscope.core.report.json_report import render_json
from toolscope.core.verdicts import ToolVerdict

RANK = {"hidden": 0, "unknown": 1, "visible": 2}


def test_sections_are_hidden_unknown_visible_in_the_subjects_order(in_repo: Path) -> None:
    from toolscope.inputs import open_subject

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
    calls: list[int] = []
    real = ToolVerdict.verdict
    monkeypatch.setattr(ToolVerdict, "verdict", property(lambda self: (calls.append(1), real.fget(self))[1]))
    report, _ = make_report(str(SAMPLES / "seed" / "step_config.json"), environment=golden_environment("seed"))
    render_json(report)
    (section,) = report.sections
    assert len(calls) == len({id(t.stages) for t in section.tools})
