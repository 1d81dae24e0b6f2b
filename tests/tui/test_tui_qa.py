"""Regression tests for the QA pass over ``toolscope inspect`` (each failed before its fix)."""

from __future__ import annotations

from pathlib import Path

import pytest
from activation_helpers import activation
from textual.widgets import Input
from tui_helpers import HOSTILE, REPO, make_app

from toolscope.cli.inputs import open_subject
from toolscope.tui.widgets.activation.view import GroupToggle
from toolscope.tui.widgets.input_header import InputHeader, header_text

TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
SCRIPTS = REPO / "sample_configs" / "agentscope"
ESCAPED = "clear\x1b[2Jscreen"


def grid_line(grid, y: int) -> str:
    return grid.render_line(y).text


async def pick_palette_hit(pilot, prefix: str) -> None:
    """Wait (up to ~5 s) for the background search to list a hit starting with ``prefix``; select it."""
    from textual.command import CommandList

    for _ in range(50):
        await pilot.pause(0.1)
        results = pilot.app.screen.query(CommandList)
        if results:
            prompts = [str(results.first().get_option_at_index(i).prompt) for i in range(results.first().option_count)]
            matching = [i for i, prompt in enumerate(prompts) if prompt.startswith(prefix)]
            if matching:
                await pilot.press(*["down"] * matching[0], "enter")
                return
    raise AssertionError(f"no palette hit starting with {prefix!r}")


def assert_cursor_row_on_screen(grid) -> None:
    """The selected tool is drawn on one of the grid's visible lines (not under a scrollbar)."""
    assert not grid.show_horizontal_scrollbar
    visible = grid.scrollable_content_region.height - 1
    lines = [grid_line(grid, y) for y in range(1, visible + 1)]
    assert any(grid.selected_tool.name in line for line in lines), (grid.selected_tool.name, lines)
    assert grid.scroll_y <= grid.cursor < grid.scroll_y + visible


# -- 1. terminal escapes in a tool name never reach an Input ----------------------------


async def test_escape_in_a_name_is_inert_in_the_box_but_the_checklist_uses_the_real_name() -> None:
    app = make_app(HOSTILE, mode="build")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p", *"clear")
        await pick_palette_hit(pilot, "checklist: clear")
        await pilot.pause()
        screen = app.screen
        box = screen.checklist_view.query_one("#tool-name", Input)
        assert "\x1b" not in box.value and box.value == "clear\\x1b[2Jscreen"
        assert screen.checklist.tool == ESCAPED and screen.checklist.verdict is not None
        # Enter on the unchanged box runs the same real name again (no lookup of the escaped text).
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.checklist.tool == ESCAPED and screen.checklist.verdict is not None


async def test_c_on_a_bell_row_fills_the_box_inertly() -> None:
    app = make_app(HOSTILE, mode="build")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        grid = app.screen.pipeline.grid
        index = next(i for i, row in enumerate(grid.rows) if getattr(row, "name", "") == "bell\x07tool")
        grid.move_to(index)
        await pilot.press("c")
        await pilot.pause()
        box = app.screen.checklist_view.query_one("#tool-name", Input)
        assert box.value == "bell\\x07tool"
        assert app.screen.checklist.tool == "bell\x07tool"


@pytest.mark.agentscope
async def test_pasted_control_characters_are_refused_by_every_box() -> None:
    async with activation((120, 36)) as (pilot, _view):
        app = pilot.app
        boxes = list(app.screen.query(Input))
        assert len(boxes) == 4  # filter, tool name, raw JSON, script path
        for box in boxes:
            box.value = ""
            box.insert_text_at_cursor("a\x1b[2Jb")
            box.insert_text_at_cursor("ok")
            assert box.value == "ok", box.id


# -- 2. / 3. the grid: no phantom scrollbar, cursor always visible, small terminals ---------


async def test_end_at_140x40_shows_the_last_row_and_no_horizontal_scrollbar(seed_app) -> None:
    async with seed_app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        grid = seed_app.screen.pipeline.grid
        await pilot.press("end")
        await pilot.pause()
        assert grid.selected_tool.name == grid.rows[-1].name
        assert_cursor_row_on_screen(grid)
        # The last visible line is the selected (last) row.
        last = grid.scrollable_content_region.height - 1
        assert grid.selected_tool.name in grid_line(grid, last)


async def test_f1_lists_no_sideways_scrolling_for_the_grid(seed_app) -> None:
    async with seed_app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        actions = {b.binding.action for b in seed_app.screen.active_bindings.values()}
        assert not actions & {"scroll_left", "scroll_right", "page_left", "page_right"}


async def test_80x24_shows_several_rows_and_follows_the_cursor(seed_app) -> None:
    async with seed_app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        grid = seed_app.screen.pipeline.grid
        assert grid.scrollable_content_region.height - 1 >= 6  # rows below the column header
        detail = seed_app.screen.query_one("#detail-scroll")
        assert detail.size.height <= 0.4 * seed_app.screen.pipeline.size.height
        for _ in range(10):
            await pilot.press("down")
            await pilot.pause()
            assert_cursor_row_on_screen(grid)
        await pilot.press("pagedown")
        await pilot.pause()
        assert_cursor_row_on_screen(grid)


# -- 4. / 5. focus: Escape leaves boxes, Enter hands the keys back to the view ------------


