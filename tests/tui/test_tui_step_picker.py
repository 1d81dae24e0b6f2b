"""A step config with several steps opens with a step picker; 3 on a step config says why there is no activation view."""

from __future__ import annotations

from textual.widgets import OptionList, Static
from tui_helpers import REPO, make_app

from toolscope.cli.commands.inspect import _step_picker
from toolscope.cli.commands.subject_options import NO_SUBJECT_OPTIONS
from toolscope.tui.app import ToolscopeApp
from toolscope.tui.options import TuiOptions
from toolscope.tui.screens.main import MainScreen
from toolscope.tui.screens.step_picker import StepPickerScreen

STEPS = REPO / "sample_configs" / "seed" / "steps.json"


def picker_app(mode: str | None = "build") -> ToolscopeApp:
    """The app as ``inspect steps.json`` starts it without --step."""
    picker = _step_picker(str(STEPS), mode, NO_SUBJECT_OPTIONS, "pipeline", [])
    assert picker is not None
    return ToolscopeApp(None, None, TuiOptions(deterministic=True), picker=picker)


def test_no_picker_when_there_is_nothing_to_pick() -> None:
    seed_step = REPO / "sample_configs" / "seed" / "step_config.json"
    toolkit = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
    for config in (seed_step, toolkit):
        assert _step_picker(str(config), None, NO_SUBJECT_OPTIONS, "pipeline", []) is None


async def test_the_picker_lists_the_steps_and_opens_the_chosen_one() -> None:
    app = picker_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StepPickerScreen)
        steps = app.screen.query_one(OptionList)
        assert app.focused is steps and steps.option_count == 3
        assert "steps.json has 3 steps" in str(app.screen.query_one("#picker-title", Static).content)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.screen.subject.loaded.step == "sheets-report" and app.screen.mode == "build"
        await pilot.press("m")  # the main screen works as with --step
        await pilot.pause()
        assert app.screen.mode != "build"


async def test_a_step_that_cannot_open_says_why_in_the_picker() -> None:
    app = picker_app(mode="no-such-mode")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StepPickerScreen)
        error = app.screen.query_one("#picker-error", Static)
        assert error.display and "no-such-mode" in str(error.content)


async def test_3_on_a_step_config_says_why_there_is_no_activation_view() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert app.screen.current_view == "pipeline"
        messages = [n.message for n in app._notifications]
        assert any("step config has no activation view" in m and "reset_tools" in m for m in messages), messages


def test_step_picker_snapshot(snap_compare) -> None:
    """The picker at 80x24: the file, its steps with their selections, how to skip it next time."""
    assert snap_compare(picker_app(), terminal_size=(80, 24))


async def test_escape_on_the_step_goes_back_to_the_picker() -> None:
    """Issue 22 item 10: the picker had no way back. Escape on the step, with no text box, filter
    or help to leave first, comes back to the list, on the step that was open."""
    app = picker_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await pilot.press("slash", *"get", "escape")  # first Escape clears the filter
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StepPickerScreen)
        steps = app.screen.query_one(OptionList)
        assert app.focused is steps and steps.highlighted == 1
        await pilot.press("down", "enter")  # another step opens as the first did
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and app.screen.subject.loaded.step == "pulse-monitor"


async def test_digits_in_the_picker_open_the_step_in_that_view() -> None:
    """2 opens the highlighted step in the checklist; 3 opens it and says why a step config has
    no activation view, as 3 does on the main screen."""
    app = picker_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and app.screen.current_view == "checklist"
        await pilot.press("escape", "escape")  # out of the name box, then back to the list
        await pilot.pause()
        assert isinstance(app.screen, StepPickerScreen)
        await pilot.press("3")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and app.screen.current_view == "pipeline"
        messages = [n.message for n in app._notifications]
        assert any("step config has no activation view" in m for m in messages), messages
