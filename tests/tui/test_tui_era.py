"""The era of layer 2 in the TUI header (issue 20): every AgentWorks answer names the era its
registry models, and the app's first screen is an answer. It opens the header's second line,
so 80 columns show it (the first line, mode and input, may be cut at the end)."""

from __future__ import annotations

import contextlib
import os

import pytest
from svg_cells import cells, line
from tui_helpers import REPO

from toolscope.cli.inputs import open_subject
from toolscope.tui.app import ToolscopeApp
from toolscope.tui.options import TuiOptions

ERAS = REPO / "tests" / "core" / "agentworks" / "eras"
CASES = {
    "allow-list": (ERAS / "allow_list" / "step_config.json", "build"),
    "registration-only": (ERAS / "registration_only" / "step_config.json", "build"),
    "product-manifest": (ERAS / "product_manifest" / "planning" / "step_config.json", "report"),
}


def era_app(era: str) -> ToolscopeApp:
    """The app as ``inspect CONFIG --step ID`` builds it on the era's fixture, deterministic."""
    config, step = CASES[era]
    with contextlib.chdir(REPO):
        subject = open_subject(os.path.relpath(config, REPO), step=step)
    return ToolscopeApp(subject, None, TuiOptions(deterministic=True, export_png=False))


@pytest.mark.parametrize("era", sorted(CASES))
async def test_the_header_names_the_era_on_its_second_line_at_80_columns(era: str) -> None:
    app = era_app(era)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = cells(app.export_screenshot())
    second = line(screen, 1)
    assert second.strip().startswith(f"era {era}"), second
    others = [name for name in CASES if name != era]
    assert not any(f"era {name}" in line(screen, row) for name in others for row in range(24))


def test_product_manifest_era_80x24(snap_compare) -> None:
    assert snap_compare(era_app("product-manifest"), terminal_size=(80, 24))


def test_registration_only_era_200x60(snap_compare) -> None:
    assert snap_compare(era_app("registration-only"), terminal_size=(200, 60))
