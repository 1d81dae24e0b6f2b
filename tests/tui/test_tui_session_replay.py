"""A recorded session in the activation view (issue 22, item 1): the recording is the first
lane, the lost-tool answer stays on screen, and turns are numbered by model turn alone."""

from __future__ import annotations

import asyncio

import pytest
from tui_helpers import REPO, make_app, static_text

from toolscope.tui.widgets.activation.lanes import LanePane
from toolscope.tui.widgets.activation.turns import TurnList
from toolscope.tui.widgets.activation.view import ActivationView

pytestmark = pytest.mark.agentscope

TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
SESSION = REPO / "sample_configs" / "agentscope" / "session_typo.json"


def replay_app():
    return make_app(TOOLKIT, view="activation", session=str(SESSION))


async def replayed(pilot) -> ActivationView:
    """The view once the session has been read (a worker) and replayed."""
    await pilot.pause()
    view = pilot.app.screen.query_one(ActivationView)
    await asyncio.wait_for(view.loaded.wait(), 60)
    await pilot.pause()
    assert view.replay is not None
    return view


async def test_the_answer_stays_above_the_lanes_and_the_recording_leads() -> None:
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        view = await replayed(pilot)
        banner = static_text(view.query_one("#replay-banner"))
        assert "lost tool" in banner and "page_fetch" in banner and "the guard would have refused it" in banner
        assert "≠ the installed AgentScope answers differently from the recording at turn 4" in banner
        # A banner, not a toast: nothing to time out.
        assert view.query_one("#replay-banner").display
        assert [pane.lane for pane in view.query(LanePane)] == ["recorded", "stock", "guarded"]
        await pilot.press("n", "n")
        await pilot.pause()
        rows = [str(option.prompt) for option in view.query_one(TurnList).options]
        # Stock and guarded agree on both turns: their outcome is said once (issue 22 item 7).
        assert rows[0].startswith("= turn 1  recorded ✓ web_search,scraping  stock+guarded ✓")
        assert rows[1].startswith("≠ turn 4  recorded ✓ ∅  stock+guarded ✗")
        # One numbering: model turns, no step counter beside them.
        recorded = view.query_one("#recorded-lane", LanePane)
        assert str(recorded.border_title).endswith("turn 4")
        assert "/" not in str(view.query_one(TurnList).border_title).split("·")[0]
        status = static_text(view.query_one("#script-status"))
        assert "step " not in status and "session session_typo.json" in status


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_session_replay_snapshot(snap_compare, size) -> None:
    """After both recorded calls: the lost-tool banner, the recorded lane first, ≠ on turn 4."""

    async def run_before(pilot) -> None:
        await replayed(pilot)
        await pilot.press("n", "n")
        await pilot.pause()

    assert snap_compare(replay_app(), run_before=run_before, terminal_size=size)


def test_the_cli_says_what_it_means_about_the_recording_version() -> None:
    """``step --session`` on a session that names no AgentScope version, read at 80 columns."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    command = [sys.executable, "-m", "toolscope", "step", str(TOOLKIT), "--session", str(SESSION)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    flat = " ".join(result.stdout.split())
    assert "the session does not say which AgentScope version recorded it; replayed on AgentScope" in flat
    assert "does not record;" not in flat
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
