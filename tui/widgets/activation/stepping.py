"""The activation view's stepping: fire, next, back, restart, load a script, and redraw the
lanes, the turn list and the script line from the session after every change.

``ActivationStepping`` is a mixin of ``ActivationView`` (which keeps the bindings, the layout
and the composer); it holds everything that reads or moves the ``StepSession``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input

from ....core.agentscope.aio import on_shared_loop
from ....core.model.errors import ToolscopeError
from ....core.text.safe_text import inert
from .composer import GroupBar
from .lanes import LanePane, LaneState
from .script_box import ScriptBox
from .turns import TurnList

if TYPE_CHECKING:
    from ....core.agentscope.session import StepSession
    from ....core.model.subject import StepsActivation

    _ViewBase = Vertical
else:
    # At run time a plain mixin: the view's own class chain stays Vertical's (CSS, messages).
    _ViewBase = object

__all__ = ["ActivationStepping"]


class ActivationStepping(_ViewBase):
    """Moves the session (actions, scripts) and draws both lanes and the turn list from it."""

    if TYPE_CHECKING:
        # Set by ActivationView.__init__; defined there.
        subject: StepsActivation
        session: StepSession
        config_dir: Path | None
        script_name: str | None
        probe_summary: str | None
        initial: dict[str, LaneState]
        selected: int | None
        details: bool | None
        followed_lane: str

        def _follow_guarded_lane(self) -> None: ...
        def _post_state(self) -> None: ...

    async def action_fire(self) -> None:
        """Send the raw text, exactly as typed, to reset_tools on both lanes."""
        raw = self.query_one("#raw", Input).value
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
        from ....core.agentscope.script import load_script, resolve_script_path

        box = self.query_one(ScriptBox)
        resolved = resolve_script_path(path, self.config_dir)
        try:
            steps = load_script(resolved)
            session = self.subject.session(steps)
        except ToolscopeError as exc:
            box.show_status(Text(), exc.render())
            self.notify(inert(exc.render()), title="script", severity="error", markup=False)
            return
        self.session.reset()
        self.session = session
        self.script_name = resolved.name
        box.error = None
        self.notify(f"Loaded {inert(self.script_name)}: {len(steps)} steps (n: next)", markup=False)
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

    async def _measure_initial(self) -> None:
        """Each lane's state before any turn (what the lanes show until the first one)."""
        for lane in self.session.lanes:
            names, tokens = await on_shared_loop(self.session.avisible(lane))
            self.initial[lane] = LaneState(lane, self.session.active_groups(lane), names, tokens)

    def lane_state(self, lane: str, index: int | None) -> LaneState:
        """What ``lane`` shows for turn ``index`` of the history (None: before any turn)."""
        history = self.session.history
        if index is None or not history:
            return self.initial[lane]
        turn = history[index]
        if turn.kind == "call":
            return LaneState.of_turn(turn.lanes[lane])
        # A registration changes no lane's groups: the lane stays as the turn before left it.
        before = self.lane_state(lane, index - 1) if index > 0 else self.initial[lane]
        return LaneState(lane, before.active, before.visible, before.tokens, event=turn.description)

    def show_selected(self) -> None:
        """Draw both lanes for the highlighted turn."""
        if not self.initial:
            return
        compact = self.has_class("-short")
        total = len(self.session.history)
        label = f"turn {self.selected + 1}/{total}" if self.selected is not None and total else "before any turn"
        for lane in self.session.lanes:
            description = self.probe_summary if lane == "stock" else self.session.guard_description
            state = self.lane_state(lane, self.selected)
            pane = self.query_one(f"#{lane}-lane", LanePane)
            pane.show(state, description, self.details, label, compact, self.session.meta_tool)

    async def refresh_lanes(self, newest: bool | None = None) -> None:
        """After the session changed: the turn list follows the newest turn, the lanes show it.

        ``newest`` None (a feed adding turns): follow unless the user is browsing older turns
        in the focused turn list, as a log viewer stops following when scrolled up.
        """
        history = self.session.history
        if self.session.cursor == 0:
            # At the start the lanes' state is the initial one; a feed or a script may have
            # brought a new session (a replay starts from the recorded groups).
            await self._measure_initial()
        turns = self.query_one(TurnList)
        browsing = (
            not newest and turns.has_focus and not turns.at_newest and self.selected is not None
        ) and self.selected < len(history)
        if not browsing:
            self.selected = len(history) - 1 if history else None
        turns.show_turns(history, self.selected)
        script = f" · script {inert(self.script_name, single_line=True)}" if self.script_name else ""
        step = f" {self.session.script_position}/{len(self.session.steps)}" if self.script_name else ""
        turns.border_title = Content(f"turns {len(history)}{script}{step}")  # Content: never markup
        self.show_selected()
        self._show_script_status()
        await self.query_one(GroupBar).show_groups(
            self.session.known_groups(), set(self.session.active_groups("guarded"))
        )
        self._follow_guarded_lane()
        self._post_state()

    def _show_script_status(self) -> None:
        box = self.query_one(ScriptBox)
        if box.error is not None:
            box.show_status(Text(), box.error)
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        if not self.script_name:
            text.append("no script", style="dim")
            text.append(" · l loads one (a JSON/YAML list of reset_tools calls)", style="dim")
        else:
            text.append("script ", style="dim")
            text.append(inert(self.script_name, single_line=True), style="bold")
            text.append(f" · step {self.session.script_position}/{len(self.session.steps)}")
            upcoming = self.session.next_step()
            text.append(" · next (n): " if upcoming else " · at the end", style="dim")
            if upcoming:
                text.append(inert(upcoming, single_line=True))
        box.show_status(text)
