"""Shared helpers for the TUI tests (a plain module: ``conftest`` names clash across test folders)."""

from __future__ import annotations

from pathlib import Path

from toolscope.cli.inputs import open_subject
from toolscope.tui.app import ToolscopeApp
from toolscope.tui.options import TuiOptions

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "sample_configs" / "seed" / "step_config.json"
HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile" / "step_config.json"
SIZE = (120, 36)


def make_app(
    config: Path = SEED, mode: str | None = None, *, step: str | None = None, **options: object
) -> ToolscopeApp:
    """The app as ``inspect`` builds it, in deterministic mode (no versions, no directories).

    The config is opened as typed from the repository root, so the paths it shows (suggested
    commands name the config as the user typed it) do not depend on where the checkout lives.
    Exports write no PNG unless a test asks (``export_png=True``): Chromium is slow. ``step``
    picks one step of a workflow (``--step``).
    """
    import contextlib
    import os

    options.setdefault("export_png", False)

    with contextlib.chdir(REPO):
        subject = open_subject(os.path.relpath(config, REPO), step=step)
    return ToolscopeApp(subject, mode, TuiOptions(deterministic=True, **options))  # type: ignore[arg-type]


def static_text(widget) -> str:  # a Static
    """What a Static shows, as plain text (renders Rich renderables at 120 columns)."""
    import io

    from rich.console import Console

    console = Console(width=120, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.export_text()


async def focus_now(pilot, widget) -> None:
    """Focus ``widget`` and wait (bounded) until it has focus: ``focus()`` takes effect on a later
    turn of the event loop, and under load a key pressed at once went to the widget focused before."""
    widget.focus()
    for _ in range(100):
        await pilot.pause()
        if pilot.app.focused is widget:
            return
    raise AssertionError(f"{widget!r} never took focus")


async def ask_in_checklist(pilot, typed: str) -> None:
    """Open the Checklist view (2), type ``typed`` into its tool box and press Enter."""
    await pilot.press("2", *typed, "enter")
    await pilot.pause()
