"""``inspect --capture``: the capture view through Pilot (a recorded capture, followed as it
grows), SVG snapshots at 80x24 and 200x60, and the CLI's refusals."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app as cli
from toolscope.core.systems.agentscope.ids import AgentScopeInput
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.tui.capture.app import CaptureApp
from toolscope.tui.capture.requests import RequestDetail, RequestList

CAPTURE = Path(__file__).resolve().parents[1] / "capture" / "fixtures" / "agentscope_seed.capture.jsonl"
"""Recorded from a real AgentScope Agent (tests/capture/fixtures/record_agentscope_capture.py, under toolscope capture)."""


async def _until(pilot, condition, timeout: float = 5.0) -> None:
    import asyncio

    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the view did not get there in time")


async def test_the_view_follows_the_file_as_it_grows(tmp_path: Path) -> None:
    lines = CAPTURE.read_bytes().splitlines(keepends=True)
    live = tmp_path / "live.capture.jsonl"
    live.write_bytes(b"".join(lines[:2]))
    app = CaptureApp(str(live))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await _until(pilot, lambda: len(screen.steps) == 2)
        await _until(pilot, lambda: screen.selected == 1)
        detail = app.screen.query_one(RequestDetail).render().plain
        assert "request 2" in detail and "after: reset_tools" in detail and "+ web_search" in detail
        with live.open("ab") as handle:  # the server appends line by line
            handle.write(b"".join(lines[2:]))
        await _until(pilot, lambda: len(screen.steps) == 4)
        await _until(pilot, lambda: screen.selected == 3)  # following: the newest request
        assert app.screen.query_one(RequestList).option_count == 4
        await pilot.press("up")
        await _until(pilot, lambda: screen.selected == 2)
        assert screen.following is False
        assert "after: web_search" in app.screen.query_one(RequestDetail).render().plain
        await pilot.press("f")
        await _until(pilot, lambda: screen.selected == 3)


async def test_a_missing_file_waits_for_the_first_request(tmp_path: Path) -> None:
    path = tmp_path / "later.jsonl"
    app = CaptureApp(str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: "waiting for the first request" in app.screen.status)
        shutil.copy(CAPTURE, path)
        await _until(pilot, lambda: len(app.screen.steps) == 4)


def _loaded(size: tuple[int, int]):
    async def run_before(pilot) -> None:
        await _until(pilot, lambda: len(pilot.app.screen.steps) == 4 and pilot.app.screen.selected == 3)
        await pilot.press("up", "up")
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_snapshot(snap_compare, size: tuple[int, int], tmp_path: Path) -> None:
    """Request 2 selected: its tools with + for the two that appeared, and the call that caused it."""
    path = tmp_path / CAPTURE.name
    shutil.copy(CAPTURE, path)
    assert snap_compare(CaptureApp(str(path)), run_before=_loaded(size), terminal_size=size)


TOOLKIT = Path(__file__).resolve().parents[2] / "sample_configs" / "agentscope" / "toolkit.yaml"


def _predicting(groups: list[str] | None):
    """What ``inspect TOOLKIT --groups … --capture`` gives the view: the real prediction."""
    from toolscope.core.comparison.predict import compare_subject
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    subject = load_toolkit_subject(str(TOOLKIT), kind=AgentScopeInput.TOOLKIT_SPEC, groups=groups)
    return lambda capture: compare_subject(subject, capture, None).comparison


@pytest.mark.agentscope
async def test_each_request_is_marked_against_the_prediction_and_n_finds_the_next_difference(
    tmp_path: Path,
) -> None:
    # Starting with the web_search group on: toolscope predicts web_search and page_fetch at
    # request 1, which the real agent (no starting group) did not send. Requests 2-4 agree.
    path = tmp_path / CAPTURE.name
    shutil.copy(CAPTURE, path)
    app = CaptureApp(str(path), _predicting(["web_search"]), "toolkit.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await _until(pilot, lambda: len(screen.steps) == 4 and screen.selected == 3, timeout=30)
        rows = app.screen.query_one(RequestList)
        marks = [str(rows.get_option_at_index(n).prompt)[:1] for n in range(4)]
        assert marks == ["≠", "✓", "✓", "✓"]
        assert "1 ≠ prediction" in screen.status
        assert "✓ as predicted" in app.screen.query_one(RequestDetail).render().plain
        await pilot.press("n")  # from request 4, round to the first disagreement
        await _until(pilot, lambda: screen.selected == 0)
        detail = app.screen.query_one(RequestDetail).render().plain
        assert "≠ not as predicted (starting groups: web_search)" in detail
        assert "predicted, not received: web_search, page_fetch" in detail
        assert "received, not predicted" not in detail
        await pilot.press("n")  # the only one: it stays
        await _until(pilot, lambda: screen.selected == 0)
        assert screen.following is False


async def test_received_but_not_predicted_is_listed_too(tmp_path: Path) -> None:
    from toolscope.core.comparison.predict import compare_subject
    from toolscope.core.systems.agentworks.subject import load_agentworks_subject

    config = Path(__file__).resolve().parents[2] / "sample_configs" / "seed" / "step_config.json"
    subject = load_agentworks_subject(StepConfigLoad(config))

    app = CaptureApp(str(CAPTURE), lambda capture: compare_subject(subject, capture, "build").comparison, "s.json")
    async with app.run_test(size=(200, 60)) as pilot:
        await _until(pilot, lambda: len(app.screen.steps) == 4 and app.screen.selected == 3, timeout=30)
        await pilot.press("home")
        await _until(pilot, lambda: app.screen.selected == 0)
        detail = app.screen.query_one(RequestDetail).render().plain
        assert "predicted, not received: execute_shell_command" in detail
        assert "received, unknown to the config: reset_tools, note_write" in detail
        assert "4 ≠ prediction" in app.screen.status


def _predicted(size: tuple[int, int]):
    async def run_before(pilot) -> None:
        await _until(pilot, lambda: len(pilot.app.screen.steps) == 4 and pilot.app.screen.selected == 3, timeout=30)
        await pilot.press("n")
        await _until(pilot, lambda: pilot.app.screen.selected == 0)
        await pilot.pause()

    return run_before


@pytest.mark.agentscope
@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_snapshot_against_a_prediction(snap_compare, size: tuple[int, int], tmp_path: Path) -> None:
    """``inspect TOOLKIT --groups web_search --capture``: request 1 selected by n, ≠ with what was not received."""
    path = tmp_path / CAPTURE.name
    shutil.copy(CAPTURE, path)
    app = CaptureApp(str(path), _predicting(["web_search"]), "toolkit.yaml")
    assert snap_compare(app, run_before=_predicted(size), terminal_size=size)


def test_cli_refusals(tmp_path: Path) -> None:
    runner = CliRunner()
    piped = runner.invoke(cli, ["inspect", "--capture", str(CAPTURE)])
    assert piped.exit_code == 2 and "not a terminal" in piped.output
    with_config = runner.invoke(cli, ["inspect", "sample_configs/agentscope/toolkit.yaml", "--capture", str(CAPTURE)])
    assert with_config.exit_code == 2 and "not a terminal" in with_config.output
    workflow = runner.invoke(cli, ["inspect", "no-such.yaml", "--capture", str(tmp_path)])
    assert workflow.exit_code == 2 and "not a file" in workflow.output
    folder = runner.invoke(cli, ["inspect", "--capture", str(tmp_path)])
    assert folder.exit_code == 2 and "not a file" in folder.output
    nothing = runner.invoke(cli, ["inspect"])
    assert nothing.exit_code == 2 and "CONFIG" in nothing.output
