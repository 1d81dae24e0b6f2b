"""The activation view (AgentScope toolkits): compose reset_tools calls, step through a script,
and watch the stock and the guarded lane side by side, turn by turn.

Everything shown comes from ``core.agentscope.session.StepSession``: real ``call_tool``
runs on two lanes sharing one toolkit. The view owns the session; the lanes and the turn
list only draw plain data (``Turn`` / ``LaneState``), so another source of turns can
feed them. After every change the view posts ``StateChanged`` so the screen can show the
followed lane's state in the Pipeline view.

This module holds the layout, the composer's events and the focus keys; stepping the
session and drawing the lanes from it is ``stepping.ActivationStepping``, the
Markdown export ``export``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.widgets import Checkbox, Input, Static

from ....core.agentscope.aio import on_shared_loop
from ....core.model.subject import StepsActivation, Subject
from ..safe_input import safe_input
from .composer import GroupBar, GroupToggle
from .lanes import LanePane, LaneState
from .script_box import ScriptBox
from .stepping import ActivationStepping
from .turns import TurnList

__all__ = ["ActivationView", "GroupToggle", "activation_view_for"]

MIN_SIZE = (50, 12)
"""Below this terminal size (columns, rows) the view says it is too small."""
SHORT_HEIGHT = 16
"""Below this view height the lanes drop the call and description lines (they are in the
composer and the details)."""


def activation_view_for(
    subject: Subject,
    script: str | None = None,
    run_script: bool = False,
    config_dir: str | None = None,
    feed: Any = None,
) -> ActivationView | None:
    """An activation view for subjects that offer a step-through session (toolkits).

    ``feed`` (``tui.session_feed``) hands the view a recorded session or a running agent's turns.
    """
    if not isinstance(subject, StepsActivation):
        return None
    return ActivationView(
        subject, script=script, run_script=run_script, config_dir=config_dir, feed=feed, id="activation-view"
    )


class ActivationView(ActivationStepping, Vertical):
    """Composer (group toggles, raw JSON, script line), two lanes, the turn list."""

    HELP = (
        "Build a reset_tools call with the toggles (← → between groups) or type raw JSON (misspelled "
        "names and non-booleans are allowed), then fire it on both lanes. n / p step through the script, "
        "r restarts. The turn list (t) scrolls; the highlighted turn is shown in the lanes."
    )

    BINDINGS = [
        Binding("f", "fire", "Fire", id="activation-fire"),
        Binding("n", "next_step", "Next", id="activation-next"),
        Binding("p", "previous_step", "Back", show=False, id="activation-back"),
        Binding("r", "restart", "Restart", show=False, id="activation-restart"),
        Binding("l", "focus_script", "Script", id="activation-load"),
        Binding("i", "focus_raw", "Edit raw JSON", show=False, id="activation-edit-json"),
        Binding("t", "focus_turns", "Turn list", show=False, id="activation-turns"),
        Binding(
            "d", "toggle_details", "Details", tooltip="Long texts in full, or one line each", id="activation-details"
        ),
        Binding(
            "v", "switch_followed_lane", "Pipeline follows the other lane", show=False, id="activation-pipeline-lane"
        ),
    ]

    DEFAULT_CSS = """
    ActivationView { height: 1fr; }
    ActivationView #raw { border: none; height: 1; background: $boost; margin: 0 1; padding: 0; }
    ActivationView #raw:focus { background: $primary 30%; }
    ActivationView #lanes { height: 1fr; min-height: 4; }
    ActivationView #guarded-lane { margin-left: 1; }
    ActivationView TurnList { height: 30%; min-height: 3; max-height: 14; }
    /* Short terminals: the script line only while it is being edited or has an error
       (the turn list's title names the script). */
    ActivationView.-short ScriptBox { display: none; }
    ActivationView.-short ScriptBox.-editing, ActivationView.-short ScriptBox.-error { display: block; }
    ActivationView #too-small { display: none; height: 1fr; content-align: center middle; text-style: bold; }
    ActivationView.-too-small > * { display: none; }
    ActivationView.-too-small > #too-small { display: block; }
    """

    class StateChanged(Message):
        """The followed lane's active groups now (after a turn, an undo, a new script)."""

        def __init__(self, lane: str, groups: tuple[str, ...], turn: int) -> None:
            self.lane = lane
            self.groups = groups
            self.turn = turn
            """How many turns the lane's state reflects (0: the initial state)."""
            super().__init__()

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
        self.probe_summary: str | None = None
        self.initial: dict[str, LaneState] = {}
        """Each lane before any turn."""
        self.selected: int | None = None
        """Index of the turn shown in the lanes (None: no turn yet)."""
        self.details: bool | None = None
        """Long texts in full (True), one line each (False), or in full when that fits (None)."""
        self.followed_lane = "guarded"
        self._generated_raw = ""

    def compose(self) -> ComposeResult:
        yield GroupBar(self.session.known_groups(), set(self.subject.active_groups()), id="composer")
        yield safe_input(
            placeholder='raw reset_tools arguments, e.g. {"web_serch": true, "scraping": "yes"}  (Enter fires)',
            id="raw",
        )
        bases = [Path(".")] + ([self.config_dir] if self.config_dir else [])
        yield ScriptBox(bases, id="script")
        with Horizontal(id="lanes"):
            for lane in self.session.lanes:
                yield LanePane(lane, id=f"{lane}-lane")
        yield TurnList(id="turns")
        yield Static(id="too-small")

    async def on_mount(self) -> None:
        """Toggles and the initial call; probe the installed stock meta tool; the start script."""
        self._sync_raw_from_toggles()
        from ....core.agentscope.probe import arun_probe

        try:
            self.probe_summary = (await on_shared_loop(arun_probe())).summary()
        except Exception as exc:  # the probe is informative; the view still works
            self.probe_summary = f"probe failed: {type(exc).__name__}: {exc}"
        await self._measure_initial()
        if self.start_script:
            await self.load_script(self.start_script)
            if self.run_start_script:
                await self._run(on_shared_loop(self.session.arun_all()))
        if self.feed is not None:
            await self.feed.start(self)
        await self.refresh_lanes()

    def on_resize(self, event: Resize) -> None:
        """Tiny terminals get a sentence instead of bare borders; short ones compact lanes."""
        columns, rows = self.app.size
        too_small = columns < MIN_SIZE[0] or rows < MIN_SIZE[1]
        self.set_class(too_small, "-too-small")
        self.query_one("#too-small", Static).update(
            f"The activation view needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]} (this terminal is "
            f"{columns}x{rows}). Enlarge it, or press 1 for the Pipeline view."
        )
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")
        # After layout: whether the lanes are tall enough for the details depends on it.
        self.call_after_refresh(self.show_selected)
        self.query_one(GroupBar).update_markers()

    # -- composer -------------------------------------------------------------------------

    def focus_main(self) -> None:
        """Focus the first toggle (not a box: an Input swallows the view's letter keys)."""
        toggles = self.query_one(GroupBar).toggles
        (toggles[0] if toggles else self.query_one(TurnList)).focus()

    def _sync_raw_from_toggles(self) -> None:
        self._generated_raw = json.dumps(self.query_one(GroupBar).values())
        raw = self.query_one("#raw", Input)
        raw.value = self._generated_raw
        if not raw.has_focus:
            raw.cursor_position = 0  # show the start of the call, not its tail

    def _follow_guarded_lane(self) -> None:
        """After a turn the toggles show the guarded lane's active groups, so firing again
        keeps them (reset_tools sets the final state); hand-typed raw JSON is left alone."""
        raw = self.query_one("#raw", Input)
        hand_typed = raw.value != self._generated_raw
        self.query_one(GroupBar).set_values(set(self.session.active_groups("guarded")))
        if not hand_typed:
            self._sync_raw_from_toggles()

    @on(Checkbox.Changed)
    def _toggled(self) -> None:
        self._sync_raw_from_toggles()
        self.query_one(GroupBar).update_markers()

    @on(Input.Submitted, "#raw")
    async def _raw_submitted(self) -> None:
        self.focus_main()  # back to the view: n, p, f are keys again, not text
        await self.action_fire()

    @on(Input.Submitted, "#script-path")
    async def _script_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            self.query_one(ScriptBox).show_status(Text(), "no path given: type a file name, then Enter")
            self.focus_main()
            return
        self.focus_main()
        await self.load_script(path)

    @on(TurnList.Picked)
    def _turn_picked(self, event: TurnList.Picked) -> None:
        self.selected = event.index
        self.show_selected()

    # -- focus and display actions (the stepping ones: ActivationStepping) ------------------

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
        self.show_selected()

    def action_switch_followed_lane(self) -> None:
        """The Pipeline view follows the other lane's active groups."""
        self.followed_lane = "stock" if self.followed_lane == "guarded" else "guarded"
        self.notify(f"The Pipeline view now shows the {self.followed_lane} lane's state.", title="activation")
        self._post_state()

    def _post_state(self) -> None:
        lane = self.followed_lane
        self.post_message(self.StateChanged(lane, self.session.active_groups(lane), self.session.cursor))

    def export_markdown(self) -> str:
        """The turns and both lanes' current state, as Markdown."""
        from .export import activation_markdown

        lane_state = self.lane_state if self.initial else None
        return activation_markdown(self.session, self.script_name, self.probe_summary, lane_state)