async def test_escape_leaves_the_empty_tool_name_box(seed_app) -> None:
    async with seed_app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("2")
        box = seed_app.screen.checklist_view.query_one("#tool-name", Input)
        assert seed_app.focused is box
        assert "escape" in seed_app.screen.active_bindings  # shown while a box has focus
        await pilot.press("escape")
        assert seed_app.focused is not box
        assert "escape" not in seed_app.screen.active_bindings
        await pilot.press("1")
        assert box.value == "" and seed_app.screen.current_view == "pipeline"


@pytest.mark.agentscope
async def test_enter_in_the_script_box_returns_focus_to_the_view() -> None:
    async with activation((120, 36)) as (pilot, view):
        app = pilot.app
        await pilot.press("l", *str(SCRIPTS / "typo.json"), "enter")
        await pilot.pause()
        assert not isinstance(app.focused, Input)
        await pilot.press("n")
        await pilot.pause()
        assert view.session.cursor == 1
        assert view.query_one("#script-path", Input).value == str(SCRIPTS / "typo.json")


@pytest.mark.agentscope
async def test_enter_in_the_raw_box_fires_and_returns_focus() -> None:
    async with activation((120, 36)) as (pilot, view):
        app = pilot.app
        raw = view.query_one("#raw", Input)
        raw.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert len(view.session.history) == 1 and not isinstance(app.focused, Input)
        raw_before = raw.value
        await pilot.press("n")  # a view key again (end of history: a warning), not text
        await pilot.pause()
        assert raw.value == raw_before


# -- 6. toggles follow the groups a script registers ------------------------------------


@pytest.mark.agentscope
async def test_a_group_registered_mid_script_gets_a_toggle() -> None:
    async with activation((120, 36)) as (pilot, view):
        await view.load_script(str(SCRIPTS / "late_group.yaml"))
        raw = view.query_one("#raw", Input)
        raw.value = '{"typed": "by hand"}'
        view.focus_main()
        await pilot.press("n", "n")
        await pilot.pause()
        names = [box.name for box in view.query(GroupToggle)]
        assert names == ["web_search", "scraping", "databases"]
        assert raw.value == '{"typed": "by hand"}'
        await pilot.press("n", "n")
        await pilot.pause()
        assert "databases" in view.session.active_groups("guarded")
        await pilot.press("r")  # restart: the group is gone from the toolkit again?
        await pilot.pause()
        assert [box.name for box in view.query(GroupToggle)] == list(view.session.known_groups())


# -- 7. header --------------------------------------------------------------------------


@pytest.mark.agentscope
def test_toolkit_header_names_agentscope_once() -> None:
    subject = open_subject(str(TOOLKIT))
    text = header_text(subject.loaded, subject.default_mode, deterministic=False).plain
    version = dict(subject.loaded.extra)["agentscope"]
    assert text.count(version) == 1 and text.lower().count(f"agentscope {version}") == 1


async def test_long_header_lines_end_with_an_ellipsis() -> None:
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions

    app = ToolscopeApp(open_subject(str(REPO / "sample_configs" / "seed" / "step_config.json")), None, TuiOptions())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(InputHeader)
        lines = [header.render_line(y).text.rstrip() for y in range(2)]
        assert lines[0].lstrip().startswith("mode")
        assert all(line.endswith("…") for line in lines), lines


# -- 8. exports never overwrite ---------------------------------------------------------


async def test_exports_get_numbered_instead_of_overwriting(tmp_path: Path) -> None:
    app = make_app(mode="build", export_dir=str(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        first = app.screen.action_export()
        first_md = first.markdown.read_text()
        await pilot.press("slash", *"github", "enter")
        await pilot.pause()
        second = app.screen.action_export()
        (tmp_path / "toolscope-pipeline-build-3.md").write_text("someone else's")
        third = app.screen.action_export()
    assert first.svg.name == "toolscope-pipeline-build.svg"
    assert (second.svg.name, second.markdown.name) == (
        "toolscope-pipeline-build-2.svg",
        "toolscope-pipeline-build-2.md",
    )
    assert third.svg.stem == third.markdown.stem == "toolscope-pipeline-build-4"
    assert first.markdown.read_text() == first_md and "filter 'github'" in second.markdown.read_text()
    assert (tmp_path / "toolscope-pipeline-build-3.md").read_text() == "someone else's"
    assert not list(tmp_path.glob(".*.tmp")) and not (tmp_path / "toolscope-pipeline-build-3.svg").exists()


# -- 9. / 10. activation: empty script path; toggles readable without colour --------------


@pytest.mark.agentscope
async def test_empty_script_path_says_so() -> None:
    app = make_app(TOOLKIT, view="activation")
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("l", "enter")
        await pilot.pause()
        status = str(app.screen.query_one("#script-status").content)
        assert "no path given" in status, status
        messages = [n.message for n in app._notifications]
        assert not any("directory" in m for m in messages)


@pytest.mark.agentscope
async def test_toggle_state_reads_without_colour() -> None:
    async with activation((120, 36)) as (pilot, _view):
        app = pilot.app
        box = app.screen.query_one(GroupToggle)
        off = box.render().plain
        await pilot.press("space")
        await pilot.pause()
        on = box.render().plain
        assert box.value and off != on and "✓" in on and "✓" not in off
