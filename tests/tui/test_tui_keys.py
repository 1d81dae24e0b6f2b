"""Keys and focus as lazygit / k9s / posting users expect them (issue 9, "Keys, focus, conventions").

Each test drives the real app with Pilot on the seed sample and failed before its fix.
"""

from __future__ import annotations

from textual.widgets import HelpPanel, Input, OptionList
from tui_helpers import SIZE, ask_in_checklist, make_app, static_text

from toolscope.tui.keys import types_into_box
from toolscope.tui.rows import GroupRow
from toolscope.tui.widgets.tool_detail import ToolDetail


async def test_a_mode_switch_never_changes_the_view_or_the_focus(seed_app) -> None:
    """With an unknown name in the checklist, m used to jump into the checklist's candidate list.

    The typo has its letters out of order, so nothing completes it and Enter asks for it as typed
    (a typo that completes, such as ``notify_usr``, now opens its top match: issue 22 item 4)."""
    async with seed_app.run_test(size=SIZE) as pilot:
        app = seed_app
        await pilot.pause()
        screen = app.screen
        await ask_in_checklist(pilot, "notify_usre")
        assert screen.checklist is not None and screen.checklist.did_you_mean
        await pilot.press("1")
        await pilot.pause()
        grid = screen.pipeline.grid
        assert app.focused is grid
        for key in ("m", "M"):
            await pilot.press(key)
            await pilot.pause()
            assert screen.current_view == "pipeline"
            assert app.focused is grid, (key, app.focused)
        # The palette's mode switch too.
        await screen.set_mode("run")
        await pilot.pause()
        assert screen.current_view == "pipeline" and app.focused is grid
        # The checklist followed the mode all the same.
        assert screen.checklist.mode == "run"


async def test_the_grouped_cursor_never_lands_on_a_group_header() -> None:
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        grid = screen.pipeline.grid
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(grid.rows[0], GroupRow)
        first = grid.selected_tool
        assert first is not None and grid.cursor == 1
        for keys in (["up"], ["k"], ["pageup"], ["home"], ["down", "pageup"]):
            await pilot.press(*keys)
            await pilot.pause()
            assert isinstance(grid.rows[grid.cursor], type(first)), keys
            assert grid.selected_tool is first, keys
        assert "No tool selected" not in static_text(screen.pipeline.query_one(ToolDetail))
        # Moving down across a heading skips it; moving up across it skips it too.
        heading = next(i for i, row in enumerate(grid.rows) if i > 0 and isinstance(row, GroupRow))
        grid.move_to(heading - 1)
        await pilot.press("down")
        assert grid.cursor == heading + 1
        await pilot.press("up")
        assert grid.cursor == heading - 1
        # A click on a heading selects the tool under it.
        grid.move_to(heading)
        assert grid.cursor == heading + 1
        await pilot.press("c")
        await pilot.pause()
        assert screen.current_view == "checklist" and screen.checklist.tool == grid.selected_tool.name


async def test_did_you_mean_down_enter_opens_the_highlighted_suggestion(seed_app) -> None:
    """``get_isuse`` completes nothing (its letters are not in order in any name), so Enter asks
    for it as typed and the did-you-mean list takes ↓ Enter (``get_isue`` now completes)."""
    async with seed_app.run_test(size=SIZE) as pilot:
        app = seed_app
        await pilot.pause()
        screen = app.screen
        await ask_in_checklist(pilot, "get_isuse")
        suggestions = screen.checklist.did_you_mean
        assert suggestions[:2] == ("get_issue", "get_resource")
        options = screen.checklist_view.query_one("#candidates", OptionList)
        assert app.focused is options
        await pilot.press("down")  # the hint: ↓ Enter
        highlighted = options.highlighted
        assert highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        assert screen.checklist.tool == suggestions[highlighted] == suggestions[0]


async def test_q_quits_unless_a_text_box_has_the_focus() -> None:
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.screen.pipeline.filter_box
        await pilot.press("slash", "q")
        await pilot.pause()
        assert box.value == "q" and app.is_running
        await pilot.press("escape")  # clears the filter, back on the grid
        await pilot.pause()
        assert box.value == "" and app.focused is app.screen.pipeline.grid
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_question_mark_shows_help_like_f1_and_escape_closes_it() -> None:
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen.query(HelpPanel)
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query(HelpPanel)
        await pilot.press("f1")
        await pilot.pause()
        assert screen.query(HelpPanel)
        await pilot.press("question_mark")
        await pilot.pause()
        assert not screen.query(HelpPanel)
        # In the filter box ? is text; F1 still opens the help (the footer says F1 there).
        await pilot.press("slash", "question_mark")
        await pilot.pause()
        assert screen.pipeline.filter_box.value == "?" and not screen.query(HelpPanel)
        await pilot.press("f1")
        await pilot.pause()
        assert screen.query(HelpPanel) and screen.pipeline.filter_box.value == "?"


