"""Pilot tests of the checklist view: fuzzy pick, did-you-mean, walking to the fix."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Static
from tui_helpers import SIZE, ask_in_checklist, make_app, static_text


def steps_text(app) -> str:
    return static_text(app.screen.checklist_view.query_one("#steps", Static))


async def test_fuzzy_pick_and_walk_to_the_fix(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("2")
        view = seed_app.screen.checklist_view
        await pilot.press(*"ntfy")
        await pilot.pause()
        options = view.query_one("#candidates", OptionList)
        assert options.has_class("-open")
        assert str(options.get_option_at_index(0).prompt) == "notify_user"
        await pilot.press("down", "enter")
        await pilot.pause()
        checklist = seed_app.screen.checklist
        assert checklist is not None and checklist.tool == "notify_user"
        assert view.revealed == 1
        assert "1/4." in steps_text(seed_app) and "2/4." not in steps_text(seed_app)
        await pilot.press("n", "n", "n")
        assert "4/4." in steps_text(seed_app) and "Fix" not in steps_text(seed_app)
        await pilot.press("n")
        text = steps_text(seed_app)
        assert "Fix" in text and checklist.fix is not None
        assert checklist.fix.split()[0] in text
        await pilot.press("p")
        assert "Fix" not in steps_text(seed_app)


async def test_unknown_name_offers_did_you_mean(seed_app) -> None:
    """A name nothing completes (the letters are out of order): Enter asks for it as typed."""
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await ask_in_checklist(pilot, "notify_usre")
        checklist = seed_app.screen.checklist
        assert checklist.verdict is None and "notify_user" in checklist.did_you_mean
        assert "Did you mean" in steps_text(seed_app)
        options = seed_app.screen.checklist_view.query_one("#candidates", OptionList)
        assert options.has_class("-open") and seed_app.focused is options
        await pilot.press("enter")
        await pilot.pause()
        assert seed_app.screen.checklist.tool == "notify_user"


async def test_c_on_a_row_opens_its_checklist_and_mode_switch_reruns_it(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"read_image", "enter", "c")
        await pilot.pause()
        screen = seed_app.screen
        assert screen.current_view == "checklist"
        assert screen.checklist.tool == "read_image" and screen.checklist.outcome == "visible"
        await pilot.press("m")
        await pilot.pause()
        assert screen.checklist.mode == "run" and screen.checklist.outcome == "hidden"


async def test_export_of_the_checklist(tmp_path: Path) -> None:
    app = make_app(mode="build", tool="notify_user", view="checklist", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        paths = app.screen.action_export()
        markdown = paths.markdown.read_text()
        assert paths.markdown.name == "toolscope-checklist-build.md"
        assert "## notify\\_user: hidden" in markdown and "**Fix:**" in markdown
        assert paths.svg.exists()


async def test_tool_names_are_sorted_only_when_the_picker_completes(seed_app) -> None:
    # Opening a 50,000-tool universe must not sort every name for a picker nobody opened.
    subject = seed_app.subject
    calls = []
    real = type(subject).all_tool_names

    def counted(self):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(self)

    subject.all_tool_names = counted.__get__(subject)
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert calls == []
        await pilot.press(*"ntfy")
        await pilot.pause()
        options = seed_app.screen.checklist_view.query_one("#candidates", OptionList)
        assert str(options.get_option_at_index(0).prompt) == "notify_user"
        assert calls == [1]  # asked once, then kept


async def test_enter_in_the_name_box_takes_the_top_match(seed_app) -> None:
    """Issue 22 item 4: ``notify_us`` + Enter walks notify_user (the line shown first under the
    box, as a fuzzy finder's Enter takes), not the literal text (UNKNOWN)."""
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await ask_in_checklist(pilot, "notify_us")
        checklist = seed_app.screen.checklist
        assert checklist is not None and checklist.tool == "notify_user" and checklist.verdict is not None


async def test_enter_in_the_name_box_takes_the_top_match_on_pulse_monitor() -> None:
    """The issue's own case: ``pulse_st`` on the pulse-monitor step opens get_pulse_module_state,
    the name whose words start with the typed ones, before names that only hold the letters."""
    import contextlib

    from tui_helpers import REPO

    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions

    with contextlib.chdir(REPO):
        subject = open_subject("sample_configs/seed/steps.json", step="pulse-monitor")
    app = ToolscopeApp(subject, "build", TuiOptions(deterministic=True, export_png=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("2", *"pulse_st")
        await pilot.pause()
        options = app.screen.checklist_view.query_one("#candidates", OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert shown[0] == "get_pulse_module_state", shown
        await pilot.press("enter")
        await pilot.pause()
        checklist = app.screen.checklist
        assert checklist is not None and checklist.tool == "get_pulse_module_state" and checklist.verdict is not None


def test_matches_come_exact_prefix_word_start_mid_word_then_scattered() -> None:
    """``pulse_st``: a name starting with the text, then names whose words start with the typed
    words (closer first), then the text mid-word, then letters in order."""
    from toolscope.tui.completion import complete

    names = sorted(
        ["record_pulse_worklist", "xpulse_stop", "get_pulse_state", "get_pulse_module_state", "pulse_stats_log"]
    )
    assert complete("pulse_st", names) == [
        "pulse_stats_log",
        "get_pulse_state",
        "get_pulse_module_state",
        "xpulse_stop",
        "record_pulse_worklist",
    ]
    assert complete("pulse_stats_log", names)[0] == "pulse_stats_log"
