"""Pilot tests of the pipeline view on the seed sample: real keys, asserted state."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import HelpPanel, Input
from tui_helpers import SEED, SIZE, make_app, static_text

from toolscope.tui.screens.main import MainScreen
from toolscope.tui.widgets.tool_detail import ToolDetail


def names(screen: MainScreen) -> list[str]:
    return [t.name for t in screen.pipeline.shown_tools()]


async def test_first_row_is_the_registered_but_hidden_tool(seed_app) -> None:
    """notify_user (registered via human_tools:*, allow-listed in no mode) is on top and selected."""
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        assert names(screen)[0] == "notify_user"
        assert screen.pipeline.grid.selected_tool.name == "notify_user"
        detail = static_text(screen.query_one(ToolDetail))
        assert "registered but not usable" in detail
        assert "mode.not_listed" in detail


async def test_filter_narrows_as_you_type(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        total = len(names(screen))
        await pilot.press("slash")
        assert isinstance(seed_app.focused, Input)
        await pilot.press(*"issue")
        await pilot.pause()
        assert names(screen) == ["get_issue", "create_issue", "list_issues"]
        await pilot.press("space", *"hidden")
        await pilot.pause()
        assert names(screen) == ["get_issue"]
        for _ in "hidden issue ":
            await pilot.press("backspace")
        await pilot.pause()
        assert len(names(screen)) == total
        await pilot.press("enter")  # back to the grid
        assert seed_app.focused is screen.pipeline.grid


async def test_only_hidden_and_group_toggles(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        await pilot.press("h")
        await pilot.pause()
        verdicts = {t.verdict for t in screen.pipeline.shown_tools()}
        assert verdicts == {"hidden"}
        await pilot.press("h", "g")
        await pilot.pause()
        assert screen.pipeline.query_state.grouped
        headings = [r for r in screen.pipeline.rows if not hasattr(r, "stages")]
        assert headings and headings[0].namespace == "human_tools"


async def test_cursor_moves_and_detail_follows(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        await pilot.press("down", "down")
        await pilot.pause()
        selected = screen.pipeline.grid.selected_tool
        assert selected.name == names(screen)[2]
        assert selected.name in static_text(screen.query_one(ToolDetail))
        await pilot.press("end")
        assert screen.pipeline.grid.selected_tool.name == names(screen)[-1]


async def test_mode_switch_recomputes_and_counts_changes(seed_app) -> None:
    """build → run: read_image (allow-listed for build only) becomes hidden; back restores."""
    async with seed_app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = seed_app.screen
        before = {t.name: t.verdict for t in screen.evaluation.tools}
        await pilot.press("m")
        await pilot.pause()
        assert screen.mode == "run"
        after = {t.name: t.verdict for t in screen.evaluation.tools}
        moved = {name for name in before if before[name] != after[name]}
        assert moved == {"read_image"}
        assert {name for _ns, name in screen.change.changed} == moved
        # In the summary lines, not a toast (it covered the Fix line at 80x24: issue 22 item 7).
        assert "mode build → run: 1 tool became hidden" in str(screen.pipeline.query_one("#summary").render())
        assert "read_image" in [t.name for t in screen.pipeline.shown_tools()[:5]]
        await pilot.press("m")  # back to build
        await pilot.pause()
        assert screen.mode == "build"
        assert {t.name: t.verdict for t in screen.evaluation.tools} == before


async def test_mode_switch_from_palette(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.press(*"switch to run")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert seed_app.screen.mode == "run"


async def test_f1_shows_live_bindings(seed_app) -> None:
    async with seed_app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert seed_app.screen.query(HelpPanel)
        await pilot.press("f1")
        await pilot.pause()
        assert not seed_app.screen.query(HelpPanel)


async def test_export_writes_svg_and_markdown(tmp_path: Path) -> None:
    app = make_app(mode="build", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"github", "enter")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        svg = tmp_path / "toolscope-pipeline-build.svg"
        report = tmp_path / "toolscope-pipeline-build.md"
        assert svg.read_text().startswith("<svg")
        markdown = report.read_text()
        assert "filter 'github'" in markdown
        assert "| create\\_issue | github |" in markdown
        assert "notify\\_user" not in markdown  # not on screen: filtered out
        assert any(str(report) in n.message for n in app._notifications)


async def test_hostile_names_stay_inert_in_the_markdown_export(tmp_path: Path) -> None:
    from tui_helpers import HOSTILE

    app = make_app(HOSTILE, mode="build", export_dir=str(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        paths = app.screen.action_export()
        markdown = paths.markdown.read_text()
        assert "<script>" not in markdown and "\x1b" not in markdown and "\x07" not in markdown
        assert "\\[blink\\]steal" in markdown


async def test_toolkit_permission_mode_switch_marks_changes() -> None:
    """For toolkits, m cycles the permission modes; the marks follow the real evaluations."""
    from tui_helpers import REPO

    from toolscope.tui.rows import compare

    app = make_app(REPO / "sample_configs" / "agentscope" / "toolkit.yaml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        modes = screen.subject.mode_names
        start = screen.mode
        visited = []
        for _ in modes:
            before = screen.evaluation
            await pilot.press("m")
            await pilot.pause()
            visited.append(screen.mode)
            assert screen.evaluation.loaded.mode == screen.mode
            assert screen.change == compare(before, screen.evaluation)
        assert set(visited) == set(modes) and screen.mode == start


async def test_header_names_the_configurations_own_mistakes(tmp_path) -> None:
    """An unknown key is shown above the pipeline, with the likely key; a clean config has no such line."""
    import json
    import shutil

    from toolscope.tui.widgets.input_header import InputHeader

    shutil.copy(SEED.parent / "toolscope.registry.yaml", tmp_path / "toolscope.registry.yaml")
    step = tmp_path / "step.json"
    step.write_text(json.dumps({"id": "x", "agent_configs": {"selected_server": ["github"]}}))
    app = make_app(step, mode="build")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(InputHeader)
        text = static_text(header)
        assert '⚠ 1 config finding: unknown_key "selected_server" did you mean selected_servers?' in text
        assert header.size.height == 3
    async with make_app(SEED, mode="build").run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = pilot.app.screen.query_one(InputHeader)
        assert "config finding" not in static_text(header) and header.size.height == 2
