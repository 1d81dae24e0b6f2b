"""The activation view at real terminal sizes: turn list, toggles, lanes, script line, pipeline state.

Real toolkits (``toolkit.yaml``, the 12-group ``large_toolkit.yaml``), real ``call_tool``
on both lanes, the real app through Pilot at 60x15, 80x24, 120x40 and 200x60.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from activation_helpers import LARGE, SCRIPTS, TOOLKIT, activation, after_typo_script
from rich.console import Console
from textual.events import MouseScrollDown, MouseScrollUp
from textual.widgets import Input, Static
from tui_helpers import focus_now

from toolscope.tui.widgets.activation.composer import GroupToggle, ToggleStrip
from toolscope.tui.widgets.activation.lanes import LanePane
from toolscope.tui.widgets.activation.script_box import ScriptBox, path_candidates
from toolscope.tui.widgets.activation.turns import TurnList
from toolscope.tui.widgets.activation.view import ActivationView
from toolscope.tui.widgets.state_banner import StateBanner

pytestmark = pytest.mark.agentscope


def visible_lines(pane: LanePane) -> list[str]:
    """The lane's lines that are on screen without scrolling (rendered at the pane's width)."""
    console = Console(width=pane.scrollable_content_region.width, file=io.StringIO(), record=True, color_system=None)
    console.print(pane.query_one(Static).content)
    lines = console.export_text().splitlines()
    return lines[int(pane.scroll_y) : int(pane.scroll_y) + pane.scrollable_content_region.height]


def turn_in_view(turns: TurnList, index: int) -> bool:
    """The row of turn ``index`` is inside the list's visible window."""
    top = int(turns.scroll_y)
    return top <= index < top + turns.scrollable_content_region.height


async def fire_nine(pilot, view: ActivationView) -> None:
    """Nine different turns: toggle a group, fire, nine times."""
    toggles = view.query_one("#composer").toggles
    for index in range(9):
        await focus_now(pilot, toggles[index % len(toggles)])
        await pilot.press("space", "f")
        await pilot.pause()


@pytest.mark.parametrize("config", [TOOLKIT, LARGE], ids=["toolkit", "large"])
async def test_the_turn_list_follows_the_newest_turn(config: Path) -> None:
    async with activation((80, 24), config) as (pilot, view):
        await fire_nine(pilot, view)
        turns = view.query_one(TurnList)
        assert turns.option_count == 9 and turns.highlighted == 8
        assert turn_in_view(turns, 8), (turns.scroll_y, turns.scrollable_content_region)
        assert str(turns.border_title).startswith("turns 9")
        for lane in ("stock", "guarded"):
            assert "turn 9/9" in str(view.query_one(f"#{lane}-lane", LanePane).border_title)


async def test_keys_and_the_wheel_scroll_the_turn_list_and_pick_the_lanes() -> None:
    async with activation((80, 24)) as (pilot, view):
        app = pilot.app
        await fire_nine(pilot, view)
        turns = view.query_one(TurnList)
        await pilot.press("t")
        assert app.focused is turns
        await pilot.press(*["up"] * 8)
        await pilot.pause()
        assert turns.highlighted == 0 and turn_in_view(turns, 0)
        first = view.session.history[0]
        stock = view.query_one("#stock-lane", LanePane)
        assert stock.state is not None and stock.state.turn is first.stock
        assert "turn 1/9" in str(stock.border_title)
        assert turns.scroll_y == 0
        await pilot._post_mouse_events([MouseScrollDown], widget=turns)
        await pilot._post_mouse_events([MouseScrollDown], widget=turns)
        assert turns.scroll_y > 0
        await pilot._post_mouse_events([MouseScrollUp], widget=turns)
        await pilot._post_mouse_events([MouseScrollUp], widget=turns)
        assert turns.scroll_y == 0
        await pilot.press("end")
        await pilot.pause()
        assert turns.highlighted == 8 and stock.state.turn is view.session.history[8].stock


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_group_toggle_is_reachable_and_fully_visible_when_focused(size: tuple[int, int]) -> None:
    async with activation(size, LARGE) as (pilot, view):
        app = pilot.app
        strip = view.query_one(ToggleStrip)
        toggles = list(view.query(GroupToggle))
        assert len(toggles) == 12
        assert app.focused is toggles[0]
        for index, toggle in enumerate(toggles):
            if index:
                await pilot.press("right")
            await pilot.pause()
            assert app.focused is toggle
            assert strip.region.contains_region(toggle.region), (toggle.name, toggle.region, strip.region)
        await pilot.press("right")  # wraps to the first
        await pilot.pause()
        assert app.focused is toggles[0] and strip.region.contains_region(toggles[0].region)
        await pilot.press("space")
        assert view.query_one("#raw", Input).value.startswith('{"web_search": true')


async def test_every_lane_shows_the_essentials_at_80x24_without_scrolling() -> None:
    # "typo.json" alone: found beside the config.
    async with after_typo_script((80, 24), "typo.json", config_dir=str(SCRIPTS)) as (pilot, view):
        for lane in ("stock", "guarded"):
            pane = view.query_one(f"#{lane}-lane", LanePane)
            shown = "\n".join(visible_lines(pane))
            assert pane.scroll_y == 0
            for needle in ("call {", "REFUSED", "says ", "groups ", "offered 4 "):
                assert needle in shown, (lane, needle, shown)
            # The probe/guard description takes one line until asked for.
            description = visible_lines(pane)[0]
            assert description.rstrip().endswith("…"), description


