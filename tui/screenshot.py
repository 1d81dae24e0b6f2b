"""Render a view headless to SVG: ``inspect --screenshot``, ``report --format svg``, README images."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from ..core.model.subject import Subject
from .options import TuiOptions
from .views import DEFAULT_VIEW, View

T = TypeVar("T")
P = ParamSpec("P")


async def render_svg(
    subject: Subject,
    mode: str | None,
    size: tuple[int, int],
    view: str = DEFAULT_VIEW,
    *,
    tool: str | None = None,
    deterministic: bool = True,
    script: str | None = None,
    session: str | None = None,
    session_id: str | None = None,
) -> str:
    """The SVG of ``view`` after the first paint, at ``size`` (columns, rows).

    ``deterministic`` leaves versions and directories off the picture (default: on, since
    these images end up in reports, READMEs and CI artefacts). ``script`` (toolkits) is
    loaded into the activation view and run to its end before the picture is taken (so is a
    recorded ``session``); with
    ``tool`` the checklist view shows every question and the fix.
    """
    from .app import ToolscopeApp

    app = ToolscopeApp(
        subject,
        mode,
        TuiOptions(
            view=view,
            tool=tool,
            deterministic=deterministic,
            script=script,
            session=session,
            session_id=session_id,
            run_script=True,
        ),
    )
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if view == View.CHECKLIST and tool:
            await pilot.press("a")  # the whole walkthrough, down to the fix
        await app.workers.wait_for_complete()
        await _session_replayed(app)
        await pilot.pause()
        return app.export_screenshot(title="toolscope")


FEED_WAIT_SECONDS = 600
"""The most a screenshot waits for a recorded session to be replayed (100k turns take minutes)."""


async def _session_replayed(app: Any) -> None:
    """Wait for a recorded session's replay (the activation view runs it in a worker)."""
    from .widgets.activation.view import ActivationView

    for view in app.screen.query(ActivationView):
        if view.feed is not None:
            await asyncio.wait_for(view.loaded.wait(), FEED_WAIT_SECONDS)


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` from synchronous code, also when an event loop is already running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    # Inside a running loop (e.g. an async test): run on a fresh loop in another thread.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def blocking(function: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    """``function`` (a coroutine function) for synchronous callers: same arguments, its result."""

    def call(*args: P.args, **kwargs: P.kwargs) -> T:
        return run_to_end(function(*args, **kwargs))

    return call


render_svg_sync = blocking(render_svg)
"""``render_svg`` from synchronous code (also when an event loop is already running)."""


SIZE_RANGE = "from 20x8 to 400x200"
"""The headless terminal sizes ``inspect --screenshot`` and ``report --format svg/png`` accept."""


def parse_size(text: str) -> tuple[int, int]:
    """``120x36`` → (120, 36); raises ValueError with a readable message.

    One parser for every command that renders the app headless, so ``--size`` means the same
    everywhere; the upper bound keeps a typo (``12000x36``) from rendering for minutes.
    """
    width, sep, height = text.strip().lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"expected COLUMNSxROWS like 120x36 ({SIZE_RANGE}), got {text!r}")
    columns, rows = int(width), int(height)
    if not (20 <= columns <= 400 and 8 <= rows <= 200):
        raise ValueError(f"{text.strip()!r} is out of range: COLUMNSxROWS {SIZE_RANGE}")
    return columns, rows
