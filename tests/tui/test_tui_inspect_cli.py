"""``toolscope inspect``: the headless screenshot path and its errors, through the real CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tui_helpers import HOSTILE, SEED
from typer.testing import CliRunner

from toolscope.cli.app import app

runner = CliRunner()


def test_screenshot_writes_an_svg_of_the_pipeline(tmp_path: Path) -> None:
    out = tmp_path / "pipeline.svg"
    result = runner.invoke(app, ["inspect", str(SEED), "--mode", "run", "--screenshot", str(out), "--size", "100x30"])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert svg.startswith("<svg") and "notify_user" in svg
    # Deterministic: no directories of this machine, no versions.
    assert str(SEED.parent) not in svg and "AgentScope&#160;2" not in svg


def test_screenshot_of_the_checklist_view(tmp_path: Path) -> None:
    out = tmp_path / "checklist.svg"
    result = runner.invoke(app, ["inspect", str(SEED), "--tool", "notify_user", "--screenshot", str(out)])
    assert result.exit_code == 0, result.output
    assert "1/4." in out.read_text()


def test_bad_options_exit_2_without_traceback(tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    for args, needle in (
        (["--mode", "nope"], "unknown mode"),
        (["--size", "wide"], "COLUMNSxROWS"),
        (["--view", "graph"], "unknown view"),
        (["--groups", "a"], "--groups"),
    ):
        result = runner.invoke(app, ["inspect", str(SEED), "--screenshot", str(out), *args])
        assert result.exit_code == 2, (args, result.output)
        assert needle in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_refuses_to_overwrite_the_input(tmp_path: Path) -> None:
    config = tmp_path / "step_config.json"
    config.write_text(SEED.read_text())
    (tmp_path / "toolscope.registry.yaml").write_text((SEED.parent / "toolscope.registry.yaml").read_text())
    result = runner.invoke(app, ["inspect", str(config), "--screenshot", str(config)])
    assert result.exit_code == 2 and config.read_text() == SEED.read_text()


def test_hostile_names_stay_literal_in_the_svg(tmp_path: Path) -> None:
    out = tmp_path / "hostile.svg"
    result = runner.invoke(app, ["inspect", str(HOSTILE), "--screenshot", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "[blink]steal_keys[/blink]".replace(" ", "&#160;") in svg
    assert "clear\\x1b[2Jscreen" in svg and "\x1b" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_other_commands_do_not_import_textual() -> None:
    code = (
        "import sys; from toolscope.cli.app import app; "
        "assert 'textual' not in sys.modules, 'textual imported at CLI start'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


async def test_render_svg_sync_works_inside_a_running_loop() -> None:
    """The report helper may call it from async code: it then renders on its own thread."""
    from toolscope.cli.inputs import open_subject
    from toolscope.tui.screenshot import render_svg_sync

    svg = render_svg_sync(open_subject(str(SEED)), "run", (100, 30), "pipeline")
    assert svg.startswith("<svg") and "mode" in svg


def test_stdout_not_a_terminal_exits_2_at_once(tmp_path: Path) -> None:
    """Piped, the app used to write escape codes until killed; now it says why and exits 2."""
    command = [sys.executable, "-m", "toolscope", "inspect", str(SEED)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert "stdout: is not a terminal" in result.stderr and "--screenshot" in result.stderr
    assert "\x1b" not in result.stdout + result.stderr and "Traceback" not in result.stderr
    # --screenshot is the headless way, piped or not.
    out = tmp_path / "shot.svg"
    shot = subprocess.run([*command, "--screenshot", str(out)], capture_output=True, text=True, timeout=60)
    assert shot.returncode == 0, shot.stderr
    assert out.read_text().startswith("<svg")


def test_the_step_picker_opens_every_step_with_the_workflow_options(tmp_path: Path) -> None:
    """--client-home (and --workflow, --origin) reach the step the picker opens, as with --step."""
    import json

    from toolscope.cli.client_options import ClientOptions
    from toolscope.cli.commands.inspect import _step_picker
    from toolscope.cli.commands.subject_options import SubjectOptions

    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["mcp__api-bridge__*"]}}))
    steps = str(SEED.parent / "steps.json")
    picker = _step_picker(steps, None, SubjectOptions(client=ClientOptions(client_home=tmp_path)), "pipeline", [])
    claude_step, _mode = picker.load("triage")
    openai_step, _mode = picker.load("sheets-report")
    assert "bridge_blocked" in [f.kind for f in claude_step.config_findings]
    assert "bridge_blocked" not in [f.kind for f in openai_step.config_findings]


def test_inspect_takes_origin_and_workflow_for_a_product_manifest_registry(tmp_path: Path) -> None:
    config = Path(__file__).resolve().parents[1] / "core" / "agentworks" / "eras" / "product_manifest" / "planning"
    out = tmp_path / "external.svg"
    args = ["inspect", str(config / "step_config.json"), "--step", "report", "--origin", "external"]
    result = runner.invoke(app, [*args, "--workflow", str(config.parent / "workflow.json"), "--screenshot", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert "origin&#160;" in svg and "external" in svg and "&#160;run&#160;" in svg  # an external caller: mode run
