"""``report`` without ``--step`` on a step config with several steps: the whole workflow.

The real CLI in a subprocess: Markdown, HTML and ``toolscope.workflow-report/1`` JSON, the
workflow's own findings once and a section per step; svg/png still need ``--step``. Golden
files pin the seed workflow's Markdown and JSON byte for byte (regenerate with
``TOOLSCOPE_UPDATE_GOLDEN=1``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from json_contracts import validated
from report_helpers import GOLDEN, golden_environment

from toolscope.core.report.workflow import build_workflow_report, render_workflow_json, render_workflow_markdown
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_workflow_subjects

REPO = Path(__file__).resolve().parents[2]
SEED_STEPS = REPO / "sample_configs" / "seed" / "steps.json"
# A registration-only registry that still has a modes section: one mixed_era finding, the workflow's own.
ERA_B = REPO / "tests" / "core" / "agentworks" / "eras" / "registration_only" / "step_config.json"
UPDATE = os.environ.get("TOOLSCOPE_UPDATE_GOLDEN") == "1"


def toolscope(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_json_is_one_report_per_step_keyed_by_step_id_and_the_workflows_findings_once(tmp_path: Path) -> None:
    out = tmp_path / "workflow.json"
    done = toolscope("report", str(ERA_B), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "2 steps" in done.stdout
    document = validated(out.read_text("utf-8"))
    assert document["schema"] == "toolscope.workflow-report/1"
    assert document["era"] == "registration_only"
    assert list(document["steps"]) == ["build", "legacy"]  # file order
    assert [f["kind"] for f in document["findings"]] == ["mixed_era"]
    for step_id, report in document["steps"].items():
        assert report["schema"] == "toolscope.report/2" and report["provenance"]["step"] == step_id
        assert "mixed_era" not in [f["kind"] for f in report["findings"]]
    legacy = document["steps"]["legacy"]
    assert [f["kind"] for f in legacy["findings"]] == ["dead_rule"]
    assert any(line.startswith("Step legacy, mode (none): ") for line in document["summary"])


def test_markdown_and_html_have_the_workflow_findings_once_then_a_section_per_step(tmp_path: Path) -> None:
    for fmt in ("md", "html"):
        out = tmp_path / f"workflow.{fmt}"
        done = toolscope("report", str(ERA_B), "--format", fmt, "-o", str(out))
        assert done.returncode == 0, done.stderr
        text = out.read_text("utf-8")
        mixed = "mixed\\_era" if fmt == "md" else "mixed_era"
        assert text.count(mixed) == 1, fmt
        if fmt == "md":
            headings = [line for line in text.splitlines() if line.startswith("## ")]
            assert headings == ["## Workflow findings", "## Step build", "## Step legacy"]
            # Each step's report nests one level down.
            assert "### Invariant findings" in text and "\n## Invariant findings" not in text
        else:
            assert text.index("<h2>Workflow findings</h2>") < text.index("<h2>Step build</h2>")
            assert text.index("<h2>Step build</h2>") < text.index("<h2>Step legacy</h2>")
            assert "<h3>Invariant findings</h3>" in text and "<h2>Invariant findings</h2>" not in text


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_screenshot_needs_a_step(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"shot.{fmt}"
    done = toolscope("report", str(SEED_STEPS), "--format", fmt, "-o", str(out))
    assert done.returncode == 2
    assert f"--format {fmt}" in done.stderr and "give --step ID" in done.stderr
    assert "triage, sheets-report, pulse-monitor" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def test_tool_checklists_and_modes_apply_to_every_step(tmp_path: Path) -> None:
    out = tmp_path / "workflow.json"
    done = toolscope(
        "report", str(SEED_STEPS), "--mode", "build", "--mode", "run", "--tool", "notify_user", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    document = validated(out.read_text("utf-8"))
    for report in document["steps"].values():
        assert [m["mode"] for m in report["modes"]] == ["build", "run"]
        assert [(c["tool"], c["mode"]) for c in report["checklists"]] == [
            ("notify_user", "build"),
            ("notify_user", "run"),
        ]
        assert report["diff"] is not None


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_golden(fmt: str) -> None:
    """The seed workflow's report, byte for byte."""
    subjects = load_workflow_subjects(StepConfigLoad(SEED_STEPS))
    data = build_workflow_report(subjects, environment=golden_environment("seed"))
    text = render_workflow_markdown(data) if fmt == "md" else render_workflow_json(data)
    path = GOLDEN / f"seed-workflow.{fmt}"
    if UPDATE:
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"no golden file {path.name}; create it with TOOLSCOPE_UPDATE_GOLDEN=1"
    assert text == path.read_text("utf-8"), (
        f"{path.name} differs; if intended, regenerate with TOOLSCOPE_UPDATE_GOLDEN=1"
    )
    if fmt == "json":
        validated(text)
