"""The activation view (AgentScope toolkits): compose reset_tools calls, step through a script,
and watch the stock and the guarded lane side by side, turn by turn.

Everything shown comes from ``core.systems.agentscope.session.StepSession``: real ``call_tool``
runs on two lanes sharing one toolkit. The view owns the session; the lanes and the turn
list only draw plain data (``Turn`` / ``LaneState``), so another source of turns can
feed them. After every change the view posts ``StateChanged`` so the screen can show the
followed lane's state in the Pipeline view.

The view's state (the highlighted turn, details, the followed lane) is in ``var``s; what a
lane shows at a turn comes from ``core.systems.agentscope.lane_history``. AgentScope calls are
awaited on the shared loop (``on_shared_loop``), never run on the app's own, and a session
file is read in a worker thread; the Markdown export is ``export``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Resize
from textual.reactive import var
from textual.widgets import Input

from ....core.model.errors import ToolscopeError
from ....core.systems.agentscope.aio import on_shared_loop
from ....core.systems.agentscope.capability import StepsActivation
from ....core.systems.agentscope.lane_history import RECORDED, LaneState
from ....core.text.safe_text import inert
from .call_composer import CallComposer
from .composer import GroupBar, GroupToggle, RawCall
from .keys import ACTIVATION_BINDINGS, ACTIVATION_HELP
from .lane_board import LaneBoard
from .lanes import LanePane
from .messages import AgentGroupsChanged, StateChanged
from .replay_banner import ReplayBanner
from .script_box import ScriptBox
from .too_small import TooSmallNotice
from .turns import TurnList

__all__ = ["ActivationView", "GroupToggle"]

SHORT_HEIGHT = 16
"""Below this view height the lanes drop the call and description lines (they are in the
composer and the details)."""


class ActivationView(Vertical):
    """Composer (group toggles, raw JSON, script line), two lanes, the turn list."""

    HELP = ACTIVATION_HELP

    BINDINGS = ACTIVATION_BINDINGS

    DEFAULT_CSS = """
    ActivationView { height: 1fr; }
    ActivationView #lanes { height: 1fr; min-height: 4; }
    ActivationView #guarded-lane { margin-left: 1; }
    ActivationView TurnList { height: 30%; min-height: 3; max-height: 14; }
    /* Short terminals: the script line only while it is being edited or has an error
       (the turn list's title names the script). */
    ActivationView.-short ScriptBox { display: none; }
    ActivationView.-short ScriptBox.-editing, ActivationView.-short ScriptBox.-error { display: block; }
    ActivationView.-too-small > * { display: none; }
    ActivationView.-too-small > #too-small { display: block; }
    """

    StateChanged = StateChanged
    AgentGroupsChanged = AgentGroupsChanged

    selected: var[int | None] = var(None, init=False)
    """Index of the turn shown in the lanes (None: no turn yet)."""
    details: var[bool | None] = var(None, init=False)
    """Long texts in full (True), one line each (False), or in full when that fits (None)."""
    followed_lane: var[str] = var("guarded", init=False)
    """The lane whose state the Pipeline view follows."""

    def __init__(
        self,
        subject: StepsActivation,
        *,
        script: str | None = None,
        run_script: bool = False,
        config_dir: str | None = None,
        feed: Any = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.subject = subject
        self.feed = feed
        self.start_script = script
        self.run_start_script = run_script
        self.config_dir = Path(config_dir) if config_dir else None
        self.session = subject.session(())
        self.script_name: str | None = None
        self.loaded = asyncio.Event()
        """Set once the view has started and its feed (a recorded session) has been read and replayed."""
        self.runs_left_out = 0
        """Following a tap several agents write: how many other runs the turn list leaves out."""
        self.probe_summary: str | None = None
        self.replay: Any = None
        """A recorded session's ``SessionReplay`` (``--session``): its recording is the first lane."""
        self.lanes: tuple[str, ...] = (RECORDED,) * bool(getattr(feed, "replays_recording", False)) + tuple(
            self.session.lanes
        )
        """The lanes shown, left to right: the recording first when there is one, then the what-ifs."""

    def compose(self) -> ComposeResult:
        bases = [Path(".")] + ([self.config_dir] if self.config_dir else [])
        yield CallComposer(self.session.known_groups(), set(self.subject.active_groups()), bases)
        yield ReplayBanner(id="replay-banner")
        yield LaneBoard(self.lanes, id="lanes")
        yield TurnList(id="turns")
        yield TooSmallNotice(id="too-small")

    async def on_mount(self) -> None:
        """Toggles and the initial call; probe the installed stock meta tool; the start script."""
        self.query_one(CallComposer).write_raw_call()
        from ....core.systems.agentscope.probe import arun_probe

        try:
            self.probe_summary = (await on_shared_loop(arun_probe())).summary()
        except Exception as exc:  # the probe is informative; the view still works
            self.probe_summary = f"probe failed: {type(exc).__name__}: {exc}"
        await self.query_one(LaneBoard).measure_initial(self.session)
        if self.start_script:
            await self.load_script(self.start_script)
            if self.run_start_script:
                await self._run(on_shared_loop(self.session.arun_all()))
        await self.refresh_lanes()
        if self.feed is not None:
            # A worker, not awaited here: a long session replays while the view is painted and
            # shows its progress, and quitting cancels it between two turns.
            self.run_worker(self._start_feed(), exclusive=True, group="feed")
        else:
            self.loaded.set()

    async def _start_feed(self) -> None:
        try:
            await self.feed.start(self)
        finally:
            self.loaded.set()

    def on_resize(self, event: Resize) -> None:
        """Tiny terminals get a sentence instead of bare borders; short ones compact lanes."""
        self.set_class(not self.query_one(TooSmallNotice).fits(*self.app.size), "-too-small")
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")
        # After layout: whether the lanes are tall enough for the details depends on it.
        self.call_after_refresh(self.show_selected)
        self.query_one(GroupBar).update_markers()

    # -- composer -------------------------------------------------------------------------

    def focus_main(self) -> None:
        """Focus the first toggle (not a box: an Input swallows the view's letter keys)."""
        toggles = self.query_one(CallComposer).toggles
        toggles[0].take_focus() if toggles else self.query_one(TurnList).focus()

    @on(Input.Submitted, "#raw")
    async def _raw_submitted(self) -> None:
        self.focus_main()  # back to the view: n, p, f are keys again, not text
        await self.action_fire()

    @on(Input.Submitted, "#script-path")
    async def _script_submitted(self, event: Input.Submitted) -> None:
        self.focus_main()  # the script box has said what an empty path means
        if event.value.strip():
            await self.load_script(event.value.strip())

    @on(TurnList.Picked)
    def _turn_picked(self, event: TurnList.Picked) -> None:
        self.selected = event.index

    def watch_selected(self) -> None:
        """Another turn highlighted: the lanes show it."""
        self.show_selected()

    def watch_details(self) -> None:
        """Details on or off: redraw the lanes."""
        self.show_selected()

    def watch_followed_lane(self, lane: str) -> None:
        """The Pipeline view follows the other lane: say so, and tell the screen."""
        self.notify(f"The Pipeline view now shows the {lane} lane's state.", title="activation")
        self._post_state()

    # -- focus and display actions ---------------------------------------------------------

    def action_focus_script(self) -> None:
        """Open the script path box (with completion)."""
        self.query_one(ScriptBox).open()

    def action_focus_raw(self) -> None:
        """Focus the raw JSON box (Enter fires, Escape leaves)."""
        self.query_one("#raw", Input).focus()

    def action_focus_turns(self) -> None:
        """Focus the turn list (↑ ↓ Home End pick the turn shown in the lanes)."""
        self.query_one(TurnList).focus()

    def action_toggle_details(self) -> None:
        """Show the probe/guard descriptions and long texts in full, or one line each."""
        self.details = not self.query_one("#stock-lane", LanePane).full

    def action_switch_followed_lane(self) -> None:
        """The Pipeline view follows the other lane's active groups."""
        self.followed_lane = "stock" if self.followed_lane == "guarded" else "guarded"

    def _post_state(self) -> None:
        lane = self.followed_lane
        self.post_message(self.StateChanged(lane, self.session.active_groups(lane), self.session.cursor))

    def export_markdown(self) -> str:
        """The turns and both lanes' current state, as Markdown."""
        from .export import activation_markdown

        lane_state = self.lane_state if self.query_one(LaneBoard).initial else None
        return activation_markdown(self.session, self.script_name, self.probe_summary, lane_state)

    # -- stepping the session -------------------------------------------------------------

    async def action_fire(self) -> None:
        """Send the raw text, exactly as typed, to reset_tools on both lanes."""
        raw = self.query_one(RawCall).value
        await self._run(on_shared_loop(self.session.acall(raw)))

    async def action_next_step(self) -> None:
        """Redo the next turn or run the next script step."""
        await self._run(on_shared_loop(self.session.aforward()), at_end="End of the script.")

    async def action_previous_step(self) -> None:
        """Undo the last turn: both lanes go back to their state before it."""
        if self.session.back() is None:
            self.notify("Already at the start.", severity="warning")
        await self.refresh_lanes(newest=True)

    async def action_restart(self) -> None:
        """Back to the initial state (recorded turns stay available with n)."""
        self.session.reset()
        await self.refresh_lanes(newest=True)

    async def load_script(self, path: str) -> None:
        """Load a script (from the current folder, else the config's) and start a fresh session over it.

        A failure is shown in the script line (and a toast); the current session stays.
        """
        loaded = self.query_one(ScriptBox).read_script(path, self.config_dir, self.subject.session)
        if loaded is None:
            return
        self.session.reset()
        self.script_name, self.session = loaded
        await self.refresh_lanes(newest=True)

    async def _run(self, coroutine: Any, at_end: str | None = None) -> None:
        try:
            turn = await coroutine  # a Turn, None at the end, or the history (run_all)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="reset_tools", severity="error", markup=False)
            return
        if turn is None and at_end:
            self.notify(at_end, severity="warning")
        await self.refresh_lanes(newest=True)

    # -- display --------------------------------------------------------------------------

    def lane_state(self, lane: str, index: int | None) -> LaneState:
        """What ``lane`` shows for turn ``index`` of the history (None: before any turn)."""
        return self.query_one(LaneBoard).lane_state(self.session, self.replay, lane, index)

    def show_selected(self) -> None:
        """Draw the lanes for the highlighted turn."""
        board = self.query_one(LaneBoard)
        board.show(self.session, self.replay, self.selected, self.probe_summary, self.details, self.has_class("-short"))

    async def refresh_lanes(self, newest: bool | None = None) -> None:
        """After the session changed: the turn list follows the newest turn, the lanes show it.

        ``newest`` None (a feed adding turns): follow unless the user is browsing older turns
        in the focused turn list, as a log viewer stops following when scrolled up.
        """
        history = self.session.history
        if self.session.cursor == 0:
            # At the start the lanes' state is the initial one; a feed or a script may have
            # brought a new session (a replay starts from the recorded groups).
            await self.query_one(LaneBoard).measure_initial(self.session)
        turns = self.query_one(TurnList)
        self.selected = turns.highlight_after_change(len(history), self.selected, newest)
        turns.show_session(self.session, self.selected, self.replay, self.script_name, self.runs_left_out)
        self.show_selected()
        self.query_one(ScriptBox).show_session(self.session, self.script_name, self.replay)
        # The toggles follow the guarded lane: firing again keeps its groups.
        await self.query_one(CallComposer).follow_lane(
            self.session.known_groups(), set(self.session.active_groups("guarded"))
        )
        self._post_state()

    def show_replay_progress(self, done: int, total: int) -> None:
        """A recorded session is being replayed: how far, in the turn list's title."""
        self.query_one(TurnList).show_replay_progress(self.script_name, done, total)

    def show_replay(self, replay: Any) -> None:
        """A recorded session was replayed: its answer stays above the lanes (not in a toast)."""
        self.replay = replay
        self.query_one(ReplayBanner).show_replay(replay)
