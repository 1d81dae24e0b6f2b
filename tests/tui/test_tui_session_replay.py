"""A recorded session in the activation view (issue 22, item 1): the recording is the first
lane, the lost-tool answer stays on screen, and turns are numbered by model turn alone."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from rich.cells import cell_len
from svg_cells import cells, line
from tui_helpers import REPO, make_app, static_text

from toolscope.tui.widgets.activation.lanes import LanePane
from toolscope.tui.widgets.activation.turns import TurnList, replayed_prompt
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
        # Lanes that agree say their outcome once (issue 22 item 7): all three on turn 1, the
        # what-ifs on turn 4.
        assert rows[0].startswith("= turn 1  all ✓ web_search,scraping  ")
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


def turn_rows_on_screen(app) -> list[str]:
    """The turn list's lines as drawn (from the screenshot), below its title, above the footer."""
    grid = cells(app.export_screenshot())
    lines = [line(grid, row).rstrip() for row in range(max(r for r, _ in grid) + 1)]
    title = next(i for i, text in enumerate(lines) if text.startswith("─session session_typo.json"))
    return [text for text in lines[title + 1 : -1] if text.strip()]


async def test_replay_rows_fit_80_columns_with_every_outcome_and_the_whole_call() -> None:
    """Issue 22 item 7: at 80 columns a replay row wraps between its outcomes instead of losing
    the last groups and the call past the right edge."""
    async with replay_app().run_test(size=(80, 24)) as pilot:
        view = await replayed(pilot)
        await pilot.press("n", "n")
        await pilot.pause()
        rows = turn_rows_on_screen(pilot.app)
        assert rows == [  # each behind the list's one-cell padding
            ' = turn 1  all ✓ web_search,scraping  {"web_search": true, "scraping": true}',
            " ≠ turn 4  recorded ✓ ∅  stock+guarded ✗ web_search,scraping",
            '           {"web_serch": true}',
        ], rows
        assert not any("…" in row for row in rows)
        turns = view.query_one(TurnList)
        # The same rows one line each once there is room, and wrapped again at 80.
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert ["\n" in str(option.prompt) for option in turns.options] == [False, False]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert ["\n" in str(option.prompt) for option in turns.options] == [False, True]


async def test_a_row_whose_three_outcomes_differ_wraps_between_them() -> None:
    """Three different outcomes (a recording replayed on a stock AgentScope that accepted the
    typo differently, as 2.0.6 did): each outcome stays whole, on lines that fit."""
    async with replay_app().run_test(size=(80, 24)) as pilot:
        view = await replayed(pilot)
        await pilot.press("n", "n")
        await pilot.pause()
        turn, recorded = view.session.history[1], view.replay.turns[1]
        # The installed stock lane answered "accepted, web_search left on": all three differ.
        stock = replace(turn.lanes["stock"], accepted=True, groups_after=("web_search",))
        three_ways = replace(turn, lanes={**turn.lanes, "stock": stock})
        width = view.query_one(TurnList).row_width
        assert width == 75
        lines = str(replayed_prompt(three_ways, recorded, width)).split("\n")
        assert lines == [
            "≠ turn 4  recorded ✓ ∅  stock ✓ web_search  guarded ✗ web_search,scraping",
            '          {"web_serch": true}',
        ]
        assert max(cell_len(text) for text in lines) <= width
        # Recording and stock agreeing, the guard not (2.0.6 replaying its own recording).
        stock = replace(turn.lanes["stock"], accepted=True, groups_after=())
        two_ways = replace(turn, lanes={**turn.lanes, "stock": stock})
        assert str(replayed_prompt(two_ways, recorded, width)).startswith("≠ turn 4  recorded+stock ✓ ∅  guarded ✗ ")
        # Without a width (nothing laid out yet) the row is one line.
        assert "\n" not in str(replayed_prompt(three_ways, recorded))


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