async def test_escape_clears_the_filter_from_the_box_and_from_the_grid() -> None:
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pipeline = app.screen.pipeline
        total = len(pipeline.shown_tools())
        await pilot.press("slash", *"github", "enter")  # Enter keeps the filter, back to the grid
        await pilot.pause()
        assert app.focused is pipeline.grid and len(pipeline.shown_tools()) < total
        assert "escape" in app.screen.active_bindings
        await pilot.press("escape")
        await pilot.pause()
        assert pipeline.filter_box.value == "" and len(pipeline.shown_tools()) == total
        assert "escape" not in app.screen.active_bindings  # nothing left to clear


def footer_keys(app) -> list[str]:
    """The keys the footer shows now."""
    from textual.widgets._footer import FooterKey

    return [key.key for key in app.screen.query(FooterKey)]


async def filled_footer_keys(app, pilot) -> list[str]:
    """The footer's keys once Textual has filled it (it fills after the paint; a loaded
    machine takes a few frames more), waited for with a bound."""
    for _ in range(50):
        keys = footer_keys(app)
        if keys:
            return keys
        await pilot.pause(0.05)
    return footer_keys(app)


async def test_a_focused_box_never_swallows_an_advertised_key() -> None:
    """Footer and F1 list only keys that work where the focus is: none that would type into a box."""
    app = make_app(mode="build")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        grid_keys = await filled_footer_keys(app, pilot)
        assert {"q", "question_mark", "h", "m", "e"} <= set(grid_keys)
        boxes = [
            ("1", "slash", screen.pipeline.filter_box),
            ("2", "slash", screen.checklist_view.query_one("#tool-name", Input)),
        ]
        for view_key, focus_key, box in boxes:
            await pilot.press("escape", view_key, focus_key)
            await pilot.pause()
            assert app.focused is box
            shown = await filled_footer_keys(app, pilot)
            assert shown, "the footer shows the keys that still work"
            assert not [k for k in shown if types_into_box(k)], shown
            assert not [k for k in screen.active_bindings if types_into_box(k)]
            assert {"f1", "ctrl+q", "escape"} <= set(shown)
            # Every advertised key does something other than typing: the box stays empty.
            box.value = ""
            await pilot.press("f1")
            await pilot.pause()
            assert screen.query(HelpPanel) and box.value == ""
            await pilot.press("f1")
            await pilot.pause()


async def test_the_footer_has_no_stray_characters_on_a_narrow_terminal() -> None:
    """At 60x15 the keys that do not fit are left out whole; help stays; nothing shows past the palette key."""
    from svg_cells import cells, line

    for width, height in ((60, 15), (80, 24)):
        app = make_app(mode="build")
        async with app.run_test(size=(width, height)) as pilot:
            # Textual fills the footer after the first paint: on a loaded machine that takes a
            # few frames more. Wait for the palette key (bounded), then read the whole line.
            for _ in range(50):
                await pilot.pause(0.05)
                footer = line(cells(app.export_screenshot()), height - 1)
                if footer.rstrip().endswith("^p palette"):
                    break
        assert footer.rstrip().endswith("▏^p palette"), footer
        assert "? Help" in footer and "/ Filter" in footer
        words = footer.split("▏")[0].split()
        assert all(
            word
            in {
                "/",
                "Filter",
                "h",
                "Hidden",
                "g",
                "Group",
                "c",
                "Checklist",
                "m",
                "Mode",
                "e",
                "Export",
                "?",
                "Help",
                "q",
                "Quit",
            }
            for word in words
        ), footer


async def test_help_and_quit_stay_in_the_footer_when_a_mode_switch_adds_keys() -> None:
    """After a mode switch `] Next Δ` joins the footer; at 80 columns ordinary keys make room, not ? or q."""
    from svg_cells import cells, line

    app = make_app(mode="build")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        await pilot.pause()
        footer = line(cells(app.export_screenshot()), 23)
    assert "] Next Δ" in footer, footer
    assert "? Help" in footer and "q Quit" in footer, footer
    assert footer.rstrip().endswith("▏^p palette"), footer


async def test_the_help_panel_lists_the_keys_that_work_everywhere_first() -> None:
    """Issue 22 item 10: at 80x24 ``?`` opened on the list's Home/End/PgUp/j/k and the keys that
    work everywhere (mode, views, export, quit) were below the fold. Now: the screen's, the
    app's, the view's, the list's last, each from the live bindings."""
    import io

    from rich.console import Console

    from toolscope.tui.widgets.help_panel import GlobalFirstKeys

    app = make_app(mode="build")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        table = app.screen.query_one(GlobalFirstKeys).render()
        console = Console(width=300, file=io.StringIO(), color_system=None, record=True)  # one row a line
        console.print(table)
        keys = [line.split()[0] for line in console.export_text().splitlines() if line.strip()]
        keys = [key for key in keys if not key.startswith("─")]
        assert keys[:2] == ["m", "M"], keys
        for everywhere, list_key in (("e", "j"), ("q", "k"), ("1", "home"), ("f", "pgup")):
            if everywhere in keys:
                assert keys.index(everywhere) < keys.index(list_key), keys
        assert keys.index("/") < keys.index("j")  # the view's filter before the list's moves
