"""Changed rows at scale, the fix in the trace pane, the filter's spellings, number formatting."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Static
from tui_helpers import REPO, SIZE, make_app, static_text

from toolscope.tui.rows import GroupRow, tool_key
from toolscope.tui.widgets.tool_detail import ToolDetail

sys.path.insert(0, str(REPO / "benchmarks"))
from engine_bench import make_universe_files  # noqa: E402


def summary(app) -> str:
    return static_text(app.screen.pipeline.query_one("#summary", Static))


@pytest.fixture(scope="module")
def universe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3,005 generated tools over 30 servers (the TUI benchmark's universe, smaller)."""
    return make_universe_files(tmp_path_factory.mktemp("universe"), 3000, 30)


async def test_changed_rows_are_findable_at_scale(universe: Path) -> None:
    app = make_app(universe)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        grid = screen.pipeline.grid
        assert "3,005 tools" in summary(app)
        start = screen.mode
        await pilot.press("m")
        await pilot.pause()
        changed = screen.change.changed
        assert len(changed) >= 3, "the generated universe changes verdicts between modes"
        # The change summary stays on screen, not only in a toast.
        app.clear_notifications()
        await pilot.pause()
        text = summary(app)
        assert f"Δ mode {start} → {screen.mode}:" in text and "] next Δ" in text
        # ] visits every changed row, in display order, then wraps; [ goes back.
        marked = [i for i, row in enumerate(grid.rows) if tool_key(row) in changed]
        expected = [i for i in marked if i > grid.cursor] + [i for i in marked if i <= grid.cursor]
        visited = []
        for _ in expected:
            await pilot.press("right_square_bracket")
            visited.append(grid.cursor)
        assert visited == expected
        await pilot.press("right_square_bracket")
        assert grid.cursor == expected[0]
        await pilot.press("left_square_bracket")
        assert grid.cursor == expected[-1]
        # d shows only the changed tools (and says so); d again shows everything.
        await pilot.press("d")
        await pilot.pause()
        assert {tool_key(t) for t in screen.pipeline.shown_tools()} == set(changed)
        assert "only Δ" in summary(app)
        await pilot.press("d")
        await pilot.pause()
        assert len(screen.pipeline.shown_tools()) == 3005


async def test_delta_keys_appear_only_after_a_change(seed_app) -> None:
    async with seed_app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert "right_square_bracket" not in seed_app.screen.active_bindings
        await pilot.press("m")
        await pilot.pause()
        assert "right_square_bracket" in seed_app.screen.active_bindings
        await pilot.press("right_square_bracket")
        assert seed_app.screen.pipeline.grid.selected_tool.name == "read_image"


async def test_the_trace_pane_shows_the_fix_of_the_selected_tool(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        detail = static_text(screen.pipeline.query_one(ToolDetail))
        fix = screen.subject.checklist("notify_user", "build").fix
        assert fix and "Fix" in detail and fix[:60] in " ".join(detail.split())
        # A visible tool has nothing to fix.
        await pilot.press("end")
        await pilot.pause()
        assert screen.pipeline.grid.selected_tool.verdict == "visible"
        assert " Fix " not in static_text(screen.pipeline.query_one(ToolDetail))


async def test_the_filter_matches_namespace_colon_name_and_stage_titles(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pipeline = seed_app.screen.pipeline
        await pilot.press("slash", *"github:create_issue")
        await pilot.pause()
        assert [t.name for t in pipeline.shown_tools()] == ["create_issue"]
        pipeline.clear_filter_text()
        await pilot.press(*"allow-listed")
        await pilot.pause()
        shown = pipeline.shown_tools()
        assert shown and all(t.first_failing.name == "allow_listed" for t in shown)
        assert "notify_user" in [t.name for t in shown]


async def test_numbers_have_thousands_separators_and_singulars() -> None:
    from toolscope.tui.rows import ModeChange, count_of

    assert count_of(50_005, "tool") == "50,005 tools"
    assert count_of(1, "tool") == "1 tool"
    assert ModeChange(frozenset(), 1_234, 1, 0).summary("a", "b") == "mode a → b: 1,234 tools became hidden, 1 visible"
    app = make_app(REPO / "sample_configs" / "seed" / "step_config.json", "build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"notify", "enter", "g")
        await pilot.pause()
        grid = app.screen.pipeline.grid
        heading = next(row for row in grid.rows if isinstance(row, GroupRow))
        assert heading.total == 1
        line = grid.render_line(1).text
        assert "(1 tool, 1 not visible)" in line, line


async def test_a_short_terminal_keeps_rows_for_the_tool_list() -> None:
    """At 60x15, with the change line showing, the grid still shows three tools (it showed one)."""
    app = make_app(mode="build")
    async with app.run_test(size=(60, 15)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        grid = app.screen.pipeline.grid
        assert grid.scrollable_content_region.height - 1 >= 3
