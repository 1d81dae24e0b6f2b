"""The export key: where the files go, their permissions, and Markdown that reads and copies well."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from tui_helpers import REPO, SIZE, make_app


@pytest.fixture
def umask_027():
    """A user's umask that is neither 0 nor what mkstemp implies (0600)."""
    old = os.umask(0o027)
    yield
    os.umask(old)


async def test_export_shows_the_full_path_and_honours_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask_027: None
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(mode="build")  # export_dir: "." as inspect's default
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        svg, report = tmp_path / "toolscope-pipeline-build.svg", tmp_path / "toolscope-pipeline-build.md"
        message = [n.message for n in app._notifications if "Report:" in n.message][0]
        assert f"Screenshot: {svg}" in message and f"Report: {report}" in message
        for path in (svg, report):
            assert stat.S_IMODE(path.stat().st_mode) == 0o640, oct(path.stat().st_mode)


async def test_pipeline_markdown_keeps_the_delta_marks_and_plain_characters(tmp_path: Path) -> None:
    app = make_app(mode="build", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("m")  # build → run: read_image becomes hidden
        await pilot.pause()
        markdown = app.screen.action_export().markdown.read_text(encoding="utf-8")
        assert "- Δ mode build → run: 1 tool became hidden" in markdown
        assert "| Δ was visible | read\\_image |" in markdown
        assert "&#x" not in markdown and "\\n" not in markdown
        assert "step\\_config.json · step" in markdown  # the label's middle dot, as a character


async def test_checklist_markdown_puts_commands_in_code_spans_that_run(tmp_path: Path) -> None:
    app = make_app(mode="build", tool="notify_user", view="checklist", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        markdown = app.screen.action_export().markdown.read_text(encoding="utf-8")
        command = "toolscope check sample_configs/seed/step_config.json --mode build --expect visible:notify_user"
        assert f"`{command}`" in markdown, markdown
        assert "&#x" not in markdown and "\\n" not in markdown
        # Copied out of the code span, it runs (from where the config was opened): no usage error.
        import shlex
        import subprocess
        import sys

        args = shlex.split(command)[1:]
        ran = subprocess.run(
            [sys.executable, "-m", "toolscope", *args], cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert ran.returncode in (0, 1), ran.stderr
        assert "notify_user" in ran.stdout + ran.stderr


def test_inline_code_and_escapes() -> None:
    from toolscope.tui.export_text import md, md_evidence, md_inline

    assert md_inline("fix the server (see `toolscope discover`), then") == (
        "fix the server (see `toolscope discover`), then"
    )
    assert md_inline("a `lone backtick") == "a \\`lone backtick"
    assert md("line one\nline two") == "line one line two"
    assert md("<script>@x|y") == "&lt;script&gt;&#64;x\\|y"
    assert md("# heading") == "\\# heading"
    assert md_evidence("toolscope check 'my config.json' --expect visible:a_b") == (
        "`toolscope check 'my config.json' --expect visible:a_b`"
    )
    assert md("bell\x07") == "bell\\\\x07"  # control characters stay visible escapes


@pytest.mark.agentscope
async def test_activation_markdown_has_no_literal_newlines(tmp_path: Path) -> None:
    toolkit = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
    app = make_app(toolkit, view="activation", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space", "f")
        await pilot.pause()
        markdown = app.screen.action_export().markdown.read_text(encoding="utf-8")
        assert "| 1 |" in markdown
        assert "\\n" not in markdown and "&#x" not in markdown
