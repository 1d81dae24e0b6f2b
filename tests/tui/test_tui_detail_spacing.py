"""The detail pane keeps the spaces between its parts (issue 22 item 9).

A session reported ``notify_userin human_tools``, ``human_tools:*in step_config.json`` and
`` , get_prompt``: a name and the text after it drawn as separate styled runs, the space between
them lost. None reproduced in a real terminal; these tests read what the real app draws (the
pane's own lines, whole, at 80x24 and 200x60) for the samples named in the report, so a lost
space between two runs fails here.
"""

from __future__ import annotations

import pytest
from tui_helpers import REPO, make_app

from toolscope.tui.widgets.tool_detail import ToolDetail

SIZES = pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
PULSE = REPO / "sample_configs" / "seed" / "steps.json"


def drawn(widget) -> list[str]:
    """Every line a widget draws, including those its scrolling parent keeps out of view."""
    return ["".join(segment.text for segment in widget.render_line(y)).rstrip() for y in range(widget.size.height)]


async def detail_of(pilot, tool: str) -> list[str]:
    """The detail pane's lines with ``tool`` selected (typed into the filter, then Enter)."""
    await pilot.press("slash", *tool, "enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert screen.pipeline.grid.selected_tool.name == tool
    return drawn(screen.query_one(ToolDetail))


@SIZES
async def test_a_tool_and_its_entry_keep_their_spaces(size) -> None:
    async with make_app(mode="build").run_test(size=size) as pilot:
        await pilot.pause()
        lines = await detail_of(pilot, "notify_user")
        text = "\n".join(lines)
        assert lines[0].startswith("notify_user  in human_tools (custom)  HIDDEN"), lines[0]
        # The stage's entry and its file, however the row wraps.
        flat = " ".join(text.split())
        assert "entry human_tools:* in step_config.json: agent_configs.enabled_custom_tools[2]" in flat, text
        assert "human_tools:*  in step_config.json" in text or "human_tools:*\n" in text.replace(" \n", "\n"), text
        assert "notify_userin" not in text and "*in " not in text


@SIZES
async def test_the_by_design_tools_of_pulse_monitor_read_with_their_spaces(size) -> None:
    """get_prompt (hidden by design) in pulse-monitor: its title line, and the alert line above the
    grid, which lists only the real problems, each after a comma and a space."""
    async with make_app(PULSE, mode="build", step="pulse-monitor").run_test(size=size) as pilot:
        await pilot.pause()
        summary = drawn(pilot.app.screen.pipeline.query_one("#summary"))
        alerts = next(line for line in summary if "registered but hidden:" in line)
        assert " ," not in alerts and ",," not in alerts and "get_prompt" not in alerts, summary
        lines = await detail_of(pilot, "get_prompt")
        assert lines[0].startswith("get_prompt  in virtual (virtual)  HIDDEN  · hidden by design"), lines[0]
        text = "\n".join(lines)
        assert " ," not in text and "get_promptin" not in text, text
