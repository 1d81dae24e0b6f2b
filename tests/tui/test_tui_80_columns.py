"""At 80 columns the key explanation is not cut; at 200x60 no rows go to waste (issue 22 item 7).

The real app through Pilot on the shipped samples: the seed step config, the AgentScope toolkit
with the typo script, the 12-group toolkit.
"""

from __future__ import annotations

import pytest
from activation_helpers import activation, run_typo_script
from rich.cells import cell_len
from tui_helpers import REPO, make_app

from toolscope.tui.widgets.activation.composer import GroupBar, ToggleStrip
from toolscope.tui.widgets.activation.lanes import LanePane
from toolscope.tui.widgets.activation.turns import TurnList

SCRIPTS = REPO / "sample_configs" / "agentscope"


def grid_line(grid, y: int) -> str:
    return "".join(segment.text for segment in grid.render_line(y))


async def test_decided_by_keeps_room_at_80_columns() -> None:
    """The `decided by` column was entirely gone at 80 columns (the name columns took it all)."""
    app = make_app(mode="build")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        grid = app.screen.pipeline.grid
        header, first = grid_line(grid, 0), grid_line(grid, 1)
        assert "decided by" in header, header
        assert "notify_user" in first and "not in the system" in first, first
        # The namespace column gave its cells (the trace pane names it); names stay whole.
        lines = [grid_line(grid, y) for y in range(1, grid.size.height)]
        for tool in app.screen.pipeline.shown_tools()[: len(lines)]:
            assert any(f" {tool.name} " in line for line in lines), (tool.name, lines)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
async def test_decided_by_keeps_room_with_the_help_panel_open(size) -> None:
    """With ? open at 80 columns the grid had no cell left for `decided by`: the stage columns
    now give way first (the trace pane lists them), and the rule is named with its stage."""
    app = make_app(mode="build")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        grid = app.screen.pipeline.grid
        header, first = grid_line(grid, 0), grid_line(grid, 1)
        assert "decided by" in header, header
        if size == (80, 24):
            assert header.split() == ["tool", "verdict", "decided", "by"], header
            assert "notify_user" in first and "allow: not in the" in first, first
        else:  # room for everything: the stage columns stay, the rule is whole
            assert header.split()[:3] == ["tool", "namespace", "reg"], header
            assert 'allow-listed: not in the system slice nor in mode "build"' in first, first


async def test_at_200x60_the_trace_pane_takes_the_rows_the_grid_does_not_need() -> None:
    """23 tools at 200x60 left 15 empty grid rows while the trace pane (13 rows at most) was cut."""
    app = make_app(mode="build")
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        pipeline = app.screen.pipeline
        detail = pipeline.query_one("#detail-scroll")
        assert pipeline.grid.size.height == 23 + 1
        assert detail.size.height > 13
        assert detail.max_scroll_y == 0, "the whole trace fits"
        await pilot.press("slash", *"github", "enter")  # a filter never moves the panes
        await pilot.pause()
        assert pipeline.grid.size.height == 23 + 1


async def test_switching_the_mode_shows_no_toast_over_the_fix_line() -> None:
    """The "mode switched" toast covered the trace pane's Fix line at 80x24; the summary line says it."""
    app = make_app(mode="build")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert not [n for n in app._notifications if n.title == "mode switched"]
        summary = str(app.screen.pipeline.query_one("#summary").render())
        assert "build" in summary and "run" in summary, summary


@pytest.mark.agentscope
async def test_the_guards_did_you_mean_and_the_turn_rows_fit_80_columns() -> None:
    """After typo.json at 80x24: the guarded lane shows "did you mean 'web_search'" without
    scrolling, and each turn row shows its whole call."""
    from test_tui_activation_layout import visible_lines

    async with activation((80, 24)) as (pilot, view):
        await run_typo_script(pilot, focus_first_toggle=True, clear_toasts=True)
        guarded = " ".join(visible_lines(view.query_one("#guarded-lane", LanePane)))
        assert "did you mean 'web_search'?" in guarded, guarded
        turns = view.query_one(TurnList)
        width = turns.scrollable_content_region.width
        rows = [turns.get_option_at_index(i).prompt for i in range(turns.option_count)]
        for row, call in zip(
            rows, ["{}", '{"web_search": true, "scraping": true}', '{"web_serch": true}'], strict=True
        ):
            assert row.plain.endswith(call) and cell_len(row.plain) <= width, (row.plain, width)


@pytest.mark.agentscope
async def test_no_group_toggle_is_drawn_cut_and_the_cut_ones_are_counted() -> None:
    """The 12-group toolkit at 80x24: `‹5  abases` showed a fragment of "databases". A toggle
    that does not fit whole is not drawn, and ‹n + drawn + n› is every group, at every step."""
    app = make_app(SCRIPTS / "large_toolkit.yaml", view="activation")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        bar = app.screen.query_one(GroupBar)
        strip = bar.query_one(ToggleStrip)
        for _ in range(12):
            await pilot.press("right")
            await pilot.pause()
            drawn = [box for box in bar.toggles if box.styles.visibility != "hidden"]
            for box in drawn:
                start = box.virtual_region.x
                assert strip.scroll_x <= start and start + box.outer_size.width <= strip.scroll_x + strip.size.width
            left = str(bar.query_one("#more-left").content).lstrip("‹") or "0"
            right = str(bar.query_one("#more-right").content).rstrip("›") or "0"
            assert int(left) + len(drawn) + int(right) == 12, (left, [b.name for b in drawn], right)
            assert app.focused in drawn
