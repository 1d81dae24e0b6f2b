"""Feeds for the activation view: a recorded session (``--session``) or a running agent (``--follow``).

Both hand the view a ``StepSession`` whose turns are the agent's reset_tools calls; the
view's turn list and lanes show them like script turns. The follow feed polls the tap
four times a second (a new call shows within ~0.3 s), tells the user when a call failed
because its group had been turned off, and makes the pipeline follow the agent's real
active groups (``ActivationView.AgentGroupsChanged``, up to the screen).

Public API::

    feed_for(options) -> SessionFeed | FollowFeed | None
    feed.start(view)   (awaited by the view once mounted)
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.worker import WorkerFailed

from ..core.model.errors import ToolscopeError
from ..core.systems.agentscope.aio import on_shared_loop
from ..core.text.safe_text import inert

if TYPE_CHECKING:
    from .options import TuiOptions

POLL_SECONDS = 0.25
PROGRESS_SECONDS = 0.2
"""How often a long replay's progress is redrawn."""


class SessionFeed:
    """A recorded session replayed into the view; n / p step through its reset_tools calls."""

    replays_recording = True
    """The view shows the recording as its first lane."""

    def __init__(self, path: str, session_id: str | None = None, run_all: bool = False) -> None:
        """Replay ``path`` (``session_id`` for app storage) when the view starts."""
        self.path = path
        self.session_id = session_id
        self.run_all = run_all
        self.replay: Any = None
        self.progress = (0, 0)
        """(turns replayed, turns) while the replay runs; written on the shared loop's thread."""

    def _progressed(self, done: int, total: int) -> None:
        self.progress = (done, total)

    async def start(self, view: Any) -> None:
        """Replay the session on both lanes, hand it to the view, say the headline."""
        from ..core.systems.agentscope.session_replay import areplay_session, starting_point
        from ..core.systems.agentscope.session_source import load_session

        # Reading app storage runs AgentScope's own storage API: a thread, not the app's loop.
        reading = view.run_worker(
            partial(load_session, self.path, session_id=self.session_id),
            thread=True,
            exclusive=True,
            exit_on_error=False,
            group="session",
        )
        try:
            recorded = await reading.wait()
        except WorkerFailed as failed:
            if not isinstance(failed.error, ToolscopeError):
                raise failed.error from None
            view.notify(inert(failed.error.render()), title="session", severity="error", markup=False)
            return
        built, starting_from = starting_point(view.subject.built, recorded, groups_given=False)
        view.script_name = Path(self.path).name
        self.progress = (0, len(recorded.resets))
        view.show_replay_progress(*self.progress)
        shown = view.set_interval(PROGRESS_SECONDS, lambda: view.show_replay_progress(*self.progress))
        try:
            self.replay = await on_shared_loop(
                areplay_session(built, recorded, starting_from, progress=self._progressed)
            )
        finally:
            shown.stop()
        if not self.run_all:
            self.replay.session.reset()  # start at the beginning; n redoes each recorded turn
        view.session = self.replay.session
        view.script_name = Path(self.path).name
        # The answer (lost tools, divergence) stays above the lanes: a toast would time out.
        view.show_replay(self.replay)
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
        from ..core.systems.agentscope.follow import LiveFollow

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
            view = self.view
            left_out = len(self.live.follower.other_runs)
            if left_out != view.runs_left_out:
                self._say_runs_left_out(left_out)
                if not events and view.session is not None:
                    await view.refresh_lanes()
            if not events:
                return
            view.session = self.live.session
            for event in events:
                if event.lost:
                    view.notify(inert(event.lost), title="lost tool", severity="error", markup=False, timeout=30)
            await view.refresh_lanes()
            if self.live.real_groups is not None:
                view.post_message(view.AgentGroupsChanged(tuple(self.live.real_groups)))
        finally:
            self._polling = False

    def _say_runs_left_out(self, count: int) -> None:
        """Other agents write to this tap too: the view follows the first run; say how to see the rest."""
        view = self.view
        before, view.runs_left_out = view.runs_left_out, count
        if before or not count:
            return
        ids = ", ".join(list(self.live.follower.other_runs)[:5])
        view.notify(
            inert(
                f"another agent writes to this tap too: following the first run only. Replay another run with "
                f"toolscope inspect TOOLKIT --session {self.path} --session-id RUN (runs: {ids})"
            ),
            title="several runs",
            severity="warning",
            markup=False,
            timeout=30,
        )


def feed_for(options: TuiOptions) -> SessionFeed | FollowFeed | None:
    """The feed the options ask for (``session`` or ``follow``), or None."""
    if options.follow:
        return FollowFeed(options.follow)
    if options.session:
        return SessionFeed(options.session, options.session_id, run_all=options.run_script)
    return None