async def test_d_shows_the_descriptions_and_texts_in_full() -> None:
    """Lanes too short for everything clamp long texts to a line; d shows them in full (and d again clamps)."""
    async with after_typo_script((80, 24)) as (pilot, view):
        pane = view.query_one("#stock-lane", LanePane)
        compact = "\n".join(visible_lines(pane))
        await pilot.press("d")
        await pilot.pause()
        full = "\n".join(visible_lines(pane))
        assert view.probe_summary and "coerces" in view.probe_summary
        assert "coerces" not in compact and "coerces" in full
        await pilot.press("d")
        await pilot.pause()
        clamped = "\n".join(visible_lines(pane))
        assert "coerces" not in clamped and "…" in clamped and not pane.full


async def test_lanes_show_everything_in_full_when_it_fits() -> None:
    async with after_typo_script((200, 60)) as (pilot, view):
        pane = view.query_one("#guarded-lane", LanePane)
        shown = "\n".join(visible_lines(pane))
        assert pane.full and "Still active:" in shown and "did you mean" in shown


async def test_at_60x15_the_lanes_stay_readable() -> None:
    async with after_typo_script((60, 15), "typo.json", config_dir=str(SCRIPTS)) as (pilot, view):
        assert not view.has_class("-too-small")
        for lane in ("stock", "guarded"):
            pane = view.query_one(f"#{lane}-lane", LanePane)
            shown = visible_lines(pane)
            assert pane.scrollable_content_region.height >= 3
            assert shown[0].startswith("✗ REFUSED") and any(line.startswith("groups") for line in shown), shown
        turns = view.query_one(TurnList)
        assert turns.highlighted == 2 and turn_in_view(turns, 2)
        assert "script typo.json 3/3" in str(turns.border_title)


async def test_a_terminal_too_small_says_so() -> None:
    async with activation((44, 11)) as (pilot, view):
        assert view.has_class("-too-small")
        message = view.query_one("#too-small", Static)
        assert message.display and "44x11" in str(message.content)
        assert not view.query_one("#lanes").display or not view.query_one("#lanes").region.area
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not view.has_class("-too-small")


async def test_i_focuses_the_raw_json_box() -> None:
    async with activation((80, 24)) as (pilot, view):
        app = pilot.app
        await pilot.press("i")
        assert app.focused is view.query_one("#raw", Input)
        await pilot.press("escape")
        assert isinstance(app.focused, GroupToggle)


def test_path_candidates_complete_from_the_current_folder_then_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "typo.json").write_text("[]")
    (tmp_path / "scripts" / "notes.txt").write_text("")
    assert path_candidates("scr", [tmp_path]) == ["scripts/"]
    assert path_candidates("scripts/", [tmp_path]) == ["scripts/typo.json"]  # no .txt
    assert path_candidates("ty", [tmp_path / "nowhere", tmp_path / "scripts"]) == ["typo.json"]
    assert path_candidates(str(tmp_path / "scripts" / "ty"), []) == [str(tmp_path / "scripts" / "typo.json")]


async def test_script_paths_complete_and_resolve_from_the_config_folder() -> None:
    async with activation((80, 24), config_dir=str(SCRIPTS)) as (pilot, view):
        app = pilot.app
        await pilot.press("l", "t", "y")
        await pilot.pause()
        await pilot.pause()
        box = view.query_one("#script-path", Input)
        await pilot.press("tab")
        assert box.value == "typo.json"  # not in the current folder: found beside the config
        await pilot.press("enter")
        await pilot.pause()
        assert view.script_name == "typo.json" and len(view.session.steps) == 3
        assert not isinstance(app.focused, Input)


async def test_a_script_load_error_is_shown_in_the_view() -> None:
    async with activation((80, 24), config_dir=str(SCRIPTS)) as (pilot, view):
        await pilot.press("l", *"toolkit.yaml", "enter")  # a toolkit, not a script
        await pilot.pause()
        box = view.query_one(ScriptBox)
        status = view.query_one("#script-status", Static)
        assert box.has_class("-error") and status.region.height >= 1
        assert "a script must be a list of steps" in str(status.content)
        await view.load_script("typo.json")
        assert not box.has_class("-error")


async def test_the_pipeline_follows_the_guarded_lane_and_says_so() -> None:
    async with activation((120, 36)) as (pilot, _view):
        app = pilot.app
        screen = app.screen
        web_search = next(t for t in screen.evaluation.tools if t.name == "web_search")
        assert web_search.stage("visible").passed is False
        assert "call reset_tools" in screen.fix_for(web_search)
        await pilot.press("space", "f")  # {"web_search": true, "scraping": false}
        await pilot.pause()
        web_search = next(t for t in screen.evaluation.tools if t.name == "web_search")
        assert web_search.stage("visible").passed is True
        # The detail pane's fix and the checklist ask about the same state as the grid.
        assert screen.fix_for(web_search) is None
        assert screen.evaluator.checklist("web_search", screen.verdict_state).verdict.verdict == "visible"
        assert ("web_search", "web_search") in screen.change.changed
        assert screen.pipeline.change_summary == "guarded lane, turn 1: 2 tools became visible"
        banner = str(screen.query_one(StateBanner).content)
        assert "guarded lane, turn 1" in banner and "web_search" in banner
        await pilot.press("m")  # a mode switch keeps the lane's state
        await pilot.pause()
        assert next(t for t in screen.evaluation.tools if t.name == "web_search").stage("visible").passed is True
        await pilot.press("v")
        await pilot.pause()
        assert "stock lane, turn 1" in str(screen.query_one(StateBanner).content)
        await pilot.press("r")  # restart: back to the initial state
        await pilot.pause()
        assert next(t for t in screen.evaluation.tools if t.name == "web_search").stage("visible").passed is False
        assert "initial" in str(screen.query_one(StateBanner).content)
