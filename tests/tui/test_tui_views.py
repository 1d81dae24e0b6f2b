"""The views the app offers come from ``tui.views.VIEWS``: the palette and ``--view`` agree."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import SIZE, make_app

from toolscope.tui.views import DEFAULT_VIEW, VIEWS

TOOLKIT = Path(__file__).resolve().parents[2] / "sample_configs" / "agentscope" / "toolkit.yaml"


async def test_the_palette_lists_the_views_this_input_has_and_opens_them() -> None:
    for config, titles in ((None, ["Pipeline", "Checklist"]), (TOOLKIT, ["Pipeline", "Checklist", "Activation"])):
        app = make_app(config) if config else make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.screen.current_view == DEFAULT_VIEW
            commands = {c.title: c for c in app.get_system_commands(app.screen) if c.title.startswith("view: ")}
            assert list(commands) == [f"view: {title}" for title in titles]
            commands["view: Checklist"].callback()
            await pilot.pause()
            assert app.screen.current_view == "checklist"
    assert [v.tab_title for v in VIEWS] == ["Pipeline", "Checklist", "Activation"]
