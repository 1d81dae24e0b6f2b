"""Feeds for the activation view: a recorded session (``--session``) or a running agent (``--follow``).

Both hand the view a ``StepSession`` whose turns are the agent's reset_tools calls; the
view's turn list and lanes show them like script turns. The follow feed polls the tap
four times a second (a new call shows within ~0.3 s), tells the user when a call failed
because its group had been turned off, and makes the pipeline follow the agent's real
active groups (``MainScreen.follow_groups``).

Public API::

    feed_for(options) -> SessionFeed | FollowFeed | None
    feed.start(view)   (awaited by the view once mounted)
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.agentscope.aio import on_shared_loop
from ..core.model.errors import ToolscopeError
from ..core.text.safe_text import inert

if TYPE_CHECKING:
    from .options import TuiOptions

POLL_SECONDS = 0.25


class SessionFeed:
    """A recorded session replayed into the view; n / p step through its reset_tools calls."""

    def __init__(self, path: str, session_id: str | None = None, run_all: bool = False) -> None:
        """Replay ``path`` (``session_id`` for app storage) when the view starts."""
        self.path = path
        self.session_id = session_id
        self.run_all = run_all
        self.replay: Any = None

    async def start(self, view: Any) -> None:
        """Replay the session on both lanes, hand it to the view, say the headline."""
        from ..core.agentscope.session_replay import areplay_session, starting_point
        from ..core.agentscope.session_source import load_session

        try:
            # In a thread: reading a big session takes seconds, and the screen must keep
            # drawing and answer q meanwhile (it froze, and quit 14–55 s late).
            recorded = await asyncio.to_thread(load_session, self.path, self.session_id)
        except ToolscopeError as exc:
            view.notify(inert(exc.render()), title="session", severity="error", markup=False)
            return
        built, starting_from = starting_point(view.subject.built, recorded, groups_given=False)
        self.replay = await on_shared_loop(areplay_session(built, recorded, starting_from))
        if not self.run_all:
            self.replay.session.reset()  # start at the beginning; n redoes each recorded turn
        view.session = self.replay.session
        view.script_name = Path(self.path).name
        if self.replay.diverged:
            turns = ", ".join(str(t.call.model_turn) for t in self.replay.diverged)
            view.notify(
                f"The stock replay differs from the recording at turn {turns}: the session was recorded on "
                "another AgentScope version, or the toolkit changed.",
                title="≠ recording",
                severity="warning",
                timeout=30,
            )
        headline = self.replay.headline()
        if headline:
            view.notify(inert("\n".join(headline)), title="lost tools", severity="error", markup=False, timeout=30)
        else:
            view.notify(
                f"{inert(view.script_name)}: {len(self.replay.turns)} reset_tools calls (n: next)", markup=False
            )
        await view.refresh_lanes()


class FollowFeed:
    """A running agent's tap, polled: each new call becomes a turn within a second."""

    def __init__(self, path: str) -> None:
        """Follow the tap file at ``path`` (it may not exist yet)."""
        self.path = path
        self.live: Any = None
        self.view: Any = None
        self._polling = False

    async def start(self, view: Any) -> None:
        """Start polling; the view shows the agent's turns as they come."""
        from ..core.agentscope.follow import LiveFollow

        self.view = view
        self.live = LiveFollow(view.subject.built, self.path)
        view.script_name = f"following {Path(self.path).name}"
        await self.poll()
        view.set_interval(POLL_SECONDS, self.poll)

    async def poll(self) -> None:
        """Read new tap records; redraw when there are any."""
        if self._polling:  # a slow poll must not overlap the next one
            return
        self._polling = True
        try:
            events = await on_shared_loop(self.live.apoll())
            if not events:
                return
            view = self.view
            view.session = self.live.session
            for event in events:
                if event.lost:
                    view.notify(inert(event.lost), title="lost tool", severity="error", markup=False, timeout=30)
            await view.refresh_lanes()
            if self.live.real_groups is not None:
                view.app.main.follow_groups(self.live.real_groups)
        finally:
            self._polling = False


def feed_for(options: TuiOptions) -> SessionFeed | FollowFeed | None:
    """The feed the options ask for (``session`` or ``follow``), or None."""
    if options.follow:
        return FollowFeed(options.follow)
    if options.session:
        return SessionFeed(options.session, options.session_id, run_all=options.run_script)
    return None
