"""Contrast measured on the rendered SVG (WCAG ratios), in the default dark theme and under NO_COLOR."""

from __future__ import annotations

import pytest
from svg_cells import Cell, cells, contrast, line
from tui_helpers import SIZE, make_app

AA = 4.5  # WCAG AA for normal text


async def screenshot(*keys: str) -> tuple[dict[tuple[int, int], Cell], str]:
    """The seed in build mode after ``keys``: its cells, and the selected tool's name."""
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        selected = app.screen.pipeline.grid.selected_tool.name
        return cells(app.export_screenshot()), selected


def grid_rows(grid: dict[tuple[int, int], Cell]) -> tuple[int, list[int]]:
    """The grid's header row and its tool rows (those with a verdict)."""
    rows = sorted({row for row, _ in grid})
    header = next(row for row in rows if "decided by" in line(grid, row))
    tools = []
    for row in rows[rows.index(header) + 1 :]:
        if "✗ HIDDEN" not in line(grid, row) and "✓ visible" not in line(grid, row):
            break  # the grid ends where the trace pane starts
        tools.append(row)
    return header, tools


def worst(grid: dict[tuple[int, int], Cell], row: int, chars: str | None = None) -> float:
    """The lowest contrast of the row's visible characters (or only of ``chars``)."""
    ratios = [
        contrast(cell.fg, cell.bg)
        for (r, _), cell in grid.items()
        if r == row and cell.char.strip() and (chars is None or cell.char in chars)
    ]
    return min(ratios)


@pytest.fixture(params=["dark", "NO_COLOR"])
def colour(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    return request.param


async def test_selected_row_marks_and_hidden_are_readable(colour: str) -> None:
    grid, selected = await screenshot()
    header, tools = grid_rows(grid)
    cursor = next(row for row in tools if selected in line(grid, row))
    assert worst(grid, cursor) >= AA, (colour, line(grid, cursor))
    for row in tools:
        assert worst(grid, row, "✓✗?") >= AA, (colour, line(grid, row))
        if "HIDDEN" in line(grid, row):
            assert worst(grid, row, "HIDDEN") >= AA, (colour, line(grid, row))
    # The summary's ✗ marks too.
    summary = next(row for row in sorted({r for r, _ in grid}) if "registered but hidden" in line(grid, row))
    assert worst(grid, summary) >= AA
    # The selected row stands out from the others by its background.
    others = {grid[(row, 10)].bg for row in tools if row != cursor}
    assert grid[(cursor, 10)].bg not in others


async def test_without_colour_hidden_is_reverse_video(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    grid, _selected = await screenshot()
    _header, tools = grid_rows(grid)
    row = next(r for r in tools if "HIDDEN" in line(grid, r) and "create_pull_request" in line(grid, r))
    column = line(grid, row).index("HIDDEN")
    assert grid[(row, column)].bg != grid[(row, 1)].bg and grid[(row, column)].bold


async def test_the_focused_pane_is_visibly_focused(colour: str) -> None:
    """The grid's header row changes when the focus moves to the trace pane (shift+tab) or the filter."""
    focused, _ = await screenshot()
    header, _tools = grid_rows(focused)
    for keys in (["tab"], ["slash"]):
        blurred, _ = await screenshot(*keys)
        assert focused[(header, 5)].bg != blurred[(header, 5)].bg, (colour, keys)
