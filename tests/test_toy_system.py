"""A toy system added to toolscope with one package (tests/toy_system/) and one registry entry,
no edit to core/model, cli/, tui/ or the reports: the commands and the TUI work on it.

In a ``toolscope`` subprocess the entry comes from the environment (``TOOLSCOPE_SYSTEMS``, the
module defining ``SYSTEM``); in this process from ``registry.register``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from toolscope.core.systems import registry

TESTS = Path(__file__).resolve().parent
TOYS = {"toys": [{"name": "ball", "on": True}, {"name": "kite", "on": False}]}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, registry.ENV_VAR: "toy_system.system"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=90
    )


@pytest.fixture
def box(tmp_path: Path) -> Path:
    (tmp_path / "box").mkdir()
    (tmp_path / "box" / "toybox.json").write_text(json.dumps(TOYS))
    return tmp_path


@pytest.fixture
def toy_registered() -> Iterator[None]:
    from toy_system.system import SYSTEM

    registry.register(SYSTEM)
    yield
    registry.unregister(SYSTEM.key)


def test_tools_lists_the_toys_with_the_systems_stages(box: Path) -> None:
    done = run("tools", "toy:box", "--wide", cwd=box)
    assert done.returncode == 0, done.stderr
    assert "ball" in done.stdout and "kite" in done.stdout
    assert "kite is switched off" in done.stdout  # the deciding rule, named by the toy's own stage
    as_json = json.loads(run("tools", "toy:box", "--json", cwd=box).stdout)
    assert as_json["input"] == "toybox" and as_json["stages"] == ["toy_listed", "toy_switched_on"]
    assert {t["tool"]: t["first_failing_stage"] for t in as_json["tools"]} == {"ball": None, "kite": "toy_switched_on"}


def test_a_folder_with_the_toys_file_is_recognised_by_its_marker(box: Path) -> None:
    done = run("tools", "box", "--json", cwd=box)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["input"] == "toybox"
    near = run("tools", "tyo:box", cwd=box)
    assert near.returncode == 2 and "did you mean toy:box?" in near.stderr


def test_explain_walks_the_toys_stages_to_the_fix(box: Path) -> None:
    done = run("explain", "toy:box", "kite", cwd=box)
    assert "switched on" in done.stdout, done.stdout + done.stderr
    assert 'set "on": true for kite in toybox.json' in done.stdout
    assert "Traceback" not in done.stderr


def test_check_json_reports_the_toys_finding_in_a_schema_generated_with_it(box: Path, toy_registered: None) -> None:
    from toolscope.core.systems.schema_files import generated_schema

    done = run("check", "toy:box", "--json", cwd=box)
    assert done.returncode == 1, done.stderr  # an error finding fails check
    document = json.loads(done.stdout)
    assert [f["kind"] for f in document["findings"]] == ["toy_switched_off"]
    schema = generated_schema("toolscope.check/1")
    assert "toy_switched_off" in schema["$defs"]["FindingKind"]["enum"]
    jsonschema.validate(document, schema)


def test_report_markdown_names_the_toys_stages(box: Path) -> None:
    done = run("report", "toy:box", "--format", "md", "-o", "report.md", cwd=box)
    assert done.returncode == 0, done.stderr
    text = (box / "report.md").read_text("utf-8")
    assert "in the box" in text and "switched on" in text
    assert "kite" in text and r"toy\_switched\_off" in text  # the kind, escaped as Markdown


async def test_the_tui_pipeline_view_shows_the_toys(box: Path, toy_registered: None) -> None:
    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions
    from toolscope.tui.widgets.grid_layout import short_title

    subject = open_subject(f"toy:{box / 'box'}")
    app = ToolscopeApp(subject, None, TuiOptions(deterministic=True, export_png=False))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert [t.name for t in screen.pipeline.shown_tools()] == ["kite", "ball"]  # hidden first
        assert screen.pipeline.grid.selected_tool.name == "kite"
    assert [short_title(s) for s in ("toy_listed", "toy_switched_on")] == ["box", "on"]


def test_another_systems_option_is_refused_naming_its_system(box: Path) -> None:
    done = run("tools", "toy:box", "--registry", "r.yaml", cwd=box)
    assert done.returncode == 2
    assert "--registry" in done.stderr and "applies to AgentWorks inputs, not Toybox" in done.stderr
    codex = run("tools", "toy:box", "-c", "model='x'", cwd=box)
    assert codex.returncode == 2 and "applies to Codex inputs, not Toybox" in codex.stderr
