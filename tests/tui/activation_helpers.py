"""Shared set-ups for the activation view's Pilot tests: the view opened on a sample toolkit,
and the seed's typo script run to its end (three turns, the last refused by both lanes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.widgets import Checkbox
from tui_helpers import REPO, make_app

from toolscope.tui.widgets.activation.view import ActivationView

SCRIPTS = REPO / "sample_configs" / "agentscope"
TOOLKIT = SCRIPTS / "toolkit.yaml"
LARGE = SCRIPTS / "large_toolkit.yaml"
TYPO = str(SCRIPTS / "typo.json")


def view_of(app) -> ActivationView:
    """The activation view of the app's screen."""
    return app.screen.query_one(ActivationView)


@asynccontextmanager
async def activation(
    size: tuple[int, int], config: Path = TOOLKIT, **options: object
) -> AsyncIterator[tuple[object, ActivationView]]:
    """The app opened on the activation view of ``config`` at ``size``, after its first paint:
    (the pilot, the view)."""
    app = make_app(config, view="activation", **options)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield pilot, view_of(app)


async def run_typo_script(
    pilot, script: str = TYPO, *, focus_first_toggle: bool = False, clear_toasts: bool = False
) -> None:
    """Load ``script`` (the seed's typo.json unless said) and step through its three turns; the
    first toggle focused first, the toasts cleared after (the "Loaded" one covers the lanes)."""
    await view_of(pilot.app).load_script(script)
    if focus_first_toggle:
        pilot.app.screen.query_one(Checkbox).focus()
    await pilot.press("n", "n", "n")
    if clear_toasts:
        pilot.app.clear_notifications()
    await pilot.pause()


@asynccontextmanager
async def after_typo_script(
    size: tuple[int, int], script: str = TYPO, **options: object
) -> AsyncIterator[tuple[object, ActivationView]]:
    """``activation`` after ``run_typo_script``: the lanes show the third turn."""
    async with activation(size, **options) as (pilot, view):
        await run_typo_script(pilot, script)
        yield pilot, view
